/**
 * The run lock (docs/ARCHITECTURE.md, "Layout"): "a second run on the same state while one is active is refused, naming the
 * holder's pid" — under abuse, extending bank.test.ts ("a second concurrent run…"): the refused
 * run talks to its own sandbox so that its calls are counted alone (zero), two runs started at
 * the same instant, a lock left by a SIGKILLed penny-drop run, and locks written by another host.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { startSandbox } from '../src/sandbox/index.js';
import { readCsvObjects, runCli, spawnCli, sum, tempDir, waitFor } from './helpers/cli.js';

function writePayees(dir: string, name: string, count: number): void {
  const lines = ['Payee Name,Account Number,IFSC'];
  for (let i = 0; i < count; i += 1) lines.push(`Payee ${i},6${String(5_000_000 + i).padStart(9, '0')}${String(11 + (i % 60))},SBIN0001234`);
  fs.writeFileSync(path.join(dir, name), lines.join('\n') + '\n');
}

test('a second run on a busy state file is refused with the holder\'s pid and host, makes zero calls, and changes nothing', { timeout: 120_000 }, async (t) => {
  // Slow enough to be still running whatever the load on the machine: it is stopped below.
  const busy = await startSandbox({ latencyMs: 100 });
  t.after(() => busy.close());
  const other = await startSandbox();
  t.after(() => other.close());
  const dir = tempDir(t, 'vas-lock-busy-');
  writePayees(dir, 'p.csv', 300);
  const holderArgs = ['bank', 'p.csv', '-o', 'p.out.csv', '--state', 's.sqlite', '--base-url', busy.url, '--concurrency', '2'];
  const first = spawnCli(holderArgs, { cwd: dir });
  t.after(() => first.child.kill('SIGKILL'));
  await waitFor(() => (busy.stats().requests['account-verification-pl'] ?? 0) >= 5, 30_000, 'the first run to start');
  // The same input with --resume (the cron case), and another mode: both refused, no call.
  for (const args of [['p.csv', '-o', 'p2.out.csv', '--resume'], ['p.csv', '-o', 'p3.out.csv', '--mode', 'pd', '--retry-unconfirmed', '--resume']]) {
    const second = await runCli(['bank', ...args, '--state', 's.sqlite', '--base-url', other.url], { cwd: dir });
    assert.equal(first.child.exitCode, null, 'the holder was still running');
    assert.equal(second.code, 1, second.stderr);
    assert.match(second.stderr, new RegExp(`another vas-verify run \\(pid ${first.child.pid} on ${os.hostname()}, started \\d{1,2} [A-Z][a-z]{2} \\d{4}, \\d{2}:\\d{2} IST\\) is using this state file: wait for it to finish or use another --state`));
    assert.doesNotMatch(second.stderr, /\n\s+at /);
  }
  assert.equal(sum(other.stats().requests), 0, 'the refused runs made no call');
  assert.ok(!fs.existsSync(path.join(dir, 'p2.out.csv')) && !fs.existsSync(path.join(dir, 'p3.out.csv')));
  // The holder's run is intact: stopped and resumed, every account is called exactly once.
  first.child.kill('SIGTERM');
  assert.equal((await first.result).code, 3);
  const resumed = await runCli([...holderArgs.slice(0, 6), '--base-url', other.url, '--resume'], { cwd: dir });
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.equal(readCsvObjects(path.join(dir, 'p.out.csv')).length, 300);
  assert.equal((busy.stats().requests['account-verification-pl'] ?? 0) + (other.stats().requests['account-verification-pl'] ?? 0), 300, 'every account called once in all');
});

test('two runs started at the same instant on one state file: exactly one runs, the other is refused; no account called twice', { timeout: 120_000 }, async (t) => {
  const sandbox = await startSandbox({ latencyMs: 40 });
  t.after(() => sandbox.close());
  const dir = tempDir(t, 'vas-lock-race-');
  writePayees(dir, 'p.csv', 150);
  for (let round = 0; round < 3; round += 1) {
    const args = ['bank', 'p.csv', '-o', `out${round}.csv`, '--state', `race${round}.sqlite`, '--base-url', sandbox.url, '--concurrency', '2', '--resume'];
    const a = spawnCli(args, { cwd: dir });
    const b = spawnCli(args, { cwd: dir });
    t.after(() => {
      a.child.kill('SIGKILL');
      b.child.kill('SIGKILL');
    });
    const [ra, rb] = await Promise.all([a.result, b.result]);
    const codes = [ra.code, rb.code].sort();
    assert.deepEqual(codes, [0, 1], `one ran, one was refused\n${ra.stderr}\n${rb.stderr}`);
    const [winner, loser] = ra.code === 0 ? [a, b] : [b, a];
    assert.match(loser.stderr(), new RegExp(`pid ${winner.child.pid} `));
    assert.equal(readCsvObjects(path.join(dir, `out${round}.csv`)).length, 150);
  }
  assert.equal(sandbox.stats().requests['account-verification-pl'], 3 * 150, 'each round called each account once');
});

test('a lock left by a SIGKILLed penny-drop run is taken over; the new run finishes without a second deposit', { timeout: 120_000 }, async (t) => {
  const sandbox = await startSandbox({ latencyMs: [10, 30] });
  t.after(() => sandbox.close());
  const dir = tempDir(t, 'vas-lock-stale-');
  writePayees(dir, 'p.csv', 200);
  const args = ['bank', 'p.csv', '-o', 'out.csv', '--state', 's.sqlite', '--base-url', sandbox.url, '--mode', 'pd', '--concurrency', '3'];
  const victim = spawnCli(args, { cwd: dir });
  t.after(() => victim.child.kill('SIGKILL'));
  await waitFor(() => (sandbox.stats().requests['account-verification-pd'] ?? 0) >= 30, 30_000, 'thirty calls');
  victim.child.kill('SIGKILL');
  await victim.result;
  const db = new Database(path.join(dir, 's.sqlite'), { readonly: true });
  const lock = db.prepare('SELECT pid FROM run_lock').get() as { pid: number } | undefined;
  db.close();
  assert.equal(lock?.pid, victim.child.pid, 'the killed run left its lock');

  const next = await runCli([...args, '--resume'], { cwd: dir });
  assert.ok(next.code === 0 || next.code === 3, next.stderr);
  const rows = readCsvObjects(path.join(dir, 'out.csv'));
  assert.equal(rows.length, 200);
  const unconfirmed = rows.filter((r) => r.verify_status === 'UNCONFIRMED').length;
  assert.ok(unconfirmed <= 3, `at most the calls in flight at the kill: ${unconfirmed}`);
  assert.ok(Object.values(sandbox.stats().deposits).every((n) => n === 1), 'never two deposits');
  const after = new Database(path.join(dir, 's.sqlite'), { readonly: true });
  assert.equal((after.prepare('SELECT count(*) AS n FROM run_lock').get() as { n: number }).n, 0, 'the lock is released at the end');
  after.close();
});

test('locks written by another host: refused while its heartbeat moves, taken over once it stood still for the lease; a live pid here is never taken over', { timeout: 120_000 }, async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t, 'vas-lock-host-');
  writePayees(dir, 'p.csv', 10);
  const args = ['bank', 'p.csv', '-o', 'out.csv', '--state', 's.sqlite', '--base-url', sandbox.url];
  // A short lease keeps the test short; the default is two minutes.
  const env = { VAS_LOCK_LEASE: '2s' };
  const first = await runCli(args, { cwd: dir, env });
  assert.equal(first.code, 0, first.stderr);
  const state = new Database(path.join(dir, 's.sqlite'));
  state.pragma('busy_timeout = 5000');
  t.after(() => state.close());
  const setLock = (pid: number, host: string, ageMs: number) => {
    const at = Date.now() - ageMs;
    state.prepare('INSERT OR REPLACE INTO run_lock (id, pid, host, started_at, heartbeat_at) VALUES (1, ?, ?, ?, ?)').run(pid, host, at, at);
  };
  sandbox.reset();

  // Another host's run, alive: its heartbeat moves (its clock is 10 minutes behind ours: never compared).
  setLock(4242, 'batch-host-2', 600_000);
  const beating = setInterval(() => state.prepare('UPDATE run_lock SET beat = beat + 1').run(), 150);
  let r = await runCli([...args, '--resume'], { cwd: dir, env });
  clearInterval(beating);
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /pid 4242 on batch-host-2/);

  // Our own host, a process that is alive (this test), its heartbeat 90 s old: a paused run keeps its lock.
  setLock(process.pid, os.hostname(), 90_000);
  r = await runCli([...args, '--resume'], { cwd: dir, env });
  assert.equal(r.code, 1, 'a live process keeps its lock, whatever its heartbeat says');
  assert.match(r.stderr, new RegExp(`pid ${process.pid} on`));

  // This host's name, another PID namespace (a container run with the host's name): its pid 1 is
  // its own init, not ours. Alive while its heartbeat moves (it was judged free and taken over).
  const bootId = fs.existsSync('/proc/sys/kernel/random/boot_id') ? fs.readFileSync('/proc/sys/kernel/random/boot_id', 'latin1').trim() : null;
  const setContainerLock = (ageMs: number) => {
    const at = Date.now() - ageMs;
    state.prepare('INSERT OR REPLACE INTO run_lock (id, pid, host, started_at, heartbeat_at, token, beat, boot_id, proc_start, pid_ns) VALUES (1, 1, ?, ?, ?, ?, 0, ?, ?, ?)')
      .run(os.hostname(), at, at, 'container-token', bootId, '1', 'pid:[4026000001]');
  };
  setContainerLock(600_000);
  const containerBeat = setInterval(() => state.prepare('UPDATE run_lock SET beat = beat + 1').run(), 150);
  r = await runCli([...args, '--resume'], { cwd: dir, env });
  clearInterval(containerBeat);
  assert.equal(r.code, 1, `a live run of another PID namespace keeps its lock\n${r.stderr}`);
  assert.match(r.stderr, /another PID namespace of this host \(a container\): waiting up to 2 s/);
  assert.match(r.stderr, new RegExp(`pid 1 on ${os.hostname()}`));
  setContainerLock(5_000);
  r = await runCli([...args, '--resume'], { cwd: dir, env });
  assert.equal(r.code, 0, `a still one is taken over after the lease\n${r.stderr}`);

  // Another host's run whose heartbeat stands still for the lease is gone: taken over.
  setLock(4242, 'batch-host-2', 5_000);
  r = await runCli([...args, '--resume'], { cwd: dir, env });
  assert.equal(r.code, 0, `a still lock is taken over after the lease\n${r.stderr}`);
  assert.match(r.stderr, /holds this state file's lock from another host: waiting up to 2 s/);
  assert.equal(sum(sandbox.stats().requests), 0, 'a finished run is re-emitted from the state');
});
