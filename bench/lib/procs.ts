/**
 * Child processes of the benchmark: the sandbox, the CLI under test (through /usr/bin/time for
 * its peak RSS) and the bare client loop. Every child gets its own process group and is
 * registered, so that `killAll()` — called on success, failure and signals — leaves nothing
 * behind.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CLI = process.env.BENCH_CLI ?? path.join(ROOT, 'dist', 'cli', 'bin.js');
const TIME = '/usr/bin/time';

const children = new Set<ChildProcess>();

function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** SIGKILLs every child's process group that is still alive. Synchronous: safe in 'exit'. */
export function killAll(): void {
  for (const child of children) {
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) continue;
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  children.clear();
}

/** Wall-clock ms with sub-ms precision, comparable across processes on this machine. */
export function epochMs(): number {
  return performance.timeOrigin + performance.now();
}

export function loadAverage(): [number, number, number] {
  const [one = '0', five = '0', fifteen = '0'] = fs.readFileSync('/proc/loadavg', 'utf8').split(' ');
  return [Number(one), Number(five), Number(fifteen)];
}

/** CPU seconds (user+system) a process has used so far, from /proc/PID/stat. */
export function cpuSeconds(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 of stat(5) (utime, stime), counted from after the command name.
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/** What GET /__sandbox/stats answers (the part the benchmark reads). */
export interface SandboxStatsJson {
  requests: Record<string, number>;
  responses: Record<string, number>;
  /** Epoch ms of the first and the last API request, or null before any. */
  firstApiRequestAt: number | null;
  lastApiRequestAt: number | null;
  /** The most API requests the sandbox handled at once. */
  maxConcurrentApiRequests: number;
}

export interface SandboxProcess {
  readonly url: string;
  readonly pid: number;
  /** Epoch ms of the first API request the sandbox received (resolves once it has one). */
  readonly firstRequest: Promise<number>;
  stats(): Promise<SandboxStatsJson>;
  reset(): Promise<void>;
  stop(): Promise<void>;
}

/** Starts bench/sandbox-server.ts with these SandboxOptions and waits until it listens. */
export async function startSandboxProcess(options: Record<string, unknown> = {}): Promise<SandboxProcess> {
  const child = track(
    spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench', 'sandbox-server.ts'), JSON.stringify(options)], {
      cwd: ROOT,
      detached: true,
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  let resolveFirst: (at: number) => void = () => {};
  const firstRequest = new Promise<number>((resolve) => (resolveFirst = resolve));
  const url = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const [word, value = ''] = line.split(' ');
      if (word === 'listening') resolve(value);
      if (word === 'first-request') resolveFirst(Number(value));
    });
    child.once('exit', (code) => reject(new Error(`sandbox process exited (${code}) before listening`)));
  });
  return {
    url,
    pid: child.pid!,
    firstRequest,
    async stats() {
      const res = await fetch(`${url}/__sandbox/stats`);
      return (await res.json()) as SandboxStatsJson;
    },
    async reset() {
      await (await fetch(`${url}/__sandbox/reset`, { method: 'POST' })).arrayBuffer();
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export interface CliRun {
  code: number | null;
  /** Spawn to exit, ms. */
  wallMs: number;
  /** Epoch ms just before spawn(). */
  spawnAt: number;
  /** Peak RSS of the CLI process in MB (GNU time's %M, from wait4's ru_maxrss). */
  peakRssMb: number;
  cpuUserS: number;
  cpuSysS: number;
  stderr: string;
}

/** The node flags on an executable's `#!/usr/bin/env -S node …` line (its heap caps), so a build is measured with its own. */
export function shebangNodeArgs(file: string): string[] {
  const first = fs.readFileSync(file, 'utf8').split('\n', 1)[0] ?? '';
  const words = first.split(/\s+/);
  const node = words.indexOf('node');
  return node < 0 ? [] : words.slice(node + 1).filter((w) => w !== '');
}

/**
 * Runs the CLI executable directly (so its shebang's heap cap applies) under /usr/bin/time.
 * `extraNodeArgs` (e.g. --cpu-prof) switch to `node <args> bin.js`, with the flags of its shebang.
 */
export async function runCli(args: readonly string[], options: { env?: NodeJS.ProcessEnv; cwd?: string; extraNodeArgs?: readonly string[]; onSpawn?: (pid: number) => void; cli?: string } = {}): Promise<CliRun> {
  const cliPath = options.cli ?? CLI;
  const timeFile = path.join(fs.mkdtempSync(path.join(ROOT, 'bench', 'out', '.time-')), 'time');
  const command = options.extraNodeArgs
    ? [process.execPath, ...shebangNodeArgs(cliPath), ...options.extraNodeArgs, cliPath, ...args]
    : [cliPath, ...args];
  const spawnAt = epochMs();
  const started = performance.now();
  const child = track(
    spawn(TIME, ['-f', '%M %U %S', '-o', timeFile, ...command], {
      cwd: options.cwd ?? ROOT,
      env: { ...process.env, ...options.env },
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe'],
    }),
  );
  if (child.pid !== undefined) options.onSpawn?.(child.pid);
  let stderr = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-20_000);
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  const wallMs = performance.now() - started;
  const timeText = fs.readFileSync(timeFile, 'utf8').trim().split('\n').pop() ?? '';
  fs.rmSync(path.dirname(timeFile), { recursive: true, force: true });
  const [rssKb = 'NaN', user = 'NaN', sys = 'NaN'] = timeText.split(' ');
  return { code, wallMs, spawnAt, peakRssMb: Number(rssKb) / 1024, cpuUserS: Number(user), cpuSysS: Number(sys), stderr };
}

/** Runs a bench script in its own process and returns the JSON line it printed. */
async function runJsonScript<T>(script: string, args: readonly string[]): Promise<T> {
  const child = track(
    spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench', script), ...args], {
      cwd: ROOT,
      detached: true,
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  let out = '';
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => (out += chunk));
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`${script} exited with ${code}`);
  return JSON.parse(out.trim()) as T;
}

/** Runs bench/bare-loop.ts and returns what it printed. */
export function runBareLoop(baseUrl: string, rows: number, concurrency: number, seed: number): Promise<{ rows: number; ms: number; cpuMs: number; non200: number }> {
  return runJsonScript('bare-loop.ts', [baseUrl, String(rows), String(concurrency), String(seed)]);
}

/** Runs bench/bottleneck-loop.ts (Bottleneck driving the product's client at `rate`) and returns what it printed. */
export function runBottleneckLoop(baseUrl: string, rows: number, rate: number, seed: number): Promise<{ rows: number; ms: number; cpuMs: number; failed: number }> {
  return runJsonScript('bottleneck-loop.ts', [baseUrl, String(rows), String(rate), String(seed)]);
}
