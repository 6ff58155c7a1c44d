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
import type { NewResult, RunRowRecord } from '../src/state/types.js';
import { chooseBinMs, latestRunId, readRunAggregates } from '../src/report/aggregate.js';
import { buildReport } from '../src/report/build.js';
import { renderReport, CSP } from '../src/report/render.js';
import { escapeHtml, maskAccountNumber, maskLongDigits } from '../src/report/escape.js';
import { asSent, scanOutput } from '../src/report/output-scan.js';

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
  assert.match(html, /…and 1 more payee\(s\)\. All their rows, duplicates included: <code class="cmd" data-testid="filter">vas-verify filter &lt;the enriched CSV&gt; --where verify_status=FAILED --line<\/code>/);
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
  // A name split over First/Middle/Last Name columns: the report shows it joined, as it was matched (it showed nothing).
  fs.writeFileSync(file, [
    'Emp Code,First Name,Middle Name,Last Name,Bank Account No,IFSC,verify_status,verify_reason,beneficiary_name,name_match,name_match_score',
    'E1,Mohammed,Irfan,Shaikh,100000001234,SBIN0001234,VERIFIED,,VIVEK VERMA,NO_MATCH,0',
    'E2,Priya,,Nair,100000005678,SBIN0001234,VERIFIED,,SUNITA RAO,NO_MATCH,0',
  ].join('\n'));
  const split = await scanOutput(file, 5);
  assert.deepEqual(split?.atRisk.items.map((item) => item.expectedName), ['Mohammed Irfan Shaikh', 'Priya Nair']);
  fs.writeFileSync(file, 'a,b\n1,2\n');
  assert.equal(await scanOutput(file, 5), undefined, 'not an output of vas-verify bank');
});

/** A row's decision as the run writes it (run_rows), for the payees of buildState. */
function decided(store: BankStore, runId: number, row: number, line: number, fields: Partial<RunRowRecord>): void {
  store.saveRow({
    runId, row, line, account: `1111111111${String(row).padStart(2, '0')}`, ifsc: 'SBIN0000001', name: `Payee ${row}`, amount: null, status: 'VERIFIED',
    reasonCode: 'OK', nameMatch: 'DIRECT_MATCH', nameScore: 100, decision: 'PAY', decisionReason: 'NAME_MATCH', ...fields,
  });
}

/** buildState's run with its rows decided: the file has a title line and a header, so data row n is line n + 2. */
function decidedState(t: TestContext) {
  const built = buildState(t);
  const { store, run } = built;
  decided(store, run, 1, 3, { name: 'Ravi Kumar', amount: '1,00,000', nameMatch: 'NO_MATCH', nameScore: 0, decision: 'HOLD', decisionReason: 'HOLDER_CHANGED' });
  decided(store, run, 2, 4, { name: 'Meena <b>Iyer</b>', amount: '2,500.50', status: 'NOT_VERIFIED', reasonCode: 'ACCOUNT_CLOSED', nameMatch: null, nameScore: null, decision: 'HOLD', decisionReason: 'ACCOUNT_NOT_VERIFIED' });
  decided(store, run, 3, 5, { amount: '10', status: 'INVALID', reasonCode: 'ACCOUNT_INVALID', nameMatch: null, nameScore: null, decision: 'HOLD', decisionReason: 'ACCOUNT_INVALID' });
  decided(store, run, 4, 6, { name: 'Deepa Nair', amount: '₹ 5,000' });
  // A row that failed its local checks: no payee, no reason text in the state.
  decided(store, run, 12, 14, { account: null, ifsc: null, name: 'Excel', amount: '7', status: 'INVALID', reasonCode: 'ACCOUNT_DAMAGED', nameMatch: null, nameScore: null, decision: 'HOLD', decisionReason: 'ACCOUNT_INVALID' });
  // A duplicate of payee 4 with another name in the file; its amount cell is not an amount.
  decided(store, run, 13, 15, { account: '111111111104', name: 'D Nair', amount: 'n/a', nameMatch: 'MODERATE_PARTIAL_MATCH', nameScore: 70, decision: 'REVIEW', decisionReason: 'NAME_CLOSE' });
  store.flushSync();
  return built;
}

