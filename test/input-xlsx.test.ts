import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { cellText, openXlsxRecords, openXlsxWriter } from '../src/input/xlsx.js';
import { checkAccount } from '../src/pipeline/checks.js';
import { tempDir } from './helpers/cli.js';

test('cellText: cells as a person sees them; a number past 15 digits reads as damage', () => {
  assert.equal(cellText(null), '');
  assert.equal(cellText('001234567890'), '001234567890');
  assert.equal(cellText(500100000048), '500100000048');
  assert.equal(cellText(123456789012345), '123456789012345', '15 digits are exact');
  const lost = cellText(1234567890123456789);
  assert.match(lost, /E\+18$/);
  const check = checkAccount(lost);
  assert.ok(!check.ok && /scientific notation.*lost digits.*Text/.test(check.reason));
  assert.equal(cellText(12.5), '12.5');
  assert.equal(cellText(true), 'TRUE');
  assert.equal(cellText(new Date('2026-11-23T00:00:00Z')), '2026-11-23');
  assert.equal(cellText({ richText: [{ text: 'Asha ' }, { text: 'Verma' }] }), 'Asha Verma');
  assert.equal(cellText({ formula: 'A1', result: 'SBIN0000001' }), 'SBIN0000001');
  assert.equal(cellText({ text: 'x', hyperlink: 'https://example.com' }), 'x');
  assert.equal(cellText({ error: '#N/A' }), '#N/A');
});

test('openXlsxRecords streams the first sheet or the named one; openXlsxWriter writes text cells', async (t) => {
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
  assert.deepEqual(await read(), { sheet: 'One', rows: [{ fields: ['a', '1'], line: 1 }] });
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
