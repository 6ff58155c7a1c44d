/**
 * The stages of the bank run (src/pipeline/bank-run/), each on its own: prepare, plan, caller,
 * ordered writer, summary. The run as a whole is pinned by characterisation.test.ts.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createClient } from '../src/api/client.js';
import { VasError } from '../src/api/errors.js';
import { InputError, UsageError } from '../src/errors.js';
import { ApiClock } from '../src/pipeline/bank-run/api-clock.js';
import { Breaker, Caller, FAIL_FAST_THRESHOLD, FINISH_SECONDS, QUEUED_PAYEES } from '../src/pipeline/bank-run/caller.js';
import { RateLimiter } from '../src/limiter/index.js';
import { OrderedWriter, READ_AHEAD_ROWS, READ_AHEAD_SECONDS, rowOutcome, WRITE_GATHER_MS } from '../src/pipeline/bank-run/ordered-writer.js';
import { LivePayees } from '../src/pipeline/bank-run/payees.js';
import { PayeeLedger } from '../src/pipeline/bank-run/ledger.js';
import { lockIdentity, SYSTEM_PROBE } from '../src/state/run-lock.js';
import { Planner, StoredPayees, STORED_PAYEES_CHUNK } from '../src/pipeline/bank-run/plan.js';
import { chooseRun, openInput } from '../src/pipeline/bank-run/prepare.js';
import { MAX_NAME_CHARS, nameVerdict } from '../src/pipeline/bank-run/row-output.js';
import { StopControl } from '../src/pipeline/bank-run/stop.js';
import { allFinal, countRow, createSummary, exitCodeOf } from '../src/pipeline/bank-run/summary.js';
import type { BankRunDeps, BankRunOptions, PayeeTask, Slot } from '../src/pipeline/bank-run/types.js';
import type { OutputSink } from '../src/output/sink.js';
import { startSandbox } from '../src/sandbox/index.js';
import { BankStore } from '../src/state/bank-store.js';
import { openDatabase } from '../src/state/db.js';
import { tempDir } from './helpers/cli.js';

const T0 = Date.parse('2026-03-02T09:30:00.000Z');

function options(patch: Partial<BankRunOptions> = {}): BankRunOptions {
  return {
    inputPath: 'in.csv', outputPath: 'out.csv', mode: 'pl', resume: false, retryUnconfirmed: false,
    concurrency: 1, columns: {}, pricePl: 1, pricePd: 2, dryRun: false, ...patch,
  };
}

function memoryStore(t: TestContext, now = () => T0): BankStore {
  const db = openDatabase(':memory:');
  const store = new BankStore(db, now);
  t.after(() => {
    store.close();
    db.close();
  });
  return store;
}

/** The ledger of run `runId` (null: a dry run), holding the state's run lock as a run does. */
function ledgerOf(store: BankStore, runId: number | null, payees: LivePayees, summary: ReturnType<typeof createSummary>, dryRun = false): PayeeLedger {
  if (!dryRun) assert.equal(store.acquireLock(lockIdentity(process.pid), SYSTEM_PROBE).ok, true);
  return new PayeeLedger({ store, runId, dryRun, payees, summary, now: () => T0, clock: new ApiClock(() => T0), depositMemoryMs: 90 * 86_400_000, retryUnconfirmed: false });
}

function deps(store: BankStore, patch: Partial<BankRunDeps> = {}): BankRunDeps {
  return {
    client: undefined, store, now: () => T0, stopSignal: new AbortController().signal,
    log: { info: () => {}, warn: () => {} }, pid: process.pid, isAlive: () => true, ...patch,
  };
}

// ---- summary ----

