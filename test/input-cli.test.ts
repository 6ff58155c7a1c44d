/** The IFSC registry and .xlsx, end to end through the CLI against the sandbox. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startSandbox } from '../src/sandbox/index.js';
import { documentsFor, renderPdf } from '../src/sandbox/documents.js';
import Database from 'better-sqlite3';
import { readCsvObjects, runCli, tempDir } from './helpers/cli.js';
import { rowXml, sheetXml, writeWorkbook } from './helpers/xlsx-files.js';

test('the IFSC registry: an unknown bank is INVALID with no call; an unlisted branch is called and noted; bank_name filled where the API gives none', async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  fs.writeFileSync(path.join(dir, 'p.csv'), [
    'Beneficiary Name,Account Number,IFSC',
    'Asha Verma,500100000011,ABCD0000001',
    'Ravi Kumar,500100000048,SBIN0999999',
    'Meena Iyer,500100000085,HDFC0CAACOB',
    'Arjun Singh,12345,ICIC0000002',
    'Farah Khan,500100000122,SBIN0000001',
    'Kiran Rao,12345,SBIN0999999',
  ].join('\n') + '\n');
  const r = await runCli(['bank', 'p.csv', '-o', 'o.csv', '--base-url', sandbox.url], { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  const out = readCsvObjects(path.join(dir, 'o.csv'));
  assert.equal(out[0]!.verify_status, 'INVALID');
  assert.match(out[0]!.verify_reason!, /^line 2: IFSC ABCD0000001: no bank issues IFSCs under the code ABCD, per the IFSC registry of \d{4}-\d{2}-\d{2}/);
  assert.equal(out[0]!.verify_source, 'local');
  assert.equal(out[1]!.verify_status, 'VERIFIED');
  assert.match(out[1]!.verify_reason!, /IFSC SBIN0999999 is not in the IFSC registry of .* called anyway/);
  assert.equal(out[2]!.verify_status, 'VERIFIED');
  assert.match(out[2]!.verify_reason!, /sub-member code: the account is held at Akhand Anand Co\.op Bank, through HDFC Bank/);
  assert.equal(out[3]!.verify_status, 'INVALID', 'a short account');
  assert.equal(out[3]!.bank_name, 'ICICI Bank', 'bank_name from the registry on an INVALID row');
  assert.equal(out[4]!.verify_reason, '', 'a listed branch adds nothing');
  assert.equal(out[4]!.bank_name, 'State Bank of India');
  // A row its local checks stopped was not called: the registry's note does not say it was.
  assert.equal(out[5]!.verify_status, 'INVALID');
  assert.match(out[5]!.verify_reason!, /it has 5; IFSC SBIN0999999 is not in the IFSC registry of \d{4}-\d{2}-\d{2} \(it lags new branches\)$/);
  assert.equal(sandbox.stats().requests['account-verification-pl'], 3, 'no call for the unknown bank or the short accounts');
});

test('a payroll sheet whose IFSCs come from a VLOOKUP: the #N/A rows are INVALID with the error named, the column still the IFSC column, the others verified (CSV and .xlsx error cells)', async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  fs.writeFileSync(path.join(dir, 'p.csv'), [
    'Employee Name,Account Number,IFSC Code,Net Pay',
    'Asha Verma,500100000011,SBIN0000001,1000',
    'Ravi Kumar,500100000048,#N/A,2000',
    'Meena Iyer,#REF!,#N/A,3000',
    'Farah Khan,500100000122,#N/A,4000',
  ].join('\n') + '\n');
  const r = await runCli(['bank', 'p.csv', '-o', 'o.csv', '--base-url', sandbox.url], { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  const out = readCsvObjects(path.join(dir, 'o.csv'));
  assert.deepEqual(out.map((row) => row.verify_status), ['VERIFIED', 'INVALID', 'INVALID', 'INVALID']);
  assert.match(out[1]!.verify_reason!, /^line 3: IFSC is the spreadsheet error #N\/A: the formula that fills the cell failed/);
  assert.equal(out[1]!.verify_reason_code, 'IFSC_INVALID');
  assert.match(out[2]!.verify_reason!, /^line 4: account number is the spreadsheet error #REF!.*; IFSC is the spreadsheet error #N\/A/);
  assert.equal(out[2]!.verify_reason_code, 'ACCOUNT_INVALID');
  assert.equal(sandbox.stats().requests['account-verification-pl'], 1);
  await writeWorkbook(path.join(dir, 'p.xlsx'), [{ name: 'Payroll', xml: sheetXml([
    rowXml(1, ['Employee Name', 'Account Number', 'IFSC Code']),
    rowXml(2, ['Asha Verma', '500100000011', 'SBIN0000001']),
    '<row r="3"><c t="inlineStr"><is><t>Ravi Kumar</t></is></c><c t="inlineStr"><is><t>500100000048</t></is></c><c t="e"><f>VLOOKUP(A3,Master!A:C,3,FALSE)</f><v>#N/A</v></c></row>',
  ]) }]);
  const x = await runCli(['bank', 'p.xlsx', '-o', 'x.csv', '--base-url', sandbox.url], { cwd: dir });
  assert.equal(x.code, 0, x.stderr);
  assert.match(readCsvObjects(path.join(dir, 'x.csv'))[1]!.verify_reason!, /^line 3: IFSC is the spreadsheet error #N\/A/);
});

test('a salary sheet whose staff all bank at one branch, beside employee codes shaped like IFSCs (ACME0001234): every payee verified at that branch, no row INVALID', async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  fs.writeFileSync(path.join(dir, 'salary.csv'), [
    'Emp Code,Employee Name,Bank A/c No,IFSC Code,Net Salary',
    ...['Asha Verma', 'Ravi Kumar', 'Meena Iyer', 'Farah Khan'].map((name, i) => `ACME000${1234 + i},${name},50010000${1011 + i * 37},HDFC0000123,${40_000 + i * 1_000}`),
  ].join('\n') + '\n');
  const r = await runCli(['bank', 'salary.csv', '-o', 'o.csv', '--base-url', sandbox.url], { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /IFSC: column 4 "IFSC Code".*not "Emp Code" \(by content only, 4 of its 4 code\(s\) under no bank that issues IFSCs\)/);
  const out = readCsvObjects(path.join(dir, 'o.csv'));
  assert.deepEqual(out.map((row) => row.verify_status), ['VERIFIED', 'VERIFIED', 'VERIFIED', 'VERIFIED']);
  assert.equal(sandbox.stats().requests['account-verification-pl'], 4);
});

test('--explain-columns on a file whose columns cannot be told: exit 2, the one line, then each column\'s scores (they were not shown when they were needed most)', async (t) => {
  const dir = tempDir(t);
  fs.writeFileSync(path.join(dir, 'p.csv'), 'Approver,Staff No,Ref No,IFSC\nAsha Verma,1000234567,3001234567,HDFC0000123\nRavi Kumar,1000234568,3001234568,SBIN0000456\n');
  for (const extra of [[], ['--explain-columns']]) {
    const r = await runCli(['bank', 'p.csv', '-o', 'o.csv', '--sandbox', ...extra], { cwd: dir });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /^error: input has no account number column \(use --account-col\)/m);
    if (extra.length === 0) assert.doesNotMatch(r.stderr, /^column 2 "Staff No"/m);
    else assert.match(r.stderr, /^column 2 "Staff No": header -; 2 value\(s\): .*9-18 digits 2/m);
  }
});

test('a Hindi payroll sheet\'s total row (कुल योग) is SKIPPED, not a payee on HOLD whose amount is counted as held', async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  fs.writeFileSync(path.join(dir, 'p.csv'), [
    'क्रम सं.,लाभार्थी का नाम,खाता संख्या,आईएफएससी कोड,राशि',
    '1,आशा वर्मा,500100000011,SBIN0000001,1000',
    '2,कुलदीप सिंह,500100000048,HDFC0000001,2000',
    ',कुल योग,,,3000',
  ].join('\n') + '\n');
  const r = await runCli(['bank', 'p.csv', '-o', 'o.csv', '--base-url', sandbox.url, '--summary', 's.json'], { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  const out = readCsvObjects(path.join(dir, 'o.csv'));
  assert.deepEqual(out.map((row) => row.verify_status), ['VERIFIED', 'VERIFIED', 'SKIPPED']);
  assert.equal(out[2]!.verify_reason, 'not a payee row: a total row');
  const summary = JSON.parse(fs.readFileSync(path.join(dir, 's.json'), 'utf8')) as { statuses: Record<string, number> };
  assert.equal(summary.statuses.INVALID, 0);
  assert.doesNotMatch(r.stderr, /HOLD 1/);
});

test('a workbook renamed .csv (not saved as CSV) is exit 2 saying what it is and how to run it, not only "binary data"', async (t) => {
  const dir = tempDir(t);
  await writeWorkbook(path.join(dir, 'payees.csv'), [{ name: 'Payees', xml: sheetXml([rowXml(1, ['Name', 'Account No', 'IFSC']), rowXml(2, ['Asha Verma', '500100000048', 'SBIN0000001'])]) }]);
  const zip = await runCli(['bank', 'payees.csv', '--sandbox', '--dry-run'], { cwd: dir });
  assert.equal(zip.code, 2, zip.stderr);
  assert.match(zip.stderr, /input payees\.csv is not a text CSV file: it is a zip file, most likely an \.xlsx or \.ods workbook renamed; give it its own name \(payees\.xlsx\) and run that/);
  fs.renameSync(path.join(dir, 'payees.csv'), path.join(dir, 'payees.xlsx'));
  const renamedBack = await runCli(['bank', 'payees.xlsx', '--sandbox', '--dry-run'], { cwd: dir });
  assert.equal(renamedBack.code, 0, renamedBack.stderr);
  fs.writeFileSync(path.join(dir, 'statement.csv'), Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(64, 0)]));
  const pdf = await runCli(['bank', 'statement.csv', '--sandbox', '--dry-run'], { cwd: dir });
  assert.equal(pdf.code, 2, pdf.stderr);
  assert.match(pdf.stderr, /is not a text CSV file: it is a PDF; export the payee list from its source as CSV or \.xlsx/);
  // A PDF whose first objects are plain text (no NUL in its first bytes), as the sandbox's own
  // documents are, under a CSV's name and under an .xls one: a PDF all the same.
  const textPdf = renderPdf(documentsFor('500100000048', 1)[0]!, new Date(0));
  assert.ok(!textPdf.subarray(0, 4096).includes(0), 'the PDF starts with text');
  for (const name of ['statement-text.csv', 'statement-text.xls']) {
    fs.writeFileSync(path.join(dir, name), textPdf);
    const text = await runCli(['bank', name, '--sandbox', '--dry-run'], { cwd: dir });
    assert.equal(text.code, 2, text.stderr);
    assert.match(text.stderr, new RegExp(`input ${name.replace('.', '\\.')} is not a text CSV file: it is a PDF; export the payee list from its source as CSV or \\.xlsx`));
  }
});

test('a salary sheet signed off across its columns (Prepared by, Checked by, … Authorised Signatory): the footer is SKIPPED, not a payee on HOLD', async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  fs.writeFileSync(path.join(dir, 'p.csv'), [
    'Sl,Name,Account No,IFSC,Amount',
    '1,Asha Verma,500100000011,SBIN0000001,1000',
    '2,Ravi Kumar,500100000048,HDFC0000001,2000',
    ',,,Total,3000',
    ',,,,',
    'Prepared by,Checked by,Verified by,Approved by,Authorised Signatory',
  ].join('\n') + '\n');
  const r = await runCli(['bank', 'p.csv', '-o', 'o.csv', '--base-url', sandbox.url], { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  const out = readCsvObjects(path.join(dir, 'o.csv'));
  assert.deepEqual(out.map((row) => row.verify_status), ['VERIFIED', 'VERIFIED', 'SKIPPED', 'SKIPPED', 'SKIPPED']);
  assert.equal(out[4]!.verify_reason, 'not a payee row: a note');
});

test('vas-verify ifsc CODE prints what the registry knows', async (t) => {
  const dir = tempDir(t);
  const known = await runCli(['ifsc', 'hdfc0caacob'], { cwd: dir });
  assert.equal(known.code, 0, known.stderr);
  const body = JSON.parse(known.stdout) as { status: string; bank: { name: string; type: string; upi: boolean }; subletOf: { code: string }; registry: { published: string } };
  assert.equal(body.status, 'listed');
  assert.equal(body.bank.name, 'HDFC Bank');
  assert.equal(body.subletOf.code, 'AACX');
  assert.match(body.registry.published, /^\d{4}-\d{2}-\d{2}$/);
  const unknown = await runCli(['ifsc', 'ABCD0000001'], { cwd: dir });
  assert.equal(unknown.code, 1);
  assert.match(unknown.stdout, /"unknown-bank"/);
  const malformed = await runCli(['ifsc', 'SBIN00001'], { cwd: dir });
  assert.equal(malformed.code, 2);
  assert.match(malformed.stderr, /is not an IFSC/);
});

test('.xlsx in and out: the first sheet (or --sheet) through the same recogniser; digits lost to a number cell are INVALID; the output has text cells', async (t) => {
  const { default: ExcelJS } = await import('exceljs');
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  const book = new ExcelJS.Workbook();
  const notes = book.addWorksheet('Notes');
  notes.addRow(['read me first']);
  const sheet = book.addWorksheet('Payees');
  sheet.addRow(['ACME Industries Pvt Ltd']);
  sheet.addRow(['Vendor payments, November']);
  sheet.addRow(['Vendor Name', 'Vendor A/c No.', 'Vendor IFSC', 'Amount', 'Remarks']);
  sheet.addRow(['Asha Verma', '001234567811', 'SBIN0000001', 1500, 'text account, leading zeros kept']);
  sheet.addRow(['Ravi Kumar', 500100000048, 'HDFC0000001', 2500]);
  sheet.addRow(['Meena Iyer', 1234567890123456789, 'ICIC0000002', 3500, 'a number too long for Excel']);
  await book.xlsx.writeFile(path.join(dir, 'payees.xlsx'));

  const first = await runCli(['bank', 'payees.xlsx', '-o', 'first.csv', '--base-url', sandbox.url, '--dry-run', '--summary', 'first.json'], { cwd: dir });
  assert.equal(first.code, 0, first.stderr);
  assert.equal((JSON.parse(fs.readFileSync(path.join(dir, 'first.json'), 'utf8')) as { input: { sheet: string } }).input.sheet, 'Payees', 'the first sheet is not a payee list: the one whose content is, is taken');
  const named = await runCli(['bank', 'payees.xlsx', '-o', 'first.csv', '--base-url', sandbox.url, '--sheet', 'notes'], { cwd: dir });
  assert.equal(named.code, 2, '--sheet is obeyed (ignoring case)');
  assert.match(named.stderr, /input has no account number column/);

  const r = await runCli(['bank', 'payees.xlsx', '--sheet', 'Payees', '--base-url', sandbox.url, '--summary', 's.json'], { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  const summary = JSON.parse(fs.readFileSync(path.join(dir, 's.json'), 'utf8')) as { input: { headerLine: number; columns: Record<string, string>; sheet: string }; output: string };
  assert.equal(summary.input.headerLine, 3);
  assert.deepEqual(summary.input.columns, { account: 'Vendor A/c No.', ifsc: 'Vendor IFSC', name: 'Vendor Name', amount: 'Amount' });
  assert.equal(summary.input.sheet, 'Payees');
  assert.match(summary.output, /payees\.verified\.xlsx$/, 'an .xlsx input gets an .xlsx output by default');

  assert.equal(fs.statSync(path.join(dir, 'payees.verified.xlsx')).mode & 0o777, 0o600, 'personal data: mode 0600, like the CSV');
  const out = new ExcelJS.Workbook();
  await out.xlsx.readFile(path.join(dir, 'payees.verified.xlsx'));
  assert.deepEqual(out.worksheets.map((w) => w.name), ['Notes', 'Payees'], 'every sheet kept, the payee sheet under its own name');
  assert.equal(out.getWorksheet('Notes')!.getRow(1).getCell(1).value, 'read me first', 'the other sheets copied unchanged');
  const payees = out.getWorksheet('Payees')!;
  const rows: unknown[][] = [];
  payees.eachRow({ includeEmpty: true }, (row) => rows.push((row.values as unknown[]).slice(1)));
  assert.equal(rows[0]![0], 'ACME Industries Pvt Ltd', 'the title rows are kept above the header');
  assert.equal(rows[2]![0], 'Vendor Name');
  const header = rows[2] as string[];
  const col = (name: string) => header.indexOf(name);
  assert.equal(rows[3]![col('Vendor A/c No.')], '001234567811', 'leading zeros kept');
  assert.equal(rows[3]![col('verify_status')], 'VERIFIED');
  assert.equal(rows[4]![col('Vendor A/c No.')], '500100000048', 'an account number written as text, never 5.001E+11');
  assert.equal(rows[4]![col('verify_status')], 'VERIFIED');
  assert.equal(rows[4]![col('Amount')], 2500, 'amounts stay numbers');
  assert.equal(payees.getRow(5).getCell(col('Amount') + 1).type, ExcelJS.ValueType.Number);
  assert.equal(rows[5]![col('verify_status')], 'INVALID');
  assert.match(String(rows[5]![col('verify_reason')]), /stored as a number in the spreadsheet, and a number keeps only 15 significant digits.*Text/);
  assert.equal(payees.getRow(5).getCell(col('Vendor A/c No.') + 1).type, ExcelJS.ValueType.String);
  assert.equal(sandbox.stats().requests['account-verification-pl'], 2);
});

test('spreadsheets it does not read, a damaged .xls, and --sheet on a CSV, are usage errors before any call', async (t) => {
  const dir = tempDir(t);
  fs.writeFileSync(path.join(dir, 'old.xlsb'), Buffer.from([0x50, 0x4b, 3, 4, 0, 0]));
  fs.writeFileSync(path.join(dir, 'old.xls'), Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0]));
  fs.writeFileSync(path.join(dir, 'p.csv'), 'Account No,IFSC\n500100000011,SBIN0000001\n');
  const xlsb = await runCli(['bank', 'old.xlsb', '--sandbox'], { cwd: dir });
  assert.equal(xlsb.code, 2);
  assert.match(xlsb.stderr, /old\.xlsb is a spreadsheet format vas-verify does not read: save it as \.xlsx/);
  const xls = await runCli(['bank', 'old.xls', '--sandbox'], { cwd: dir });
  assert.equal(xls.code, 2, xls.stderr);
  assert.match(xls.stderr, /old\.xls is not a readable spreadsheet/);
  assert.doesNotMatch(xls.stderr, /\n\s+at /);
  const sheet = await runCli(['bank', 'p.csv', '--sandbox', '--sheet', 'One'], { cwd: dir });
  assert.equal(sheet.code, 2);
  assert.match(sheet.stderr, /--sheet applies to a spreadsheet input \(\.xlsx, \.xls, \.ods\) only/);
});

test('a semicolon CSV with a BOM and CRLF (Excel in another locale): read, rows that are not payees SKIPPED in place, the output keeps the format', async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  const input = '\uFEFF' + [
    'Name;Account Number;IFSC;Amount',
    'Asha Verma;500100010011;SBIN0000001;1500,00',
    '',
    'Name;Account Number;IFSC;Amount',
    'Ravi Kumar;500100010048;HDFC0000001;1750,00',
    'Meena Iyer;;;100,00',
    'Total;;;3350,00',
    'Prepared by: payroll;;;',
  ].join('\r\n') + '\r\n';
  fs.writeFileSync(path.join(dir, 'p.csv'), input);
  const r = await runCli(['bank', 'p.csv', '-o', 'o.csv', '--base-url', sandbox.url, '--summary', 's.json', '--report', 'r.html'], { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  assert.match(fs.readFileSync(path.join(dir, 'r.html'), 'utf8'), /<g data-key="SKIPPED" data-count="4">/, 'the report counts the rows that are not payees');
  const out = fs.readFileSync(path.join(dir, 'o.csv'), 'utf8');
  assert.ok(out.startsWith('\uFEFFName;Account Number;IFSC;Amount;verify_status;'), 'BOM and delimiter kept');
  const outLines = out.slice(1).split('\r\n');
  assert.equal(outLines.length, input.slice(1).split('\r\n').length, 'every line once, CRLF kept');
  const status = (line: string) => line.split(';')[4];
  assert.deepEqual(outLines.slice(1, 8).map(status), ['VERIFIED', 'SKIPPED', 'SKIPPED', 'VERIFIED', 'INVALID', 'SKIPPED', 'SKIPPED']);
  assert.match(outLines[6]!, /;SKIPPED;not a payee row: a total row;/);
  const summary = JSON.parse(fs.readFileSync(path.join(dir, 's.json'), 'utf8')) as { statuses: Record<string, number>; input: { columnChoice: Record<string, string> } };
  assert.deepEqual(summary.statuses, { VERIFIED: 2, NOT_VERIFIED: 0, INVALID: 1, DEFERRED: 0, FAILED: 0, UNCONFIRMED: 0, SKIPPED: 4 });
  assert.deepEqual(summary.input.columnChoice, { account: 'header and content', ifsc: 'header and content', name: 'header and content' });
  assert.equal(sandbox.stats().requests['account-verification-pl'], 2, 'only payees were called');
});

test('a header with no payee rows (a failed export) is exit 2, not a run of nothing', async (t) => {
  const dir = tempDir(t);
  fs.writeFileSync(path.join(dir, 'empty.csv'), 'Beneficiary Name,Account Number,IFSC\n\nTotal,,\n');
  const r = await runCli(['bank', 'empty.csv', '-o', 'o.csv', '--dry-run'], { cwd: dir });
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /no payee rows in empty\.csv/);
  // Longer than the first look at the file: found when the last row has been read.
  fs.writeFileSync(path.join(dir, 'long.csv'), `Beneficiary Name,Account Number,IFSC\n${'\n'.repeat(600)}Total,,\n`);
  const long = await runCli(['bank', 'long.csv', '-o', 'o.csv', '--dry-run'], { cwd: dir });
  assert.equal(long.code, 2, long.stderr);
  assert.match(long.stderr, /no payee rows in long\.csv/);
});

test('a file without a header row (a bank upload file, .csv or .xlsx) is exit 2 before any call: its first payee is never taken for column names', async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  // HDFC ENet-style rows, no header; the first payee's account ends in 90 (NOT_VERIFIED in the sandbox).
  const rows = [
    ['NEFT', 'Wrong Person', '123456789090', 'SBIN0001234', '5000'],
    ['NEFT', 'Priya Sharma', '987654321098', 'HDFC0000123', '6000'],
    ['NEFT', 'Anil Verma', '555566667777', 'ICIC0000456', '7000'],
  ];
  fs.writeFileSync(path.join(dir, 'enet.csv'), rows.map((r) => r.join(',')).join('\r\n') + '\r\n');
  const r = await runCli(['bank', 'enet.csv', '-o', 'o.csv', '--state', 's.sqlite', '--base-url', sandbox.url], { cwd: dir });
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /^error: input has no header row: line 1 holds a payee \(an IFSC and an account number\), not column names.*Nothing was called\. Add a line of column names above the payees/m);
  assert.doesNotMatch(r.stderr, /123456789090|\n\s+at /, 'no full account number, no stack');
  assert.equal(fs.existsSync(path.join(dir, 'o.csv')), false);
  // The same rows below a title and a blank line: the title is no header either.
  fs.writeFileSync(path.join(dir, 'titled.csv'), `Salary batch 2026-11\n\n${rows.map((r) => r.join(',')).join('\n')}\n`);
  const titled = await runCli(['bank', 'titled.csv', '-o', 'o.csv', '--state', 's.sqlite', '--base-url', sandbox.url], { cwd: dir });
  assert.equal(titled.code, 2, titled.stderr);
  assert.match(titled.stderr, /input has no account number column .* headers found: "Salary batch 2026-11"/);
  // A first payee with a mistyped IFSC, or a short account, is no header either.
  for (const [first, what] of [[['NEFT', 'Priya Khan', '123456789012', 'HDFC000012', '6000'], 'an account number'], [['NEFT', 'Priya Khan', '12345678', 'HDFC0000123', '6000'], 'an account number']] as const) {
    fs.writeFileSync(path.join(dir, 'typo.csv'), [first, ...rows.slice(1)].map((r) => r.join(',')).join('\n') + '\n');
    const typo = await runCli(['bank', 'typo.csv', '-o', 'o.csv', '--state', 's.sqlite', '--base-url', sandbox.url], { cwd: dir });
    assert.equal(typo.code, 2, typo.stderr);
    assert.match(typo.stderr, new RegExp(`input has no header row: line 1 holds ${what}, not column names`));
  }
  // --header-row pointed at a payee is refused the same way.
  const forced = await runCli(['bank', 'enet.csv', '-o', 'o.csv', '--state', 's.sqlite', '--base-url', sandbox.url, '--header-row', '1'], { cwd: dir });
  assert.equal(forced.code, 2, forced.stderr);
  assert.match(forced.stderr, /input has no header row: line 1 holds a payee.*give its line to --header-row/);
  // A workbook's sheet goes through the same recogniser.
  const { default: ExcelJS } = await import('exceljs');
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Upload');
  for (const row of rows) sheet.addRow(row);
  await book.xlsx.writeFile(path.join(dir, 'enet.xlsx'));
  const xlsx = await runCli(['bank', 'enet.xlsx', '-o', 'o.xlsx', '--state', 's.sqlite', '--base-url', sandbox.url], { cwd: dir });
  assert.equal(xlsx.code, 2, xlsx.stderr);
  assert.match(xlsx.stderr, /input has no header row: line 1 holds a payee/);
  assert.equal(sandbox.stats().requests['account-verification-pl'] ?? 0, 0, 'no call for any of them');
  // With a header line added, the first payee is verified like the others (and held: its account is not verified).
  fs.writeFileSync(path.join(dir, 'headed.csv'), `Mode,Name,Account Number,IFSC,Amount\n${rows.map((r) => r.join(',')).join('\n')}\n`);
  const headed = await runCli(['bank', 'headed.csv', '-o', 'o.csv', '--state', 's.sqlite', '--base-url', sandbox.url], { cwd: dir });
  assert.equal(headed.code, 0, headed.stderr);
  const out = readCsvObjects(path.join(dir, 'o.csv'));
  assert.equal(out.length, 3);
  assert.equal(out[0]!.verify_status, 'NOT_VERIFIED');
  assert.equal(out[0]!.decision, 'HOLD');
});

test('a UTF-8 file with one stray Latin-1 byte stays UTF-8 (names intact, the byte replaced) and the run names its line; an unclosed quote is reported at its line', async (t) => {
  const dir = tempDir(t);
  const rows = ['Beneficiary Name,Account Number,IFSC', 'अजय कुमार,500100010011,SBIN0000001'];
  fs.writeFileSync(path.join(dir, 'stray.csv'), Buffer.concat([Buffer.from(rows.join('\n') + '\n'), Buffer.from('Jos\xe9 M,500100010048,HDFC0000001\n', 'latin1')]));
  const r = await runCli(['bank', 'stray.csv', '-o', 'o.csv', '--sandbox', '--explain-columns'], { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /is UTF-8 but 1 byte\(s\) are not \(line\(s\) 3\)/);
  assert.match(r.stderr, /column 2 "Account Number": header account \(plain\); 2 value\(s\)/, '--explain-columns');
  const out = readCsvObjects(path.join(dir, 'o.csv'));
  assert.equal(out[0]!['Beneficiary Name'], 'अजय कुमार');
  assert.equal(out[1]!['Beneficiary Name'], 'Jos\uFFFD M');

  const lines = ['Beneficiary Name,Account Number,IFSC', ...Array.from({ length: 40 }, (_, i) => `P${i},5001000100${String(i).padStart(2, '0')},SBIN0000001`)];
  lines[30] = 'P29 "the quote,500100010011,SBIN0000001';
  lines[31] = '"P30 never closed,500100010011,SBIN0000001';
  fs.writeFileSync(path.join(dir, 'quote.csv'), lines.join('\n') + '\n');
  const q = await runCli(['bank', 'quote.csv', '-o', 'q.csv', '--sandbox'], { cwd: dir });
  assert.equal(q.code, 2, q.stderr);
  assert.match(q.stderr, /a quoted field is never closed \(in the record starting at line 32\)/);
});

test('an HR export with the name split (First, Middle, Last Name): the parts joined are the name matched, shown to the sandbox, kept for review, and named in the summary; a vendor list\'s Company Name beats its Contact Person', async (t) => {
  const dir = tempDir(t);
  fs.writeFileSync(path.join(dir, 'hr.csv'), [
    'Emp Code,First Name,Middle Name,Last Name,Bank Account No,IFSC,Net Pay',
    'E001,Rajesh,Kumar,Sharma,500100000011,SBIN0000001,45000',
    'E002,Priya,,Nair,500100000048,HDFC0000001,52000',
    'E003,Farah,,Khan,500100000122,SBIN0000001,38000',
    'E004,Arjun,Pratap,Singh,500100000085,ICIC0000002,41000',
  ].join('\n') + '\n');
  const r = await runCli(['bank', 'hr.csv', '-o', 'o.csv', '--summary', 's.json', '--state', 's.sqlite', '--sandbox'], { cwd: dir });
  assert.ok(r.code === 0 || r.code === 3, r.stderr);
  assert.match(r.stderr, /payee name: columns 2 "First Name", 3 "Middle Name" and 4 "Last Name", joined in that order/);
  const out = readCsvObjects(path.join(dir, 'o.csv'));
  // Every row has a verdict on the whole name; none is NO_NAME_TO_CHECK (none was taken before).
  assert.deepEqual(out.map((row) => row.verify_status), ['VERIFIED', 'VERIFIED', 'VERIFIED', 'VERIFIED'], r.stderr);
  assert.ok(out.every((row) => row.name_match !== ''), JSON.stringify(out.map((row) => row.name_match)));
  assert.ok(out.every((row) => row.verify_reason_code !== 'NO_NAME_TO_CHECK'));
  // The sandbox's holders come from the joined names: the first-named rows match in full.
  assert.equal(out.filter((row) => row.name_match === 'DIRECT_MATCH').length >= 2, true, JSON.stringify(out.map((row) => [row.beneficiary_name, row.name_match])));
  const summary = JSON.parse(fs.readFileSync(path.join(dir, 's.json'), 'utf8'));
  assert.deepEqual(summary.input.columns.nameParts, ['First Name', 'Middle Name', 'Last Name']);
  assert.equal(summary.input.columns.name, 'First Name');
  // The review's list shows the name as joined: the payee as the file names it.
  const db = new Database(path.join(dir, 's.sqlite'), { readonly: true });
  const kept = db.prepare('SELECT name FROM run_rows ORDER BY row').pluck().all();
  db.close();
  assert.deepEqual(kept, ['Rajesh Kumar Sharma', 'Priya Nair', 'Farah Khan', 'Arjun Pratap Singh']);

  const firms = ['Thakkar Electricals LLP', 'Fernandes Automobiles', 'Sai Traders', 'Kaveri Agencies', 'Om Sai Enterprises', 'Bharat Steel Works', 'Ganesh Caterers', 'Lakshmi Textiles', 'Noor Transport Co', 'Patel Hardware'];
  fs.writeFileSync(path.join(dir, 'vendors.csv'), [
    'Vendor Code,Company Name,Contact Person,Account Number,IFSC Code',
    ...firms.map((firm, i) => `V${i},${firm},Ramesh ${'ABCDEFGHIJ'[i]} Rao,${500100000011 + i * 37},SBIN0000001`),
  ].join('\n') + '\n');
  const v = await runCli(['bank', 'vendors.csv', '-o', 'v.csv', '--state', 'v.sqlite', '--sandbox'], { cwd: dir });
  assert.ok(v.code === 0 || v.code === 3, v.stderr);
  assert.match(v.stderr, /payee name: column 2 "Company Name", its header reads as the payer's, but its names differ from row to row.*not "Contact Person"/);
});
