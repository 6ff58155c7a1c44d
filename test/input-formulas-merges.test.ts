import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as XLSX from '@e965/xlsx';
import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { MergedCells } from '../src/input/merged-cells.js';
import { openXlsxRecords } from '../src/input/xlsx.js';
import { startSandbox } from '../src/sandbox/index.js';
import { ZipFile } from '../src/input/zip-reader.js';
import { DEFAULT_SHEET_LIMITS } from '../src/input/sheet-limits.js';
import { runCli, tempDir } from './helpers/cli.js';
import { rowXml, sheetXml, writeOds, writeWorkbook } from './helpers/xlsx-files.js';

const rowsOf = (file: string) => parse(fs.readFileSync(file, 'utf8'), { columns: true }) as Array<Record<string, string>>;

/** The sheet part's XML of an .xlsx, as written. */
async function sheetXmlOf(file: string): Promise<string> {
  const zip = ZipFile.open(file, DEFAULT_SHEET_LIMITS);
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of zip.inflate(zip.find('xl/worksheets/sheet1.xml')!)) chunks.push(chunk);
    return Buffer.concat(chunks).toString('utf8');
  } finally {
    zip.close();
  }
}

/** Name, account, IFSC: the account and IFSC built by formulas, as a script writes them (no result: exceljs writes no <v>). */
async function scriptWorkbook(file: string, withResults: boolean, formulaInOther = false): Promise<void> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Payees');
  sheet.addRow(['Beneficiary Name', 'Account Number', 'IFSC', 'Check']);
  const payees = [['Asha Verma', '500100000048', 'sbin0000001'], ['Ravi Kumar', '500100000148', 'hdfc0000001']] as const;
  payees.forEach(([name, account, ifsc], i) => {
    const r = i + 2;
    const result = (value: string) => (withResults ? { result: value } : {});
    sheet.addRow([
      name,
      { formula: `TEXT(${account},"0")`, ...result(account) },
      { formula: `UPPER("${ifsc}")`, ...result(ifsc.toUpperCase()) },
      formulaInOther ? { formula: `LEN(B${r})` } : 'ok',
    ]);
  });
  await book.xlsx.writeFile(file);
}

test('formulas never calculated in a payee column stop the run before any call, naming the sheet, the column, a cell and what to do; with their values they are read', async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  await scriptWorkbook(path.join(dir, 'script.xlsx'), false);
  assert.doesNotMatch(await sheetXmlOf(path.join(dir, 'script.xlsx')), /<c r="B2"[^>]*><f>[^<]*<\/f><v>/, 'the formula is written with no cached value');

  const stopped = await runCli(['bank', 'script.xlsx', '-o', 'out.csv', '--base-url', sandbox.url], { cwd: dir });
  assert.equal(stopped.code, 2, stopped.stderr);
  const line = stopped.stderr.split('\n').find((l) => /never calculated/.test(l)) ?? '';
  assert.match(line, /column B \("Account Number"\) of sheet "Payees" holds formulas that were never calculated/);
  assert.match(line, /2 cells in the rows read, e\.g\. Payees!B2 \(and 1 other payee column\(s\)\)/);
  assert.match(line, /open the workbook in Excel or LibreOffice and save it, so that its formulas are calculated, or export it as CSV/);
  assert.equal(sandbox.stats().requests['account-verification-pl'] ?? 0, 0, 'no call');
  assert.ok(!fs.existsSync(path.join(dir, 'out.csv')));

  await scriptWorkbook(path.join(dir, 'saved.xlsx'), true, true);
  const read = await runCli(['bank', 'saved.xlsx', '-o', 'saved.csv', '--base-url', sandbox.url], { cwd: dir });
  assert.equal(read.code, 0, `${read.stderr}\na formula with its value is read; one never calculated outside the payee columns stops nothing`);
  const rows = rowsOf(path.join(dir, 'saved.csv'));
  assert.deepEqual(rows.map((r) => [r['Account Number'], r.IFSC, r.verify_status]), [['500100000048', 'SBIN0000001', 'VERIFIED'], ['500100000148', 'HDFC0000001', 'VERIFIED']]);
});