test('summary: the exit code from how the run ended', () => {
  assert.equal(exitCodeOf(null, true, false), 0);
  assert.equal(exitCodeOf(null, false, false), 3);
  assert.equal(exitCodeOf(null, false, true), 0, 'a dry run is never incomplete');
  for (const reason of ['breaker', 'auth', 'tls', 'fatal'] as const) assert.equal(exitCodeOf(reason, true, false), 1);
  for (const reason of ['signal', 'max-calls', 'max-spend'] as const) assert.equal(exitCodeOf(reason, true, false), 3);
  const summary = createSummary(options());
  assert.equal(allFinal(summary), true);
  countRow(summary, { status: 'DEFERRED', reason: '', source: 'api', result: undefined, requestId: '' });
  countRow(summary, { status: 'INVALID', reason: '', source: 'local', result: undefined, requestId: '' });
  assert.equal(summary.rows, 2);
  assert.deepEqual(summary.sources, { api: 1, reuse: 0, duplicate: 0, local: 1 });
  assert.equal(allFinal(summary), false);
});

// ---- stop ----

test('stop: the first reason wins, listeners hear it once, a signal already aborted stops at once', () => {
  const stop = new StopControl(10);
  let heard = 0;
  stop.whenStopped(() => (heard += 1));
  stop.stop('breaker', 'down');
  stop.stop('signal', 'later');
  assert.equal(stop.reason, 'breaker');
  assert.equal(stop.message, 'down');
  assert.equal(heard, 1);
  const aborted = new AbortController();
  aborted.abort();
  const other = new StopControl(10);
  other.follow(aborted.signal).detach();
  assert.equal(other.reason, 'signal');
});

// ---- caller ----

test('breaker: an unreachable API stops at once; a service that never worked after 3; otherwise at the threshold', () => {
  const refused = VasError.network({ code: 'refused', message: 'refused 1234567890' });
  assert.match(new Breaker(10).failed(refused)!, /cannot reach the API: refused x+7890/);
  const down = VasError.unavailable({ message: 'Service Not Available', status: 503 });
  const fresh = new Breaker(10);
  for (let i = 1; i < FAIL_FAST_THRESHOLD; i += 1) assert.equal(fresh.failed(down), undefined);
  assert.match(fresh.failed(down)!, /3 call\(s\) in a row failed/);
  const worked = new Breaker(5);
  worked.succeeded();
  for (let i = 1; i < 5; i += 1) assert.equal(worked.failed(down), undefined);
  assert.match(worked.failed(down)!, /5 call\(s\) in a row/);
  worked.answered();
  assert.equal(worked.failed(down), undefined, 'an answer resets the count');
});

test('stop: any stop aborts the turns waited for in the rate limiter', () => {
  const stop = new StopControl(10);
  assert.equal(stop.turnAbort.signal.aborted, false);
  stop.stop('max-calls', 'budget');
  assert.equal(stop.turnAbort.signal.aborted, true);
  assert.equal(stop.callAbort.signal.aborted, false, 'calls in flight are not cancelled by a budget stop');
});

test('caller with --rate: each request takes its turn; a payee still waiting when the run stops is never marked or counted', async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const client = createClient({ baseUrl: sandbox.url, token: 'sandbox-token' });
  t.after(() => client.close());
  const store = memoryStore(t);
  const runId = store.createRun('f', 'pl', 'in.csv').id;
  const opts = options({ rate: 1, concurrency: 2 });
  const summary = createSummary(opts);
  const payees = new LivePayees();
  const ledger = ledgerOf(store, runId, payees, summary);
  const stop = new StopControl(10);
  const limiter = new RateLimiter({ rate: 1 });
  t.after(() => limiter.close());
  let settled = 0;
  const caller = new Caller({
    options: opts, client, ledger, stats: store, payees, summary, stop, limiter, now: () => T0, clock: new ApiClock(() => T0),
    log: { info: () => {}, warn: () => {} }, onSettled: () => {
      settled += 1;
      // The first answer stops the run: the second payee is still waiting for its turn (1/s).
      stop.stop('signal', 'stopped by signal');
    },
  });
  const task = (account: string, firstRow: number): PayeeTask => {
    const created: PayeeTask = { payee: `${account}|SBIN0001234`, firstRow, stored: false, account, ifsc: 'SBIN0001234', outcome: undefined };
    payees.add(created);
    return created;
  };
  const first = task('100000000012', 1);
  const second = task('100000000022', 2);
  caller.dispatch(first);
  caller.dispatch(second);
  await caller.settled();
  assert.equal(settled, 2);
  assert.equal(first.outcome?.status, 'VERIFIED');
  assert.equal(second.outcome, undefined);
  assert.equal(second.stored, false, 'never marked IN_FLIGHT');
  assert.equal(summary.calls.pl, 1);
});

