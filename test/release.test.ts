/**
 * `vas-verify release` (issue #31): the real CLI after a real bank run against the sandbox (the
 * holders set by --sandbox-accounts). The release equals the input, byte for byte, minus the rows
 * of payees not cleared (CSV with a preamble, `;`, CRLF, a BOM and quoted cells; .xlsx with its
 * other sheet, its number cells and styles); --exceptions lists the rest with their reasons; a run
 * that is not final and an input changed since the run are refused; the audit trail records it.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import Database from 'better-sqlite3';
import { inspectInput } from '../src/input/inspect.js';
import { runCli, tempDir } from './helpers/cli.js';

const HOLDERS = [
  'accountNumber,ifsc,name,status',
  '860000000011,SBIN0001234,ASHA RAO,VERIFIED',
  '860000000012,SBIN0001234,VIKRAM SINGH,VERIFIED',
  '860000000013,SBIN0001234,SUNITA DEVI,VERIFIED',
  '860000000014,SBIN0001234,MOHAN LAL,NOT_VERIFIED',
].join('\n') + '\n';

/** The input's lines, each with whether the release keeps it (the rows of payees not cleared are left out). */
const LINES: [string, boolean][] = [
  ['\uFEFFCompany: Acme Pvt Ltd;;;;', true],
  ['Batch;2026-11-25;;;', true],
  ['', true],
  ['Beneficiary Name;Account Number;IFSC;Amount;Narration', true],
  ['Asha Rao;860000000011;SBIN0001234;1500.00;"Salary; Nov"', true], // DIRECT_MATCH: PAY
  ['Ravi Kumar;860000000012;SBIN0001234;2500.50;Salary', false], // NO_MATCH: HOLD
  [';;;;', true], // blank: not a payee, kept
  ['Sunita Devi;860000000013;SBIN0001234;"1,200.00";"Bonus\r\nline two"', true], // PAY, a line break in a quoted cell
  ['Mohan Lal;860000000014;SBIN0001234;300;Salary', false], // NOT_VERIFIED: HOLD
  ['Bad Row;12AB;SBIN0001234;10;Salary', false], // INVALID: HOLD
  ['Total;;;5510.50;', true], // a total row: kept
];

function writeCsvInput(dir: string): { input: Buffer; expected: Buffer } {
  fs.writeFileSync(path.join(dir, 'holders.csv'), HOLDERS);
  const input = Buffer.from(LINES.map(([l]) => `${l}\r\n`).join(''), 'utf8');
  const expected = Buffer.from(LINES.filter(([, keep]) => keep).map(([l]) => `${l}\r\n`).join(''), 'utf8');
  fs.writeFileSync(path.join(dir, 'payees.csv'), input);
  return { input, expected };
}

async function bank(dir: string, input: string, extra: string[] = []) {
  return runCli(['bank', input, '-o', `out-${path.basename(input)}`, '--state', 's.sqlite', '--sandbox', '--sandbox-accounts', 'holders.csv', ...extra], { cwd: dir });
}

