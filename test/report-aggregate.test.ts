/**
 * The report's aggregates (src/report/aggregate.ts) over a state written through BankStore,
 * exactly as a run writes it: counts by outcome, changed holders with before and after, the
 * capped action lists, calls, reasons and the timeline; then the page rendered from them.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import { openDatabase } from '../src/state/db.js';
import { BankStore } from '../src/state/bank-store.js';
import { lockIdentity, SYSTEM_PROBE } from '../src/state/run-lock.js';
import type { NewResult } from '../src/state/types.js';
import { chooseBinMs, latestRunId, readRunAggregates } from '../src/report/aggregate.js';
import { buildReport } from '../src/report/build.js';
import { renderReport, CSP } from '../src/report/render.js';
import { escapeHtml, maskAccountNumber, maskLongDigits } from '../src/report/escape.js';
import { scanOutput } from '../src/report/output-scan.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');
const DAY = 86_400_000;

function result(account: string, ifsc: string, status: NewResult['status'], name: string | null, at: number, reason: string | null = null): NewResult {
  return {
    account, ifsc, mode: 'pd', status, reason, beneficiaryName: name, transactionRemark: null, bankName: null, bankBranch: null,
    bankCity: null, bankDistrict: null, bankState: null, bankMicr: null, bankIso3166: null, bankSwift: null, bankImps: null,
    bankNeft: null, bankRtgs: null, bankUpi: null, requestId: `req-${account.slice(-2)}`, verifiedAt: at,
  };
}

/** A penny-drop run of eleven payees, one of each kind, with a clock the test moves. */
function buildState(t: TestContext) {
  let clock = T0 - 10 * DAY;
  const db = openDatabase(':memory:');
  const store = new BankStore(db, () => clock);
  store.acquireLock(lockIdentity(process.pid), SYSTEM_PROBE); // a claim is made under the run lock
  t.after(() => {
    store.close();
    db.close();
  });
  // An earlier check: A belonged to RAVI KUMAR; D's result is reused.
  const earlierA = store.insertResult(result('111111111101', 'SBIN0000001', 'VERIFIED', 'RAVI KUMAR', clock));
  const earlierD = store.insertResult(result('111111111104', 'SBIN0000001', 'VERIFIED', 'DEEPA NAIR', clock));
  assert.equal(earlierA.changedSince, null);

  clock = T0;
  const run = store.createRun('fp-123', 'pd', 'payees.csv').id;
  const call = (idx: number, account: string) => store.claim({ runId: run, account: account, ifsc: 'SBIN0000001', firstRow: idx, mode: 'pd', stored: false, retryUnconfirmed: false });
  const answer = (idx: number, account: string, status: NewResult['status'], name: string | null, reason: string | null = null) => {
    call(idx, account);
    const r = store.insertResult(result(account, 'SBIN0000001', status, name, clock, reason));
    store.markDone(run, idx, 'api', r.id, r.requestId);
  };
  clock = T0 + 1_000;
  answer(1, '111111111101', 'VERIFIED', 'SURESH PATEL'); // the holder changed
  answer(2, '111111111102', 'NOT_VERIFIED', null, 'Account closed or does not exist');
  answer(3, '111111111103', 'INVALID', null, 'Invalid Account Number');
  store.insertPayee(run, '111111111104', 'SBIN0000001', 4);
  store.markDone(run, 4, 'reuse', earlierD.id, earlierD.requestId);
  clock = T0 + 20_000;
  for (const idx of [5, 6, 7]) {
    call(idx, `11111111110${idx}`);
    store.markStatus(run, idx, 'FAILED', `Service Not Available (HTTP 503, request id r-${idx})`, `r-${idx}`);
  }
  call(8, '111111111108');
  store.markStatus(run, 8, 'UNCONFIRMED', 'no readable answer to the penny-drop request (socket hang up) for 111111111108', 'r-8');
  store.insertPayee(run, '111111111109', 'SBIN0000001', 9);
  store.markStatus(run, 9, 'DEFERRED', 'daily transaction limit reached', null, T0 + DAY);
  store.insertPayee(run, '111111111110', 'SBIN0000001', 10);
  clock = T0 + 40_000;
  call(11, '111111111111');
  store.flushSync();
  return { db, run, store };
}

