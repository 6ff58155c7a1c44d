/**
 * What the release reads of a run (run_stats.input) and how it decides a row now: the policy and the
 * input a run records with its stats are read back as recorded; a reviewed payee is decided again
 * (an acceptance of the holder the run got pays it, under the run's approvals; a rejection holds
 * it); and a Latin-1 CSV with LF endings and no line break at its end is released byte for byte.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { DEFAULT_POLICY } from '../src/decision/index.js';
import { currentDecision, recordedPolicyOf } from '../src/release/decisions.js';
import { movedAfterRows, movedRefs, RemovedRows } from '../src/release/xlsx-release.js';
import { BankStore } from '../src/state/bank-store.js';
import { openDatabase } from '../src/state/db.js';
import { RunRecords } from '../src/state/run-record.js';
import type { RunRowRecord } from '../src/state/types.js';
import { readCsvObjects, runCli, tempDir } from './helpers/cli.js';

test('a run records how it read its input (run_stats.input); the release reads it back, and the policy the run recorded', (t) => {
  const db = openDatabase(':memory:');
  const store = new BankStore(db, () => 1_000);
  t.after(() => {
    store.close();
    db.close();
  });
  const runId = store.createRun('fp', 'pl', 'p.csv').id;
  const input = { path: '/data/p.xlsx', sheet: 'Payees', headerRow: 3, columns: { account: 'A/c No' } };
  store.startRunStats({ runId, startedAt: 1_000, resumed: false, outputName: null, outputPath: null, resumeCommand: null, toolVersion: null, registry: null, totals: () => ({ rows: 0, statuses: {}, nameMatch: {}, calls: { pl: 0, pd: 0 }, spend: 0, avoided: {} }) });
  store.recordRunInput(runId, input);
  store.flushSync();
  assert.deepEqual(new RunRecords(db).run(runId)!.input, input);
  // The policy as the bank run records it (JSON of the DecisionPolicy; a `source` is taken when there is one).
  const read = recordedPolicyOf(JSON.stringify({ ...DEFAULT_POLICY, approvals: 2 }), runId);
  assert.deepEqual([read.source, read.policy.approvals], ["the run's own (its --policy file)", 2]);
  assert.equal(recordedPolicyOf(JSON.stringify(DEFAULT_POLICY), runId).source, 'default');
  assert.equal(recordedPolicyOf(JSON.stringify({ source: 'strict.json', ...DEFAULT_POLICY }), runId).source, 'strict.json');
  assert.deepEqual(recordedPolicyOf(null, runId), { policy: DEFAULT_POLICY, source: 'default (the run recorded none)' });
  assert.throws(() => recordedPolicyOf('{"holderChanged":"PAY"}', runId), /run 1 recorded a policy this version cannot read/);
});

test('a row decided now: an acceptance of the holder pays it (two reviewers under approvals 2), a rejection holds it', () => {
  const row: RunRowRecord = {
    runId: 1, row: 2, line: 3, account: '860000000012', ifsc: 'SBIN0001234', name: 'Ravi Kumar', amount: null, status: 'VERIFIED',
    reasonCode: 'OK', nameMatch: 'NO_MATCH', nameScore: 0, decision: 'HOLD', decisionReason: 'NAME_MISMATCH',
  };
  const holder = { holder: 'VIKRAM SINGH', changedSince: null, requestId: 'r1', payeeRequestId: 'r1' };
  const review = (reviewers: string[], verdict: 'ACCEPTED' | 'REJECTED' = 'ACCEPTED') => ({ verdict, reviewers, reviews: [], approvals: 1 });
  assert.deepEqual(currentDecision(row, holder, undefined, DEFAULT_POLICY), { decision: 'HOLD', reason: 'NAME_MISMATCH' });
  assert.deepEqual(currentDecision(row, holder, review(['asha']), DEFAULT_POLICY), { decision: 'PAY', reason: 'REVIEW_ACCEPTED' });
  const two = { ...DEFAULT_POLICY, approvals: 2 as const };
  assert.deepEqual(currentDecision(row, holder, review(['asha']), two), { decision: 'REVIEW', reason: 'AWAITING_APPROVAL' });
  assert.deepEqual(currentDecision(row, holder, review(['asha', 'ravi']), two), { decision: 'PAY', reason: 'REVIEW_ACCEPTED' });
  assert.deepEqual(currentDecision({ ...row, decision: 'PAY', nameMatch: 'DIRECT_MATCH' }, holder, review(['asha'], 'REJECTED'), DEFAULT_POLICY), { decision: 'HOLD', reason: 'REVIEW_REJECTED' });
  assert.deepEqual(currentDecision({ ...row, status: 'NOT_VERIFIED', nameMatch: null }, holder, review(['asha']), DEFAULT_POLICY), { decision: 'HOLD', reason: 'ACCOUNT_NOT_VERIFIED' });
});

test('release of a Latin-1 CSV with LF endings and no line break after its last row: byte for byte', async (t) => {
  const dir = tempDir(t);
  fs.writeFileSync(path.join(dir, 'holders.csv'), 'accountNumber,ifsc,name,status\n860000000011,SBIN0001234,JOSE MENEZES,VERIFIED\n860000000012,SBIN0001234,ANIL DSOUZA,VERIFIED\n860000000013,SBIN0001234,RENEE FERNANDES,VERIFIED\n');
  const lines: [string, boolean][] = [
    ['Name,Account,IFSC,Remark', true],
    ['José Menezes,860000000011,SBIN0001234,café', true],
    ['"Fernandes, Renée",860000000013,SBIN0001234,"a ""quoted"" remark"', true],
    ['Priya Nair,860000000012,SBIN0001234,no match', false],
  ];
  const input = Buffer.from(lines.map(([l]) => l).join('\n'), 'latin1');
  fs.writeFileSync(path.join(dir, 'payees.csv'), input);
  assert.ok(!input.toString('utf8').includes('é'), 'the file is Latin-1, not UTF-8');
  const run = await runCli(['bank', 'payees.csv', '-o', 'out.csv', '--state', 's.sqlite', '--sandbox', '--sandbox-accounts', 'holders.csv'], { cwd: dir });
  assert.equal(run.code, 0, run.stderr);
  const release = await runCli(['release', '-o', 'payout.csv', '--state', 's.sqlite'], { cwd: dir });
  assert.equal(release.code, 0, release.stderr);
  const expected = Buffer.from(`${lines.filter(([, keep]) => keep).map(([l]) => l).join('\n')}\n`, 'latin1');
  assert.deepEqual(fs.readFileSync(path.join(dir, 'payout.csv')), expected);
});

test('release of an older run never pays a payee whose holder a newer answer in the state changed (a later run of the same file or of another)', async (t) => {
  const dir = tempDir(t);
  const holders = (priya: string, amit: string) => `accountNumber,ifsc,name\n100000000011,HDFC0000001,RAJESH KUMAR SHARMA\n100000000022,HDFC0000001,${priya}\n100000000033,HDFC0000001,${amit}\n`;
  fs.writeFileSync(path.join(dir, 'p.csv'), 'Payee Name,Account No,IFSC Code,Amount\nRajesh Kumar Sharma,100000000011,HDFC0000001,100\nPriya Khanna,100000000022,HDFC0000001,200\nAmit Patel,100000000033,HDFC0000001,300\n');
  fs.writeFileSync(path.join(dir, 'h1.csv'), holders('PRIYA KHANNA', 'AMIT PATEL'));
  const bank = (holdersFile: string, input = 'p.csv') => runCli(['bank', input, '-o', `${input}.out.csv`, '--state', 's.sqlite', '--sandbox', '--sandbox-accounts', holdersFile], { cwd: dir });
  const first = await bank('h1.csv');
  assert.equal(first.code, 0, first.stderr);
  // The next night the bank names other holders for two of the accounts (one through another file).
  fs.writeFileSync(path.join(dir, 'h2.csv'), holders('MOHAN LAL', 'AMIT PATEL'));
  const second = await bank('h2.csv');
  assert.equal(second.code, 0, second.stderr);
  fs.writeFileSync(path.join(dir, 'h3.csv'), holders('MOHAN LAL', 'SURESH RAINA'));
  fs.writeFileSync(path.join(dir, 'vendors.csv'), 'Vendor,Account,IFSC\nAmit Patel,100000000033,HDFC0000001\n');
  const other = await bank('h3.csv', 'vendors.csv');
  assert.equal(other.code, 0, other.stderr);
  const release = await runCli(['release', '-o', 'payout.csv', '--state', 's.sqlite', '--run', '1', '--exceptions', 'held.csv'], { cwd: dir });
  assert.equal(release.code, 0, release.stderr);
  assert.equal(fs.readFileSync(path.join(dir, 'payout.csv'), 'utf8'), 'Payee Name,Account No,IFSC Code,Amount\nRajesh Kumar Sharma,100000000011,HDFC0000001,100\n');
  const held = readCsvObjects(path.join(dir, 'held.csv'));
  assert.deepEqual(held.map((r) => [r['Account No'], r.decision, r.decision_reason]), [['100000000022', 'HOLD', 'HOLDER_CHANGED'], ['100000000033', 'HOLD', 'HOLDER_CHANGED']]);
  assert.match(held[0]!.changed_since!, /beneficiary name "PRIYA KHANNA" -> "MOHAN LAL" \(a newer answer than this run's\)/);
  assert.match(held[1]!.changed_since!, /beneficiary name "AMIT PATEL" -> "SURESH RAINA"/);
  // The newest run of the file is released as it decided (its own answers are the newest for it).
  const latest = await runCli(['release', '-o', 'payout2.csv', '--state', 's.sqlite', '--run', '2'], { cwd: dir });
  assert.equal(latest.code, 0, latest.stderr);
  assert.doesNotMatch(fs.readFileSync(path.join(dir, 'payout2.csv'), 'utf8'), /100000000022/);
});

test('release holds a payee that another file\'s run answered with another holder while this run was stopped, before it was resumed', async (t) => {
  const dir = tempDir(t);
  fs.writeFileSync(path.join(dir, 'h1.csv'), 'accountNumber,ifsc,name\n100000000022,HDFC0000001,PRIYA KHANNA\n100000000011,HDFC0000001,RAJESH SHARMA\n100000000033,HDFC0000001,AMIT PATEL\n');
  fs.writeFileSync(path.join(dir, 'h2.csv'), 'accountNumber,ifsc,name\n100000000022,HDFC0000001,MOHAN LAL\n');
  fs.writeFileSync(path.join(dir, 'a.csv'), 'Name,Account,IFSC\nPriya Khanna,100000000022,HDFC0000001\nRajesh Sharma,100000000011,HDFC0000001\nAmit Patel,100000000033,HDFC0000001\n');
  fs.writeFileSync(path.join(dir, 'b.csv'), 'Name,Account,IFSC\nPriya Khanna,100000000022,HDFC0000001\n');
  const bank = (args: string[]) => runCli(['bank', ...args, '--state', 's.sqlite', '--sandbox', '--concurrency', '1'], { cwd: dir });
  // Run 1 answers Priya's account first and stops; run 2 (another file) finds another holder; run 1 resumes and ends.
  const stopped = await bank(['a.csv', '-o', 'a.out.csv', '--sandbox-accounts', 'h1.csv', '--max-calls', '1']);
  assert.equal(stopped.code, 3, stopped.stderr);
  const other = await bank(['b.csv', '-o', 'b.out.csv', '--sandbox-accounts', 'h2.csv']);
  assert.equal(other.code, 0, other.stderr);
  const resumed = await bank(['a.csv', '-o', 'a.out.csv', '--sandbox-accounts', 'h1.csv', '--resume']);
  assert.equal(resumed.code, 0, resumed.stderr);
  const release = await runCli(['release', '-o', 'payout.csv', '--state', 's.sqlite', '--run', '1'], { cwd: dir });
  assert.equal(release.code, 0, release.stderr);
  assert.equal(fs.readFileSync(path.join(dir, 'payout.csv'), 'utf8'), 'Name,Account,IFSC\nRajesh Sharma,100000000011,HDFC0000001\nAmit Patel,100000000033,HDFC0000001\n');
});

test('an .xlsx release moves the cell references after the rows up with them; what only covered removed rows goes', () => {
  const removed = new RemovedRows([4, 6, 7]);
  assert.deepEqual([removed.below(4), removed.below(4, true), removed.below(10)], [0, 1, 3]);
  assert.equal(movedRefs('A3', removed), 'A3');
  assert.equal(movedRefs('A5:C5', removed), 'A4:C4');
  assert.equal(movedRefs('$A$8:D12 B4', removed), '$A$5:D9');
  assert.equal(movedRefs('A2:A20', removed), 'A2:A17');
  assert.equal(movedRefs('A6:B7', removed), '');
  assert.equal(movedRefs('A:A', removed), 'A:A');
  const xml = '</sheetData><mergeCells count="2"><mergeCell ref="A4:B4"/><mergeCell ref="A9:C9"/></mergeCells><conditionalFormatting sqref="D3:D10"><cfRule type="cellIs" priority="1"/></conditionalFormatting><hyperlinks><hyperlink ref="B8" r:id="rId1"/></hyperlinks>';
  assert.equal(
    movedAfterRows(xml, removed),
    '</sheetData><mergeCells count="1"><mergeCell ref="A6:C6"/></mergeCells><conditionalFormatting sqref="D3:D7"><cfRule type="cellIs" priority="1"/></conditionalFormatting><hyperlinks><hyperlink ref="B5" r:id="rId1"/></hyperlinks>',
  );
});
