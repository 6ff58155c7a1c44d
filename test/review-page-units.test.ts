/**
 * The review page's parts without a browser: the reader pages 100,000 rows through the decision
 * index (every page two short index scans, the rows in file order, forward and back, by reason);
 * the refusal rules of acceptances (one approval per reviewer) and the standing's words; and the
 * real CLI's server over HTTP: a foreign Host, a POST without the page's check value or not JSON
 * are refused, a bad flag is one line and exit 2, Ctrl-C stops it with exit 0.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import Database from 'better-sqlite3';
import { DEFAULT_POLICY } from '../src/decision/index.js';
import { refusal } from '../src/review/session.js';
import { standingView } from '../src/review/rows.js';
import { startSandbox } from '../src/sandbox/index.js';
import { openDatabase } from '../src/state/db.js';
import { ReviewReader } from '../src/state/review-reader.js';
import { RunRows } from '../src/state/run-rows.js';
import type { Db, ReviewRecord, RunRowRecord } from '../src/state/types.js';
import { runCli, spawnCli, tempDir, waitFor } from './helpers/cli.js';

const ROWS = 100_000;

/** Row n's decision: every 7th REVIEW (NAME_CLOSE), every 11th HOLD (NAME_MISMATCH, or NOT_FINAL every 3rd of those), the rest PAY. */
function decisionOf(n: number): { decision: string; reason: string } {
  if (n % 7 === 0) return { decision: 'REVIEW', reason: 'NAME_CLOSE' };
  if (n % 11 === 0) return { decision: 'HOLD', reason: n % 3 === 0 ? 'NOT_FINAL' : 'NAME_MISMATCH' };
  return { decision: 'PAY', reason: 'NAME_MATCH' };
}

function bigRun(t: TestContext): { db: Db; statements: string[] } {
  const statements: string[] = [];
  const db = openDatabase(':memory:');
  t.after(() => db.close());
  db.prepare(`INSERT INTO runs (id, fingerprint, mode, input_name, created_at, updated_at) VALUES (1, 'f', 'pl', 'big.csv', 0, 0)`).run();
  const rows = new RunRows(db);
  db.transaction(() => {
    for (let n = 1; n <= ROWS; n += 1) {
      const { decision, reason } = decisionOf(n);
      rows.save({
        runId: 1, row: n, line: n + 1, account: String(100_000_000_000 + n), ifsc: 'HDFC0000123', name: `Payee ${n}`, amount: null,
        status: 'VERIFIED', reasonCode: 'OK', nameMatch: null, nameScore: null, decision, decisionReason: reason,
      });
    }
  })();
  // The reader's own statements, as it prepares them, for their query plans.
  const prepare = db.prepare.bind(db);
  (db as { prepare: Db['prepare'] }).prepare = ((sql: string) => {
    statements.push(sql);
    return prepare(sql);
  }) as Db['prepare'];
  return { db, statements };
}

test('the reader pages 100,000 rows by the decision index: every REVIEW/HOLD row once, in file order, forward and back, by reason', (t) => {
  const { db, statements } = bigRun(t);
  const reader = new ReviewReader(db);
  const expected = Array.from({ length: ROWS }, (_, i) => i + 1).filter((n) => decisionOf(n).decision !== 'PAY');

  const forward: number[] = [];
  for (let after = 0, page: RunRowRecord[]; (page = reader.page(1, {}, 200, { after })).length > 0; after = page[page.length - 1]!.row) {
    assert.ok(page.length <= 200);
    forward.push(...page.map((r) => r.row));
  }
  assert.deepEqual(forward, expected);

  const backward: number[] = [];
  for (let before = ROWS + 1, page: RunRowRecord[]; (page = reader.page(1, {}, 200, { before })).length > 0; before = page[0]!.row) backward.unshift(...page.map((r) => r.row));
  assert.deepEqual(backward, expected);

  const notFinal = reader.page(1, { decision: 'HOLD', reason: 'NOT_FINAL' }, 200, { after: 0 }).map((r) => r.row);
  assert.deepEqual(notFinal, expected.filter((n) => decisionOf(n).reason === 'NOT_FINAL').slice(0, 200));
  assert.deepEqual(reader.page(1, { reason: 'NAME_CLOSE' }, 3, { after: 7 }).map((r) => r.row), [14, 21, 28]);
  assert.deepEqual(
    reader.counts(1),
    [
      { decision: 'HOLD', reason: 'NAME_MISMATCH', n: expected.filter((n) => decisionOf(n).reason === 'NAME_MISMATCH').length },
      { decision: 'HOLD', reason: 'NOT_FINAL', n: expected.filter((n) => decisionOf(n).reason === 'NOT_FINAL').length },
      { decision: 'REVIEW', reason: 'NAME_CLOSE', n: expected.filter((n) => decisionOf(n).reason === 'NAME_CLOSE').length },
    ],
  );

  // Each page statement seeks the index: no scan of the run's rows, no sort of them.
  const pageStatements = statements.filter((sql) => /FROM run_rows .*row [<>] \?/s.test(sql));
  assert.equal(pageStatements.length, 2);
  for (const sql of pageStatements) {
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(1, 'HOLD', null, null, 0, 200) as { detail: string }[]).map((p) => p.detail).join('\n');
    assert.match(plan, /SEARCH run_rows USING (COVERING )?INDEX run_rows_by_decision \(run_id=\? AND decision=\? AND row[<>]\?\)/, plan);
    assert.doesNotMatch(plan, /TEMP B-TREE/, plan);
  }
});