test('aggregates: counts by outcome, calls, reuse, changed holders and capped lists', (t) => {
  const { db, run } = buildState(t);
  assert.equal(latestRunId(db), run);
  const agg = readRunAggregates(db, run, 2);
  assert.equal(agg.run.inputName, 'payees.csv');
  assert.equal(agg.run.mode, 'pd');
  assert.equal(agg.run.startedAt, T0);
  assert.equal(agg.run.updatedAt, T0 + 40_000);
  assert.deepEqual(agg.payeeStatuses, { VERIFIED: 2, NOT_VERIFIED: 1, INVALID: 1, DEFERRED: 1, FAILED: 3, UNCONFIRMED: 1, SKIPPED: 0, PENDING: 1, IN_FLIGHT: 1 });
  assert.deepEqual(agg.calls, { pl: 0, pd: 8 });
  assert.equal(agg.reused, 1);

  assert.equal(agg.changedHolders.total, 1);
  const changed = agg.changedHolders.items[0]!;
  assert.equal(changed.row, 1);
  assert.equal(changed.account, '••••1101');
  assert.equal(changed.beforeName, 'RAVI KUMAR');
  assert.equal(changed.beforeAt, T0 - 10 * DAY);
  assert.equal(changed.afterName, 'SURESH PATEL');
  assert.match(changed.description, /RAVI KUMAR" -> "SURESH PATEL/);

  assert.equal(agg.failed.total, 3);
  assert.deepEqual(agg.failed.items.map((i) => i.row), [5, 6]);
  assert.equal(agg.unconfirmed.total, 1);
  assert.equal(agg.unconfirmed.items[0]!.reason, 'no readable answer to the penny-drop request (socket hang up) for ••••1108', 'account numbers in reasons are masked');
  assert.equal(agg.deferred.items[0]!.dueAt, T0 + DAY);

  // The request id that makes every failure's text unique is left out of the grouping.
  assert.deepEqual(agg.topReasons[0], { reason: 'Service Not Available', count: 3 });
  assert.ok(agg.topReasons.some((r) => r.reason === 'no readable answer to the penny-drop request' && r.count === 1));
  assert.ok(agg.topReasons.some((r) => r.reason === 'Account closed or does not exist'));

  const bins = agg.timeline.bins;
  assert.equal(agg.timeline.binMs, chooseBinMs(40_001));
  assert.equal(bins.reduce((a, b) => a + b.answered, 0), 3, 'answers from the API (not the reused one)');
  assert.equal(bins.reduce((a, b) => a + b.failed, 0), 3);
  assert.equal(bins.reduce((a, b) => a + b.unconfirmed, 0), 1);
  assert.equal(bins[1]!.answered, 3, 'answered one second in, one-second bins');
  for (const id of [0, 999]) assert.throws(() => readRunAggregates(db, id, 2), /not in this state file \(runs: 1\)/);
});

test('report from the state alone: payees, unfinished, resume command, no raw account number', (t) => {
  const { db, run } = buildState(t);
  const report = buildReport(readRunAggregates(db, run, 2), { generatedAt: T0 + 60_000, toolVersion: '9.9.9', registry: null, stateArg: 's.sqlite' });
  assert.equal(report.statusUnit, 'payees');
  assert.equal(report.finished, false);
  assert.equal(report.action.notReached, 2);
  assert.equal(report.nameMatch, null);
  assert.equal(report.spend.amount, null);
  assert.match(report.resumeCommand, /^vas-verify bank payees\.csv .*--mode pd --resume --state s\.sqlite$/);
  const html = renderReport(report);
  assert.ok(html.includes(`content="${CSP.replace(/'/g, '&#39;')}"`), 'the CSP meta forbids loading anything');
  assert.ok(!/<script/i.test(html));
  assert.ok(!html.includes('111111111'), 'no account number appears unmasked');
  assert.match(html, /data-testid="state" data-finished="false"/);
  assert.match(html, /<g data-key="FAILED" data-count="3">/);
  assert.match(html, /<g data-key="PENDING" data-count="2">/);
  assert.match(html, /…and 1 more payee\(s\)\. All their rows, duplicates included: <code class="cmd" data-testid="filter">vas-verify filter &lt;the enriched CSV&gt; --where verify_status=FAILED<\/code>/);
  assert.match(html, /RAVI KUMAR/);
  assert.match(html, /SURESH PATEL/);
});

