/**
 * .xls (BIFF), .ods and the HTML tables banks save as .xls, through the real CLI against the
 * sandbox (issue #29): the payee sheet found by its content, the rows verified; a file too large
 * to read whole, and an .ods zip bomb, refused with exit 2 before any call.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as XLSX from '@e965/xlsx';
import { parse } from 'csv-parse/sync';
import { startSandbox } from '../src/sandbox/index.js';
import { readCsvObjects, runCli, tempDir } from './helpers/cli.js';
import { ZipWriter } from '../src/output/zip-writer.js';
import { openSpreadsheetRecords } from '../src/input/spreadsheet.js';
import { writeOds } from './helpers/xlsx-files.js';

const PAYEES = [
  ['Beneficiary Name', 'Beneficiary Account No', 'IFSC', 'Amount'],
  ['Asha Verma', '001234567811', 'SBIN0000001', 1500],
  ['Ravi Kumar', 500100000048, 'HDFC0000001', 2500],
];

function book(): XLSX.WorkBook {
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([['Prepared by accounts'], ['see the next sheet']]), 'Notes');
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(PAYEES), 'Vendor Payees');
  return wb;
}

for (const [kind, file, bookType] of [['.xls (BIFF8)', 'payees.xls', 'biff8'], ['.ods', 'payees.ods', 'ods']] as const) {
  test(`${kind}: the payee sheet is found by its content and verified`, async (t) => {
    const sandbox = await startSandbox();
    t.after(() => sandbox.close());
    const dir = tempDir(t);
    fs.writeFileSync(path.join(dir, file), XLSX.write(book(), { type: 'buffer', bookType }));
    const r = await runCli(['bank', file, '-o', 'out.csv', '--base-url', sandbox.url, '--summary', 's.json'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    const rows = readCsvObjects(path.join(dir, 'out.csv'));
    assert.deepEqual(rows.map((row) => [row['Beneficiary Account No'], row.verify_status]), [['001234567811', 'VERIFIED'], ['500100000048', 'VERIFIED']]);
    const summary = JSON.parse(fs.readFileSync(path.join(dir, 's.json'), 'utf8')) as { input: { sheet: string } };
    assert.equal(summary.input.sheet, 'Vendor Payees');
    assert.equal(sandbox.stats().requests['account-verification-pl'], 2);
  });
}

test('an HTML table saved as .xls (what bank portals export) is read as a sheet', async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  const cells = (row: ReadonlyArray<string | number>, tag: string) => `<tr>${row.map((c) => `<${tag}>${c}</${tag}>`).join('')}</tr>`;
  fs.writeFileSync(path.join(dir, 'statement.xls'), `<html><body><table>${cells(PAYEES[0]!, 'th')}${PAYEES.slice(1).map((r) => cells(r, 'td')).join('')}</table></body></html>`);
  const r = await runCli(['bank', 'statement.xls', '-o', 'out.csv', '--base-url', sandbox.url], { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  const rows = readCsvObjects(path.join(dir, 'out.csv'));
  assert.equal(rows.length, 2);
  assert.equal(rows[1]!.verify_status, 'VERIFIED');
});

test('an .xls too large to read whole and an .ods zip bomb stop with exit 2, no call', async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  const big = Buffer.alloc(33 * 1024 ** 2);
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(big);
  fs.writeFileSync(path.join(dir, 'big.xls'), big);
  const tooBig = await runCli(['bank', 'big.xls', '--base-url', sandbox.url], { cwd: dir });
  assert.equal(tooBig.code, 2, tooBig.stderr);
  assert.match(tooBig.stderr, /big\.xls: it is 33 MiB; an \.xls or \.ods is read whole, up to 32 MiB; save it from Excel as \.xlsx/);

  const zip = new ZipWriter(fs.createWriteStream(path.join(dir, 'bomb.ods')));
  await zip.add('mimetype', ['application/vnd.oasis.opendocument.spreadsheet']);
  const block = ' '.repeat(1024 ** 2);
  await zip.add('content.xml', (function* () {
    yield '<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0">';
    for (let i = 0; i < 1024; i += 1) yield block;
    yield '</office:document-content>';
  })(), 9);
  await zip.finish();
  const bomb = await runCli(['bank', 'bomb.ods', '--base-url', sandbox.url], { cwd: dir });
  assert.equal(bomb.code, 2, bomb.stderr);
  assert.match(bomb.stderr, /content\.xml inflates to more than 100× its compressed size .*zip bomb/);
  assert.equal(Object.keys(sandbox.stats().requests).length, 0);
});

test('an HTML table saved as .xls: each cell is the text it shows (zeros, 18 digits, amounts and dates kept)', async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  const rows = [
    ['Beneficiary Name', 'Beneficiary Account No', 'IFSC', 'Amount', 'Pay Date'],
    ['Asha Verma', '000123456789', 'SBIN0000001', '1,200.50', '05/11/2026'],
    ['Ravi Kumar', '123456789012345678', 'HDFC0000001', '200', '26/11/2026'],
  ];
  const html = `<html><head><meta charset="utf-8"></head><body><table>${rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('\n')}</table></body></html>`;
  fs.writeFileSync(path.join(dir, 'portal.xls'), html);
  const r = await runCli(['bank', 'portal.xls', '-o', 'out.csv', '--base-url', sandbox.url], { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  const out = readCsvObjects(path.join(dir, 'out.csv'));
  assert.deepEqual(out.map((row) => [row['Beneficiary Account No'], row.Amount, row['Pay Date']]), rows.slice(1).map((row) => [row[1], row[3], row[4]]));
});

for (const [name, delimiter] of [['comma', ','], ['tab', '\t']] as const) {
  test(`a ${name}-separated UTF-8 file named .xls is read as the CSV it is: names decoded, zeros kept`, async (t) => {
    const sandbox = await startSandbox();
    t.after(() => sandbox.close());
    const dir = tempDir(t);
    const lines = [['Beneficiary Name', 'Beneficiary Account Number', 'IFSC Code', 'Amount'], ['Zoë D’Souza', '000987654321', 'IOBA0000123', '2,500.50'], ['Ravi Kumar', '001234567811', 'HDFC0000001', '300']];
    const quote = (c: string) => (c.includes(delimiter) ? `"${c}"` : c);
    fs.writeFileSync(path.join(dir, 'export.xls'), lines.map((l) => l.map(quote).join(delimiter)).join('\r\n') + '\r\n');
    const r = await runCli(['bank', 'export.xls', '-o', 'out.csv', '--base-url', sandbox.url], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    const text = fs.readFileSync(path.join(dir, 'out.csv'), 'utf8');
    const out = parse(text, { bom: true, columns: true, delimiter }) as Array<Record<string, string>>;
    assert.deepEqual(out.map((row) => [row['Beneficiary Name'], row['Beneficiary Account Number'], row.Amount]), lines.slice(1).map((l) => [l[0], l[1], l[2 + 1]]));
  });
}

test('.ods: a sheet hidden through its table style (or the common style it inherits) is passed over, counted out of the ambiguity, named in the log, read only by --sheet', async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  const header = ['Beneficiary Name', 'Beneficiary Account No', 'IFSC'];
  await writeOds(path.join(dir, 'payees.ods'), [
    { name: 'Notes', rows: [['Prepared by accounts']] },
    { name: 'Sample & Template', rows: [header, ['Sample Name', '123456789012', 'SBIN0004266']], hidden: 'automatic' },
    { name: 'Vendor Payees', rows: [header, ['Asha Verma', '001234567811', 'SBIN0000001'], ['Ravi Kumar', 500100000048, 'HDFC0000001']] },
    { name: 'Last Year', rows: [header, ['Old Payee', '223456789012', 'HDFC0001234']], hidden: 'common' },
  ]);
  // Two visible payee lists would be refused; the hidden ones do not count.
  const r = await runCli(['bank', 'payees.ods', '-o', 'out.csv', '--base-url', sandbox.url, '--summary', 's.json'], { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /header found at line 1 in sheet "Vendor Payees" \(sheets: "Notes", "Sample & Template", "Vendor Payees", "Last Year"; hidden, read only when named with --sheet: "Sample & Template", "Last Year"\)/);
  assert.deepEqual(readCsvObjects(path.join(dir, 'out.csv')).map((row) => row['Beneficiary Name']), ['Asha Verma', 'Ravi Kumar']);
  const summary = JSON.parse(fs.readFileSync(path.join(dir, 's.json'), 'utf8')) as { input: { sheet: string } };
  assert.equal(summary.input.sheet, 'Vendor Payees');
  assert.equal(sandbox.stats().requests['account-verification-pl'], 2);

  const named = await runCli(['bank', 'payees.ods', '-o', 'sample.csv', '--sheet', 'sample & template', '--base-url', sandbox.url], { cwd: dir });
  assert.equal(named.code, 0, named.stderr);
  assert.deepEqual(readCsvObjects(path.join(dir, 'sample.csv')).map((row) => row['Beneficiary Name']), ['Sample Name']);

  // Only hidden sheets hold payees: the visible first sheet is read and the message names the hidden ones.
  await writeOds(path.join(dir, 'upload.ods'), [{ name: 'Upload', rows: [header] }, { name: 'Sample', rows: [header, ['Sample Name', '123456789012', 'SBIN0004266']], hidden: 'automatic' }]);
  const upload = await runCli(['bank', 'upload.ods', '-o', 'upload.csv', '--base-url', sandbox.url], { cwd: dir });
  assert.equal(upload.code, 2, upload.stderr);
  assert.match(upload.stderr, /no payee rows in upload\.ods/);
  assert.equal(sandbox.stats().requests['account-verification-pl'], 3);
});

/** An .xlsx as Excel encrypts it with a password to open: an OLE2 file with the encrypted package and its data spaces. */
function encryptedPackage(): Buffer {
  const cfb = XLSX.CFB.utils.cfb_new();
  XLSX.CFB.utils.cfb_add(cfb, '/EncryptionInfo', Buffer.alloc(248, 4));
  XLSX.CFB.utils.cfb_add(cfb, '/EncryptedPackage', Buffer.alloc(16 * 1024, 7));
  // Enough entries that the directory spans several sectors, as in a real file.
  for (const name of ['Version', 'DataSpaceMap', 'DataSpaceInfo/StrongEncryptionDataSpace', 'TransformInfo/StrongEncryptionTransform/\x06Primary']) {
    XLSX.CFB.utils.cfb_add(cfb, `/\x06DataSpaces/${name}`, Buffer.alloc(76, 1));
  }
  for (let i = 0; i < 12; i += 1) XLSX.CFB.utils.cfb_add(cfb, `/\x05Summary${i}`, Buffer.alloc(8192, i));
  return XLSX.CFB.write(cfb, { type: 'buffer' }) as Buffer;
}