test('formulas never calculated: only some rows of a payee column (openpyxl\'s empty <v>) still stop, counted', async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, 'some.xlsx');
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Sheet1');
  sheet.addRow(['Name', 'Account No', 'IFSC']);
  sheet.addRow(['Asha Verma', '500100000048', { formula: 'UPPER("sbin0000001")', result: 'SBIN0000001' }]);
  sheet.addRow(['Ravi Kumar', '500100000148', { formula: 'UPPER("sbin0000001")' }]);
  sheet.addRow(['Meena Iyer', '500100000248', { formula: 'UPPER("sbin0000001")' }]);
  await book.xlsx.writeFile(file);
  const r = await runCli(['bank', 'some.xlsx', '-o', 'out.csv', '--sandbox'], { cwd: dir });
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /column C \("IFSC"\) of sheet "Sheet1" holds formulas that were never calculated, so their cells read as empty: 2 cells in the rows read, e\.g\. Sheet1!C3;/);

  const uncalculatedOf = async (at: string) => {
    const reader = await openXlsxRecords(at);
    const seen = [];
    for await (const record of reader.records) seen.push(record.uncalculated ?? []);
    reader.close();
    return seen;
  };
  assert.deepEqual(await uncalculatedOf(file), [[], [], [2], [2]], 'exceljs writes no <v>');
  // openpyxl writes <f>…</f><v></v>; a string formula's empty <v> is a value (it calculated to "").
  const raw = path.join(dir, 'openpyxl.xlsx');
  await writeWorkbook(raw, [{ name: 'Sheet1', xml: sheetXml([
    rowXml(1, ['Name', 'Account No', 'IFSC', 'Note']),
    '<row r="2"><c r="A2" t="inlineStr"><is><t>Asha</t></is></c><c r="B2"><f>TEXT(500100000048,"0")</f><v></v></c><c r="C2" t="str"><f>UPPER("sbin0000001")</f><v>SBIN0000001</v></c><c r="D2" t="str"><f>IF(1,"","x")</f><v></v></c></row>',
  ]) }]);
  assert.deepEqual(await uncalculatedOf(raw), [[], [1]]);
});

test('MergedCells: a payee column\'s covered cells read the top-left value; merges from the header up, across columns only, or outside the payee columns are left alone', () => {
  const merges = [
    { top: 1, left: 0, bottom: 1, right: 3 }, // a title across the columns
    { top: 2, left: 1, bottom: 3, right: 1 }, // a header cell over two lines
    { top: 4, left: 2, bottom: 6, right: 2 }, // IFSC down three payees
    { top: 4, left: 3, bottom: 5, right: 3 }, // a branch column, not a payee column
    { top: 7, left: 0, bottom: 8, right: 1 }, // name and account merged over two rows and two columns
  ];
  const merged = new MergedCells(merges, [1, 2, 0], 3);
  const fill = (line: number, fields: string[]) => merged.fill({ fields, line }).fields;
  assert.deepEqual(fill(4, ['A', '500100000048', 'SBIN0000001', 'Fort']), ['A', '500100000048', 'SBIN0000001', 'Fort']);
  assert.deepEqual(fill(5, ['B', '500100000148', '', '']), ['B', '500100000148', 'SBIN0000001', '']);
  assert.deepEqual(fill(6, ['C', '500100000248']), ['C', '500100000248', 'SBIN0000001']);
  // A merge across columns holds its first column's value: a name is never filled into the account column.
  assert.deepEqual(fill(7, ['Asha', '', 'HDFC0000001']), ['Asha', '', 'HDFC0000001'], 'the top row of a block merge, right of its top-left');
  assert.deepEqual(fill(8, ['', '', 'HDFC0000001']), ['Asha', '', 'HDFC0000001']);
  assert.deepEqual(fill(9, ['D', '', '']), ['D', '', ''], 'past its bottom, nothing');
  const record = { fields: ['x', '', ''], line: 5 };
  const again = new MergedCells(merges, [2], 3);
  again.fill({ fields: ['', '', 'SBIN0000001'], line: 4 });
  assert.notEqual(again.fill(record).fields, record.fields, 'a copy: the record read is not changed');
});