test('release of a CSV with a preamble, ";" and CRLF: the input byte for byte minus the rows not cleared; --exceptions; an audit entry', async (t) => {
  const dir = tempDir(t);
  const { expected } = writeCsvInput(dir);
  const run = await bank(dir, 'payees.csv');
  assert.equal(run.code, 0, run.stderr);

  const release = await runCli(['release', '-o', 'payout.csv', '--state', 's.sqlite', '--exceptions', 'held.csv'], { cwd: dir });
  assert.equal(release.code, 0, release.stderr);
  const payout = fs.readFileSync(path.join(dir, 'payout.csv'));
  assert.deepEqual(payout, expected, `release:\n${payout.toString()}`);
  assert.equal(fs.statSync(path.join(dir, 'payout.csv')).mode & 0o777, 0o600);
  assert.equal(fs.statSync(path.join(dir, 'held.csv')).mode & 0o777, 0o600);
  assert.match(release.stderr, /release of run 1 .*payees\.csv\): 2 payee\(s\) to pay in payout\.csv; left out: 3 on HOLD, 0 to REVIEW/);
  assert.match(release.stderr, /policy: default.*; approvals needed: 1/);
  // The Total row (line 12: a quoted cell above holds a line break) is copied as it was, but it summed the three payees left out too: it is named.
  assert.match(release.stderr, /^warn: 1 total row\(s\) copied as they were \(line\(s\) 12\) while 3 payee row\(s\) are left out: their totals no longer match the payout; correct them in your bank's format before uploading$/m);
  assert.equal(release.stdout, 'payout.csv\n');
  assert.match(release.stderr, /sha256 of the release: [0-9a-f]{64}; recorded in the audit trail as entry \d+ \(hash [0-9a-f]{64}\)/);
  assert.deepEqual(fs.readdirSync(dir).filter((f) => f.endsWith('.tmp')), [], 'no temporary file left');

  // The input moved since the run: named with --input.
  fs.mkdirSync(path.join(dir, 'archive'));
  fs.renameSync(path.join(dir, 'payees.csv'), path.join(dir, 'archive', 'payees.csv'));
  const moved = await runCli(['release', '-o', 'payout2.csv', '--state', 's.sqlite'], { cwd: dir });
  assert.equal(moved.code, 2, moved.stderr);
  assert.match(moved.stderr, /the input of run 1, .*payees\.csv \(given to the run as payees\.csv\), is not there: give the run's input with --input FILE/);
  const named = await runCli(['release', '-o', 'payout2.csv', '--state', 's.sqlite', '--input', 'archive/payees.csv'], { cwd: dir });
  assert.equal(named.code, 0, named.stderr);
  assert.deepEqual(fs.readFileSync(path.join(dir, 'payout2.csv')), expected);

  // The exceptions: the input's cells of each row left out, then why, in the input's delimiter and line endings.
  const held = fs.readFileSync(path.join(dir, 'held.csv'), 'utf8');
  assert.ok(held.startsWith('\uFEFF') && held.includes('\r\n'), 'the input BOM and CRLF');
  const rows = parse(held, { bom: true, delimiter: ';', columns: true }) as Record<string, string>[];
  assert.deepEqual(
    rows.map((r) => [r['Beneficiary Name'], r['Account Number'], r.decision, r.decision_reason, r.verify_status, r.beneficiary_name]),
    [
      ['Ravi Kumar', '860000000012', 'HOLD', 'NAME_MISMATCH', 'VERIFIED', 'VIKRAM SINGH'],
      ['Mohan Lal', '860000000014', 'HOLD', 'ACCOUNT_NOT_VERIFIED', 'NOT_VERIFIED', ''],
      ['Bad Row', '12AB', 'HOLD', 'ACCOUNT_INVALID', 'INVALID', ''],
    ],
  );

  // The audit trail names the run, the policy and the file's hash.
  const audit = await runCli(['audit', '--state', 's.sqlite', '--run', '1'], { cwd: dir });
  assert.equal(audit.code, 0, audit.stderr);
  const entries = audit.stdout.trim().split('\n').map((l) => JSON.parse(l) as { kind: string; runId: number; entry: Record<string, unknown> });
  const released = entries.filter((e) => e.kind === 'release');
  assert.equal(released.length, 2, 'one entry per release');
  assert.equal(released[0]!.runId, 1);
  assert.deepEqual(released[0]!.entry.decisions, { PAY: 2, REVIEW: 0, HOLD: 3 });
  assert.equal((released[0]!.entry.policy as { approvals: number }).approvals, 1);
  assert.match(String(released[0]!.entry.sha256), /^[0-9a-f]{64}$/);
  // Who released: the OS user, in the entry and in the CSV's who column (README: the reviewer, or vas-verify).
  assert.equal(released[0]!.entry.by, os.userInfo().username);
  const csv = await runCli(['audit', '--state', 's.sqlite', '--run', '1', '--format', 'csv'], { cwd: dir });
  assert.equal(csv.code, 0, csv.stderr);
  const releaseRows = (parse(csv.stdout, { columns: true }) as Record<string, string>[]).filter((r) => r.kind === 'release');
  assert.deepEqual(releaseRows.map((r) => r.who), [os.userInfo().username, os.userInfo().username]);
});

test('release refuses a run that is not final and an input changed since the run, exit 2 with what to do', async (t) => {
  const dir = tempDir(t);
  fs.writeFileSync(path.join(dir, 'holders.csv'), HOLDERS);
  // Account ...92: the sandbox's daily limit, DEFERRED.
  fs.writeFileSync(path.join(dir, 'deferred.csv'), 'Name,Account,IFSC\nAsha Rao,860000000011,SBIN0001234\nDef Erred,860000000092,SBIN0001234\n');
  const run = await bank(dir, 'deferred.csv');
  assert.equal(run.code, 3, run.stderr);
  const refused = await runCli(['release', '-o', 'payout.csv', '--state', 's.sqlite'], { cwd: dir });
  assert.equal(refused.code, 2, refused.stderr);
  assert.match(refused.stderr, /run 1 is not final: it has rows without a final answer \(1 DEFERRED by the API's daily limit, due again \d{1,2} [A-Z][a-z]{2} \d{4}, 00:00 IST\); run the bank command again with --resume/);
  assert.equal(refused.stderr.trim().split('\n').length, 1, refused.stderr);
  assert.ok(!fs.existsSync(path.join(dir, 'payout.csv')));

  // Account ...97 by penny-drop: the rupee went, the answer was lost (UNCONFIRMED); --resume alone never asks again.
  fs.writeFileSync(path.join(dir, 'doubt.csv'), 'Name,Account,IFSC\nAsha Rao,860000000011,SBIN0001234\nIn Doubt,860000000097,SBIN0001234\n');
  const doubt = await bank(dir, 'doubt.csv', ['--mode', 'pd']);
  assert.equal(doubt.code, 3, doubt.stderr);
  const unconfirmed = await runCli(['release', '-o', 'payout.csv', '--state', 's.sqlite'], { cwd: dir });
  assert.equal(unconfirmed.code, 2, unconfirmed.stderr);
  assert.match(unconfirmed.stderr, /run 2 is not final: it has rows without a final answer \(1 UNCONFIRMED\); run the bank command again with --resume until it exits 0, then release; an UNCONFIRMED row may have moved a rupee: check the bank statement, then add --retry-unconfirmed to ask again$/m);

  writeCsvInput(dir);
  assert.equal((await bank(dir, 'payees.csv')).code, 0);
  fs.appendFileSync(path.join(dir, 'payees.csv'), 'Late Payee;860000000013;SBIN0001234;5;Salary\r\n');
  const changed = await runCli(['release', '-o', 'payout.csv', '--state', 's.sqlite', '--run', '3'], { cwd: dir });
  assert.equal(changed.code, 2, changed.stderr);
  assert.match(changed.stderr, /the input .*payees\.csv changed since run 3 read it/);
  assert.ok(!fs.existsSync(path.join(dir, 'payout.csv')));

  const unknown = await runCli(['release', '-o', 'payout.csv', '--state', 's.sqlite', '--run', '9'], { cwd: dir });
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /run 9 is not in s\.sqlite \(runs: 3, 2, 1\)/);
  const layout = await runCli(['release', '-o', 'payout.xlsx', '--state', 's.sqlite', '--run', '1'], { cwd: dir });
  assert.equal(layout.code, 2);
});

async function writeXlsxInput(file: string): Promise<void> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Payees');
  sheet.addRow(['Salary batch November']);
  sheet.addRow(['Beneficiary Name', 'Account Number', 'IFSC', 'Amount']);
  const rows: [string, string, string, number][] = [
    ['Asha Rao', '860000000011', 'SBIN0001234', 1500],
    ['Ravi Kumar', '860000000012', 'SBIN0001234', 2500.5],
    ['Sunita Devi', '860000000013', 'SBIN0001234', 1200],
    ['Mohan Lal', '860000000014', 'SBIN0001234', 300],
  ];
  for (const r of rows) sheet.addRow(r).getCell(4).numFmt = '#,##0.00';
  sheet.addRow(['Total', '', '', 5500.5]);
  sheet.mergeCells('A7:C7'); // the total's label across three cells
  const other = book.addWorksheet('Notes');
  other.addRow(['Approved by', 'Finance head']);
  other.addRow(['Amount cap', 100000]);
  await book.xlsx.writeFile(file);
}

test('release of an .xlsx: the same workbook, the payee sheet without the rows not cleared, cells as they were, other sheets kept', async (t) => {
  const dir = tempDir(t);
  fs.writeFileSync(path.join(dir, 'holders.csv'), HOLDERS);
  await writeXlsxInput(path.join(dir, 'payees.xlsx'));
  const run = await runCli(['bank', 'payees.xlsx', '-o', 'out.xlsx', '--state', 's.sqlite', '--sandbox', '--sandbox-accounts', 'holders.csv'], { cwd: dir });
  assert.equal(run.code, 0, run.stderr);
  const release = await runCli(['release', '-o', 'payout.xlsx', '--state', 's.sqlite', '--exceptions', 'held.csv'], { cwd: dir });
  assert.equal(release.code, 0, release.stderr);
  assert.equal(fs.statSync(path.join(dir, 'payout.xlsx')).mode & 0o777, 0o600);

  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(path.join(dir, 'payout.xlsx'));
  assert.deepEqual(book.worksheets.map((s) => s.name), ['Payees', 'Notes']);
  const sheet = book.getWorksheet('Payees')!;
  const values: unknown[][] = [];
  sheet.eachRow({ includeEmpty: true }, (row) => values.push((row.values as unknown[]).slice(1)));
  assert.deepEqual(values, [
    ['Salary batch November'],
    ['Beneficiary Name', 'Account Number', 'IFSC', 'Amount'],
    ['Asha Rao', '860000000011', 'SBIN0001234', 1500],
    ['Sunita Devi', '860000000013', 'SBIN0001234', 1200],
    ['Total', 'Total', 'Total', 5500.5], // exceljs gives each cell of a merge its first cell's value
  ]);
  assert.equal(sheet.getRow(4).getCell(4).numFmt, '#,##0.00', 'the amount keeps its number format');
  assert.equal(sheet.getRow(4).number, 4, 'the rows below a removed one move up');
  assert.deepEqual(sheet.model.merges, ['A5:C5'], 'and so does the merged total label');
  const notes = book.getWorksheet('Notes')!;
  assert.deepEqual((notes.getRow(2).values as unknown[]).slice(1), ['Amount cap', 100000]);
  // None of the tool's columns.
  assert.equal(sheet.getRow(2).cellCount, 4);

  const held = parse(fs.readFileSync(path.join(dir, 'held.csv')), { columns: true }) as Record<string, string>[];
  assert.deepEqual(held.map((r) => [r['Beneficiary Name'], r.decision_reason]), [['Ravi Kumar', 'NAME_MISMATCH'], ['Mohan Lal', 'ACCOUNT_NOT_VERIFIED']]);
});

test('release warns, without changing the payout, of amounts that are not positive, an account paid on two rows, and a run released before', async (t) => {
  const dir = tempDir(t);
  fs.writeFileSync(path.join(dir, 'p.csv'), [
    'Payee Name,Account Number,IFSC,Amount',
    'Priya Nair,870100000011,SBIN0004266,-500',
    'Anil Gupta,870100000012,ICIC0000011,0',
    'Sunita Devi,870100000013,HDFC0001234,abc',
    'Ravi Kumar,870100000014,HDFC0001234,"1,00,000.00"',
    'Ravi Kumar,870100000014,HDFC0001234,2000',
    'Total,,,101500.00',
  ].join('\n') + '\n');
  fs.writeFileSync(path.join(dir, 'holders.csv'), 'accountNumber,ifsc,name\n870100000011,SBIN0004266,PRIYA NAIR\n870100000012,ICIC0000011,ANIL GUPTA\n870100000013,HDFC0001234,SUNITA DEVI\n870100000014,HDFC0001234,RAVI KUMAR\n');
  const run = await runCli(['bank', 'p.csv', '-o', 'out.csv', '--state', 's.sqlite', '--sandbox', '--sandbox-accounts', 'holders.csv'], { cwd: dir });
  assert.equal(run.code, 0, run.stderr);
  const first = await runCli(['release', '-o', 'pay1.csv', '--state', 's.sqlite'], { cwd: dir });
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stderr, /^warn: 3 paid row\(s\) with an amount that is not a positive number: line\(s\) 2, 3, 4 \("-500", "0", "abc"\): check them before uploading$/m);
  assert.match(first.stderr, /^warn: account xxxxxxxx0014 is paid on 2 rows \(lines 5, 6\): check it is not one payment twice$/m);
  assert.doesNotMatch(first.stderr, /released before/);
  assert.doesNotMatch(first.stderr, /total row/, 'every payee is paid: the Total row still adds up');
  assert.equal(fs.readFileSync(path.join(dir, 'pay1.csv'), 'utf8').trim().split('\n').length, 7, 'the payout is written all the same, its Total row too');
  const second = await runCli(['release', '-o', 'pay2.csv', '--state', 's.sqlite'], { cwd: dir });
  assert.equal(second.code, 0, second.stderr);
  assert.match(second.stderr, /^warn: run 1 was released before \(\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} IST, audit entry \d+, sha256 [0-9a-f]{12}…\): upload one of the payouts, not both$/m);
});

