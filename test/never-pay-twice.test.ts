/**
 * Never pay twice, whatever happens (docs/ARCHITECTURE.md, "Never paying twice"): kills, pauses,
 * clock skew, edits of the file and re-runs never send a payee a second penny-drop without
 * --retry-unconfirmed. Deposits are counted by the sandbox (/__sandbox/stats); the CLI is the
 * real one, spawned in a temp directory.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { isAlive } from '../src/process-alive.js';
import { startSandbox } from '../src/sandbox/index.js';
import { BankStore } from '../src/state/bank-store.js';
import { openDatabase } from '../src/state/db.js';
import { lockIdentity, SYSTEM_PROBE, type ProcessProbe } from '../src/state/run-lock.js';
import { chooseRun, openInput } from '../src/pipeline/bank-run/prepare.js';
import { createSummary } from '../src/pipeline/bank-run/summary.js';
import { RunLockedError } from '../src/errors.js';
import type { BankRunOptions } from '../src/pipeline/bank-run/types.js';
import { readCsvObjects, runCli, spawnCli, sum, tempDir, waitFor } from './helpers/cli.js';

const IFSCS = ['SBIN0001234', 'HDFC0000123', 'ICIC0001234'];

/** A payee list of `count` payees (no test-account endings), names as given by `name(i)`. */
function writePayees(file: string, count: number, name: (i: number) => string = (i) => `Payee ${i}`): void {
  const lines = ['Payee Name,Account Number,IFSC'];
  for (let i = 0; i < count; i += 1) lines.push(`${name(i)},${500000000000 + i * 100 + 11},${IFSCS[i % 3]}`);
  fs.writeFileSync(file, lines.join('\n') + '\n');
}

function assertOneDepositEach(deposits: Record<string, number>): void {
  const twice = Object.entries(deposits).filter(([, n]) => n > 1);
  assert.deepEqual(twice, [], `accounts deposited more than once: ${JSON.stringify(twice)}`);
}

test('a killed penny-drop run, one name fixed in the file, the same cron line again: no payee is deposited twice', async (t) => {
  const sandbox = await startSandbox({ latencyMs: [5, 25] });
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  const input = path.join(dir, 'payees.csv');
  writePayees(input, 120);
  const args = ['bank', 'payees.csv', '-o', 'out.csv', '--mode', 'pd', '--base-url', sandbox.url, '--concurrency', '4', '--resume'];
  const victim = spawnCli(args, { cwd: dir });
  await waitFor(() => sum(sandbox.stats().deposits) >= 40, 30_000, 'forty deposits');
  victim.child.kill('SIGKILL');
  await victim.result;
  const before = sandbox.stats().deposits;

  // One payee's name fixed: a new fingerprint, a new run.
  writePayees(input, 120, (i) => (i === 7 ? 'Payee Seven (fixed)' : `Payee ${i}`));
  const again = await runCli(args, { cwd: dir });
  assertOneDepositEach(sandbox.stats().deposits);
  const rows = readCsvObjects(path.join(dir, 'out.csv'));
  assert.equal(rows.length, 120);
  const reused = rows.filter((r) => r.verify_source === 'reuse');
  const unconfirmed = rows.filter((r) => r.verify_status === 'UNCONFIRMED');
  // Every payee the killed run was answered for is reused, never deposited again; the ones in
  // flight at the kill are UNCONFIRMED (their rupee may have moved).
  assert.ok(reused.length >= Object.keys(before).length - unconfirmed.length, `${reused.length} reused of ${Object.keys(before).length} deposited`);
  assert.ok(unconfirmed.length <= 4, `at most the calls in flight at the kill: ${unconfirmed.length}`);
  for (const row of unconfirmed) assert.match(row.verify_reason!, /a penny-drop to this account was sent by run \d+ .*--retry-unconfirmed/);
  assert.equal(again.code, unconfirmed.length > 0 ? 3 : 0, again.stderr);
  assert.ok(rows.every((r) => r.verify_status === 'VERIFIED' || r.verify_status === 'UNCONFIRMED'));

  // --retry-unconfirmed is the one way to send those again.
  if (unconfirmed.length > 0) {
    const retried = await runCli([...args, '--retry-unconfirmed'], { cwd: dir });
    assert.equal(retried.code, 0, retried.stderr);
    assert.ok(readCsvObjects(path.join(dir, 'out.csv')).every((r) => r.verify_status === 'VERIFIED'));
  }
});