test('merged cells through the CLI: an .xlsx with the IFSC merged down a group (a title and a header cell merged too) is verified with the merged IFSC; the .xlsx output keeps the merge and the cells as they were', async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Transfers');
  sheet.addRow(['Beneficiary list, March']);
  sheet.mergeCells('A1:E1');
  sheet.addRow(['Account Number', 'IFSC', 'Beneficiary Name', '', 'Branch']);
  sheet.mergeCells('C2:D2');
  sheet.addRow(['500100000048', 'SBIN0000001', 'Asha Verma', '', 'Fort']);
  sheet.addRow(['500100000148', '', 'Ravi Kumar', '', '']);
  sheet.addRow(['500100000248', '', 'Meena Iyer', '', '']);
  sheet.addRow(['500100000348', '', 'John Dsouza', '', '']);
  sheet.mergeCells('B3:B6');
  sheet.mergeCells('E3:E6');
  sheet.addRow(['500100000448', 'HDFC0000001', 'Priya Nair', '', 'Andheri']);
  await book.xlsx.writeFile(path.join(dir, 'merged.xlsx'));

  const csv = await runCli(['bank', 'merged.xlsx', '-o', 'out.csv', '--state', 'csv.sqlite', '--base-url', sandbox.url], { cwd: dir });
  assert.equal(csv.code, 0, csv.stderr);
  assert.match(csv.stderr, /header found at line 2/);
  const rows = parse(fs.readFileSync(path.join(dir, 'out.csv'), 'utf8'), { from_line: 2, columns: true }) as Array<Record<string, string>>;
  // The output's cells are the file's (the covered ones empty); the verification read the merged IFSC.
  assert.deepEqual(rows.map((r) => [r['Account Number'], r.IFSC, r.verify_status, r.bank_name]), [
    ['500100000048', 'SBIN0000001', 'VERIFIED', 'State Bank of India'],
    ['500100000148', '', 'VERIFIED', 'State Bank of India'],
    ['500100000248', '', 'VERIFIED', 'State Bank of India'],
    ['500100000348', '', 'VERIFIED', 'State Bank of India'],
    ['500100000448', 'HDFC0000001', 'VERIFIED', 'HDFC Bank'],
  ]);
  assert.equal(sandbox.stats().requests['account-verification-pl'], 5, 'every covered row called, with the merged IFSC');

  const xlsx = await runCli(['bank', 'merged.xlsx', '-o', 'out.xlsx', '--state', 'xlsx.sqlite', '--base-url', sandbox.url], { cwd: dir });
  assert.equal(xlsx.code, 0, xlsx.stderr);
  const out = await sheetXmlOf(path.join(dir, 'out.xlsx'));
  assert.match(out, /<mergeCell ref="B3:B6"\/>/, 'the merge is kept');
  assert.doesNotMatch(out, /<c r="B4"[^>]*>(?:(?!<\/c>).)*SBIN/, 'the covered cell is not rewritten');
  const back = new ExcelJS.Workbook();
  await back.xlsx.readFile(path.join(dir, 'out.xlsx'));
  const s = back.getWorksheet('Transfers')!;
  const header = (s.getRow(2).values as unknown[]).slice(1);
  const status = header.indexOf('verify_status') + 1;
  assert.deepEqual([3, 4, 5, 6, 7].map((r) => s.getRow(r).getCell(status).value), ['VERIFIED', 'VERIFIED', 'VERIFIED', 'VERIFIED', 'VERIFIED']);
});

test('merged cells in an .xls and an .ods (SheetJS !merges) are read as merged', async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  const ws = XLSX.utils.aoa_to_sheet([['Name', 'Account No', 'IFSC'], ['Asha Verma', '500100000048', 'SBIN0000001'], ['Ravi Kumar', '500100000148', null], ['Meena Iyer', '500100000248', null]]);
  ws['!merges'] = [XLSX.utils.decode_range('C2:C4')];
  const xls = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(xls, ws, 'Payees');
  fs.writeFileSync(path.join(dir, 'merged.xls'), XLSX.write(xls, { type: 'buffer', bookType: 'biff8' }));
  await writeOds(path.join(dir, 'merged.ods'), [{ name: 'Payees', rows: [
    ['Name', 'Account No', 'IFSC'],
    ['Asha Verma', '500100000048', { xml: '<table:table-cell table:number-rows-spanned="3" office:value-type="string"><text:p>SBIN0000001</text:p></table:table-cell>' }],
    ['Ravi Kumar', '500100000148', { xml: '<table:covered-table-cell/>' }],
    ['Meena Iyer', '500100000248', { xml: '<table:covered-table-cell/>' }],
  ] }]);
  for (const file of ['merged.xls', 'merged.ods']) {
    const r = await runCli(['bank', file, '-o', `${file}.csv`, '--state', `${file}.sqlite`, '--base-url', sandbox.url], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    // The CSV output keeps the cells as the file has them; the covered rows were called with the merged IFSC.
    assert.deepEqual(rowsOf(path.join(dir, `${file}.csv`)).map((row) => [row.IFSC, row.verify_status, row.bank_name]), [['SBIN0000001', 'VERIFIED', 'State Bank of India'], ['', 'VERIFIED', 'State Bank of India'], ['', 'VERIFIED', 'State Bank of India']], file);
  }
});