const row = (over: Partial<RunRowRecord> = {}): RunRowRecord => ({
  runId: 1, row: 3, line: 4, account: '300000000011', ifsc: 'HDFC0000123', name: 'Sunita Devi', amount: null, status: 'VERIFIED',
  reasonCode: 'OK', nameMatch: 'MODERATE_PARTIAL_MATCH', nameScore: 60, decision: 'REVIEW', decisionReason: 'NAME_CLOSE', ...over,
});
const evidence = (holder: string | null) => ({
  firstRow: 3, resultId: 1, resultStatus: 'VERIFIED', beneficiaryName: holder, changedSince: null, requestId: 'r', bankName: null, bankBranch: null, bankCity: null, verifiedAt: 0,
});
/** A review given on row() (Reviews.ofPayee reads its row's payee name with it: an acceptance is for that name). */
const review = (reviewer: string, verdict: 'ACCEPTED' | 'REJECTED', holder = 'SUNITA KUMARI', note: string | null = null): ReviewRecord & { payeeName: string; payeeKnown: number } => ({
  id: 1, account: '300000000011', ifsc: 'HDFC0000123', holder, verdict, reviewer, note, runId: 1, row: 3, at: 0, payeeName: 'Sunita Devi', payeeKnown: 1,
});

test('acceptances: refused where they cannot pay, and once per reviewer; rejections once', () => {
  const two = { ...DEFAULT_POLICY, approvals: 2 as const };
  const accepted = (reviewers: string[]) => ({ verdict: 'ACCEPTED' as const, reviewers, reviews: [], approvals: 1 });
  const cases: [string, Parameters<typeof refusal>, string | null][] = [
    ['a first acceptance', ['ACCEPTED', row(), evidence('SUNITA KUMARI'), undefined, 'asha', DEFAULT_POLICY], null],
    ['no payee (local checks failed)', ['ACCEPTED', row({ account: null, ifsc: null }), undefined, undefined, 'asha', DEFAULT_POLICY], 'the row failed its local checks: correct it in the file'],
    ['not verified', ['ACCEPTED', row({ status: 'NOT_VERIFIED' }), evidence(null), undefined, 'asha', DEFAULT_POLICY], 'the account is NOT_VERIFIED: only a verified account can be accepted'],
    ['no holder name', ['ACCEPTED', row(), evidence(null), undefined, 'asha', DEFAULT_POLICY], 'the bank gave no holder name: there is nothing to accept'],
    ['accepted already, one approval', ['ACCEPTED', row(), evidence('SUNITA KUMARI'), accepted(['asha']), 'asha', DEFAULT_POLICY], 'already accepted by asha'],
    ['the same reviewer twice, two approvals', ['ACCEPTED', row(), evidence('SUNITA KUMARI'), accepted(['asha']), 'asha', two], 'asha already accepted this holder: a second, different reviewer must approve it'],
    ['a second reviewer, two approvals', ['ACCEPTED', row(), evidence('SUNITA KUMARI'), accepted(['asha']), 'ravi', two], null],
    ['a third reviewer', ['ACCEPTED', row(), evidence('SUNITA KUMARI'), accepted(['asha', 'ravi']), 'meena', two], 'already accepted by asha, ravi'],
    ['a rejection of an accepted payee', ['REJECTED', row(), evidence('SUNITA KUMARI'), accepted(['asha']), 'ravi', two], null],
    ['a rejection of a row without an answer', ['REJECTED', row({ status: 'FAILED' }), evidence(null), undefined, 'ravi', DEFAULT_POLICY], null],
    ['a second rejection', ['REJECTED', row(), evidence('SUNITA KUMARI'), { verdict: 'REJECTED', reviewers: ['asha'], reviews: [], approvals: 1 }, 'ravi', DEFAULT_POLICY], 'already rejected by asha'],
  ];
  for (const [what, args, expected] of cases) assert.equal(refusal(...args), expected, what);
});