test('an unclosed quote stops a penny-drop run mid-file; once it is fixed, the payees already paid are not paid again', async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  const input = path.join(dir, 'payees.csv');
  // Past the rows the column recogniser samples (300), as at line ~5,000 of a real export.
  writePayees(input, 1200, (i) => (i === 900 ? '"Broken, Quote' : `Payee ${i}`));
  const args = ['bank', 'payees.csv', '-o', 'out.csv', '--mode', 'pd', '--base-url', sandbox.url, '--resume'];
  const broken = await runCli(args, { cwd: dir });
  assert.notEqual(broken.code, 0, 'the bad quote stops the run');
  const paid = sum(sandbox.stats().deposits);
  assert.ok(paid > 0, 'rows before the quote were deposited');

  writePayees(input, 1200, (i) => (i === 900 ? '"Fixed, Quote"' : `Payee ${i}`));
  const fixed = await runCli(args, { cwd: dir });
  assert.equal(fixed.code, 0, fixed.stderr);
  assertOneDepositEach(sandbox.stats().deposits);
  assert.equal(sum(sandbox.stats().deposits), 1200);
  const rows = readCsvObjects(path.join(dir, 'out.csv'));
  assert.equal(rows.filter((r) => r.verify_source === 'reuse').length, paid, 'every deposit of the broken run reused');
});

test('a paused penny-drop run keeps its lock: a second run is refused, whatever the heartbeat says; the first then finishes', async (t) => {
  const sandbox = await startSandbox({ latencyMs: 100 });
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  writePayees(path.join(dir, 'payees.csv'), 60);
  const args = ['bank', 'payees.csv', '-o', 'out.csv', '--mode', 'pd', '--base-url', sandbox.url, '--concurrency', '2', '--resume', '--state', 'state.sqlite'];
  const first = spawnCli(args, { cwd: dir });
  t.after(() => first.child.kill('SIGKILL'));
  await waitFor(() => sum(sandbox.stats().deposits) >= 6, 30_000, 'six deposits');
  // Paused for two minutes (Ctrl-Z, a frozen VM): its last heartbeat is that old. Paused inside
  // a commit, a run holds the file's write lock and every other writer waits (then is told the
  // state file is busy); that is not this test's case, so it pauses the run between two commits.
  const db = new Database(path.join(dir, 'state.sqlite'));
  db.pragma('busy_timeout = 0');
  for (let attempt = 1; ; attempt += 1) {
    first.child.kill('SIGSTOP');
    try {
      db.prepare('UPDATE run_lock SET heartbeat_at = heartbeat_at - 120000').run();
      break;
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY' || attempt >= 50) throw error;
      first.child.kill('SIGCONT');
      await new Promise((r) => setTimeout(r, 7));
    }
  }
  db.close();
  // A request the run wrote just before it stopped may still be in the socket, not yet read by
  // the sandbox (it runs on this test's event loop): let the count settle before taking it.
  const callsBefore = await settledCount(() => sum(sandbox.stats().requests));
  const second = await runCli(args, { cwd: dir });
  assert.equal(second.code, 1, second.stderr);
  assert.match(second.stderr, new RegExp(`another vas-verify run \\(pid ${first.child.pid} on .*\\) is using this state file`));
  assert.equal(sum(sandbox.stats().requests), callsBefore, 'the refused run made no call');
  first.child.kill('SIGCONT');
  const done = await first.result;
  assert.equal(done.code, 0, done.stderr);
  assertOneDepositEach(sandbox.stats().deposits);
  assert.equal(sum(sandbox.stats().deposits), 60);
});