/** An .ods cell of `formula`: with its result (as LibreOffice Calc writes it) or the formula alone (as a generator may). */
function odsFormula(formula: string, result?: string): { xml: string } {
  const f = formula.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  return { xml: result === undefined ? `<table:table-cell table:formula="of:=${f}"/>` : `<table:table-cell table:formula="of:=${f}" office:value-type="string" calcext:value-type="string"><text:p>${result}</text:p></table:table-cell>` };
}

test('an .ods whose payee column holds formulas never calculated stops before any call naming the sheet, the column and a cell (repeated and covered cells counted); with their results, or beside a formula elsewhere, it is read', async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  const payees = [['Asha Verma', '500100000048', 'SBIN0000001'], ['Ravi Kumar', '500100000148', 'HDFC0000001']] as const;
  // Two empty columns written as one repeated cell, then the account: column D. The second row's
  // name is covered by a merge from above (a covered cell takes its column too).
  const sheet = (account: (a: string) => { xml: string } | string, check: { xml: string } | string) => [
    ['Beneficiary Name', 'Note', 'Ref', 'Account Number', 'IFSC', 'Check'],
    ...payees.map(([name, a, ifsc], i) => [
      i === 0 ? { xml: `<table:table-cell office:value-type="string"><text:p>${name}</text:p></table:table-cell>` } : { xml: '<table:covered-table-cell/>' },
      { xml: '<table:table-cell table:number-columns-repeated="2"/>' },
      account(a),
      odsFormula(`UPPER("${ifsc.toLowerCase()}")`, ifsc),
      check,
    ]),
  ];
  await writeOds(path.join(dir, 'script.ods'), [{ name: 'Payees', rows: sheet((a) => odsFormula(`TEXT(${a};"0")`), 'ok') }]);
  await writeOds(path.join(dir, 'calc.ods'), [{ name: 'Payees', rows: sheet((a) => odsFormula(`TEXT(${a};"0")`, a), odsFormula('LEN(D2)')) }]);
  // A formula with no result type but a text: SheetJS reads the text, so it is read.
  await writeOds(path.join(dir, 'text.ods'), [{ name: 'Payees', rows: sheet((a) => ({ xml: `<table:table-cell table:formula="of:=[.Z1]"><text:p>${a}</text:p></table:table-cell>` }), 'ok') }]);
  // Saved by LibreOffice, which has written an empty result ("" from a template's IF) as a formula alone: calculated, not refused.
  await writeOds(path.join(dir, 'saved.ods'), [{ name: 'Payees', rows: sheet(() => odsFormula('IF([.Z1]="";"";[.Z1])'), 'ok') }], 'LibreOffice/7.6.4.1$Linux_X86_64 LibreOffice_project/60$Build-1');

  const stopped = await runCli(['bank', 'script.ods', '-o', 'out.csv', '--base-url', sandbox.url], { cwd: dir });
  assert.equal(stopped.code, 2, stopped.stderr);
  const line = stopped.stderr.split('\n').find((l) => /never calculated/.test(l)) ?? '';
  assert.match(line, /column D \("Account Number"\) of sheet "Payees" holds formulas that were never calculated, so their cells read as empty: 2 cells in the rows read, e\.g\. Payees!D2;/);
  assert.match(line, /open the workbook in Excel or LibreOffice and save it/);
  assert.ok(!fs.existsSync(path.join(dir, 'out.csv')), 'no output');
  assert.equal(Object.values(sandbox.stats().requests).reduce((a, b) => a + b, 0), 0, 'no call');

  // Calculated (LibreOffice writes every result with its type), and a formula with no result in a column that is no payee's: read.
  const read = await runCli(['bank', 'calc.ods', '-o', 'calc.csv', '--base-url', sandbox.url], { cwd: dir });
  assert.equal(read.code, 0, read.stderr);
  assert.deepEqual(rowsOf(path.join(dir, 'calc.csv')).map((row) => [row['Account Number'], row.IFSC, row.verify_status]), [['500100000048', 'SBIN0000001', 'VERIFIED'], ['500100000148', 'HDFC0000001', 'VERIFIED']]);
  const text = await runCli(['bank', 'text.ods', '-o', 'text.csv', '--state', 'text.sqlite', '--base-url', sandbox.url], { cwd: dir });
  assert.equal(text.code, 0, text.stderr);
  assert.deepEqual(rowsOf(path.join(dir, 'text.csv')).map((row) => row.verify_status), ['VERIFIED', 'VERIFIED']);
  const saved = await runCli(['bank', 'saved.ods', '-o', 'saved.csv', '--state', 'saved.sqlite', '--base-url', sandbox.url], { cwd: dir });
  assert.equal(saved.code, 0, saved.stderr);
  assert.doesNotMatch(saved.stderr, /never calculated/);
  assert.deepEqual(rowsOf(path.join(dir, 'saved.csv')).map((row) => row.verify_reason), ['line 2: account number is empty', 'line 3: account number is empty']);
});

