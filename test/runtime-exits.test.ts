/**
 * Every way a bank run ends gives a real exit code on the runtime under test, never a native
 * abort. better-sqlite3 12 wrapped its statements with node::ObjectWrap: on Node 24.19+ a
 * statement finalized after the environment was torn down (at exit, or in an unlucky garbage
 * collection) aborted the process with `Assertion failed: (env) != nullptr` — a cron job with no
 * exit code, no output and a core dump. One run rarely shows it, so this test makes many short
 * runs of each kind (finished, re-emitted, refused, interrupted, resumed) and checks each end.
 * The finished and re-emitted runs also run under V8's `--stress-compaction`, which collects
 * garbage at every chance: with better-sqlite3 12 on Node 24.21 about one such run in five
 * aborted, so ten of them miss the abort about one time in ten.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startSandbox } from '../src/sandbox/index.js';
import { runCli, spawnCli, sum, tempDir, waitFor, type CliResult } from './helpers/cli.js';

/** What a native abort or a V8 fatal error leaves on stderr. */
const NATIVE_ABORT = /Assertion failed|node::|FATAL ERROR|Aborted|core dumped|Segmentation fault|\bSIG(ABRT|SEGV|BUS)\b/;

function assertCleanEnd(result: CliResult, expectedCode: number, what: string): void {
  assert.equal(result.signal, null, `${what}: ended by signal ${result.signal}\n${result.stderr}`);
  assert.doesNotMatch(result.stderr, NATIVE_ABORT, `${what}: native abort text on stderr`);
  assert.equal(result.code, expectedCode, `${what}: exit code\n${result.stderr}`);
}

function writePayees(file: string, count: number, seed: number): void {
  const lines = ['name,account_number,ifsc'];
  // Account numbers ending in 11..70 are all plain VERIFIED test accounts in the sandbox.
  for (let i = 0; i < count; i += 1) lines.push(`Payee ${i},7${String(seed * 100_000 + i).padStart(9, '0')}${11 + (i % 60)},HDFC0001234`);
  fs.writeFileSync(file, lines.join('\n') + '\n');
}

test(`many short runs on ${process.version} all end with a real exit code and no native abort`, { timeout: 300_000 }, async (t) => {
  const sandbox = await startSandbox({ latencyMs: 5 });
  t.after(() => sandbox.close());
  const slow = await startSandbox({ latencyMs: 200 });
  t.after(() => slow.close());
  const dir = tempDir(t, 'vas-exits-');
  const rounds = 3;

  for (let round = 0; round < rounds; round += 1) {
    const input = `p${round}.csv`;
    writePayees(path.join(dir, input), 40, round);
    const state = `s${round}.sqlite`;
    const base = ['bank', input, '-o', `o${round}.csv`, '--state', state, '--concurrency', '4'];

    // Finished, then re-emitted from the state with no call, both collecting garbage at every chance.
    const stress = { cwd: dir, nodeArgs: ['--stress-compaction'] };
    assertCleanEnd(await runCli([...base, '--base-url', sandbox.url], stress), 0, `round ${round}: finished run`);
    assertCleanEnd(await runCli([...base, '--base-url', sandbox.url, '--resume'], stress), 0, `round ${round}: re-emitted run`);

    // A slow run holds the state; a second run is refused (exit 1); SIGTERM stops the holder
    // (exit 3, resumable) and a resume finishes it.
    const slowInput = `q${round}.csv`;
    writePayees(path.join(dir, slowInput), 200, rounds + round);
    const held = ['bank', slowInput, '-o', `q${round}.out.csv`, '--state', `h${round}.sqlite`, '--concurrency', '2'];
    const sentBefore = sum(slow.stats().requests);
    const holder = spawnCli([...held, '--base-url', slow.url], { cwd: dir });
    t.after(() => holder.child.kill('SIGKILL'));
    // A request leaves only under the run lock: once one arrived, the holder holds the state.
    await waitFor(() => sum(slow.stats().requests) > sentBefore, 30_000, 'the holder to send its first request');
    assertCleanEnd(await runCli([...held, '--base-url', sandbox.url, '--resume'], { cwd: dir }), 1, `round ${round}: refused run`);
    holder.child.kill('SIGTERM');
    assertCleanEnd(await holder.result, 3, `round ${round}: interrupted run`);
    assertCleanEnd(await runCli([...held, '--base-url', sandbox.url, '--resume'], { cwd: dir }), 0, `round ${round}: resumed run`);

    // Usage errors end cleanly too (exit 2), before any state is opened.
    assertCleanEnd(await runCli(['bank', 'missing.csv', '--base-url', sandbox.url], { cwd: dir }), 2, `round ${round}: missing input`);
  }
});