/** A count that stayed the same for 300 ms (the process that raises it is stopped); fails after 30 s. */
async function settledCount(read: () => number): Promise<number> {
  let last = read();
  for (let waited = 0; ; waited += 300) {
    assert.ok(waited < 30_000, 'the count settled within 30 s');
    await new Promise((r) => setTimeout(r, 300));
    const now = read();
    if (now === last) return now;
    last = now;
  }
}

function runOptions(inputPath: string, patch: Partial<BankRunOptions> = {}): BankRunOptions {
  return {
    inputPath, outputPath: `${inputPath}.out.csv`, mode: 'pd', resume: true, retryUnconfirmed: false,
    concurrency: 1, columns: {}, pricePl: 0, pricePd: 0, dryRun: false, ...patch,
  };
}

test('a killed run whose process is a zombie (not yet reaped) holds no lock: isAlive says so on Linux', async (t) => {
  if (process.platform !== 'linux') return;
  // `sleep 0.5` exits after its parent has exec'd into `sleep 5`, which never waits for it: a
  // zombie. (A child that ended before the exec would be reaped by bash itself.)
  const parent = spawn('bash', ['-c', 'sleep 0.5 & echo $!; exec sleep 5'], { stdio: ['ignore', 'pipe', 'ignore'] });
  t.after(() => parent.kill('SIGKILL'));
  const pid = Number((await once(parent.stdout, 'data'))[0].toString().trim());
  const state = () => {
    try {
      return fs.readFileSync(`/proc/${pid}/stat`, 'latin1');
    } catch {
      return '';
    }
  };
  await waitFor(() => /\) Z /.test(state()), 4_000, 'the zombie');
  assert.equal(isAlive(pid), false);
  assert.equal(isAlive(process.pid), true);
  assert.equal(isAlive(parent.pid!), true);
});

test('two hosts, clocks 90 s apart: a lease whose heartbeat moves is never taken; one that stands still is, and its old holder cannot send', async (t) => {
  const dir = tempDir(t);
  const input = path.join(dir, 'payees.csv');
  writePayees(input, 3);
  const statePath = path.join(dir, 'state.sqlite');
  const dbA = openDatabase(statePath);
  const dbB = openDatabase(statePath);
  const skewed = () => Date.now() + 90_000; // host B's clock runs 90 s ahead
  const storeA = new BankStore(dbA, Date.now);
  const storeB = new BankStore(dbB, skewed);
  t.after(() => {
    storeA.close();
    storeB.close();
    dbA.close();
    dbB.close();
  });
  // Both processes are this one, on two "hosts": the probe must not find host A's pid by name.
  const probe: ProcessProbe = { ...SYSTEM_PROBE, isAlive: () => false };
  const hostA = { ...lockIdentity(process.pid, probe, 'host-a') };
  assert.equal(storeA.acquireLock(hostA, probe).ok, true);
  // Two "hosts" in one process: A commits its beat at once, or its open transaction would hold B's.
  const beating = setInterval(() => {
    storeA.heartbeat();
    storeA.flushSync();
  }, 100);
  const depsB = {
    client: undefined, store: storeB, now: skewed, stopSignal: new AbortController().signal, log: { info: () => {}, warn: () => {} },
    pid: process.pid, isAlive: () => false, lockProbe: probe, host: 'host-b',
  };
  const options = runOptions(input, { lockLeaseMs: 1_500 });
  const opened = await openInput(options);
  await assert.rejects(chooseRun(options, depsB, opened, createSummary(options), () => {}), (e) => e instanceof RunLockedError && /pid \d+ on host-a/.test(e.message));
  clearInterval(beating);

  // Host A froze: its heartbeat stands still for the lease, measured on B's own clock.
  const reopened = await openInput(options);
  const run = await chooseRun(options, depsB, reopened, createSummary(options), () => {});
  reopened.close();
  // Host A wakes up and tries to send: its claim finds the lock gone, so nothing leaves.
  const claim = storeA.claim({ runId: run.runId!, firstRow: 1, account: '500000000011', ifsc: 'SBIN0001234', mode: 'pd', stored: false, retryUnconfirmed: false });
  assert.equal(claim.kind, 'lock-lost');
  assert.equal(storeA.heartbeat(), false, 'its heartbeat finds the lock gone too');
  storeA.flushSync(); // two "hosts" in one process: A's open transaction would hold B's release
  run.release();
});