test('decisions from run_rows: counts, amounts, the held, review and not-verified lists with the bank\'s holder and the file\'s lines', (t) => {
  const { db, run } = decidedState(t);
  const d = readRunAggregates(db, run, 3).decisions!;
  assert.deepEqual(d.decisions, { PAY: 1, REVIEW: 1, HOLD: 4 });
  assert.deepEqual(d.reasons, { HOLDER_CHANGED: 1, ACCOUNT_NOT_VERIFIED: 1, ACCOUNT_INVALID: 2, NAME_MATCH: 1, NAME_CLOSE: 1 });
  assert.deepEqual(d.amounts, { PAY: 5000, REVIEW: 0, HOLD: 102517.5, unreadable: 1 });
  assert.equal(d.held.total, 4);
  assert.deepEqual(d.held.items.map((r) => r.line), [3, 4, 5], 'file order, capped, numbered by the file\'s line');
  const [changed, closed] = d.held.items;
  assert.equal(changed!.holder, 'SURESH PATEL', 'the bank\'s holder, from the payee\'s result');
  assert.equal(changed!.account, '••••1101');
  assert.equal(closed!.reason, 'Account closed or does not exist');
  assert.deepEqual(d.review.items.map((r) => [r.line, r.name, r.holder]), [[15, 'D Nair', 'DEEPA NAIR']], 'a duplicate shares its payee\'s holder');
  assert.deepEqual(d.notVerified.items.map((r) => r.line), [4, 5, 14]);
  assert.equal(d.notVerified.items[2]!.reason, null, 'a local failure has no reason text in the state');
  assert.equal(d.mismatched, 1);
  assert.equal(d.mismatchedPaid.total, 0);
  // Every list numbers by the file's line where the state records it; a payee never written out shows its data row.
  const agg = readRunAggregates(db, run, 50);
  assert.equal(agg.changedHolders.items[0]!.line, 3);
  assert.deepEqual(agg.failed.items.map((i) => [i.row, i.line]), [[5, null], [6, null], [7, null]]);
});

test('the page leads with the decision: banner, then the held and review lists before the charts; times in IST', (t) => {
  const { db, run } = decidedState(t);
  const report = buildReport(readRunAggregates(db, run, 50), { generatedAt: T0 + 60_000, toolVersion: '9.9.9', registry: null });
  const html = renderReport(report);
  const banner = /<div class="banner (\w+)" data-testid="state" data-finished="false" data-hold="4" data-review="1">(.*?)<\/div>/.exec(html);
  assert.ok(banner, 'the banner counts held and review payees');
  assert.equal(banner[1], 'hold', 'red while payees are held');
  assert.match(banner[2]!, /<p class="headline" data-testid="decision">So far: 4 payees held, 1 to review — ₹ 1,02,517.50 held, ₹ 0 to review\.<\/p>/, 'two payees not answered yet: the counts are of the rows decided so far');
  assert.match(banner[2]!, /Pay only the 1 payee marked PAY \(₹ 5,000\); do not pay the held ones; check the ones to review before paying them\./);
  assert.match(banner[2]!, /Unfinished\./);
  assert.doesNotMatch(html, /Finished\./);
  const at = (marker: string) => {
    const i = html.indexOf(marker);
    assert.ok(i > 0, marker);
    return i;
  };
  assert.ok(at('data-testid="held"') < at('data-testid="review"'));
  assert.ok(at('data-testid="review"') < at('data-testid="not-verified"'));
  assert.ok(at('data-testid="not-verified"') < at('data-testid="status-chart"'), 'the lists come before the charts');
  assert.ok(at('data-testid="not-verified"') < at('id="run"'));
  // The held row: its line, the file's name (escaped, isolated), the bank's holder, why, the verdict and the amount.
  assert.match(html, /<tr><td><span class="mono">3<\/span><\/td><td><bdi>Ravi Kumar<\/bdi><\/td><td><bdi>SURESH PATEL<\/bdi><\/td><td><span class="mono">••••1101<\/span>.*?HOLDER CHANGED.*?NO MATCH<\/span> 0<\/td><td>₹ 1,00,000<\/td><\/tr>/);
  assert.ok(html.includes('<bdi>Meena &lt;b&gt;Iyer&lt;/b&gt;</bdi>'));
  assert.match(html, /ACCOUNT_DAMAGED<\/td><td><bdi>a spreadsheet damaged the account number/, 'a local failure is explained by its code');
  assert.match(html, /<td><span class="muted"><bdi>n\/a<\/bdi><\/span><\/td>/, 'an amount cell that is not an amount, as the file has it');
  assert.match(html, /1 amount cell could not be read as an amount/);
  assert.match(html, /<span class="mono muted">row 5<\/span>/, 'a payee the run did not write out yet: its data row, marked');
  assert.match(html, /started 1 Jan 2026, 05:30 IST/, 'times in IST');
  assert.doesNotMatch(html, /UTC/);
  assert.match(html, /Verified, name does not match <span class="count" data-testid="mismatched-count">1<\/span>/);
  assert.match(html, /None of them is PAY/);
  assert.doesNotMatch(html, /Paid at risk/);
});