/** An .xls with a password to open: a FILEPASS record after the workbook's BOF. */
function filepassXls(): Buffer {
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(PAYEES), 'Payees');
  const cfb = XLSX.CFB.read(XLSX.write(wb, { type: 'buffer', bookType: 'biff8' }) as Buffer, { type: 'buffer' });
  const stream = XLSX.CFB.find(cfb, '/Workbook')!;
  const bytes = Buffer.from(stream.content as Uint8Array);
  const afterBof = 4 + bytes.readUInt16LE(2);
  stream.content = Buffer.concat([bytes.subarray(0, afterBof), Buffer.from([0x2f, 0x00, 0x06, 0x00, 0x00, 0x00, 0x34, 0x12, 0x78, 0x56]), bytes.subarray(afterBof)]);
  stream.size = stream.content.length;
  return XLSX.CFB.write(cfb, { type: 'buffer' }) as Buffer;
}

test('a workbook with a password to open (.xlsx encrypted by Excel under any spreadsheet name, an .xls with FILEPASS, an encrypted .ods) is refused with exit 2 saying so and how to remove it, no call', async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  const excel = (file: string) => new RegExp(`^error: input ${file.replace('.', '\\.')} is password-protected \\(encrypted with a password to open\\), and vas-verify cannot read it: remove the password in Excel \\(File > Info > Protect Workbook > Encrypt with Password, clear the password, OK, then save\\), or save a copy without a password, and run that$`, 'm');
  for (const file of ['payees.xlsx', 'payees.xlsm', 'payees.xls', 'payees.ods']) fs.writeFileSync(path.join(dir, file), encryptedPackage());
  fs.writeFileSync(path.join(dir, 'old.xls'), filepassXls());
  for (const file of ['payees.xlsx', 'payees.xlsm', 'payees.xls', 'payees.ods', 'old.xls']) {
    const r = await runCli(['bank', file, '-o', 'out.csv', '--base-url', sandbox.url], { cwd: dir });
    assert.equal(r.code, 2, `${file}: ${r.stderr}`);
    assert.match(r.stderr, excel(file), file);
  }
  // The reader says the same when called without the CLI's inspection first.
  await assert.rejects(openSpreadsheetRecords(path.join(dir, 'payees.xls'), undefined), /payees\.xls is password-protected .*Encrypt with Password/);

  // LibreOffice's encryption: the parts encrypted, the manifest saying how.
  const zip = new ZipWriter(fs.createWriteStream(path.join(dir, 'calc.ods')));
  await zip.add('mimetype', ['application/vnd.oasis.opendocument.spreadsheet'], 0);
  await zip.add('META-INF/manifest.xml', ['<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml" manifest:size="4096"><manifest:encryption-data manifest:checksum-type="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0#sha256-1k" manifest:checksum="AAAA"><manifest:algorithm manifest:algorithm-name="http://www.w3.org/2001/04/xmlenc#aes256-cbc" manifest:initialisation-vector="AAAA"/><manifest:key-derivation manifest:key-derivation-name="PBKDF2" manifest:key-size="32" manifest:iteration-count="100000" manifest:salt="AAAA"/></manifest:encryption-data></manifest:file-entry></manifest:manifest>']);
  await zip.add('content.xml', [Buffer.alloc(4096, 0x9c)], 0);
  await zip.finish();
  const calc = await runCli(['bank', 'calc.ods', '-o', 'out.csv', '--base-url', sandbox.url], { cwd: dir });
  assert.equal(calc.code, 2, calc.stderr);
  assert.match(calc.stderr, /^error: input calc\.ods is password-protected \(encrypted with a password to open\), and vas-verify cannot read it: remove the password in LibreOffice Calc \(File > Save As, untick "Save with password", then save\), or save a copy without a password, and run that$/m);
  assert.equal(Object.keys(sandbox.stats().requests).length, 0);
});
