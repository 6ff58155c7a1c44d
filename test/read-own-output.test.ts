/**
 * `vas-verify filter` and `review --import` read the tool's own output back (src/output/read.ts,
 * src/report/filter.ts, src/review/import.ts), whatever the input it was written from: line
 * endings, workbook shape and the input's own columns. Black-box review, M1, M5, M6.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import ExcelJS from 'exceljs';
import { runCli, tempDir } from './helpers/cli.js';

const ROWS = [
  ['Beneficiary Name', 'Account Number', 'IFSC', 'Amount'],
  ['Asha Rao', '860000000011', 'SBIN0001234', '1500'],
  ['Ravi Kumar', '860000000090', 'SBIN0001234', '2500'],
  ['Sunita Devi', '860000000013', 'SBIN0001234', '1200'],
];

test('an output with bare CR line endings (from a "CSV (Macintosh)" input) is read by filter and review --import', async (t) => {
  const dir = tempDir(t);
  fs.writeFileSync(path.join(dir, 'payees.csv'), ROWS.map((r) => r.join(',')).join('\r') + '\r');
  const bank = await runCli(['bank', 'payees.csv', '-o', 'out.csv', '--state', 's.sqlite', '--sandbox'], { cwd: dir });
  assert.equal(bank.code, 0, bank.stderr);
  const out = fs.readFileSync(path.join(dir, 'out.csv'), 'utf8');
  assert.ok(out.includes('\r') && !out.includes('\n'), 'the output keeps the bare CRs');
  const filter = await runCli(['filter', 'out.csv', '--where', 'verify_status=NOT_VERIFIED'], { cwd: dir });
  assert.equal(filter.code, 0, filter.stderr);
  const printed = filter.stdout.split(/\r\n|\n|\r/).filter((l) => l !== '');
  assert.equal(printed.length, 2, filter.stdout);
  assert.match(printed[1]!, /^Ravi Kumar,860000000090,/);
  const imported = await runCli(['review', '--import', 'out.csv', '--state', 's.sqlite', '--reviewer', 'asha'], { cwd: dir });
  assert.equal(imported.code, 0, imported.stderr);
  assert.match(imported.stderr, /0 accepted, 0 rejected, 0 not recorded, of 3 payee row\(s\)/);
});

test('an .xlsx output of a workbook with several payee sheets: filter and review --import read the sheet with the tool\'s columns, no --sheet needed', async (t) => {
  const dir = tempDir(t);
  const book = new ExcelJS.Workbook();
  book.addWorksheet('Cover').addRows([['Vendor payments, November']]);
  book.addWorksheet('North').addRows([ROWS[0]!, ['Meena Iyer', '860000000021', 'HDFC0000001', '900']]);
  book.addWorksheet('South').addRows(ROWS);
  await book.xlsx.writeFile(path.join(dir, 'payees.xlsx'));
  const bank = await runCli(['bank', 'payees.xlsx', '--sheet', 'South', '-o', 'out.xlsx', '--state', 's.sqlite', '--sandbox'], { cwd: dir });
  assert.equal(bank.code, 0, bank.stderr);
  const filter = await runCli(['filter', 'out.xlsx', '--where', 'verify_status=NOT_VERIFIED'], { cwd: dir });
  assert.equal(filter.code, 0, filter.stderr);
  const printed = filter.stdout.split('\n').filter((l) => l !== '');
  assert.equal(printed.length, 2, filter.stdout);
  assert.match(printed[1]!, /^Ravi Kumar,860000000090,/);
  const imported = await runCli(['review', '--import', 'out.xlsx', '--state', 's.sqlite', '--reviewer', 'asha'], { cwd: dir });
  assert.equal(imported.code, 0, imported.stderr);
  assert.match(imported.stderr, /0 accepted, 0 rejected, 0 not recorded, of 3 payee row\(s\)/);
});

test('last week\'s enriched file run again (the input has verify_status and decision): review --import and filter take the tool\'s own vas_ columns', async (t) => {
  const dir = tempDir(t);
  fs.writeFileSync(path.join(dir, 'payees.csv'), ROWS.map((r) => r.join(',')).join('\n') + '\n');
  assert.equal((await runCli(['bank', 'payees.csv', '-o', 'week1.csv', '--state', 's.sqlite', '--sandbox'], { cwd: dir })).code, 0);
  const bank = await runCli(['bank', 'week1.csv', '-o', 'week2.csv', '--name-col', 'Beneficiary Name', '--state', 's.sqlite', '--sandbox'], { cwd: dir });
  assert.equal(bank.code, 0, bank.stderr);
  const header = fs.readFileSync(path.join(dir, 'week2.csv'), 'utf8').split('\n')[0]!.split(',');
  assert.ok(header.includes('verify_status') && header.includes('vas_verify_status') && header.includes('vas_decision'), header.join(','));
  const imported = await runCli(['review', '--import', 'week2.csv', '--state', 's.sqlite', '--reviewer', 'asha'], { cwd: dir });
  assert.equal(imported.code, 0, imported.stderr);
  assert.match(imported.stderr, /0 accepted, 0 rejected, 0 not recorded, of 3 payee row\(s\)/);
  // The filter finds the tool's columns by the same rule (ownColumn): this week's vas_decision, vas_verify_status.
  const filter = await runCli(['filter', 'week2.csv', '--where', 'decision=HOLD', '--where', 'verify_status=NOT_VERIFIED'], { cwd: dir });
  assert.equal(filter.code, 0, filter.stderr);
  assert.equal(filter.stdout.split('\n').filter((l) => l !== '').length, 2, filter.stdout);
});