test('an input overwritten while it is read fails the run (exit 1): output discarded, nothing recorded complete', async (t) => {
  const sandbox = await startSandbox({ latencyMs: 40 });
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  const input = path.join(dir, 'payees.csv');
  writePayees(input, 400);
  const args = ['bank', 'payees.csv', '-o', 'out.csv', '--base-url', sandbox.url, '--concurrency', '2', '--resume', '--state', 'state.sqlite'];
  const run = spawnCli(args, { cwd: dir });
  await waitFor(() => sum(sandbox.stats().requests) >= 10, 30_000, 'ten calls');
  // Tonight's export lands in place, mid-run.
  writePayees(input, 380, (i) => `Tonight ${i}`);
  const result = await run.result;
  assert.equal(result.code, 1, result.stderr);
  assert.match(result.stderr, /the input payees\.csv changed while it was read/);
  assert.ok(!fs.existsSync(path.join(dir, 'out.csv')), 'no output mixing two files');
  const db = new Database(path.join(dir, 'state.sqlite'), { readonly: true });
  t.after(() => db.close());
  assert.deepEqual(db.prepare("SELECT count(*) AS n FROM runs WHERE status = 'complete'").get(), { n: 0 });
  // The file as it is now is a run of its own.
  const again = await runCli(args, { cwd: dir });
  assert.equal(again.code, 0, again.stderr);
  assert.equal(readCsvObjects(path.join(dir, 'out.csv')).length, 380);
});

test('fault soak: penny-drop runs killed at random points with the file edited between kills never deposit a payee twice', async (t) => {
  const sandbox = await startSandbox({ latencyMs: [2, 20] });
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  const input = path.join(dir, 'payees.csv');
  let seed = 20261125;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const args = ['bank', 'payees.csv', '-o', 'out.csv', '--mode', 'pd', '--base-url', sandbox.url, '--concurrency', '4', '--resume'];
  let count = 150;
  writePayees(input, count);
  for (let round = 0; round < 6; round += 1) {
    const victim = spawnCli(args, { cwd: dir });
    const target = sum(sandbox.stats().deposits) + 5 + Math.floor(random() * 20);
    await Promise.race([waitFor(() => sum(sandbox.stats().deposits) >= target, 30_000, 'deposits').catch(() => {}), victim.result]);
    victim.child.kill('SIGKILL');
    await victim.result;
    // An edit between kills: a name fixed, a payee added.
    count += 1;
    const fixed = Math.floor(random() * count);
    writePayees(input, count, (i) => (i === fixed ? `Payee ${i} fixed in round ${round}` : `Payee ${i}`));
  }
  const last = await runCli(args, { cwd: dir });
  assert.ok(last.code === 0 || last.code === 3, last.stderr);
  assertOneDepositEach(sandbox.stats().deposits);
  const rows = readCsvObjects(path.join(dir, 'out.csv'));
  assert.equal(rows.length, count);
  assert.ok(rows.every((r) => r.verify_status === 'VERIFIED' || r.verify_status === 'UNCONFIRMED'));
});

