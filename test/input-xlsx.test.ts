import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as XLSX from '@e965/xlsx';
import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { numberText, openXlsxRecords } from '../src/input/xlsx.js';
import { zeroPadWidth } from '../src/input/xlsx-stream.js';
import { openXlsxWriter } from '../src/output/xlsx.js';
import { checkAccount } from '../src/pipeline/checks.js';
import { startSandbox } from '../src/sandbox/index.js';
import { runCli, tempDir } from './helpers/cli.js';
import { rowXml, sheetXml, writeOds, writeWorkbook } from './helpers/xlsx-files.js';

/** A one-sheet .xls (BIFF8) of `sheet`, named Payroll. */
function writeXls(file: string, sheet: XLSX.WorkSheet): void {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, sheet, 'Payroll');
  fs.writeFileSync(file, XLSX.write(book, { type: 'buffer', bookType: 'biff8' }));
}

/** Runs `file` (a payroll sheet) through the CLI: each row's account, net pay and status. */
async function payrollRows(dir: string, file: string, baseUrl: string): Promise<string[][]> {
  const r = await runCli(['bank', file, '-o', `${file}.csv`, '--base-url', baseUrl], { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  const rows = parse(fs.readFileSync(path.join(dir, `${file}.csv`), 'utf8'), { columns: true }) as Array<Record<string, string>>;
  return rows.map((row) => [row['Bank Account No']!, row['Net Pay']!, row.verify_status!]);
}

test('numberText: number cells as a person sees them; a whole number past 15 digits in all its digits, never 9.87E+15', () => {
  assert.equal(numberText('500100000048'), '500100000048');
  assert.equal(numberText('123456789012345'), '123456789012345', '15 digits are exact');
  assert.equal(numberText('9876543210987654'), '9876543210987654', 'the digits the file stores');
  assert.equal(numberText('1.2345678901234568E+18'), '1234567890123456768', 'the stored number\'s own digits');
  assert.doesNotMatch(numberText('1E+21'), /E/i);
  assert.equal(numberText('12.5'), '12.5');
  assert.equal(numberText(''), '');
  assert.ok(checkAccount('9876543210987654').ok, 'the same digits typed in a CSV are an account like any other');
  const csv = checkAccount('9.87654E+15');
  assert.ok(!csv.ok && /scientific notation.*lost digits.*Text/.test(csv.reason), 'a CSV cell that shows scientific notation still says so');
});

test('openXlsxRecords streams the payee sheet or the named one; openXlsxWriter writes text cells', async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, 'in.xlsx');
  const book = new ExcelJS.Workbook();
  book.addWorksheet('One').addRow(['a', 1]);
  const two = book.addWorksheet('Two');
  two.addRow(['Account No', 'IFSC']);
  two.addRow([]);
  two.addRow([500100000048, 'SBIN0000001']);
  await book.xlsx.writeFile(file);
  const read = async (sheet?: string) => {
    const reader = await openXlsxRecords(file, sheet);
    const rows = [];
    for await (const r of reader.records) rows.push(r);
    reader.close();
    return { sheet: reader.sheet, rows };
  };
  assert.deepEqual(await read('One'), { sheet: 'One', rows: [{ fields: ['a', '1'], line: 1 }] });
  assert.deepEqual((await read()).sheet, 'Two', 'the first sheet is not a payee list; the one whose content is, is taken');
  assert.deepEqual(await read('Two'), { sheet: 'Two', rows: [{ fields: ['Account No', 'IFSC'], line: 1 }, { fields: [''], line: 2 }, { fields: ['500100000048', 'SBIN0000001'], line: 3 }] }, 'a row the sheet leaves out is a blank record in its place');
  await assert.rejects(read('Three'), /has no sheet named "Three"; its sheets: "One", "Two"/);

  const out = path.join(dir, 'out.xlsx');
  const writer = openXlsxWriter(out);
  await writer.writeRows([['Account No', 'IFSC'], ['001234567890', 'SBIN0000001']]);
  await writer.commit();
  const back = new ExcelJS.Workbook();
  await back.xlsx.readFile(out);
  const cell = back.worksheets[0]!.getRow(2).getCell(1);
  assert.equal(cell.value, '001234567890');
  assert.equal(cell.numFmt, '@');
});

