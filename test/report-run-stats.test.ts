/**
 * The run's record in the state (src/state/run-stats.ts, schema 5) and what the report makes of
 * it: counters written only with the group commit, one bucket per second rather than a row per
 * call; a real sandbox run whose record equals its --summary and whose buckets equal what the
 * sandbox counted; interrupted runs (SIGTERM, and SIGKILL which records no end); a state file of
 * schema 4 read as it is, then upgraded by a run.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { startSandbox } from '../src/sandbox/index.js';
import { APPLICATION_ID, openDatabase, SCHEMA_VERSION } from '../src/state/db.js';
import { BankStore } from '../src/state/bank-store.js';
import { MIGRATIONS } from '../src/state/migrations.js';
import { activityKind, retryCause, type RunTotals } from '../src/state/run-stats.js';
import { readRunAggregates, readRecordedRun } from '../src/report/aggregate.js';
import { runCli, spawnCli, tempDir, waitFor } from './helpers/cli.js';

test('activityKind and retryCause: which series an upstream error counts in, and how a retry is named', () => {
  const cases: Array<[Parameters<typeof activityKind>[0], ReturnType<typeof activityKind>, string]> = [
    [{ status: 429, kind: 'quota', code: 'rate-limit' }, 'throttled', '429'],
    [{ status: 503, kind: 'unavailable' }, 'serverErrors', '503'],
    [{ status: 500, kind: 'server' }, 'serverErrors', '500'],
    [{ kind: 'timeout', code: 'deadline' }, 'timeouts', 'deadline'],
    [{ kind: 'network', code: 'reset' }, undefined, 'reset'],
    [{ kind: 'network' }, undefined, 'network'],
    [{ status: 400, kind: 'invalid-input' }, undefined, '400'],
  ];
  for (const [error, kind, cause] of cases) {
    assert.equal(activityKind(error), kind, JSON.stringify(error));
    assert.equal(retryCause(error), cause, JSON.stringify(error));
  }
});

test('counters stay in memory until the group commit, then land as one bucket per second and one run row', (t) => {
  let clock = Date.parse('2026-01-01T00:00:00.200Z');
  const db = openDatabase(':memory:');
  const store = new BankStore(db, () => clock);
  t.after(() => {
    store.close();
    db.close();
  });
  const runId = store.createRun('fp', 'pl', 'p.csv').id;
  const totals: RunTotals = { rows: 0, statuses: {}, nameMatch: {}, calls: { pl: 0, pd: 0 }, spend: 0, avoided: { local: 3 } };
  store.startRunStats({
    runId, startedAt: clock, resumed: false, outputName: 'out.csv', outputPath: '/x/out.csv', resumeCommand: 'vas-verify bank p.csv --resume',
    toolVersion: '9.9.9', registry: 'reg, published 2026-01-01', totals: () => totals,
  });
  store.flushSync();
  const activityRows = () => db.prepare('SELECT second, calls, retries, throttled, server_errors AS serverErrors, timeouts FROM run_activity ORDER BY second').all();

  // A thousand calls and retries in one second: nothing is written until a commit, then one bucket.
  for (let i = 0; i < 1000; i += 1) {
    totals.calls.pl += 1;
    store.noteRetry({ status: i % 2 === 0 ? 429 : 503, kind: 'quota' });
  }
  store.noteFailure({ kind: 'timeout', code: 'deadline' });
  assert.deepEqual(activityRows(), [], 'counters are not written by themselves');
  store.insertPayee(runId, '100000000012', 'SBIN0001234', 1); // any write of the run opens a group
  store.flushSync();
  const second = Math.floor(clock / 1000);
  assert.deepEqual(activityRows(), [{ second, calls: 1000, retries: 1000, throttled: 500, serverErrors: 500, timeouts: 1 }]);

  clock += 1_500;
  totals.calls.pl += 2;
  totals.rows = 4;
  totals.statuses = { VERIFIED: 4 };
  store.endRunStats({ finishedAt: clock, exitCode: 0, stopped: null, message: null, durationMs: 1_500, outputFile: null });
  store.flushSync();
  assert.equal(activityRows().length, 2);
  const recorded = readRecordedRun(db, runId)!;
  assert.equal(recorded.finishedAt, clock);
  assert.equal(recorded.exitCode, 0);
  assert.deepEqual(recorded.calls, { pl: 1002, pd: 0 });
  assert.deepEqual(recorded.retries, { 429: 500, 503: 500 });
  assert.deepEqual(recorded.avoided, { local: 3 });
  assert.equal(recorded.outputName, 'out.csv');
  assert.equal(recorded.registry, 'reg, published 2026-01-01');
  const agg = readRunAggregates(db, runId, 10);
  assert.equal(agg.activity!.reduce((a, b) => a + b.calls, 0), 1002);
  assert.equal(agg.activity!.reduce((a, b) => a + b.retries, 0), 1000);

  // A second invocation of the run starts its row afresh; its buckets add to the run's.
  store.startRunStats({ runId, startedAt: clock, resumed: true, outputName: 'out.csv', outputPath: null, resumeCommand: null, toolVersion: null, registry: null, totals: () => ({ ...totals, calls: { pl: 0, pd: 0 } }) });
  store.flushSync();
  const again = readRecordedRun(db, runId)!;
  assert.equal(again.invocations, 2);
  assert.equal(again.finishedAt, null);
  assert.equal(again.resumed, true);
  assert.deepEqual(again.calls, { pl: 0, pd: 0 });
});

function payees(dir: string, rows: number): void {
  const lines = ['Name,Account Number,IFSC'];
  for (let i = 0; i < rows; i += 1) lines.push(`Payee ${i},7000000${String(i).padStart(3, '0')}12,SBIN0001234`);
  // A duplicate, a row that fails the local checks, an account at its daily limit.
  lines.push('Payee 0,700000000012,SBIN0001234', 'Bad,12,SBIN0001234', 'Limited,700000999992,SBIN0001234');
  fs.writeFileSync(path.join(dir, 'p.csv'), `${lines.join('\n')}\n`);
}

test('a sandbox run with faults: its record equals its --summary, its buckets equal what the sandbox counted', { timeout: 120_000 }, async (t) => {
  const sandbox = await startSandbox({ faultRate: 0.2, faults: ['429', '503'], seed: 11 });
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  payees(dir, 150);
  const r = await runCli(['bank', 'p.csv', '-o', 'out.csv', '--state', 's.sqlite', '--base-url', sandbox.url, '--summary', 'summary.json', '--concurrency', '4'], { cwd: dir, env: { VAS_PRICE_PL: '2' } });
  assert.equal(r.code, 3, r.stderr);
  const summary = JSON.parse(fs.readFileSync(path.join(dir, 'summary.json'), 'utf8')) as {
    runId: number; rows: number; statuses: Record<string, number>; nameMatch: Record<string, number>; calls: { pl: number; pd: number };
    avoided: Record<string, number>; retries: Record<string, number>; spend: number; exitCode: number; resumed: boolean; durationMs: number;
  };
  const db = new Database(path.join(dir, 's.sqlite'), { readonly: true });
  t.after(() => db.close());
  const recorded = readRecordedRun(db, summary.runId)!;
  assert.equal(recorded.exitCode, summary.exitCode);
  assert.equal(recorded.durationMs, summary.durationMs);
  assert.equal(recorded.stopped, null);
  assert.deepEqual(recorded.calls, summary.calls);
  assert.equal(recorded.spend, summary.spend);
  assert.equal(recorded.rows, summary.rows);
  assert.deepEqual(recorded.statuses, summary.statuses);
  assert.deepEqual(recorded.nameMatch, summary.nameMatch);
  assert.deepEqual(recorded.avoided, summary.avoided);
  assert.deepEqual(recorded.retries, summary.retries);
  assert.equal(summary.avoided.duplicate, 1);
  assert.equal(summary.avoided.local, 1);
  assert.equal(recorded.outputName, 'out.csv');
  assert.equal(recorded.outputPath, fs.realpathSync(path.join(dir, 'out.csv')));
  assert.equal(recorded.resumeCommand, `vas-verify bank p.csv -o out.csv --mode pl --resume --state s.sqlite --concurrency 4 --summary summary.json --base-url ${sandbox.url}`);

  const stats = sandbox.stats();
  const sum = (key: 'calls' | 'retries' | 'throttled' | 'server_errors' | 'timeouts') => (db.prepare(`SELECT sum(${key}) AS n FROM run_activity WHERE run_id = ?`).get(summary.runId) as { n: number }).n;
  const retried = Object.values(summary.retries).reduce((a, b) => a + b, 0);
  assert.ok(retried > 0, 'the faults caused retries');
  assert.equal(sum('calls'), summary.calls.pl);
  assert.equal(sum('retries'), retried);
  assert.equal(stats.requests['account-verification-pl'], summary.calls.pl + retried, 'the sandbox saw every call and every retry');
  assert.equal(sum('throttled'), stats.responses['429'] ?? 0);
  assert.equal(sum('server_errors'), Object.entries(stats.responses).filter(([s]) => s.startsWith('5')).reduce((a, [, n]) => a + n, 0));
  // Aggregates, not a row per call: one bucket per second of the run at most.
  const buckets = (db.prepare('SELECT count(*) AS n FROM run_activity WHERE run_id = ?').get(summary.runId) as { n: number }).n;
  assert.ok(buckets <= Math.ceil(summary.durationMs / 1000) + 1, `${buckets} buckets for a run of ${summary.durationMs} ms and ${summary.calls.pl} calls`);
});

test('SIGTERM mid-run: the page says unfinished, with the exit code and what is known; rebuilt, the same figures', { timeout: 120_000 }, async (t) => {
  const sandbox = await startSandbox({ latencyMs: 40 });
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  payees(dir, 150);
  const args = ['bank', 'p.csv', '-o', 'out.csv', '--state', 's.sqlite', '--base-url', sandbox.url, '--concurrency', '2', '--report', 'run.html'];
  const run = spawnCli(args, { cwd: dir });
  await waitFor(() => (sandbox.stats().requests['account-verification-pl'] ?? 0) >= 10, 20_000, 'the run to start');
  run.child.kill('SIGTERM');
  const stopped = await run.result;
  assert.equal(stopped.code, 3, stopped.stderr);
  const html = fs.readFileSync(path.join(dir, 'run.html'), 'utf8');
  assert.match(html, /data-finished="false"/);
  assert.match(html, /<b>Unfinished\.<\/b> The run stopped early \(stopped by signal\)/);
  assert.match(html, /<b data-testid="exit-code">3<\/b> — <span data-testid="exit-meaning">some rows are not final/);
  const calls = Number(/data-testid="calls-pl">(\d+)</.exec(html)?.[1]);
  assert.equal(calls, sandbox.stats().requests['account-verification-pl'], 'every call made before the stop');
  assert.match(html, /data-testid="activity-calls" data-count="(\d+)"/);

  const rebuilt = await runCli(['report', '--state', 's.sqlite', '-o', 'again.html'], { cwd: dir });
  assert.equal(rebuilt.code, 0, rebuilt.stderr);
  const again = fs.readFileSync(path.join(dir, 'again.html'), 'utf8');
  const undated = (text: string) => text.replace(/ · generated [^·]+ ·/, ' · generated ·');
  assert.equal(undated(again), undated(html));
});

test('SIGKILL mid-run: the rebuilt page says the run recorded no end, with the calls its last commit held', { timeout: 120_000 }, async (t) => {
  const sandbox = await startSandbox({ latencyMs: 40 });
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  payees(dir, 150);
  const run = spawnCli(['bank', 'p.csv', '-o', 'out.csv', '--state', 's.sqlite', '--base-url', sandbox.url, '--concurrency', '2'], { cwd: dir });
  await waitFor(() => (sandbox.stats().requests['account-verification-pl'] ?? 0) >= 30, 20_000, 'the run to make calls');
  run.child.kill('SIGKILL');
  await run.result;
  const sent = sandbox.stats().requests['account-verification-pl'] ?? 0;
  const r = await runCli(['report', '--state', 's.sqlite', '-o', 'run.html'], { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  const html = fs.readFileSync(path.join(dir, 'run.html'), 'utf8');
  assert.match(html, /data-finished="false"/);
  assert.match(html, /The run stopped early \(the run recorded no end: it was killed, or is still running\)/);
  assert.match(html, /Exit code<\/dt><dd>none recorded/);
  // A call is counted in the commit of its claim, and leaves after it: a kill between the two
  // leaves calls counted that never left, each still IN_FLIGHT in the state.
  const db = new Database(path.join(dir, 's.sqlite'), { readonly: true, fileMustExist: true });
  const inFlight = (db.prepare("SELECT count(*) AS n FROM run_payees WHERE status = 'IN_FLIGHT'").get() as { n: number }).n;
  db.close();
  const calls = Number(/data-testid="calls-pl">(\d+)</.exec(html)?.[1]);
  assert.ok(calls > 0 && calls <= sent + inFlight, `the calls of the last commit (${calls}, ${sent} sent, ${inFlight} claimed in flight)`);
  const bucketCalls = Number(/data-testid="activity-calls" data-count="(\d+)"/.exec(html)?.[1]);
  assert.ok(bucketCalls >= calls - 2 && bucketCalls <= sent + inFlight, `calls over time (${bucketCalls})`);
});

test('a schema-4 state file: its run is reported without a record; a run upgrades the file and records itself', { timeout: 120_000 }, async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  payees(dir, 5);
  const file = path.join(dir, 's.sqlite');
  const old = new Database(file);
  old.pragma('journal_mode = WAL');
  old.pragma(`application_id = ${APPLICATION_ID}`);
  for (let v = 0; v < 4; v += 1) old.exec(MIGRATIONS[v]!);
  old.pragma('user_version = 4');
  const at = Date.now() - 86_400_000;
  old.prepare(`INSERT INTO runs (id, fingerprint, mode, input_name, status, total_rows, created_at, updated_at) VALUES (1, 'old', 'pl', 'old.csv', 'complete', 1, ?, ?)`).run(at, at);
  const resultId = Number(old.prepare(`INSERT INTO results (account, ifsc, mode, status, beneficiary_name, verified_at) VALUES ('700000000012', 'SBIN0001234', 'pl', 'VERIFIED', 'PAYEE ZERO', ?)`).run(at).lastInsertRowid);
  old.prepare(`INSERT INTO run_keys (run_id, first_idx, account, ifsc, status, phase, source, result_id, attempts, updated_at) VALUES (1, 1, '700000000012', 'SBIN0001234', 'DONE', 'pl', 'api', ?, 1, ?)`).run(resultId, at);
  old.close();

  // Read as it is (the report opens the state read-only and never upgrades it).
  const before = await runCli(['report', '--state', 's.sqlite', '-o', 'old.html'], { cwd: dir });
  assert.equal(before.code, 0, before.stderr);
  const oldPage = fs.readFileSync(path.join(dir, 'old.html'), 'utf8');
  assert.match(oldPage, /kept no run record/);
  assert.match(oldPage, /Exit code<\/dt><dd>not recorded/);
  assert.match(oldPage, /data-finished="true"/);
  assert.match(oldPage, /<div class="banner ok" data-testid="state" data-finished="true"><b>Finished\.<\/b>/, 'a state without decisions: the banner as before');
  assert.doesNotMatch(oldPage, /id="decisions"/, 'and no decision section');

  const r = await runCli(['bank', 'p.csv', '-o', 'out.csv', '--state', 's.sqlite', '--base-url', sandbox.url, '--report', 'new.html'], { cwd: dir });
  assert.equal(r.code, 3, r.stderr);
  const db = new Database(file, { readonly: true });
  t.after(() => db.close());
  assert.equal(db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
  assert.equal(readRecordedRun(db, 1), null, 'the old run has no record');
  assert.equal(readRecordedRun(db, 2)!.exitCode, 3);
  const newPage = fs.readFileSync(path.join(dir, 'new.html'), 'utf8');
  assert.match(newPage, /<b data-testid="exit-code">3<\/b>/);
  assert.match(newPage, /id="decisions"/, 'the upgraded state keeps the new run\'s decisions');
  const again = await runCli(['report', '--state', 's.sqlite', '--run', '1', '-o', 'old2.html'], { cwd: dir });
  assert.equal(again.code, 0, again.stderr);
  const oldAgain = fs.readFileSync(path.join(dir, 'old2.html'), 'utf8');
  assert.match(oldAgain, /kept no run record/);
  assert.doesNotMatch(oldAgain, /id="decisions"/, 'the old run has no decisions in the upgraded state either');
});
