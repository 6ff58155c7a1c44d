/**
 * Time to first request, alone and repeatable: `node --import tsx bench/first-request.ts [rows] [times]`
 * (defaults 1,000,000 and 3). Spawns dist/cli/bin.js (or BENCH_CLI) on a fresh state and a
 * `rows`-row file, reads the sandbox's first API request, then stops the CLI with SIGINT (its
 * graceful stop) — the full run is scenario 4/5 of `npm run bench`; this is the figure alone, in
 * seconds instead of minutes, for before/after comparisons of a start-up change.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeUniqueFile } from './lib/data.js';
import { CLI, ROOT, killAll, loadAverage, runCli, startSandboxProcess } from './lib/procs.js';

const rows = Number(process.argv[2] ?? 1_000_000);
const times = Number(process.argv[3] ?? 3);
const out = path.join(ROOT, 'bench', 'out', 'first-request');
fs.mkdirSync(out, { recursive: true });
const input = path.join(out, `unique-${rows}.csv`);
if (!fs.existsSync(input)) await writeUniqueFile(input, rows, 1);

process.on('exit', killAll);
const figures: number[] = [];
for (let i = 0; i < times; i += 1) {
  const state = path.join(out, 'state.sqlite');
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(state + suffix, { force: true });
  const sandbox = await startSandboxProcess({});
  let pid = 0;
  try {
    const run = runCli(['bank', input, '-o', path.join(out, 'out.csv'), '--state', state, '--base-url', sandbox.url, '--quiet'], {
      env: { VAS_TOKEN: 'sandbox-token' },
      onSpawn: (p) => (pid = p),
    });
    const first = await sandbox.firstRequest;
    // GNU time's child gets the signal through the process group.
    process.kill(-pid, 'SIGINT');
    const done = await run;
    figures.push(first - done.spawnAt);
  } finally {
    await sandbox.stop();
  }
}
const sorted = [...figures].sort((a, b) => a - b);
process.stdout.write(
  `${CLI}\n${rows.toLocaleString('en-US')} rows: time to first request ${figures.map((f) => `${Math.round(f)} ms`).join(', ')} (median ${Math.round(sorted[Math.floor(sorted.length / 2)] ?? 0)} ms), load ${loadAverage().join(' ')}\n`,
);
