/**
 * The .xlsx output of an .xlsx input through the real CLI (issue #29): every sheet kept, the
 * payee sheet's name, row numbers, styles, formulas and merged cells kept, amounts numbers and
 * account numbers text; read back by two independent readers (exceljs and SheetJS).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import * as XLSX from '@e965/xlsx';
import { startSandbox } from '../src/sandbox/index.js';
import { runCli, tempDir } from './helpers/cli.js';
import { openXlsxWriter } from '../src/output/xlsx.js';
import { SaxesParser } from 'saxes';
import { ZipFile } from '../src/input/zip-reader.js';
import { DEFAULT_SHEET_LIMITS } from '../src/input/sheet-limits.js';
import { writeWorkbook } from './helpers/xlsx-files.js';

test('.xlsx out keeps the workbook: other sheets, sheet name, row numbers, styles, formulas, merged cells, cell types', async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  const book = new ExcelJS.Workbook();
  const cover = book.addWorksheet('Cover');
  cover.addRow(['Payout batch 2026-11-25']);
  cover.getCell('A3').value = { formula: 'SUM(Payees!D5:D7)', result: 6000 };
  const sheet = book.addWorksheet('Vendor Payees');
  sheet.mergeCells('A1:C1');
  sheet.getCell('A1').value = 'ACME Industries Pvt Ltd';
  sheet.getCell('A1').font = { bold: true };
  sheet.addRow([]);
  sheet.addRow([]);
  sheet.addRow(['Vendor Name', 'Vendor A/c No.', 'Vendor IFSC', 'Amount']);
  sheet.addRow(['Asha Verma', '001234567811', 'SBIN0000001', 1500]);
  sheet.addRow([]);
  sheet.addRow(['Ravi Kumar', 500100000048, 'HDFC0000001', 2500]);
  sheet.addRow(['Meena Iyer', '500100000053', 'ICIC0000002', { formula: 'D5+D7', result: 4000 }]);
  sheet.getCell('D5').numFmt = '#,##0.00';
  sheet.getColumn(1).width = 30;
  book.addWorksheet('Notes').addRow(['keep me']);
  await book.xlsx.writeFile(path.join(dir, 'batch.xlsx'));

  const r = await runCli(['bank', 'batch.xlsx', '--base-url', sandbox.url], { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  const out = new ExcelJS.Workbook();
  await out.xlsx.readFile(path.join(dir, 'batch.verified.xlsx'));
  assert.deepEqual(out.worksheets.map((w) => w.name), ['Cover', 'Vendor Payees', 'Notes']);
  assert.equal(out.getWorksheet('Notes')!.getCell('A1').value, 'keep me');
  assert.deepEqual(out.getWorksheet('Cover')!.getCell('A3').value, { formula: 'SUM(Payees!D5:D7)', result: 6000 });
  const payees = out.getWorksheet('Vendor Payees')!;
  assert.equal(payees.getCell('A1').value, 'ACME Industries Pvt Ltd');
  assert.equal(payees.getCell('A1').font?.bold, true, 'styles kept');
  assert.ok(payees.getCell('B1').isMerged, 'merged cells kept');
  assert.equal(payees.getColumn(1).width, 30, 'column widths kept');
  const header = (payees.getRow(4).values as unknown[]).slice(1) as string[];
  const col = (name: string) => header.indexOf(name) + 1;
  assert.ok(col('verify_status') > 4, 'the tool\'s columns after the input\'s');
  // Row numbers kept: the blank row 6 is still between Asha (5) and Ravi (7).
  assert.equal(payees.getCell(5, col('verify_status')).value, 'VERIFIED');
  assert.equal(payees.getCell(6, 1).value, null);
  assert.equal(payees.getCell(7, 1).value, 'Ravi Kumar');
  assert.equal(payees.getCell(7, col('verify_status')).value, 'VERIFIED');
  assert.equal(payees.getCell(5, 4).value, 1500, 'amounts stay numbers');
  assert.equal(payees.getCell(5, 4).numFmt, '#,##0.00', 'with their number format');
  assert.equal(payees.getCell(7, 2).value, '500100000048', 'an account number stored as a number becomes its text');
  assert.deepEqual(payees.getCell(8, 4).value, { formula: 'D5+D7', result: 4000 }, 'formulas kept');

  // An independent reader agrees.
  const sheetjs = XLSX.read(fs.readFileSync(path.join(dir, 'batch.verified.xlsx')));
  assert.deepEqual(sheetjs.SheetNames, ['Cover', 'Vendor Payees', 'Notes']);
  const rows = XLSX.utils.sheet_to_json<unknown[]>(sheetjs.Sheets['Vendor Payees']!, { header: 1, blankrows: true });
  assert.equal(rows[4]![col('verify_status') - 1], 'VERIFIED');
  assert.equal(fs.statSync(path.join(dir, 'batch.verified.xlsx')).mode & 0o777, 0o600);
});

test('openXlsxWriter with a source: discard mid-way settles and leaves no file; a missing sheet fails the write', async (t) => {
  const dir = tempDir(t);
  const book = new ExcelJS.Workbook();
  book.addWorksheet('Payees').addRow(['Account No', 'IFSC']);
  await book.xlsx.writeFile(path.join(dir, 'in.xlsx'));
  const temp = path.join(dir, 'out.tmp');
  const writer = openXlsxWriter(temp, undefined, { file: path.join(dir, 'in.xlsx'), sheet: 'Payees' });
  await writer.writeRows([['Account No', 'IFSC', 'verify_status']]);
  await writer.discard();
  assert.equal(fs.existsSync(temp), false);
  const wrong = openXlsxWriter(path.join(dir, 'wrong.tmp'), undefined, { file: path.join(dir, 'in.xlsx'), sheet: 'Gone' });
  await assert.rejects(async () => {
    await wrong.writeRows([['Account No', 'IFSC']]);
    await wrong.commit();
  }, /has no sheet "Gone"/);
  assert.equal(fs.existsSync(path.join(dir, 'wrong.tmp')), false, 'a failed commit leaves no file');
});

test('a cell right of the header (a note beside a payee) neither makes the row malformed nor breaks the .xlsx output, which keeps it; a CSV output stays rectangular', async (t) => {
  const dir = tempDir(t);
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Payees');
  sheet.addRow(['Name', 'Account Number', 'IFSC', 'Amount']);
  sheet.addRow(['Ramesh Kumar', '50100234567812', 'SBIN0004266', 1000, 'pay after 5th', { formula: 'D2*2', result: 2000 }]);
  sheet.addRow(['Priya Sharma', '12345678901', 'HDFC0001234', 2000]);
  sheet.addRow(['Total', null, null, { formula: 'SUM(D2:D3)', result: 3000 }]);
  await book.xlsx.writeFile(path.join(dir, 'p.xlsx'));
  const run = await runCli(['bank', 'p.xlsx', '-o', 'out.xlsx', '--sandbox', '--state', 's.sqlite'], { cwd: dir });
  assert.equal(run.code, 0, run.stderr);
  const out = new ExcelJS.Workbook();
  await out.xlsx.readFile(path.join(dir, 'out.xlsx'));
  const rows = out.worksheets[0]!;
  const header = (rows.getRow(1).values as unknown[]).slice(1) as string[];
  const col = (name: string) => header.indexOf(name) + 1;
  assert.equal(rows.getRow(2).getCell(col('verify_status')).value, 'VERIFIED', 'a payee, not ROW_MALFORMED');
  assert.equal(rows.getRow(2).getCell(col('decision')).value, 'PAY');
  // The note is kept, after the tool's columns; the amounts stay numbers, the total its formula.
  assert.equal(rows.getRow(2).getCell(header.length + 1).value, 'pay after 5th');
  // A moved formula would point elsewhere: the cell keeps the value it showed.
  assert.equal(rows.getRow(2).getCell(header.length + 2).value, 2000);
  assert.equal(rows.getRow(2).getCell(4).value, 1000);
  assert.equal(rows.getRow(3).getCell(4).value, 2000);
  assert.deepEqual(rows.getRow(4).getCell(4).value, { formula: 'SUM(D2:D3)', result: 3000 });
  assert.equal(rows.getRow(3).getCell(col('verify_status')).value, 'VERIFIED');

  // The same workbook written as CSV: the row is a payee too, and the CSV stays rectangular (a
  // script reading it with a column count does not break on the note's row).
  const csv = await runCli(['bank', 'p.xlsx', '-o', 'out.csv', '--sandbox', '--state', 's2.sqlite'], { cwd: dir });
  assert.equal(csv.code, 0, csv.stderr);
  const lines = fs.readFileSync(path.join(dir, 'out.csv'), 'utf8').trim().split('\n');
  assert.equal(new Set(lines.map((l) => l.split(',').length)).size, 1, 'every line as wide as the header');
  assert.match(lines[1]!, /^Ramesh Kumar,50100234567812,SBIN0004266,1000,VERIFIED,/);
});

test('a sheet that names its namespace only through a prefix (<x:worksheet>, as .NET exporters write) is copied with every element, old and new, in that namespace', async (t) => {
  const dir = tempDir(t);
  const main = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
  const cell = (ref: string, v: string | number) =>
    typeof v === 'number' ? `<x:c r="${ref}"><x:v>${v}</x:v></x:c>` : `<x:c r="${ref}" t="inlineStr"><x:is><x:t>${v}</x:t></x:is></x:c>`;
  const rows = [
    ['Beneficiary Name', 'Account Number', 'IFSC Code', 'Amount'],
    ['Ramesh Kumar', '50100234567812', 'SBIN0004266', 1500],
    ['Priya Sharma', '12345678901', 'HDFC0001234', 2500],
  ];
  const sheetData = rows.map((r, i) => `<x:row r="${i + 1}">${r.map((v, j) => cell(`${'ABCD'[j]}${i + 1}`, v)).join('')}</x:row>`).join('');
  await writeWorkbook(path.join(dir, 'p.xlsx'), [
    { name: 'Payees', xml: `<?xml version="1.0" encoding="utf-8"?><x:worksheet xmlns:x="${main}"><x:sheetData>${sheetData}</x:sheetData><x:pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></x:worksheet>` },
  ]);
  const run = await runCli(['bank', 'p.xlsx', '-o', 'out.xlsx', '--sandbox', '--state', 's.sqlite'], { cwd: dir });
  assert.equal(run.code, 0, run.stderr);

  const zip = ZipFile.open(path.join(dir, 'out.xlsx'), DEFAULT_SHEET_LIMITS);
  let xml = '';
  for await (const chunk of zip.inflate(zip.find('xl/worksheets/sheet1.xml')!)) xml += chunk.toString('utf8');
  const outside = new Set<string>();
  const names: string[] = [];
  const parser = new SaxesParser({ xmlns: true });
  parser.on('opentag', (tag) => {
    names.push(tag.local);
    if (tag.uri !== main) outside.add(`${tag.name} in "${tag.uri}"`);
  });
  parser.write(xml).close();
  assert.deepEqual([...outside], [], 'every element in the spreadsheet namespace');
  assert.ok(names.filter((n) => n === 'row').length === 3 && names.includes('pageMargins'), names.join(' '));

  // And it reads back as the payees it wrote (SheetJS: ExcelJS reads no prefixed workbook, the input's included).
  const book = XLSX.read(fs.readFileSync(path.join(dir, 'out.xlsx')));
  const table = XLSX.utils.sheet_to_json<Record<string, unknown>>(book.Sheets[book.SheetNames[0]!]!);
  assert.deepEqual(table.map((r) => [r['Beneficiary Name'], r.Amount, r.verify_status]), [['Ramesh Kumar', 1500, 'VERIFIED'], ['Priya Sharma', 2500, 'VERIFIED']]);
});