test("the standing in words: decide() over the payee's reviews for the holder it has now", () => {
  const two = { ...DEFAULT_POLICY, approvals: 2 as const };
  assert.equal(standingView(row(), evidence('SUNITA KUMARI'), [], DEFAULT_POLICY).text, 'REVIEW · NAME_CLOSE · not reviewed yet');
  assert.equal(standingView(row(), evidence('SUNITA KUMARI'), [review('asha', 'ACCEPTED')], DEFAULT_POLICY).text, 'PAY · REVIEW_ACCEPTED · accepted by asha');
  const awaiting = standingView(row(), evidence('SUNITA KUMARI'), [review('asha', 'ACCEPTED', 'SUNITA KUMARI', 'her married name')], two);
  assert.equal(awaiting.text, 'REVIEW · AWAITING_APPROVAL · accepted by asha — awaiting a second approval');
  assert.equal(awaiting.awaiting, true);
  assert.equal(awaiting.note, 'her married name');
  assert.equal(standingView(row(), evidence('SUNITA KUMARI'), [review('asha', 'ACCEPTED'), review('ravi', 'ACCEPTED')], two).text, 'PAY · REVIEW_ACCEPTED · accepted by asha, ravi');
  // An acceptance is for one holder: a new holder needs a new look.
  assert.equal(standingView(row(), evidence('VIKRAM SINGH'), [review('asha', 'ACCEPTED')], DEFAULT_POLICY).text, 'REVIEW · NAME_CLOSE · not reviewed yet');
  assert.equal(standingView(row(), evidence('SUNITA KUMARI'), [review('asha', 'ACCEPTED'), review('ravi', 'REJECTED')], DEFAULT_POLICY).text, 'HOLD · REVIEW_REJECTED · rejected by ravi');
});

/** An HTTP request with any headers (fetch will not send a Host of our choosing). */
function request(url: string, options: { method?: string; headers?: Record<string, string>; body?: string }): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