test('report with the run summary: rows, spend, avoided, retries over time', (t) => {
  const { db, run } = buildState(t);
  const summary = {
    resumed: true, rows: 14, statuses: { VERIFIED: 4, NOT_VERIFIED: 1, INVALID: 3, DEFERRED: 1, FAILED: 3, UNCONFIRMED: 1 },
    nameMatch: { DIRECT_MATCH: 3, NO_MATCH: 1 }, calls: { pl: 0, pd: 8 }, avoided: { local: 2, duplicate: 1, reuse: 1, deferral: 0, hybrid: 0 },
    spend: 24, stopped: 'signal', message: 'stopped by signal', durationMs: 41_000, exitCode: 3,
  };
  const report = buildReport(readRunAggregates(db, run, 50), {
    generatedAt: T0 + 60_000, toolVersion: '9.9.9', registry: 'IFSC 2026-01', resumeCommand: 'vas-verify bank p.csv --resume', summary,
    retries: { byCause: { '503': 2, reset: 1 }, times: [T0 + 1_000, T0 + 2_000, T0 + 39_000] },
  });
  // Stopped: the summary counts only rows written out before the stop; the state has every answer.
  assert.equal(report.statusUnit, 'payees');
  assert.equal(report.statuses.VERIFIED, 2);
  assert.equal(report.statuses.PENDING + report.statuses.IN_FLIGHT, 2);
  const finished = buildReport(readRunAggregates(db, run, 50), { generatedAt: T0, toolVersion: '1', registry: null, summary: { ...summary, stopped: null } });
  assert.equal(finished.statusUnit, 'rows');
  assert.equal(finished.statuses.VERIFIED, 4);
  assert.equal(finished.statuses.PENDING, 2, 'payees still unanswered');
  assert.equal(report.retryBins!.reduce((a, b) => a + b, 0), 3);
  const html = renderReport(report);
  assert.match(html, /The run stopped early \(stopped by signal\)/);
  assert.match(html, /<b data-testid="exit-code">3<\/b>/);
  assert.match(html, /<span data-testid="spend">24\.00<\/span>/);
  assert.match(html, /<g data-key="NO_MATCH" data-count="1">/);
  assert.match(html, /HTTP 503/);
  assert.match(html, /IFSC registry: IFSC 2026-01/);
});

test('escaping and masking helpers', () => {
  assert.equal(escapeHtml(`<img src=x onerror="a('1')">&\``), '&lt;img src=x onerror=&quot;a(&#39;1&#39;)&quot;&gt;&amp;&#96;');
  assert.equal(escapeHtml('a\u0000b\u001bc\uD800d'), 'abcd');
  assert.equal(escapeHtml(null), '');
  assert.equal(maskAccountNumber('123456789012'), '••••9012');
  assert.equal(maskAccountNumber('12'), '••••');
  assert.equal(maskLongDigits('acct 123456789012 and req-123456789012 x'), 'acct ••••9012 and req-123456789012 x');
});

test('the enriched CSV scan: verdict counts and rows paid at risk with their lines, across a preamble, CRLF and multi-line cells', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vas-report-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'out.csv');
  fs.writeFileSync(file, [
    '\uFEFFExported by the bank on 01-01-2026\r\n',
    'Beneficiary Name,Account Number,IFSC,verify_status,verify_reason,beneficiary_name,name_match,name_match_score\r\n',
    '"Multi\nline ""name""",100000001234,sbin0001234,VERIFIED,,"OTHER, PERSON",NO_MATCH,0\r\n',
    'Ok Name,100000005678,SBIN0001234,VERIFIED,,OK NAME,DIRECT_MATCH,100\r\n',
    'Poor,100000009999,SBIN0001234,VERIFIED,,POOR X,POOR_PARTIAL_MATCH,40\n',
    'Nv,100000001111,SBIN0001234,NOT_VERIFIED,,,,\n',
    'Nm,100000002222,SBIN0001234,NOT_VERIFIED,,SOMEONE,NO_MATCH,0',
  ].join(''));
  const scan = await scanOutput(file, 1);
  assert.deepEqual(scan?.nameMatch, { NO_MATCH: 2, DIRECT_MATCH: 1, POOR_PARTIAL_MATCH: 1 });
  assert.equal(scan.atRisk.total, 2, 'VERIFIED rows only');
  assert.deepEqual(scan.atRisk.items, [
    { line: 3, account: '••••1234', ifsc: 'SBIN0001234', expectedName: 'Multi\nline "name"', beneficiaryName: 'OTHER, PERSON', verdict: 'NO_MATCH', score: '0' },
  ]);
  fs.writeFileSync(file, 'a,b\n1,2\n');
  assert.equal(await scanOutput(file, 5), undefined, 'not an output of vas-verify bank');
});
