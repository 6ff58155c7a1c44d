/**
 * `vas-verify review --import` (issue #31): the enriched file edited as a person does in a
 * spreadsheet, imported by the real CLI; the acceptance reaches the release and the next nights'
 * runs (the same holder is paid, REVIEW_ACCEPTED; a changed holder is held again), a rejection
 * holds a payee, two approvals need two different reviewers, and a file that is not the run's
 * output (or a word that is not a decision) is refused before anything is recorded.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { DEFAULT_POLICY } from '../src/decision/policy.js';
import { readEditedRows, recordEditedRows } from '../src/review/import.js';
import { openDatabase } from '../src/state/db.js';
import { editCsv, readCsvObjects, runCli, tempDir } from './helpers/cli.js';

const holders = (ravi: string) =>
  ['accountNumber,ifsc,name,status', '860000000011,SBIN0001234,ASHA RAO,VERIFIED', `860000000012,SBIN0001234,${ravi},VERIFIED`, '860000000013,SBIN0001234,SUNITA DEVI,VERIFIED'].join('\n') + '\n';

const PAYEES = 'Beneficiary Name,Account Number,IFSC,Amount\nAsha Rao,860000000011,SBIN0001234,1500\nRavi Kumar,860000000012,SBIN0001234,2500\nSunita Devi,860000000013,SBIN0001234,1200\n';

function setUp(dir: string): void {
  fs.writeFileSync(path.join(dir, 'holders.csv'), holders('VIKRAM SINGH'));
  fs.writeFileSync(path.join(dir, 'payees.csv'), PAYEES);
}

const bank = (dir: string, output: string, extra: string[] = []) =>
  runCli(['bank', 'payees.csv', '-o', output, '--state', 's.sqlite', '--sandbox', '--sandbox-accounts', 'holders.csv', ...extra], { cwd: dir });

const decisionsOf = (file: string) => Object.fromEntries(readCsvObjects(file).map((r) => [r['Beneficiary Name'], `${r.decision} ${r.decision_reason}`]));

test('an import accepting a HOLD row reaches the release; the next nights pay the same holder and hold a changed one', async (t) => {
  const dir = tempDir(t);
  setUp(dir);
  assert.equal((await bank(dir, 'night1.csv')).code, 0);
  assert.equal(decisionsOf(path.join(dir, 'night1.csv'))['Ravi Kumar'], 'HOLD NAME_MISMATCH');

  editCsv(path.join(dir, 'night1.csv'), path.join(dir, 'reviewed.csv'), { 'Ravi Kumar': ['Accept', "trading name of Vikram Singh; invoice checked"], 'Asha Rao': ['reject', 'duplicate invoice'] });
  const imported = await runCli(['review', '--import', 'reviewed.csv', '--state', 's.sqlite', '--reviewer', 'asha'], { cwd: dir });
  assert.equal(imported.code, 0, imported.stderr);
  assert.match(imported.stdout, /row 2 \(line 3\) xxxxxxxx0012 SBIN0001234: accepted holder "VIKRAM SINGH" by asha; now PAY — note: trading name/);
  assert.match(imported.stdout, /row 1 \(line 2\) xxxxxxxx0011 SBIN0001234: rejected by asha; now HOLD — note: duplicate invoice/);
  assert.doesNotMatch(imported.stdout + imported.stderr, /860000000012/, 'accounts masked');
  assert.match(imported.stderr, /by asha: 1 accepted, 1 rejected, 0 not recorded, of 3 payee row\(s\)/);

  const release = await runCli(['release', '-o', 'payout.csv', '--state', 's.sqlite'], { cwd: dir });
  assert.equal(release.code, 0, release.stderr);
  assert.equal(fs.readFileSync(path.join(dir, 'payout.csv'), 'utf8'), 'Beneficiary Name,Account Number,IFSC,Amount\nRavi Kumar,860000000012,SBIN0001234,2500\nSunita Devi,860000000013,SBIN0001234,1200\n');
  assert.match(release.stderr, /paid on reviewers' acceptances: 1 payee\(s\), by asha \(rows 2\)/);

  // The same file again with --resume: the run re-emitted, the acceptance and the rejection honoured.
  const resumed = await bank(dir, 'night2.csv', ['--resume']);
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.deepEqual(decisionsOf(path.join(dir, 'night2.csv')), { 'Asha Rao': 'HOLD REVIEW_REJECTED', 'Ravi Kumar': 'PAY REVIEW_ACCEPTED', 'Sunita Devi': 'PAY NAME_MATCH' });

  // The night-1 file again: the run has been decided again since, so its unchanged cells are not edits.
  const stale = await runCli(['review', '--import', 'reviewed.csv', '--state', 's.sqlite', '--reviewer', 'ravi'], { cwd: dir });
  assert.equal(stale.code, 2, stale.stderr);
  assert.match(stale.stderr, /line 2: the run decides this row HOLD \(REVIEW_REJECTED\) now, the file says NAME_MATCH: it was written before; import the run's newest output/);

  // A new night's run, the bank asked again: the same holder is paid.
  const night3 = await bank(dir, 'night3.csv');
  assert.equal(night3.code, 0, night3.stderr);
  assert.equal(decisionsOf(path.join(dir, 'night3.csv'))['Ravi Kumar'], 'PAY REVIEW_ACCEPTED');
  // Last night's file is not the newest run's output: its answers are another run's.
  const older = await runCli(['review', '--import', 'night2.csv', '--state', 's.sqlite', '--reviewer', 'ravi'], { cwd: dir });
  assert.equal(older.code, 2, older.stderr);
  assert.match(older.stderr, /night2\.csv is not the enriched output of run 2 \(line 2: its answers are from another run of the same input: give that run with --run N\)/);
  const named = await runCli(['review', '--import', 'night2.csv', '--state', 's.sqlite', '--reviewer', 'ravi', '--run', '1'], { cwd: dir });
  assert.equal(named.code, 0, named.stderr);
  assert.match(named.stderr, /0 accepted, 0 rejected, 0 not recorded, of 3 payee row\(s\)/);

  // The bank now names another holder: the acceptance was for VIKRAM SINGH only.
  fs.writeFileSync(path.join(dir, 'holders.csv'), holders('KARAN MEHTA'));
  const night4 = await bank(dir, 'night4.csv');
  assert.equal(night4.code, 0, night4.stderr);
  const ravi = readCsvObjects(path.join(dir, 'night4.csv')).find((r) => r['Beneficiary Name'] === 'Ravi Kumar')!;
  assert.equal(ravi.beneficiary_name, 'KARAN MEHTA');
  assert.equal(`${ravi.decision} ${ravi.decision_reason}`, 'HOLD HOLDER_CHANGED');
  const release4 = await runCli(['release', '-o', 'payout4.csv', '--state', 's.sqlite', '--exceptions', 'held4.csv'], { cwd: dir });
  assert.equal(release4.code, 0, release4.stderr);
  assert.equal(fs.readFileSync(path.join(dir, 'payout4.csv'), 'utf8'), 'Beneficiary Name,Account Number,IFSC,Amount\nSunita Devi,860000000013,SBIN0001234,1200\n');
  const held = readCsvObjects(path.join(dir, 'held4.csv')).find((r) => r['Beneficiary Name'] === 'Ravi Kumar')!;
  assert.deepEqual([held.decision_reason, held.beneficiary_name], ['HOLDER_CHANGED', 'KARAN MEHTA']);
  assert.match(held.changed_since!, /beneficiary name "VIKRAM SINGH" -> "KARAN MEHTA"/);
});

test('two approvals: one reviewer leaves the payee awaiting a second, the same reviewer again counts once, a second pays it (.xlsx edited)', async (t) => {
  const dir = tempDir(t);
  setUp(dir);
  assert.equal((await bank(dir, 'out.xlsx')).code, 0);
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(path.join(dir, 'out.xlsx'));
  const sheet = book.worksheets[0]!;
  const header = (sheet.getRow(1).values as unknown[]).slice(1);
  const decision = header.indexOf('decision') + 1;
  sheet.getRow(3).getCell(decision).value = 'PAY';
  sheet.getRow(1).getCell(header.length + 1).value = 'note';
  sheet.getRow(3).getCell(header.length + 1).value = 'known supplier';
  await book.xlsx.writeFile(path.join(dir, 'reviewed.xlsx'));

  const first = await runCli(['review', '--import', 'reviewed.xlsx', '--state', 's.sqlite', '--reviewer', 'asha', '--approvals', '2'], { cwd: dir });
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stdout, /accepted holder "VIKRAM SINGH" by asha; awaiting 1 more reviewer\(s\) \(approvals 2\) — note: known supplier/);
  const held = await runCli(['release', '-o', 'payout.csv', '--state', 's.sqlite', '--approvals', '2', '--exceptions', 'held.csv'], { cwd: dir });
  assert.equal(held.code, 0, held.stderr);
  assert.doesNotMatch(fs.readFileSync(path.join(dir, 'payout.csv'), 'utf8'), /Ravi Kumar/);
  const exception = readCsvObjects(path.join(dir, 'held.csv')).find((r) => r['Beneficiary Name'] === 'Ravi Kumar')!;
  assert.deepEqual([exception.decision, exception.decision_reason, exception.reviewed_by], ['REVIEW', 'AWAITING_APPROVAL', 'asha']);

  const again = await runCli(['review', '--import', 'reviewed.xlsx', '--state', 's.sqlite', '--reviewer', 'asha', '--approvals', '2'], { cwd: dir });
  assert.equal(again.code, 0, again.stderr);
  assert.equal(again.stdout, '');
  assert.match(again.stderr, /row 2 \(line 3\): already accepted by asha/);

  const second = await runCli(['review', '--import', 'reviewed.xlsx', '--state', 's.sqlite', '--reviewer', 'ravi', '--approvals', '2'], { cwd: dir });
  assert.equal(second.code, 0, second.stderr);
  assert.match(second.stdout, /accepted holder "VIKRAM SINGH" by ravi; now PAY/);
  const paid = await runCli(['release', '-o', 'payout.csv', '--state', 's.sqlite', '--approvals', '2'], { cwd: dir });
  assert.equal(paid.code, 0, paid.stderr);
  assert.match(fs.readFileSync(path.join(dir, 'payout.csv'), 'utf8'), /Ravi Kumar/);
  assert.match(paid.stderr, /by asha, ravi/);
});

test('an import of a file that is not the run\'s output, or with a word that is not a decision, is refused and records nothing', async (t) => {
  const dir = tempDir(t);
  setUp(dir);
  assert.equal((await bank(dir, 'out.csv')).code, 0);
  // Rows in another order: not the run's rows.
  const rows = parse(fs.readFileSync(path.join(dir, 'out.csv'))) as string[][];
  const decision = rows[0]!.indexOf('decision');
  rows[2]![decision] = 'PAY';
  fs.writeFileSync(path.join(dir, 'shuffled.csv'), stringify([rows[0]!, rows[2]!, rows[1]!, rows[3]!]));
  const shuffled = await runCli(['review', '--import', 'shuffled.csv', '--state', 's.sqlite', '--reviewer', 'asha'], { cwd: dir });
  assert.equal(shuffled.code, 2, shuffled.stderr);
  assert.match(shuffled.stderr, /shuffled\.csv is not the enriched output of run 1 \(line 2 is not the run's payee row 1\)/);

  fs.writeFileSync(path.join(dir, 'input.csv'), PAYEES);
  const input = await runCli(['review', '--import', 'input.csv', '--state', 's.sqlite', '--reviewer', 'asha'], { cwd: dir });
  assert.equal(input.code, 2, input.stderr);
  assert.match(input.stderr, /no header with verify_status and decision columns/);

  rows[1]![decision] = 'PAY';
  rows[2]![decision] = 'maybe';
  fs.writeFileSync(path.join(dir, 'word.csv'), stringify(rows));
  const word = await runCli(['review', '--import', 'word.csv', '--state', 's.sqlite', '--reviewer', 'asha'], { cwd: dir });
  assert.equal(word.code, 2, word.stderr);
  assert.match(word.stderr, /line 3: decision "maybe" is not PAY, REVIEW or HOLD .*nothing was recorded/);

  const audit = await runCli(['audit', '--state', 's.sqlite'], { cwd: dir });
  assert.equal(audit.code, 0, audit.stderr);
  assert.doesNotMatch(audit.stdout, /"kind":"review"/, 'no review recorded');
});

test('an acceptance given under --approvals 2 needs a second reviewer in every later release and run, without the flag (black-box review)', async (t) => {
  const dir = tempDir(t);
  setUp(dir);
  assert.equal((await bank(dir, 'night1.csv')).code, 0);
  editCsv(path.join(dir, 'night1.csv'), path.join(dir, 'asha.csv'), { 'Ravi Kumar': ['PAY', 'known supplier'] });
  const asha = await runCli(['review', '--import', 'asha.csv', '--state', 's.sqlite', '--reviewer', 'asha', '--approvals', '2'], { cwd: dir });
  assert.equal(asha.code, 0, asha.stderr);
  assert.match(asha.stdout, /awaiting 1 more reviewer\(s\) \(approvals 2\)/);
  // Neither the release nor tonight's run was told --approvals 2: the acceptance says it.
  const release = await runCli(['release', '-o', 'payout.csv', '--state', 's.sqlite'], { cwd: dir });
  assert.equal(release.code, 0, release.stderr);
  assert.doesNotMatch(fs.readFileSync(path.join(dir, 'payout.csv'), 'utf8'), /Ravi Kumar/);
  assert.equal((await bank(dir, 'night2.csv')).code, 0);
  assert.equal(decisionsOf(path.join(dir, 'night2.csv'))['Ravi Kumar'], 'REVIEW AWAITING_APPROVAL');
  // A second, different reviewer (no flag either) pays it.
  editCsv(path.join(dir, 'night2.csv'), path.join(dir, 'ravi.csv'), { 'Ravi Kumar': ['PAY', 'agreed'] });
  const ravi = await runCli(['review', '--import', 'ravi.csv', '--state', 's.sqlite', '--reviewer', 'ravi'], { cwd: dir });
  assert.equal(ravi.code, 0, ravi.stderr);
  const paid = await runCli(['release', '-o', 'payout2.csv', '--state', 's.sqlite'], { cwd: dir });
  assert.equal(paid.code, 0, paid.stderr);
  assert.match(fs.readFileSync(path.join(dir, 'payout2.csv'), 'utf8'), /Ravi Kumar,860000000012,SBIN0001234,2500/);
  assert.equal((await bank(dir, 'night3.csv')).code, 0);
  assert.equal(decisionsOf(path.join(dir, 'night3.csv'))['Ravi Kumar'], 'PAY REVIEW_ACCEPTED');
});

test("an import does not accept, unseen, a payee another reviewer rejected after the file was written; its own reviewer's rejection it may undo", async (t) => {
  const dir = tempDir(t);
  setUp(dir);
  fs.writeFileSync(path.join(dir, 'holders.csv'), holders('R KUMAR'));
  assert.equal((await bank(dir, 'night1.csv')).code, 0);
  assert.equal(decisionsOf(path.join(dir, 'night1.csv'))['Ravi Kumar'], 'REVIEW NAME_CLOSE');
  // ravi rejects the payee (here by import; the page records the same); asha's copy of the night's file does not show it.
  editCsv(path.join(dir, 'night1.csv'), path.join(dir, 'ravi.csv'), { 'Ravi Kumar': ['HOLD', 'the vendor says this is not their account'] });
  const rejected = await runCli(['review', '--import', 'ravi.csv', '--state', 's.sqlite', '--reviewer', 'ravi'], { cwd: dir });
  assert.equal(rejected.code, 0, rejected.stderr);
  assert.match(rejected.stdout, /rejected by ravi; now HOLD/);

  editCsv(path.join(dir, 'night1.csv'), path.join(dir, 'asha.csv'), { 'Ravi Kumar': ['PAY', 'invoice checked'] });
  const accepted = await runCli(['review', '--import', 'asha.csv', '--state', 's.sqlite', '--reviewer', 'asha'], { cwd: dir });
  assert.equal(accepted.code, 0, accepted.stderr);
  assert.equal(accepted.stdout, '', 'nothing recorded');
  assert.match(accepted.stderr, /row 2 \(line 3\): PAY not recorded: ravi rejected this payee on \d{1,2} [A-Z][a-z]{2} \d{4} \(the file does not show it\)/);
  assert.match(accepted.stderr, /0 accepted, 0 rejected, 1 not recorded/);
  const release = await runCli(['release', '-o', 'payout.csv', '--state', 's.sqlite'], { cwd: dir });
  assert.equal(release.code, 0, release.stderr);
  assert.doesNotMatch(fs.readFileSync(path.join(dir, 'payout.csv'), 'utf8'), /Ravi Kumar/);

  // ravi himself may undo his rejection from a file.
  const undone = await runCli(['review', '--import', 'asha.csv', '--state', 's.sqlite', '--reviewer', 'Ravi'], { cwd: dir });
  assert.equal(undone.code, 0, undone.stderr);
  assert.match(undone.stdout, /accepted holder "R KUMAR" by Ravi; now PAY/);
});

test("an import does not accept a payee on this run's answer when a newer answer names another holder (the release would hold it): it says so", async (t) => {
  const dir = tempDir(t);
  setUp(dir);
  assert.equal((await bank(dir, 'night1.csv')).code, 0);
  // Tonight's list (another amount: a new run) finds another holder for Ravi Kumar's account.
  fs.writeFileSync(path.join(dir, 'holders.csv'), holders('MALLORY FRAUDSTER'));
  fs.writeFileSync(path.join(dir, 'tonight.csv'), PAYEES.replace(',2500', ',2600'));
  const tonight = await runCli(['bank', 'tonight.csv', '-o', 'tonight.out.csv', '--state', 's.sqlite', '--sandbox', '--sandbox-accounts', 'holders.csv'], { cwd: dir });
  assert.equal(tonight.code, 0, tonight.stderr);

  editCsv(path.join(dir, 'night1.csv'), path.join(dir, 'reviewed.csv'), { 'Ravi Kumar': ['PAY', 'trading name'] });
  const imported = await runCli(['review', '--import', 'reviewed.csv', '--state', 's.sqlite', '--run', '1', '--reviewer', 'asha'], { cwd: dir });
  assert.equal(imported.code, 0, imported.stderr);
  assert.equal(imported.stdout, '', 'nothing recorded');
  assert.match(imported.stderr, /row 2 \(line 3\): PAY not recorded: a newer answer than this run's names another holder or status \(\d{4}-\d{2}-\d{2}: beneficiary name "VIKRAM SINGH" -> "MALLORY FRAUDSTER" \(a newer answer than this run's\)\): review the run that got it/);
});

test('a bank run that answers a payee again while the file is being read: its acceptance is not recorded (a holder nobody saw is never accepted)', async (t) => {
  const dir = tempDir(t);
  setUp(dir);
  assert.equal((await bank(dir, 'night1.csv')).code, 0);
  editCsv(path.join(dir, 'night1.csv'), path.join(dir, 'reviewed.csv'), { 'Ravi Kumar': ['Accept', 'trading name of Vikram Singh'] });
  const statePath = path.join(dir, 's.sqlite');
  const db = openDatabase(statePath);
  t.after(() => db.close());
  // The import has read the file (Ravi's line shows VIKRAM SINGH)...
  const { edited, rows } = await readEditedRows(db, 1, path.join(dir, 'reviewed.csv'));
  assert.deepEqual(edited.map((e) => e.row.name), ['Ravi Kumar']);
  // ...when a re-check of the same run commits another holder for Ravi's account.
  fs.writeFileSync(path.join(dir, 'holders.csv'), holders('MALLORY FRAUDSTER'));
  const recheck = await bank(dir, 'night1b.csv', ['--resume', '--max-age', '0s']);
  assert.equal(recheck.code, 0, recheck.stderr);
  assert.equal(decisionsOf(path.join(dir, 'night1b.csv'))['Ravi Kumar'], 'HOLD HOLDER_CHANGED');

  const options = { db, statePath, file: path.join(dir, 'reviewed.csv'), reviewer: 'asha', now: Date.now, runId: 1 };
  const result = recordEditedRows(options, DEFAULT_POLICY, edited, rows);
  assert.deepEqual(result.recorded, []);
  assert.equal(result.ignored.length, 1);
  assert.match(result.ignored[0]!.why, /PAY not recorded: the bank answered this payee again while the file was being read/);
  assert.equal(db.prepare('SELECT count(*) FROM reviews').pluck().get(), 0);

  const release = await runCli(['release', '-o', 'payout.csv', '--state', 's.sqlite'], { cwd: dir });
  assert.doesNotMatch(fs.readFileSync(path.join(dir, 'payout.csv'), 'utf8'), /Ravi Kumar/, release.stderr);
});
