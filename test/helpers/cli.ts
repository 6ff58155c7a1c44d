/** Spawning the real CLI in a temp directory, and reading what it wrote. */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestContext } from 'node:test';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { shellQuote } from '../../src/shell-quote.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/**
 * The built CLI (what users run), not src/cli/bin.ts under tsx: tsx's loader cost every spawn
 * about 0.6 s more CPU (1.65 against 1.07 s for a 2-row run), and the suite spawns the CLI hundreds
 * of times. `npm test` builds first (pretest); a dist/ older than src/ stops the tests at their
 * first spawn, saying so, rather than testing yesterday's code.
 */
const BIN = path.join(ROOT, 'dist', 'cli', 'bin.js');

let builtChecked = false;
/** Throws when dist/ is missing or older than a source the build reads (the .ts files of src/ and its data folders): run `npm run build`. */
function checkBuilt(): void {
  if (builtChecked) return;
  const built = fs.existsSync(BIN) ? fs.statSync(BIN).mtimeMs : 0;
  const builtFrom = (file: string) => file.endsWith('.ts') || file.split(path.sep).includes('data');
  const newer = (dir: string): string | undefined => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      // An editor's swap file, a README or a dangling link is nothing the build reads.
      const found = entry.isDirectory() ? newer(file) : entry.isFile() && builtFrom(file) && fs.statSync(file).mtimeMs > built ? file : undefined;
      if (found) return found;
    }
    return undefined;
  };
  const stale = newer(path.join(ROOT, 'src'));
  if (stale) throw new Error(`dist/ is ${built === 0 ? 'not built' : `older than ${path.relative(ROOT, stale)}`}: run npm run build (npm test builds first)`);
  builtChecked = true;
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface Spawned {
  child: ChildProcess;
  result: Promise<CliResult>;
  stdout(): string;
  stderr(): string;
}

/** A fresh temp directory removed after the test. */
export function tempDir(t: TestContext, prefix = 'vas-test-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export interface CliOptions {
  cwd: string;
  env?: Record<string, string | undefined>;
  /** Options for the child's node itself (V8 flags), before the CLI's own arguments. */
  nodeArgs?: readonly string[];
  /** A command that runs node (e.g. setpriv dropping root's permission override), with its arguments. */
  wrapper?: readonly string[];
}

/** The command that runs the built CLI: node, its own options, dist/cli/bin.js (checked built). */
export function cliCommand(nodeArgs: readonly string[] = []): string[] {
  checkBuilt();
  return [process.execPath, ...nodeArgs, BIN];
}

/** A folder with `vas-verify` in it that runs this checkout's built CLI, for a shell to find on PATH (a pasted command). */
export function cliOnPath(t: TestContext): string {
  const bin = tempDir(t, 'vas-bin-');
  fs.writeFileSync(path.join(bin, 'vas-verify'), `#!/bin/sh\nexec ${cliCommand().map(shellQuote).join(' ')} "$@"\n`, { mode: 0o755 });
  return bin;
}

export function spawnCli(args: readonly string[], options: CliOptions): Spawned {
  const env: Record<string, string | undefined> = { ...process.env, VAS_TOKEN: 'sandbox-token', ...options.env };
  for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
  const command = [...(options.wrapper ?? []), ...cliCommand(options.nodeArgs), ...args];
  const child = spawn(command[0]!, command.slice(1), {
    cwd: options.cwd,
    env: env as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const result = new Promise<CliResult>((resolve) => {
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, result, stdout: () => stdout, stderr: () => stderr };
}

export function runCli(args: readonly string[], options: CliOptions): Promise<CliResult> {
  return spawnCli(args, options).result;
}

export function readCsv(file: string): string[][] {
  return parse(fs.readFileSync(file), { bom: true, relax_column_count: true }) as string[][];
}

/** Rows as objects keyed by header. */
export function readCsvObjects(file: string): Array<Record<string, string>> {
  return parse(fs.readFileSync(file), { bom: true, columns: true }) as Array<Record<string, string>>;
}

export const sum = (record: Record<string, number> | undefined) => Object.values(record ?? {}).reduce((a, b) => a + b, 0);

/** Polls until `check` is true or the time runs out (bounded waits for state in another process). */
export async function waitFor(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * The enriched CSV with some decision cells changed and a review_note column added, as a person
 * leaves it: `edits` by the first cell (the payee name), each a decision word and a note.
 */
export function editCsv(file: string, out: string, edits: Record<string, [string, string]>): void {
  const rows = parse(fs.readFileSync(file)) as string[][];
  const header = rows[0]!;
  const decision = header.indexOf('decision');
  header.push('review_note');
  for (const row of rows.slice(1)) {
    const edit = edits[row[0]!];
    if (edit) row[decision] = edit[0];
    row.push(edit?.[1] ?? '');
  }
  fs.writeFileSync(out, stringify(rows));
}