test('a workbook that asks to be calculated when opened (XlsxWriter: every formula stored as 0, fullCalcOnLoad) is not read as its stored values: a payee column of formulas stops the run', async (t) => {
  const dir = tempDir(t);
  const book = new ExcelJS.Workbook();
  book.calcProperties.fullCalcOnLoad = true;
  const sheet = book.addWorksheet('Sheet1');
  sheet.addRow(['Name', 'Account No', 'IFSC']);
  sheet.addRow(['Asha Verma', { formula: 'TEXT(500100000048,"0")', result: 0 }, 'SBIN0000001']);
  sheet.addRow(['Ravi Kumar', '500100000148', 'SBIN0000001']);
  await book.xlsx.writeFile(path.join(dir, 'xlsxwriter.xlsx'));
  const stopped = await runCli(['bank', 'xlsxwriter.xlsx', '-o', 'out.csv', '--sandbox'], { cwd: dir });
  assert.equal(stopped.code, 2, stopped.stderr);
  assert.match(stopped.stderr, /column B \("Account No"\) of sheet "Sheet1" holds formulas that were never calculated.*1 cell in the rows read, e\.g\. Sheet1!B2/);
  assert.ok(!fs.existsSync(path.join(dir, 'out.csv')));
  // The same stored values without the request to calculate are the workbook's own: read.
  book.calcProperties.fullCalcOnLoad = false;
  sheet.getCell('B2').value = { formula: 'TEXT(500100000048,"0")', result: '500100000048' };
  await book.xlsx.writeFile(path.join(dir, 'saved.xlsx'));
  const read = await runCli(['bank', 'saved.xlsx', '-o', 'saved.csv', '--sandbox'], { cwd: dir });
  assert.ok([0, 4].includes(read.code ?? -1), read.stderr);
  assert.deepEqual(rowsOf(path.join(dir, 'saved.csv')).map((r) => r.verify_status), ['VERIFIED', 'VERIFIED']);
});

test('merged cells: a notes block merged over two lines stays a note (SKIPPED, not INVALID payees on HOLD); the enriched output of a run with a merged IFSC is taken back by review --import', async (t) => {
  const dir = tempDir(t);
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Payees');
  sheet.addRow(['Beneficiary Name', 'Account Number', 'IFSC', 'Amount']);
  sheet.addRow(['Asha Verma', '500100000048', 'SBIN0000001', 1000]);
  sheet.addRow(['Ravi Kumar', '500100000148', '', 2000]);
  sheet.mergeCells('C2:C3');
  sheet.addRow([]);
  sheet.addRow(['Note: payments approved by the finance head, to be released on Monday']);
  sheet.mergeCells('A5:D6');
  await book.xlsx.writeFile(path.join(dir, 'notes.xlsx'));
  // The embedded sandbox: its holders are the file's payees, so every payee is PAY.
  const run = await runCli(['bank', 'notes.xlsx', '-o', 'out.csv', '--state', 's.sqlite', '--sandbox', '--fail-on', 'hold'], { cwd: dir });
  assert.equal(run.code, 0, run.stderr);
  const rows = rowsOf(path.join(dir, 'out.csv'));
  assert.deepEqual(rows.map((r) => [r.IFSC, r.verify_status, r.decision]), [
    ['SBIN0000001', 'VERIFIED', 'PAY'],
    ['', 'VERIFIED', 'PAY'],
    ['', 'SKIPPED', ''],
    ['', 'SKIPPED', ''],
    ['', 'SKIPPED', ''],
  ]);
  assert.match(run.stderr, /calls made: 2 penny-less/);
  // The output as written, the covered IFSC cell empty: still the run's own rows.
  const imported = await runCli(['review', '--import', 'out.csv', '--state', 's.sqlite', '--reviewer', 'asha'], { cwd: dir });
  assert.equal(imported.code, 0, imported.stderr);
  assert.doesNotMatch(imported.stderr, /not the enriched output/);
});
