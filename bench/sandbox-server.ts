/**
 * The sandbox in its own process for the benchmark: `node --import tsx bench/sandbox-server.ts
 * '<SandboxOptions as JSON>'`. Prints `listening <url>` once bound, and
 * `first-request <epoch ms>` the moment the first API request's headers have been parsed (the
 * `http.server.request.start` diagnostics channel: no proxy in the path, no cost afterwards).
 * Stops on SIGTERM/SIGINT.
 *
 * It runs the built sandbox (dist/) when there is one, like the CLI under test, and has no heap
 * cap: a million distinct accounts fill the sandbox's per-account counters.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import diagnostics from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';

type SandboxModule = typeof import('../src/sandbox/index.js');

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const built = path.join(root, 'dist', 'sandbox', 'index.js');
const mod = (await import(fs.existsSync(built) ? pathToFileURL(built).href : '../src/sandbox/index.js')) as SandboxModule;

const options = JSON.parse(process.argv[2] ?? '{}') as Parameters<SandboxModule['startSandbox']>[0];
const channel = diagnostics.channel('http.server.request.start');
const onRequest = (message: unknown) => {
  const request = (message as { request: IncomingMessage }).request;
  if (!(request.url ?? '').startsWith('/__sandbox/') && request.method === 'POST') {
    const at = performance.timeOrigin + performance.now();
    channel.unsubscribe(onRequest);
    process.stdout.write(`first-request ${at.toFixed(3)}\n`);
  }
};
channel.subscribe(onRequest);

const sandbox = await mod.startSandbox({ ...options, host: '127.0.0.1', port: 0 });
process.stdout.write(`listening ${sandbox.url}\n`);
const stop = () => {
  void sandbox.close().then(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
