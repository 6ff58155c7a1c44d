/**
 * A real redis-server (Debian's `redis-server` package) on a free loopback port, no persistence,
 * started and stopped by the test itself (never a system service). Outside CI a machine without
 * it skips the test with the command that installs it; in CI (CI=true) the test fails instead.
 */
import { freePort } from './server.js';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import type { TestContext } from 'node:test';

export const REDIS_INSTALL_HINT = 'redis-server is not installed: apt-get install redis-server (Debian/Ubuntu) to run this test';

export function hasRedisServer(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

/** Skips `t` (outside CI) or fails it (in CI) when redis-server is missing; true when it may run. */
export function requireRedis(t: TestContext): boolean {
  if (hasRedisServer()) return true;
  if (process.env.CI === 'true') throw new Error(`${REDIS_INSTALL_HINT} (CI must run the Redis tests)`);
  t.skip(REDIS_INSTALL_HINT);
  return false;
}

export interface RedisServer {
  readonly port: number;
  readonly url: string;
  /** Starts it (again, empty) on the same port. */
  start(): Promise<void>;
  /** Stops it (SIGTERM, then SIGKILL after 3 s); resolves once it has exited. */
  stop(): Promise<void>;
  /** SIGSTOP / SIGCONT: a Redis that holds its connections open and answers nothing. */
  freeze(): void;
  thaw(): void;
}

/** A redis-server for this test, stopped by t.after; `extraArgs` go to redis-server (e.g. --requirepass). */
export async function startRedis(t: TestContext, extraArgs: readonly string[] = []): Promise<RedisServer> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const server: RedisServer = {
    port,
    url: `redis://127.0.0.1:${port}`,
    async start() {
      const proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'no', ...extraArgs], { stdio: ['ignore', 'pipe', 'pipe'] });
      child = proc;
      let out = '';
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`redis-server did not start on ${port}: ${out}`)), 10_000);
        proc.stdout!.on('data', (d: Buffer) => {
          out += d.toString();
          if (out.includes('Ready to accept connections')) {
            clearTimeout(timer);
            resolve();
          }
        });
        proc.once('exit', (code) => {
          clearTimeout(timer);
          reject(new Error(`redis-server exited ${code}: ${out}`));
        });
      });
      proc.stdout!.resume();
      proc.stderr!.resume();
    },
    async stop() {
      const proc = child;
      child = undefined;
      if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
      proc.kill('SIGCONT');
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(timer);
    },
    freeze() {
      child?.kill('SIGSTOP');
    },
    thaw() {
      child?.kill('SIGCONT');
    },
  };
  await server.start();
  t.after(() => server.stop());
  return server;
}