test('caller: with --rate, the limiter paces the last second of requests with a wider margin, once the input is read', async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const client = createClient({ baseUrl: sandbox.url, token: 'sandbox-token' });
  t.after(() => client.close());
  const rate = 20;
  for (const inputEnds of [true, false]) {
    const store = memoryStore(t);
    const runId = store.createRun('f', 'pl', 'in.csv').id;
    const opts = options({ rate, concurrency: 64 });
    const summary = createSummary(opts);
    const payees = new LivePayees();
    const ledger = ledgerOf(store, runId, payees, summary);
    const stop = new StopControl(10);
    const limiter = new RateLimiter({ rate });
    const finishedAt: number[] = [];
    const finishing = limiter.finishing.bind(limiter);
    limiter.finishing = () => {
      finishedAt.push(summary.calls.pl);
      finishing();
    };
    const caller = new Caller({ options: opts, client, ledger, stats: store, payees, summary, stop, limiter, now: () => T0, clock: new ApiClock(() => T0), log: { info: () => {}, warn: () => {} }, onSettled: () => {} });
    const total = 30;
    for (let i = 0; i < total; i += 1) {
      const account = String(100_000_000_012 + i * 10);
      const task: PayeeTask = { payee: `${account}|SBIN0001234`, firstRow: i + 1, stored: false, account, ifsc: 'SBIN0001234', outcome: undefined };
      payees.add(task);
      caller.dispatch(task);
    }
    if (inputEnds) caller.inputEnded();
    assert.deepEqual(finishedAt, [], 'not while more than a second of requests is left');
    await caller.settled();
    await limiter.close();
    assert.equal(summary.calls.pl, total);
    if (!inputEnds) {
      assert.deepEqual(finishedAt, [], 'never before the input is read');
      continue;
    }
    assert.equal(finishedAt.length, 1, 'said once');
    // When it was said, at most a second of requests was left to send.
    assert.ok(total - finishedAt[0]! <= rate * FINISH_SECONDS, `said with ${total - finishedAt[0]!} requests left`);
    assert.ok(finishedAt[0]! <= total - rate * FINISH_SECONDS + 2, `said late: ${finishedAt[0]} of ${total} sent`);
  }
});

test('caller: answers a payee over HTTP, defers every payee of an account at its daily limit', async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const client = createClient({ baseUrl: sandbox.url, token: 'sandbox-token' });
  t.after(() => client.close());
  const store = memoryStore(t);
  const runId = store.createRun('f', 'pl', 'in.csv').id;
  const summary = createSummary(options());
  const payees = new LivePayees();
  const ledger = ledgerOf(store, runId, payees, summary);
  const stop = new StopControl(10);
  let settled = 0;
  const caller = new Caller({
    options: options(), client, ledger, stats: store, payees, summary, stop, limiter: undefined, now: () => T0, clock: new ApiClock(() => T0),
    log: { info: () => {}, warn: () => {} }, onSettled: () => (settled += 1),
  });
  const task = (account: string, firstRow: number): PayeeTask => {
    const created: PayeeTask = { payee: `${account}|SBIN0001234`, firstRow, stored: false, account, ifsc: 'SBIN0001234', outcome: undefined };
    payees.add(created);
    return created;
  };
  const plain = task('100000000012', 1);
  const limited = task('100000000092', 2);
  caller.dispatch(plain);
  caller.dispatch(limited);
  await caller.settled();
  assert.equal(settled, 2);
  assert.equal(plain.outcome?.status, 'VERIFIED');
  assert.equal(limited.outcome?.status, 'DEFERRED');
  assert.equal(payees.deferredUntil('100000000092'), Date.parse('2026-03-02T18:30:00.000Z'));
  assert.deepEqual(summary.calls, { pl: 2, pd: 0 });
  assert.equal(store.getPayee(runId, '100000000092', 'SBIN0001234')?.status, 'DEFERRED');
  assert.equal(stop.reason, null);
});