test('release says which payees it left out awaiting a second reviewer, and that they were accepted under approvals 2 when its policy asks one', async (t) => {
  const dir = tempDir(t);
  fs.writeFileSync(path.join(dir, 'holders.csv'), HOLDERS);
  fs.writeFileSync(path.join(dir, 'two.csv'), 'Beneficiary Name,Account Number,IFSC,Amount\nAsha Rao,860000000011,SBIN0001234,100\nRavi Kumar,860000000012,SBIN0001234,200\n');
  assert.equal((await bank(dir, 'two.csv')).code, 0);
  // asha accepts row 2 (HOLD, NAME_MISMATCH) under --approvals 2: it needs a second reviewer.
  const out = fs.readFileSync(path.join(dir, 'out-two.csv'), 'utf8');
  fs.writeFileSync(path.join(dir, 'edited.csv'), out.replace(',HOLD,NAME_MISMATCH,', ',PAY,NAME_MISMATCH,'));
  const imported = await runCli(['review', '--import', 'edited.csv', '--state', 's.sqlite', '--reviewer', 'asha', '--approvals', '2'], { cwd: dir });
  assert.equal(imported.code, 0, imported.stderr);
  assert.match(imported.stdout, /awaiting 1 more reviewer/);

  const release = await runCli(['release', '-o', 'payout.csv', '--state', 's.sqlite'], { cwd: dir });
  assert.equal(release.code, 0, release.stderr);
  assert.match(release.stderr, /left out: 0 on HOLD, 1 to REVIEW/);
  assert.match(release.stderr, /approvals needed: 1; 1 payee row\(s\) left out awaiting another reviewer, accepted under approvals 2 \(rows 2\): a different reviewer accepts them with vas-verify review, then release again/);
  assert.doesNotMatch(fs.readFileSync(path.join(dir, 'payout.csv'), 'utf8'), /Ravi/);
});