test('the banner is green only when every payee is PAY and every row final', (t) => {
  const clock = T0;
  const db = openDatabase(':memory:');
  const store = new BankStore(db, () => clock);
  store.acquireLock(lockIdentity(process.pid), SYSTEM_PROBE);
  t.after(() => {
    store.close();
    db.close();
  });
  const run = store.createRun('fp', 'pl', 'ok.csv').id;
  for (const row of [1, 2]) {
    store.claim({ runId: run, account: `22222222220${row}`, ifsc: 'SBIN0000001', firstRow: row, mode: 'pl', stored: false, retryUnconfirmed: false });
    const r = store.insertResult({ ...result(`22222222220${row}`, 'SBIN0000001', 'VERIFIED', `NAME ${row}`, clock), mode: 'pl' });
    store.markDone(run, row, 'api', r.id, r.requestId);
    decided(store, run, row, row + 1, { account: `22222222220${row}`, amount: '100' });
  }
  store.flushSync();
  const page = () => renderReport(buildReport(readRunAggregates(db, run, 50), { generatedAt: clock, toolVersion: '1', registry: null }));
  assert.match(page(), /<div class="banner warn" data-testid="state" data-finished="false" data-hold="0" data-review="0">/, 'all PAY, but the input was not read to the end: not green');
  store.finishRun(run, true, 2);
  store.flushSync();
  const html = page();
  assert.match(html, /<div class="banner ok" data-testid="state" data-finished="true" data-hold="0" data-review="0"><p class="headline" data-testid="decision">All 2 payees can be paid \(₹ 200\)\.<\/p>/);
  // Once a payee is held, the banner is red though every row is final.
  decided(store, run, 2, 3, { account: '222222222202', decision: 'HOLD', decisionReason: 'NAME_MISMATCH', nameMatch: 'NO_MATCH', nameScore: 0, amount: '100' });
  store.flushSync();
  assert.match(page(), /<div class="banner hold" data-testid="state" data-finished="true" data-hold="1" data-review="0"><p class="headline" data-testid="decision">1 payee held — ₹ 100 held\.<\/p>/);
});

test('calls and spend: the whole run where the state records it (schema 8), and the last invocation', (t) => {
  const { db, run, store } = decidedState(t);
  store.startRunStats({
    runId: run, startedAt: T0, resumed: true, outputName: 'out.csv', outputPath: '/nowhere/out.csv', resumeCommand: 'vas-verify bank p.csv --resume',
    toolVersion: '1', registry: null, totals: () => ({ rows: 6, statuses: { VERIFIED: 2 }, nameMatch: {}, calls: { pl: 0, pd: 3 }, spend: 4.5, avoided: {} }),
  });
  store.endRunStats({ finishedAt: T0 + 50_000, exitCode: 3, stopped: null, message: null, durationMs: 50_000, outputFile: null });
  store.flushSync();
  // A state before schema 8 (which adds the whole run's columns): without them.
  const whole = ['run_calls_pl', 'run_calls_pd', 'run_spend'];
  const columns = new Set((db.prepare('PRAGMA table_info(run_stats)').all() as Array<{ name: string }>).map((c) => c.name));
  for (const column of whole) if (columns.has(column)) db.exec(`ALTER TABLE run_stats DROP COLUMN ${column}`);
  const page = () => renderReport(buildReport(readRunAggregates(db, run, 50), { generatedAt: T0, toolVersion: '1', registry: null }));
  let html = page();
  assert.match(html, /<td>Last invocation<\/td><td><span data-testid="calls-pl">0<\/span><\/td><td><span data-testid="calls-pd">3<\/span><\/td><td><span data-testid="spend">4\.50<\/span><\/td>/);
  assert.doesNotMatch(html, /data-testid="run-calls-pd"/);
  assert.match(html, /are not recorded for this run: these are its last invocation/);
  // The columns a later schema adds: read where the state has them.
  for (const column of whole) db.exec(`ALTER TABLE run_stats ADD COLUMN ${column} ${column === 'run_spend' ? 'REAL' : 'INTEGER'}`);
  db.prepare('UPDATE run_stats SET run_calls_pl = 0, run_calls_pd = 8, run_spend = 12, invocations = 3 WHERE run_id = ?').run(run);
  html = page();
  assert.match(html, /<td>Whole run \(every invocation: 3\)<\/td><td><span data-testid="run-calls-pl">0<\/span><\/td><td><span data-testid="run-calls-pd">8<\/span><\/td><td><span data-testid="run-spend">12\.00<\/span><\/td>/);
  assert.match(html, /<td>Last invocation<\/td><td><span data-testid="calls-pl">0<\/span>/);
});

test('a cell the output neutralised is shown as the bank sent it; a value that itself starts with a quote keeps it', () => {
  assert.equal(asSent("'=1+2 X"), '=1+2 X');
  assert.equal(asSent("'@SUM(A1)"), '@SUM(A1)');
  assert.equal(asSent("'-5"), '-5');
  assert.equal(asSent("O'BRIEN"), "O'BRIEN");
  assert.equal(asSent("'quoted"), "'quoted", 'not a quote neutralise adds');
  assert.equal(asSent('RAVI'), 'RAVI');
});