test('caller: the reader waits while QUEUED_PAYEES payees wait for a place, and goes on as they get one', async (t) => {
  const sandbox = await startSandbox({ latencyMs: 50 });
  t.after(() => sandbox.close());
  const client = createClient({ baseUrl: sandbox.url, token: 'sandbox-token' });
  t.after(() => client.close());
  const store = memoryStore(t);
  const runId = store.createRun('f', 'pl', 'in.csv').id;
  const opts = options({ concurrency: 2 });
  const summary = createSummary(opts);
  const payees = new LivePayees();
  const ledger = ledgerOf(store, runId, payees, summary);
  const stop = new StopControl(10);
  const caller = new Caller({ options: opts, client, ledger, stats: store, payees, summary, stop, limiter: undefined, now: () => T0, clock: new ApiClock(() => T0), log: { info: () => {}, warn: () => {} }, onSettled: () => {} });
  const total = QUEUED_PAYEES + 2 + 3;
  for (let i = 0; i < total; i += 1) {
    const account = String(200_000_000_012 + i * 10);
    const task: PayeeTask = { payee: `${account}|SBIN0001234`, firstRow: i + 1, stored: false, account, ifsc: 'SBIN0001234', outcome: undefined };
    payees.add(task);
    caller.dispatch(task);
  }
  // Two in flight, the rest queued: more than QUEUED_PAYEES, so a reader would wait.
  let roomAt = 0;
  const room = caller.waitForQueueRoom().then(() => (roomAt = sandbox.stats().requests['account-verification-pl'] ?? 0));
  await room;
  assert.ok(roomAt >= 3, `room before ${total - QUEUED_PAYEES} payees had their place (${roomAt} answered)`);
  stop.stop('signal', 'stopped by signal');
  await caller.settled();
  await caller.waitForQueueRoom();
});

// ---- plan ----

test('plan: local checks, a later row of a payee joins the first, a dry run counts what it would call', (t) => {
  const store = memoryStore(t);
  const header = ['name', 'account', 'ifsc'];
  const columns = { account: 1, ifsc: 2, name: 0 };
  const summary = createSummary(options({ dryRun: true }));
  const payees = new LivePayees();
  const ledger = ledgerOf(store, null, payees, summary, true);
  const dispatched: PayeeTask[] = [];
  const planner = new Planner({
    options: options({ dryRun: true }), store, runId: null, resumed: false, header, columns, payees, ledger, summary,
    now: () => T0, dispatch: (task) => dispatched.push(task),
  });
  const slot = (fields: string[], line: number): Slot => ({ line, row: line - 1, fields, size: 0, outcome: undefined, task: undefined, duplicate: false });
  const rows = [
    slot(['A', '100000000012', 'SBIN0001234'], 2),
    slot(['A again', '100000000012', 'sbin0001234'], 3),
    slot(['Bad', '1.23457E+11', 'SBIN0001234'], 4),
    slot(['Short'], 5),
  ];
  rows.forEach((s, i) => planner.plan(s, i + 1));
  assert.equal(dispatched.length, 0, 'a dry run calls nothing');
  assert.equal(summary.wouldCall.pl, 1);
  assert.equal(rows[0]!.task?.outcome?.reason, 'dry run');
  assert.equal(rows[1]!.outcome?.source, 'duplicate');
  assert.match(rows[2]!.outcome!.reason, /^line 4: account number is in scientific notation/);
  assert.match(rows[3]!.outcome!.reason, /^line 5 has 1 field\(s\), the header has 3/);
  assert.deepEqual(summary.avoided, { local: 2, duplicate: 1, reuse: 0, deferral: 0, hybrid: 0 });
});