test('a run whose rows this version reads otherwise (an upgrade that now knows a total row) is refused naming the line and both readings', async (t) => {
  const dir = tempDir(t);
  fs.writeFileSync(path.join(dir, 'holders.csv'), HOLDERS);
  const header = 'Beneficiary Name,Account Number,IFSC,Amount';
  fs.writeFileSync(path.join(dir, 'p.csv'), `${header}\nAsha Rao,860000000011,SBIN0001234,100\nVikram Singh,860000000012,SBIN0001234,200\n`);
  assert.equal((await bank(dir, 'p.csv')).code, 0);
  // The run as an older version made it of this file: its line 3 was a payee's, where this version
  // reads a hash total (the state's fingerprint made the file's, as that version took it).
  fs.writeFileSync(path.join(dir, 'p.csv'), `${header}\nAsha Rao,860000000011,SBIN0001234,100\nHash Total,1720000000023,,300\n`);
  const db = new Database(path.join(dir, 's.sqlite'));
  db.prepare('UPDATE runs SET fingerprint = ?').run((await inspectInput(path.join(dir, 'p.csv'))).fingerprint);
  db.close();
  const release = await runCli(['release', '-o', 'payout.csv', '--state', 's.sqlite'], { cwd: dir });
  assert.equal(release.code, 2, release.stderr);
  assert.match(release.stderr, /line 3 of .*p\.csv is a total row to this version of vas-verify, but run 1 read it as payee row 2: release the run with the version that made it, or verify the file again with this one/);
  assert.ok(!fs.existsSync(path.join(dir, 'payout.csv')), 'nothing written');
});