test('sheet choice through the CLI: no payee sheet lists the sheets and --sheet; two payee sheets behind a cover sheet are named, exit 2', async (t) => {
  const dir = tempDir(t);
  const payees = () => sheetXml([rowXml(1, ['Name', 'Account No', 'IFSC']), rowXml(2, ['Asha Verma', '500100000048', 'SBIN0000001'])]);
  await writeWorkbook(path.join(dir, 'none.xlsx'), [{ name: 'Cover', xml: sheetXml([rowXml(1, ['Vendor list'])]) }, { name: 'Totals', xml: sheetXml([rowXml(1, ['Total', 2500])]) }]);
  const none = await runCli(['bank', 'none.xlsx', '--sandbox'], { cwd: dir });
  assert.equal(none.code, 2, none.stderr);
  assert.match(none.stderr, /no account number column.*\(in sheet "Cover"; the workbook's sheets: "Cover", "Totals"; name the payee sheet with --sheet NAME\)/);
  await writeWorkbook(path.join(dir, 'two.xlsx'), [{ name: 'Cover', xml: sheetXml([rowXml(1, ['Vendor list'])]) }, { name: 'North', xml: payees() }, { name: 'South', xml: payees() }]);
  const two = await runCli(['bank', 'two.xlsx', '--sandbox'], { cwd: dir });
  assert.equal(two.code, 2, two.stderr);
  assert.match(two.stderr, /several sheets that look like payee lists: "North", "South"; choose one with --sheet NAME/);
});

test('sheet choice: a batch sheet of the debit account before the payees sheet gives way to it (its one account is the payer\'s)', async (t) => {
  const dir = tempDir(t);
  const debit = () => sheetXml([rowXml(1, ['Company', 'Account Number', 'IFSC Code', 'Total Amount', 'No of Records']), rowXml(2, ['Acme Industries Pvt Ltd', '917020034567', 'UTIB0000004', 600, 3])]);
  const payees = sheetXml([
    rowXml(1, ['Beneficiary Name', 'Account Number', 'IFSC Code', 'Amount']),
    rowXml(2, ['Asha Verma', '500100000048', 'SBIN0000001', 100]),
    rowXml(3, ['Ravi Kumar', '500100000049', 'HDFC0000001', 200]),
    rowXml(4, ['Meena Iyer', '500100000050', 'ICIC0000002', 300]),
  ]);
  await writeWorkbook(path.join(dir, 'batch.xlsx'), [{ name: 'Batch Header', xml: debit() }, { name: 'Transactions', xml: payees }]);
  const r = await runCli(['bank', 'batch.xlsx', '-o', 'out.csv', '--sandbox', '--summary', 'sum.json'], { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  const summary = JSON.parse(fs.readFileSync(path.join(dir, 'sum.json'), 'utf8')) as { input: { sheet: string } };
  assert.equal(summary.input.sheet, 'Transactions', 'the payees\' sheet, not the debit account\'s');
  const rows = parse(fs.readFileSync(path.join(dir, 'out.csv'), 'utf8'), { columns: true }) as Array<Record<string, string>>;
  assert.deepEqual(rows.map((row) => row['Account Number']), ['500100000048', '500100000049', '500100000050']);
  // A list of one payee first, with another one-account sheet after it: the first, as before.
  await writeWorkbook(path.join(dir, 'one.xlsx'), [{ name: 'Payee', xml: sheetXml([rowXml(1, ['Name', 'Account No', 'IFSC']), rowXml(2, ['Asha Verma', '500100000048', 'SBIN0000001'])]) }, { name: 'Debit', xml: debit() }]);
  const one = await runCli(['bank', 'one.xlsx', '-o', 'one.csv', '--sandbox', '--dry-run', '--summary', 'one.json'], { cwd: dir });
  assert.equal(one.code, 0, one.stderr);
  assert.equal((JSON.parse(fs.readFileSync(path.join(dir, 'one.json'), 'utf8')) as { input: { sheet: string } }).input.sheet, 'Payee');
});

/**
 * payroll.xlsx as a payroll tool gives it: a title, an empty row 2 (no element in the sheet), the
 * header on row 3, an empty row between payees, and an account typed into a number cell past
 * Excel's 15 significant digits.
 */
async function payroll(file: string): Promise<void> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Payroll');
  sheet.getRow(1).getCell(1).value = 'Payroll, November';
  sheet.getRow(3).values = ['Employee Name', 'Account Number', 'IFSC', 'Net Pay'];
  sheet.getRow(4).values = ['Asha Verma', '001234567811', 'SBIN0000001', 41000];
  sheet.getRow(6).values = ['Ravi Kumar', 9876543210987654, 'HDFC0000001', 52000];
  sheet.getRow(7).values = ['Meena Iyer', 500100000048, 'ICIC0000002', 38000];
  await book.xlsx.writeFile(file);
}

/** A CSV output's records, each one line (no field here spans lines): record i is line i + 1. */
function csvLines(file: string): string[][] {
  const text = fs.readFileSync(file, 'utf8');
  const records = parse(text, { relax_column_count: true, skip_empty_lines: false }) as string[][];
  assert.equal(records.length, text.split(/\r?\n/).length - 1, 'one record a line');
  return records;
}

const LOST = /^line 6: account number is stored as a number in the spreadsheet, and a number keeps only 15 significant digits \(this one has 16: it may have lost its last digits\): format the account column as Text and type the account again$/;

test('payroll.xlsx: an account in a number cell past 15 digits is INVALID saying so, written in its digits; the CSV output keeps the empty rows, so its line N is the row N the reasons name', async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  await payroll(path.join(dir, 'payroll.xlsx'));

  const csv = await runCli(['bank', 'payroll.xlsx', '-o', 'out.csv', '--state', 'csv.sqlite', '--base-url', sandbox.url], { cwd: dir });
  assert.equal(csv.code, 0, csv.stderr);
  assert.match(csv.stderr, /header found at line 3; the 2 line\(s\) above it are copied to the output unchanged/);
  const lines = csvLines(path.join(dir, 'out.csv'));
  assert.deepEqual(lines[0], ['Payroll, November']);
  assert.deepEqual(lines[1], [''], 'the empty row 2 is copied above the header, as a CSV\'s blank line is');
  const header = lines[2]!;
  assert.deepEqual(header.slice(0, 5), ['Employee Name', 'Account Number', 'IFSC', 'Net Pay', 'verify_status']);
  const at = (line: number, column: string) => lines[line - 1]![header.indexOf(column)];
  assert.equal(at(4, 'verify_status'), 'VERIFIED');
  assert.equal(at(5, 'verify_status'), 'SKIPPED', 'the empty row 5 between payees is SKIPPED in its place');
  assert.equal(at(6, 'Account Number'), '9876543210987654', 'the number cell in all its digits, not 9.876543210987654E+15');
  assert.equal(at(6, 'verify_status'), 'INVALID');
  assert.match(at(6, 'verify_reason')!, LOST);
  assert.equal(at(6, 'verify_reason_code'), 'ACCOUNT_DAMAGED');
  assert.doesNotMatch(lines[5]!.join(','), /scientific notation|E\+15/);
  assert.equal(at(7, 'Account Number'), '500100000048');
  assert.equal(at(7, 'verify_status'), 'VERIFIED');
  assert.equal(sandbox.stats().requests['account-verification-pl'], 2, 'no call for the number past 15 digits');

  const xlsx = await runCli(['bank', 'payroll.xlsx', '-o', 'out.xlsx', '--state', 'xlsx.sqlite', '--base-url', sandbox.url], { cwd: dir });
  assert.equal(xlsx.code, 0, xlsx.stderr);
  const back = new ExcelJS.Workbook();
  await back.xlsx.readFile(path.join(dir, 'out.xlsx'));
  const sheet = back.getWorksheet('Payroll')!;
  const names = (sheet.getRow(3).values as unknown[]).slice(1);
  const cell = (row: number, column: string) => sheet.getRow(row).getCell(names.indexOf(column) + 1);
  assert.equal(sheet.getRow(1).getCell(1).value, 'Payroll, November');
  assert.equal(sheet.getRow(2).cellCount, 0, 'the empty row stays empty');
  assert.equal(cell(4, 'verify_status').value, 'VERIFIED');
  assert.equal(cell(5, 'verify_status').value, 'SKIPPED', 'as in the CSV output');
  assert.equal(cell(5, 'Employee Name').value, null);
  assert.equal(cell(6, 'Account Number').value, '9876543210987654', 'a text cell in all its digits');
  assert.equal(cell(6, 'verify_status').value, 'INVALID');
  assert.match(String(cell(6, 'verify_reason').value), LOST);
  assert.equal(cell(6, 'verify_reason_code').value, 'ACCOUNT_DAMAGED');
  assert.equal(cell(6, 'Net Pay').value, 52000, 'amounts stay numbers');
  assert.equal(cell(7, 'Account Number').value, '500100000048');
  assert.equal(cell(7, 'verify_status').value, 'VERIFIED');
});

for (const [kind, file, bookType] of [['.xls (BIFF8)', 'payroll.xls', 'biff8'], ['.ods', 'payroll.ods', 'ods']] as const) {
  test(`${kind}: a number cell past 15 digits reads the same (its digits, the reason); the empty rows keep the line numbers`, async (t) => {
    const sandbox = await startSandbox();
    t.after(() => sandbox.close());
    const dir = tempDir(t);
    const sheet = XLSX.utils.aoa_to_sheet([['Payroll, November'], [], ['Employee Name', 'Account Number', 'IFSC'], ['Asha Verma', '001234567811', 'SBIN0000001'], [], ['Ravi Kumar', 9876543210987654, 'HDFC0000001']]);
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, sheet, 'Payroll');
    fs.writeFileSync(path.join(dir, file), XLSX.write(book, { type: 'buffer', bookType }));
    const r = await runCli(['bank', file, '-o', 'out.csv', '--base-url', sandbox.url], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    const lines = csvLines(path.join(dir, 'out.csv'));
    assert.deepEqual(lines[1]!.filter((f) => f !== ''), [], 'the empty row 2 above the header');
    assert.deepEqual(lines[2]!.slice(0, 4), ['Employee Name', 'Account Number', 'IFSC', 'verify_status']);
    assert.deepEqual(lines[4]!.slice(0, 4), ['', '', '', 'SKIPPED']);
    assert.deepEqual(lines[5]!.slice(0, 4), ['Ravi Kumar', '9876543210987654', 'HDFC0000001', 'INVALID']);
    assert.match(lines[5]![4]!, LOST);
    assert.equal(lines[5]![5], 'ACCOUNT_DAMAGED');
    assert.equal(sandbox.stats().requests['account-verification-pl'], 1);
  });
}

test('a hidden sheet is never chosen by itself (a template of sample payees before the real list), only by --sheet; the log names the sheet read', async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  const header = ['Name', 'Account Number', 'IFSC'];
  const template = [header, ['Sample Name', '123456789012', 'SBIN0004266'], ['Sample Two', '223456789012', 'HDFC0001234']];
  const data = [header, ['Asha Verma', '500100000048', 'SBIN0000001'], ['Ravi Kumar', '001234567811', 'HDFC0000001']];
  const book = new ExcelJS.Workbook();
  book.addWorksheet('Template', { state: 'hidden' }).addRows(template);
  book.addWorksheet('Data').addRows(data);
  await book.xlsx.writeFile(path.join(dir, 'payees.xlsx'));
  // The same in .xls (SheetJS's reader), its template very hidden.
  const old = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(old, XLSX.utils.aoa_to_sheet(template), 'Template');
  XLSX.utils.book_append_sheet(old, XLSX.utils.aoa_to_sheet(data), 'Data');
  old.Workbook = { Sheets: [{ name: 'Template', Hidden: 2 }, { name: 'Data', Hidden: 0 }] };
  fs.writeFileSync(path.join(dir, 'payees.xls'), XLSX.write(old, { type: 'buffer', bookType: 'biff8' }));
  // And in .ods, hidden as LibreOffice hides a sheet: through its table style.
  await writeOds(path.join(dir, 'payees.ods'), [{ name: 'Template', rows: template, hidden: 'automatic' }, { name: 'Data', rows: data }]);
  for (const file of ['payees.xlsx', 'payees.xls', 'payees.ods']) {
    const r = await runCli(['bank', file, '-o', `${file}.csv`, '--base-url', sandbox.url], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /header found at line 1 in sheet "Data" \(sheets: "Template", "Data"; hidden, read only when named with --sheet: "Template"\)/);
    const rows = parse(fs.readFileSync(path.join(dir, `${file}.csv`), 'utf8'), { columns: true }) as Array<Record<string, string>>;
    assert.deepEqual(rows.map((row) => row.Name), ['Asha Verma', 'Ravi Kumar'], file);
    const named = await runCli(['bank', file, '-o', `${file}.template.csv`, '--sheet', 'Template', '--base-url', sandbox.url], { cwd: dir });
    assert.equal(named.code, 0, named.stderr);
    const templateRows = parse(fs.readFileSync(path.join(dir, `${file}.template.csv`), 'utf8'), { columns: true }) as Array<Record<string, string>>;
    assert.deepEqual(templateRows.map((row) => row.Name), ['Sample Name', 'Sample Two'], file);
  }
});

test('zeroPadWidth: the zero placeholders of a format that pads whole numbers, whatever literal text stands between them; no width for any other format', () => {
  const cases: Array<[string, number | undefined]> = [
    ['000000000000', 12],
    ['0000 0000 0000', 12],
    ['0000-0000-0000', 12],
    ['00000\\-000000', 11],
    ['"A/C "000000000000', 12],
    ['"A/c No. "0000 0000 0000', 12],
    ['[$-4009]0000 0000 0000', 12],
    ['[Blue]000000000000;[Red]-000000000000', 12],
    ['(0000) 000000', 10],
    ['*-000000', 6],
    ['_(000000_)', 6],
    ['##0000', 4],
    ['00', 2],
    // Not a whole number's padding: the number is read as it is stored.
    ['0', undefined],
    ['General', undefined],
    ['#,##0', undefined],
    ['0000,', undefined],
    ['0.00', undefined],
    ['0000.00', undefined],
    ['0%', undefined],
    ['0000%', undefined],
    ['0.00E+00', undefined],
    ['00E+00', undefined],
    ['dd/mm/yyyy', undefined],
    ['00:00', undefined],
    ['# ?/?', undefined],
    ['0000/0000', undefined],
    ['@', undefined],
    ['[>999999]0000;0', undefined],
    ['[DBNum1]0000', undefined],
    ['000#', undefined],
    ['"unclosed 0000', undefined],
  ];
  for (const [format, width] of cases) assert.equal(zeroPadWidth(format), width, format);
});

test('an account in a number cell whose format pads with zeros between separators or literal text (0000 0000 0000, 0000-0000-0000, 00000\\-000000, "A/C "…) is read as the digits Excel shows (.xlsx and .xls)', async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  const payees: Array<[string, number, string]> = [
    ['Asha Verma', 1234567, '0000 0000 0000'],
    ['Ravi Kumar', 123467789, '0000-0000-0000'],
    ['Meena Iyer', 987654321, '00000\\-000000'],
    ['Joseph Mathew', 12345678901, '"A/C "000000000000'],
  ];
  const header = ['Employee Name', 'Bank Account No', 'IFSC', 'Net Pay'];
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Payroll');
  sheet.addRow(header);
  payees.forEach(([name, account, format], i) => {
    sheet.addRow([name, account, 'SBIN0000001', 15000]);
    sheet.getCell(i + 2, 2).numFmt = format;
    sheet.getCell(i + 2, 4).numFmt = '#,##0';
  });
  await book.xlsx.writeFile(path.join(dir, 'payroll.xlsx'));
  const old = XLSX.utils.aoa_to_sheet([header, ...payees.map(([name, account]) => [name, account, 'SBIN0000001', 15000])]);
  payees.forEach(([, , format], i) => {
    old[`B${i + 2}`]!.z = format;
    old[`D${i + 2}`]!.z = '#,##0';
  });
  writeXls(path.join(dir, 'payroll.xls'), old);
  for (const file of ['payroll.xlsx', 'payroll.xls']) {
    assert.deepEqual(await payrollRows(dir, file, sandbox.url), [
      ['000001234567', '15000', 'VERIFIED'],
      ['000123467789', '15000', 'VERIFIED'],
      ['00987654321', '15000', 'VERIFIED'],
      ['012345678901', '15000', 'VERIFIED'],
    ], file);
  }
});