test('plan: in a new run, a later row of a payee already answered joins it from the state; a payee never met is not looked up', (t) => {
  const store = memoryStore(t);
  const runId = store.createRun('f', 'pl', 'in.csv').id;
  const header = ['name', 'account', 'ifsc'];
  const columns = { account: 1, ifsc: 2, name: 0 };
  const summary = createSummary(options());
  const payees = new LivePayees();
  const ledger = ledgerOf(store, runId, payees, summary);
  const dispatched: PayeeTask[] = [];
  const planner = new Planner({
    options: options(), store, runId, resumed: false, header, columns, payees, ledger, summary,
    now: () => T0, dispatch: (task) => dispatched.push(task),
  });
  const lookups: string[] = [];
  const getPayee = store.getPayee.bind(store);
  store.getPayee = (run, account, ifsc) => {
    lookups.push(account);
    return getPayee(run, account, ifsc);
  };
  const slot = (fields: string[], line: number): Slot => ({ line, row: line - 1, fields, size: 0, outcome: undefined, task: undefined, duplicate: false });
  const first = slot(['A', '100000000012', 'SBIN0001234'], 2);
  planner.plan(first, 1);
  assert.equal(dispatched.length, 1);
  // Answered and written: it leaves the live payees, and only the state knows it now.
  const result = store.insertResult({
    account: '100000000012', ifsc: 'SBIN0001234', mode: 'pl', status: 'VERIFIED', reason: null, beneficiaryName: 'A', transactionRemark: null,
    bankName: null, bankBranch: null, bankCity: null, bankDistrict: null, bankState: null, bankMicr: null, bankIso3166: null, bankSwift: null,
    bankImps: null, bankNeft: null, bankRtgs: null, bankUpi: null, requestId: 'r1', verifiedAt: T0,
  });
  ledger.reuse(dispatched[0]!, result);
  assert.equal(payees.waitingFor('100000000012|SBIN0001234'), undefined);
  const later = slot(['A again', '100000000012', 'SBIN0001234'], 3);
  planner.plan(later, 2);
  assert.equal(later.duplicate, true);
  assert.equal(later.outcome?.source, 'duplicate');
  assert.equal(later.outcome?.status, 'VERIFIED');
  assert.equal(dispatched.length, 1, 'no second call for the payee');
  const fresh = ['100000000029', '100000000036', '100000000043'];
  fresh.forEach((account, i) => planner.plan(slot([`N${i}`, account, 'HDFC0000123'], 4 + i), 3 + i));
  assert.equal(dispatched.length, 4);
  assert.deepEqual(lookups, ['100000000012'], 'only the payee met before was looked up');
});

test('plan: the stored-payee scan reads the run in file order, a chunk at a time', (t) => {
  const store = memoryStore(t);
  const runId = store.createRun('f', 'pl', 'in.csv').id;
  const total = STORED_PAYEES_CHUNK + 10;
  for (let row = 1; row <= total; row += 2) store.insertPayee(runId, String(100000000 + row), 'SBIN0001234', row);
  const scan = new StoredPayees(store, runId);
  let found = 0;
  for (let row = 1; row <= total; row += 1) {
    const record = scan.at(row, String(100000000 + row), 'SBIN0001234');
    if (record) {
      found += 1;
      assert.equal(record.firstRow, row);
    }
  }
  assert.equal(found, Math.ceil(total / 2));
  assert.equal(scan.at(3, '100000003', 'SBIN0001234'), undefined, 'asked out of order, nothing');
});

