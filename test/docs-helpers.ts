/** Shared helpers of the docs tests: the real CLI as a child process, a sandbox, a temp dir. */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestContext } from 'node:test';
import { startSandbox, type Sandbox, type SandboxOptions } from '../src/sandbox/index.js';
import { cliCommand } from './helpers/cli.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A fresh 0700 directory removed after the test; holds the state file and downloads. */
export function tempDir(t: TestContext): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vas-docs-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export async function sandbox(t: TestContext, options: SandboxOptions = {}): Promise<Sandbox> {
  const s = await startSandbox(options);
  t.after(() => s.close());
  return s;
}

/** The environment of a CLI child: no VAS_* from the outside, the sandbox token, this state. */
export function cliEnv(state: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('VAS_')) env[key] = value;
  return { ...env, VAS_TOKEN: 'sandbox-token', VAS_STATE: state, ...extra };
}

export function spawnCli(args: readonly string[], env: NodeJS.ProcessEnv): ChildProcess {
  const [node, ...rest] = cliCommand();
  return spawn(node!, [...rest, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Runs the CLI to its end; one that has not ended after `timeoutMs` is killed (its code is then null). */
export function runCli(args: readonly string[], env: NodeJS.ProcessEnv, timeoutMs = 120_000): Promise<CliResult> {
  const child = spawnCli(args, env);
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A running `docs listen`, with what it printed and a way to wait for a line. */
export interface RunningListener {
  baseUrl: string;
  successUrl: string;
  failureUrl: string;
  stdout(): string;
  stderr(): string;
  /** Resolves with the first stdout line matching, waiting for it if needed. */
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

export async function startListener(t: TestContext, args: readonly string[], env: NodeJS.ProcessEnv): Promise<RunningListener> {
  const child = spawnCli(['docs', 'listen', '--port', '0', ...args], env);
  let out = '';
  let err = '';
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const w of [...waiters]) w();
  };
  child.stdout!.setEncoding('utf8').on('data', (d: string) => {
    out += d;
    wake();
  });
  child.stderr!.setEncoding('utf8').on('data', (d: string) => {
    err += d;
    wake();
  });
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => {
    wake();
    resolve(code);
  }));
  let done = false;
  child.once('close', () => (done = true));
  const stop = async () => {
    if (!done) child.kill('SIGTERM');
    return exited;
  };
  t.after(stop);

  const waitForLine = (pattern: RegExp, timeoutMs = 20_000): Promise<string> =>
    new Promise((resolve, reject) => {
      const check = () => {
        const line = out.split('\n').find((l) => pattern.test(l));
        if (line !== undefined) {
          finish();
          resolve(line);
        } else if (done) {
          finish();
          reject(new Error(`listener exited before printing ${pattern}\nstdout:\n${out}\nstderr:\n${err}`));
        }
      };
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`no line ${pattern} within ${timeoutMs} ms\nstdout:\n${out}\nstderr:\n${err}`));
      }, timeoutMs);
      const finish = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });

  const listening = await waitForLine(/^listening on /);
  const success = await waitForLine(/^success webhook: /);
  const failure = await waitForLine(/^failure webhook: /);
  return {
    baseUrl: listening.slice('listening on '.length).trim(),
    successUrl: success.slice('success webhook: '.length).trim(),
    failureUrl: failure.slice('failure webhook: '.length).trim(),
    stdout: () => out,
    stderr: () => err,
    waitForLine,
    stop,
  };
}

/** Approves or denies through the consent page over HTTP, as the page's own form would. */
export async function answerConsent(consentUrl: string, action: 'approve' | 'deny'): Promise<{ status: number; html: string }> {
  const page = await fetch(consentUrl);
  const html = await page.text();
  const form = new RegExp(`<form method="post" action="([^"]*/${action})"`).exec(html);
  if (form?.[1] === undefined) throw new Error(`no ${action} form on the consent page:\n${html}`);
  const res = await fetch(new URL(form[1], consentUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: '',
  });
  return { status: res.status, html: await res.text() };
}

export function modeOf(file: string): number {
  return fs.statSync(file).mode & 0o777;
}

export function parseJsonLine<T>(text: string): T {
  return JSON.parse(text) as T;
}
