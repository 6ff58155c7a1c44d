import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { numberText, openXlsxRecords } from '../src/input/xlsx.js';
import { openXlsxWriter } from '../src/output/xlsx.js';
import { checkAccount } from '../src/pipeline/checks.js';
import { runCli, tempDir } from './helpers/cli.js';
import { rowXml, sheetXml, writeWorkbook } from './helpers/xlsx-files.js';

test('numberText: number cells as a person sees them; a number past 15 digits reads as damage', () => {
  assert.equal(numberText('500100000048'), '500100000048');
  assert.equal(numberText('123456789012345'), '123456789012345', '15 digits are exact');
  const lost = numberText('1.2345678901234568E+18');
  assert.match(lost, /E\+18$/);
  const check = checkAccount(lost);
  assert.ok(!check.ok && /scientific notation.*lost digits.*Text/.test(check.reason));
  assert.equal(numberText('12.5'), '12.5');
  assert.equal(numberText(''), '');
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
  assert.deepEqual(await read('Two'), { sheet: 'Two', rows: [{ fields: ['Account No', 'IFSC'], line: 1 }, { fields: ['500100000048', 'SBIN0000001'], line: 3 }] });
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