// ---- ordered writer ----

test('ordered writer: rows leave in input order, whenever their payee is answered', async () => {
  const written: string[][] = [];
  const output: OutputSink = { writeRows: async (rows) => void written.push(...rows.map((r) => [...r])), commit: async () => {}, discard: async () => {} };
  const stop = new StopControl(10);
  const writer = new OrderedWriter(output, (slot, outcome) => [slot.fields[0]!, outcome.status, outcome.source], stop);
  const task: PayeeTask = { payee: 'p', firstRow: 1, stored: true, account: 'a', ifsc: 'i', outcome: undefined };
  const first = writer.admit(['first'], 2);
  first.task = task;
  const second = writer.admit(['second'], 3);
  second.outcome = { status: 'INVALID', reason: 'bad', source: 'local', result: undefined, requestId: '' };
  const third = writer.admit(['third'], 4);
  third.task = task;
  third.duplicate = true;
  writer.pump();
  await new Promise<void>((r) => setImmediate(r));
  assert.deepEqual(written, [], 'the oldest row waits for its payee');
  task.outcome = { status: 'VERIFIED', reason: '', source: 'api', result: undefined, requestId: 'r' };
  await writer.drain();
  assert.deepEqual(written, [['first', 'VERIFIED', 'api'], ['second', 'INVALID', 'local'], ['third', 'VERIFIED', 'duplicate']]);
  assert.equal(rowOutcome(third)?.source, 'duplicate');
  assert.ok(READ_AHEAD_ROWS >= 1024);
});

test('ordered writer: answers that arrive one by one are written as one batch once the gathering time has passed; drain writes at once', async () => {
  const batches: string[][][] = [];
  const output: OutputSink = { writeRows: async (rows) => void batches.push(rows.map((r) => [...r])), commit: async () => {}, discard: async () => {} };
  // A longer gathering than WRITE_GATHER_MS, so that a loaded machine's turns cannot outlast it.
  const gatherMs = 200;
  let finished = 0;
  const writer = new OrderedWriter(output, (slot, outcome) => [slot.fields[0]!, outcome.status], new StopControl(10), { gatherMs, finished: () => void (finished += 1) });
  const slots = Array.from({ length: 5 }, (_, i) => writer.admit([`row${i}`], i + 2));
  for (const slot of slots) {
    // Each answer in its own event-loop turn, as they come off the sockets.
    slot.outcome = { status: 'VERIFIED', reason: '', source: 'api', result: undefined, requestId: '' };
    writer.pump();
    await new Promise<void>((r) => setImmediate(r));
  }
  assert.deepEqual(batches, [], 'nothing is written before the gathering time');
  await new Promise<void>((r) => setTimeout(r, gatherMs + 20));
  assert.deepEqual(batches, [slots.map((_, i) => [`row${i}`, 'VERIFIED'])], 'five answers, one batch');
  assert.ok(finished >= 1, 'the batch\'s decisions are committed after it');
  assert.ok(WRITE_GATHER_MS > 0 && WRITE_GATHER_MS <= 20);
  // drain writes a gathering row at once: with a minute's gathering, it must not wait it out.
  const slow = new OrderedWriter(output, (slot, outcome) => [slot.fields[0]!, outcome.status], new StopControl(10), { gatherMs: 60_000 });
  const last = slow.admit(['last'], 2);
  last.outcome = { status: 'INVALID', reason: '', source: 'local', result: undefined, requestId: '' };
  slow.pump();
  await new Promise<void>((r) => setImmediate(r));
  assert.equal(batches.length, 1, 'gathering');
  const drained = await Promise.race([slow.drain().then(() => 'drained'), new Promise((r) => setTimeout(() => r('waited'), 5_000).unref())]);
  assert.equal(drained, 'drained');
  assert.deepEqual(batches.at(-1), [['last', 'INVALID']]);
});