test('an account typed as a number in a cell formatted 000000000000 is read with the zeros Excel shows (.xlsx and .xls)', async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Payroll');
  sheet.addRows([['Employee Name', 'Bank Account No', 'IFSC', 'Net Pay'], ['Asha Verma', 987654321, 'SBIN0000001', 1000], ['Ravi Kumar', 12345678901, 'HDFC0000001', 2000]]);
  for (const row of [2, 3]) sheet.getCell(row, 2).numFmt = '000000000000';
  sheet.getCell(3, 4).numFmt = '"Rs "0.00';
  await book.xlsx.writeFile(path.join(dir, 'payroll.xlsx'));
  const old = XLSX.utils.aoa_to_sheet([['Employee Name', 'Bank Account No', 'IFSC', 'Net Pay'], ['Asha Verma', 987654321, 'SBIN0000001', 1000], ['Ravi Kumar', 12345678901, 'HDFC0000001', 2000]]);
  for (const ref of ['B2', 'B3']) old[ref]!.z = '"A/c "000000000000';
  writeXls(path.join(dir, 'payroll.xls'), old);
  for (const file of ['payroll.xlsx', 'payroll.xls']) {
    assert.deepEqual(await payrollRows(dir, file, sandbox.url), [['000987654321', '1000', 'VERIFIED'], ['012345678901', '2000', 'VERIFIED']], file);
  }
});