test('a state file deleted under a penny-drop run (with its log, or the main file alone): the run stops (exit 1) and writes it back once its calls are answered; the cron line then pays nobody twice', { timeout: 180_000 }, async (t) => {
  for (const removed of [['', '-wal', '-shm'], ['']]) {
    const sandbox = await startSandbox({ latencyMs: [20, 80] });
    t.after(() => sandbox.close());
    const dir = tempDir(t);
    writePayees(path.join(dir, 'payees.csv'), 150);
    const args = ['bank', 'payees.csv', '-o', 'out.csv', '--mode', 'pd', '--state', 's.sqlite', '--base-url', sandbox.url, '--concurrency', '4', '--resume'];
    const victim = spawnCli(args, { cwd: dir });
    await waitFor(() => sum(sandbox.stats().deposits) >= 20, 30_000, 'twenty deposits');
    for (const suffix of removed) fs.rmSync(path.join(dir, `s.sqlite${suffix}`), { force: true });
    const stopped = await victim.result;
    const what = `removed s.sqlite${removed.join(', ')}`;
    assert.equal(stopped.code, 1, `${what}\n${stopped.stderr}`);
    assert.match(stopped.stderr, /the state file .*s\.sqlite was deleted \(or moved\) while this run used it: the run stopped sending/);
    assert.match(stopped.stderr, /s\.sqlite was written back from the run's open copy: resume with it/);
    assert.equal(fs.statSync(path.join(dir, 's.sqlite')).mode & 0o777, 0o600);
    assert.ok(sum(sandbox.stats().deposits) < 150, 'stopped before the end');

    // Tonight's cron line again: the written-back state remembers every deposit.
    const again = await runCli(args, { cwd: dir });
    assert.equal(again.code, 0, `${what}\n${again.stderr}`);
    assertOneDepositEach(sandbox.stats().deposits);
    assert.equal(sum(sandbox.stats().deposits), 150);
    const rows = readCsvObjects(path.join(dir, 'out.csv'));
    assert.equal(rows.length, 150);
    assert.ok(rows.every((r) => r.verify_status === 'VERIFIED'), 'every deposit of the stopped run is reused');
  }
});

const DAY_MS = 86_400_000;

test('this machine\'s clock 100 days behind the API\'s: one penny-drop goes, dated by the API\'s time, and the run stops naming the clock', async (t) => {
  // The API's clock (its Date header) runs 100 days ahead of this machine's: this machine's is behind.
  const sandbox = await startSandbox({ now: () => Date.now() + 100 * DAY_MS, latencyMs: [5, 15] });
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  writePayees(path.join(dir, 'payees.csv'), 40);
  const args = ['bank', 'payees.csv', '-o', 'out.csv', '--mode', 'pd', '--base-url', sandbox.url, '--concurrency', '8', '--state', 'state.sqlite', '--resume'];
  const started = Date.now();
  const run = await runCli(args, { cwd: dir });
  assert.equal(run.code, 1, run.stderr);
  assert.match(run.stderr, /this machine's clock is 100 days behind the API's .*Set the clock right .*--resume/);
  assert.doesNotMatch(run.stderr, /\n\s+at /, 'no stack trace');
  // Until an answer told the API's time, one penny-drop at a time: only that one went.
  assert.equal(sum(sandbox.stats().deposits), 1);

  // That deposit is dated by the API's clock: remembered for the whole memory once this clock is right.
  const db = new Database(path.join(dir, 'state.sqlite'), { readonly: true });
  const deposits = db.prepare('SELECT status, sent_at AS sentAt FROM deposits').all() as Array<{ status: string; sentAt: number }>;
  db.close();
  assert.equal(deposits.length, 1);
  assert.equal(deposits[0]!.status, 'ANSWERED');
  assert.ok(Math.abs(deposits[0]!.sentAt - (started + 100 * DAY_MS)) < 60_000, `dated ${new Date(deposits[0]!.sentAt).toISOString()}`);

  // The same cron line keeps refusing while the clocks disagree: the answered payee is never sent again.
  const again = await runCli(args, { cwd: dir });
  assert.equal(again.code, 1, again.stderr);
  assertOneDepositEach(sandbox.stats().deposits);
  assert.equal(sum(sandbox.stats().deposits), 2);
});

test('this machine\'s clock 100 days ahead of the API\'s: the run stops after one penny-drop; a penny-less run is warned once and goes on', async (t) => {
  const sandbox = await startSandbox({ now: () => Date.now() - 100 * DAY_MS });
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  writePayees(path.join(dir, 'payees.csv'), 30);
  const pd = await runCli(['bank', 'payees.csv', '-o', 'out.csv', '--mode', 'pd', '--base-url', sandbox.url, '--concurrency', '8', '--state', 'pd.sqlite'], { cwd: dir });
  assert.equal(pd.code, 1, pd.stderr);
  assert.match(pd.stderr, /this machine's clock is 100 days ahead of the API's/);
  assert.equal(sum(sandbox.stats().deposits), 1);

  const pl = await runCli(['bank', 'payees.csv', '-o', 'pl.csv', '--mode', 'pl', '--base-url', sandbox.url, '--concurrency', '8', '--state', 'pl.sqlite'], { cwd: dir });
  assert.equal(pl.code, 0, pl.stderr);
  assert.equal(pl.stderr.match(/this machine's clock is 100 days ahead of the API's/g)?.length, 1, pl.stderr);
  assert.equal(readCsvObjects(path.join(dir, 'pl.csv')).filter((r) => r.verify_status === 'VERIFIED').length, 30);
});

test('clocks that agree: a penny-drop run is not slowed to one at a time once the first answer is in', async (t) => {
  const sandbox = await startSandbox({ latencyMs: 30 });
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  writePayees(path.join(dir, 'payees.csv'), 60);
  const run = await runCli(['bank', 'payees.csv', '-o', 'out.csv', '--mode', 'pd', '--base-url', sandbox.url, '--concurrency', '8'], { cwd: dir });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(sum(sandbox.stats().deposits), 60);
  assert.ok(sandbox.stats().maxConcurrentApiRequests > 1, `at most ${sandbox.stats().maxConcurrentApiRequests} at a time`);
});

test('a wrong clock, and the first answers an error (200 error, 400) or lost: still one penny-drop at a time until an answer tells the API\'s time', async (t) => {
  const sandbox = await startSandbox({ now: () => Date.now() + 100 * DAY_MS });
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  // Row 1 ends in 91 (a 200 error: Invalid Account Number), row 2 in 97 (processed, the rupee
  // deposited, then the connection dropped: no answer, no Date), then ordinary payees.
  const lines = ['Payee Name,Account Number,IFSC', 'Payee A,500000000191,SBIN0001234', 'Payee B,500000000297,SBIN0001234'];
  for (let i = 0; i < 30; i += 1) lines.push(`Payee ${i},${500000001000 + i * 100 + 11},SBIN0001234`);
  fs.writeFileSync(path.join(dir, 'payees.csv'), lines.join('\n') + '\n');
  const run = await runCli(['bank', 'payees.csv', '-o', 'out.csv', '--mode', 'pd', '--base-url', sandbox.url, '--concurrency', '8', '--state', 'state.sqlite'], { cwd: dir });
  assert.equal(run.code, 1, run.stderr);
  assert.match(run.stderr, /this machine's clock is 100 days behind the API's/);
  // The 200 error told the time? No deposit either way. The lost answer told nothing: the next
  // payee went alone, and its answer stopped the run. Two deposits, never a batch.
  const deposits = sandbox.stats().deposits;
  assert.ok(sum(deposits) <= 2, `deposits: ${JSON.stringify(deposits)}`);
  assert.ok(sandbox.stats().maxConcurrentApiRequests <= 1, `at most one request at a time: ${sandbox.stats().maxConcurrentApiRequests}`);
});