test('ordered writer: with --rate R the rows read ahead cover R × READ_AHEAD_SECONDS (a 429\'s retry at the head does not stop the reader)', async () => {
  const stop = new StopControl(10);
  const roomFor = async (writer: OrderedWriter): Promise<number> => {
    let admitted = 0;
    for (;;) {
      const waited = await Promise.race([writer.waitForRoom().then(() => true), new Promise<boolean>((r) => setImmediate(() => r(false)))]);
      if (!waited) return admitted;
      writer.admit(['x'], admitted + 2);
      admitted += 1;
    }
  };
  assert.equal(await roomFor(new OrderedWriter(undefined, () => undefined, stop, { inFlight: 8 })), READ_AHEAD_ROWS);
  assert.equal(await roomFor(new OrderedWriter(undefined, () => undefined, stop, { inFlight: 2048 })), 4096);
  assert.equal(await roomFor(new OrderedWriter(undefined, () => undefined, stop, { inFlight: 2048, rate: 1500 })), 1500 * READ_AHEAD_SECONDS);
});

test('name verdict: nothing to match without both names; a cell longer than any name is NO_MATCH unmatched', () => {
  const matcher = () => ({ score: 100, result: 'DIRECT_MATCH' });
  assert.equal(nameVerdict('  ', 'RAVI', matcher), undefined);
  assert.equal(nameVerdict('Ravi', null, matcher), undefined);
  assert.deepEqual(nameVerdict('x'.repeat(MAX_NAME_CHARS + 1), 'RAVI', matcher), { score: 0, result: 'NO_MATCH' });
  assert.deepEqual(nameVerdict('Ravi', 'RAVI', matcher), { score: 100, result: 'DIRECT_MATCH' });
});

// ---- prepare ----

test('prepare: an empty file, a column the output appends (renamed), an unfinished run without --resume all stop before any call', async (t) => {
  const dir = tempDir(t);
  const empty = path.join(dir, 'empty.csv');
  fs.writeFileSync(empty, '');
  await assert.rejects(openInput(options({ inputPath: empty })), (e) => e instanceof InputError && /is empty: it needs a header row/.test(e.message));
  const clash = path.join(dir, 'clash.csv');
  fs.writeFileSync(clash, 'account,ifsc,verify_status\n100000000012,SBIN0001234,x\n');
  // A column the output appends is not a clash: the output's is written as vas_<name> (src/input/).
  const clashing = await openInput(options({ inputPath: clash }));
  clashing.close();
  assert.ok(clashing.appended.includes('vas_verify_status') && !clashing.appended.includes('verify_status'));
  assert.deepEqual(clashing.summary.renamed, { verify_status: 'vas_verify_status' });

  const good = path.join(dir, 'good.csv');
  fs.writeFileSync(good, 'account,ifsc\n100000000012,SBIN0001234\n');
  const store = memoryStore(t);
  const first = createSummary(options({ inputPath: good }));
  const input = await openInput(options({ inputPath: good }));
  const run = await chooseRun(options({ inputPath: good }), deps(store), input, first, () => {});
  input.close();
  run.release();
  assert.equal(first.resumed, false);
  assert.equal(typeof run.runId, 'number');
  const again = await openInput(options({ inputPath: good }));
  await assert.rejects(chooseRun(options({ inputPath: good }), deps(store), again, createSummary(options()), () => {}), (e) => e instanceof UsageError && /add --resume/.test(e.message));
  const resumed = createSummary(options({ inputPath: good, resume: true }));
  const third = await openInput(options({ inputPath: good }));
  const continued = await chooseRun(options({ inputPath: good, resume: true }), deps(store), third, resumed, () => {});
  third.close();
  continued.release();
  assert.equal(continued.runId, run.runId);
  assert.equal(resumed.resumed, true);
});