test('the CLI: bad flags are one line and exit 2; the server refuses a foreign Host, a POST without the check value or not JSON, says when a busy state kept nothing; Ctrl-C stops it with exit 0', { timeout: 120_000 }, async (t) => {
  const dir = tempDir(t);
  for (const [args, message] of [
    [['--approvals', '3'], /^error: --approvals must be 1 or 2\n$/],
    [['--port', '70000'], /^error: --port must be a port number/],
    [['--reviewer', ' '], /^error: --reviewer must name the reviewer\n$/],
    [['--state', 'missing.sqlite'], /^error: state file missing\.sqlite does not exist: give the --state of the run\n$/],
  ] as const) {
    const result = await runCli(['review', ...args], { cwd: dir });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, message);
  }

  fs.writeFileSync(path.join(dir, 'payees.csv'), 'Name,Account Number,IFSC\nAsha Traders,300000000044,HDFC0000123\nAnil Gupta,300000000066,KKBK0000958\n');
  const sandbox = await startSandbox({ accounts: [{ accountNumber: '300000000044', ifsc: 'HDFC0000123', name: 'RAVI KUMAR' }, { accountNumber: '300000000066', ifsc: 'KKBK0000958', name: 'ANIL GUPTA' }] });
  t.after(() => sandbox.close());
  const run = await runCli(['bank', 'payees.csv', '-o', 'out.csv', '--state', 'state.sqlite', '--base-url', sandbox.url], { cwd: dir });
  assert.equal(run.code, 0, run.stderr);
  const noRun = await runCli(['review', '--state', 'state.sqlite', '--run', '9'], { cwd: dir });
  assert.equal(noRun.code, 2);
  assert.match(noRun.stderr, /^error: state file state\.sqlite has no run 9: leave out --run for the newest\n$/);

  const spawned = spawnCli(['review', '--state', 'state.sqlite', '--reviewer', 'asha'], { cwd: dir });
  t.after(() => {
    if (spawned.child.exitCode === null) spawned.child.kill('SIGKILL');
  });
  await waitFor(() => spawned.stdout().includes('\n'), 60_000, 'the URL');
  const url = new URL(spawned.stdout().trim());
  // A page reached by another name (DNS rebinding): refused, even with the token.
  assert.equal((await request(url.href, { headers: { host: `attacker.example:${url.port}` } })).status, 403);
  const signIn = await request(url.href, {});
  assert.equal(signIn.status, 303);
  assert.equal(signIn.headers.location, '/');
  const cookie = String(signIn.headers['set-cookie']).split(';')[0]!;
  assert.match(String(signIn.headers['set-cookie']), /; HttpOnly; SameSite=Strict; Path=\/$/);
  const page = await request(`${url.origin}/`, { headers: { cookie } });
  assert.equal(page.status, 200);
  const csrf = /data-csrf="([^"]+)"/.exec(page.body)![1]!;
  const seen = /data-row="1"[^>]*data-seen="([^"]+)"/.exec(page.body)![1]!;
  const reviewed = Number(/data-row="1"[^>]*data-reviewed="(\d+)"/.exec(page.body)![1]!);
  assert.equal(reviewed, 0, 'nobody reviewed the payee yet');
  const post = (headers: Record<string, string>, rows: unknown = [{ row: 1, seen, reviewed }]) =>
    request(`${url.origin}/api/decide`, { method: 'POST', headers: { cookie, origin: url.origin, 'content-type': 'application/json', ...headers }, body: JSON.stringify({ verdict: 'REJECTED', rows }) });
  assert.equal((await post({})).status, 403, 'no check value');
  assert.equal((await post({ 'x-review-csrf': 'guess' })).status, 403, 'a wrong check value');
  assert.equal((await post({ 'x-review-csrf': csrf, 'content-type': 'text/plain' })).status, 403, 'not JSON (a form could send it)');
  assert.equal((await post({ 'x-review-csrf': csrf, 'sec-fetch-site': 'cross-site' })).status, 403, 'from another site');
  assert.equal((await post({ 'x-review-csrf': csrf }, [1])).status, 400, 'a row without the stamp of what the page showed');
  const ok = await post({ 'x-review-csrf': csrf });
  assert.equal(ok.status, 200, ok.body);
  const answered = (JSON.parse(ok.body) as { results: { row: number; ok: boolean; reviewed: number }[] }).results;
  assert.deepEqual(answered.map((r) => [r.row, r.ok]), [[1, true]]);
  assert.ok(answered[0]!.reviewed > 0, 'the answer carries the review it recorded');
  // The same page's view from before its decision (another tab of this review): refused, not recorded.
  const stale = await post({ 'x-review-csrf': csrf });
  assert.equal(stale.status, 200, stale.body);
  assert.match(JSON.parse(stale.body).results[0].message as string, /^the payee changed since this page was drawn \(decided by another reviewer, or on another tab or window of this review\): reload the page/);

  // The state held by another writer past its busy timeout: the page is told nothing was kept, the server lives on.
  const holder = new Database(path.join(dir, 'state.sqlite'));
  holder.prepare('BEGIN IMMEDIATE').run();
  const busy = await post({ 'x-review-csrf': csrf });
  holder.prepare('ROLLBACK').run();
  holder.close();
  assert.equal(busy.status, 500);
  assert.match(JSON.parse(busy.body).error as string, /^not recorded: database is locked/);
  assert.equal((await request(`${url.origin}/`, { headers: { cookie } })).status, 200);

  spawned.child.kill('SIGINT');
  const result = await spawned.result;
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stderr, /review stopped \(signal\): 1 decision\(s\) recorded in the state file/);
  assert.doesNotMatch(result.stderr, new RegExp(url.searchParams.get('token')!), 'the token is printed once, on stdout only');
});

test("the policy: the run's own where the state keeps it (migration 8), else the default; --approvals raises it, never lowers", async () => {
  const { runPolicy } = await import('../src/review/index.js');
  assert.deepEqual(runPolicy(null, undefined), { policy: DEFAULT_POLICY, source: 'default (the run recorded none)' });
  assert.deepEqual(runPolicy(null, 2), { policy: { ...DEFAULT_POLICY, approvals: 2 }, source: 'default (the run recorded none)' });
  const stored = JSON.stringify({ ...DEFAULT_POLICY, approvals: 2, noNameToCheck: 'HOLD' });
  assert.deepEqual(runPolicy(stored, undefined), { policy: { ...DEFAULT_POLICY, approvals: 2, noNameToCheck: 'HOLD' }, source: "the run's own (its --policy file)" });
  assert.equal(runPolicy(stored, 1).policy.approvals, 2, "a company's controls never ask fewer approvals than the run's policy");
  assert.throws(() => runPolicy('not json', undefined), /cannot read \(it is not JSON\)/);
});
