/**
 * The output's encoding (README, "The file's format"): the output is UTF-8, with a byte-order mark
 * unless the input was UTF-8 without one — so that Excel reads it as UTF-8. A UTF-16 LE input with
 * its BOM (Excel's "Unicode Text", tab-delimited) and a Latin-1 input used to come back as UTF-8
 * without a BOM, and Excel showed their Hindi, Tamil and accented names as mojibake. The release's
 * --exceptions file follows the same rule; its payout file keeps the input's own bytes. The real
 * CLI against the embedded sandbox.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { runCli, tempDir } from './helpers/cli.js';

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const UTF16LE_BOM = Buffer.from([0xff, 0xfe]);

const HOLDERS = [
  'accountNumber,ifsc,name,status',
  '860000000011,SBIN0001234,ASHA RAO,VERIFIED',
  '860000000012,SBIN0001234,RAMESH KUMAR,NOT_VERIFIED',
  '860000000013,SBIN0001234,MURUGAN SELVAM,NOT_VERIFIED',
  '860000000014,SBIN0001234,JOSE MENEZES,VERIFIED',
  '860000000015,SBIN0001234,RENEE FERNANDES,NOT_VERIFIED',
].join('\n') + '\n';

/** Excel's "Unicode Text": UTF-16 LE with its BOM, tab-delimited, CRLF. Whether the release keeps each line. */
const UTF16_LINES: [string, boolean][] = [
  ['नाम\tखाता संख्या\tIFSC\tराशि', true],
  ['Asha Rao\t860000000011\tSBIN0001234\t1500', true], // VERIFIED, the same name: PAY
  ['रमेश कुमार\t860000000012\tSBIN0001234\t2500', false], // NOT_VERIFIED: HOLD
  ['முருகன் செல்வம்\t860000000013\tSBIN0001234\t3500', false], // NOT_VERIFIED: HOLD
];

/** A Latin-1 file (Excel on Windows, "CSV"), comma-delimited, LF. */
const LATIN1_LINES: [string, boolean][] = [
  ['Name,Account,IFSC,Remark', true],
  ['José Menezes,860000000014,SBIN0001234,café', true], // PAY
  ['"Fernandes, Renée",860000000015,SBIN0001234,niño', false], // NOT_VERIFIED: HOLD
];

async function bankAndRelease(dir: string, input: string) {
  fs.writeFileSync(path.join(dir, 'holders.csv'), HOLDERS);
  const run = await runCli(['bank', input, '-o', 'out.csv', '--state', 's.sqlite', '--sandbox', '--sandbox-accounts', 'holders.csv'], { cwd: dir });
  assert.equal(run.code, 0, run.stderr);
  const release = await runCli(['release', '-o', 'payout.csv', '--state', 's.sqlite', '--exceptions', 'held.csv'], { cwd: dir });
  assert.equal(release.code, 0, release.stderr);
  return {
    out: fs.readFileSync(path.join(dir, 'out.csv')),
    held: fs.readFileSync(path.join(dir, 'held.csv')),
    payout: fs.readFileSync(path.join(dir, 'payout.csv')),
  };
}

/** The file's rows, read as Excel reads a file with a UTF-8 BOM: UTF-8, the BOM dropped. */
function rowsOf(file: Buffer, delimiter: string): Record<string, string>[] {
  assert.deepEqual(file.subarray(0, 3), UTF8_BOM, `starts with a UTF-8 BOM: ${file.subarray(0, 8).toString('hex')}`);
  const text = file.subarray(3).toString('utf8');
  assert.ok(!text.includes('\uFFFD'), 'valid UTF-8');
  return parse(text, { delimiter, columns: true }) as Record<string, string>[];
}

test('a UTF-16 LE input with its BOM (tab, CRLF): the output and the exceptions are UTF-8 with a BOM, tab and CRLF kept, Hindi and Tamil names intact; the payout keeps the UTF-16 bytes', async (t) => {
  const dir = tempDir(t);
  const input = Buffer.concat([UTF16LE_BOM, Buffer.from(UTF16_LINES.map(([l]) => `${l}\r\n`).join(''), 'utf16le')]);
  fs.writeFileSync(path.join(dir, 'payees.csv'), input);
  const { out, held, payout } = await bankAndRelease(dir, 'payees.csv');

  const outText = out.toString('utf8');
  assert.ok(outText.startsWith('\uFEFFनाम\tखाता संख्या\tIFSC\tराशि\tverify_status\t'), 'BOM, then the header in the input\'s delimiter');
  assert.equal(outText.split('\r\n').length, UTF16_LINES.length + 1, 'CRLF kept');
  const rows = rowsOf(out, '\t');
  assert.deepEqual(rows.map((r) => [r['नाम'], r['खाता संख्या'], r.verify_status]), [
    ['Asha Rao', '860000000011', 'VERIFIED'],
    ['रमेश कुमार', '860000000012', 'NOT_VERIFIED'],
    ['முருகன் செல்வம்', '860000000013', 'NOT_VERIFIED'],
  ]);

  assert.ok(held.toString('utf8').includes('\r\n'), 'CRLF kept');
  assert.deepEqual(rowsOf(held, '\t').map((r) => [r['नाम'], r['राशि'], r.decision, r.decision_reason]), [
    ['रमेश कुमार', '2500', 'HOLD', 'ACCOUNT_NOT_VERIFIED'],
    ['முருகன் செல்வம்', '3500', 'HOLD', 'ACCOUNT_NOT_VERIFIED'],
  ]);

  const expected = Buffer.concat([UTF16LE_BOM, Buffer.from(UTF16_LINES.filter(([, keep]) => keep).map(([l]) => `${l}\r\n`).join(''), 'utf16le')]);
  assert.deepEqual(payout, expected, 'the payout is the input\'s UTF-16 bytes minus the rows held');
});

test('a Latin-1 input: the output and the exceptions are UTF-8 with a BOM, comma and LF kept, accented names intact; the payout keeps the Latin-1 bytes', async (t) => {
  const dir = tempDir(t);
  const input = Buffer.from(LATIN1_LINES.map(([l]) => `${l}\n`).join(''), 'latin1');
  assert.ok(!input.toString('utf8').includes('é'), 'the file is Latin-1, not UTF-8');
  fs.writeFileSync(path.join(dir, 'payees.csv'), input);
  const { out, held, payout } = await bankAndRelease(dir, 'payees.csv');

  const outText = out.toString('utf8');
  assert.ok(outText.startsWith('\uFEFFName,Account,IFSC,Remark,verify_status,'));
  assert.ok(!outText.includes('\r'), 'LF kept');
  assert.deepEqual(rowsOf(out, ',').map((r) => [r.Name, r.Remark, r.verify_status]), [
    ['José Menezes', 'café', 'VERIFIED'],
    ['Fernandes, Renée', 'niño', 'NOT_VERIFIED'],
  ]);

  assert.deepEqual(rowsOf(held, ',').map((r) => [r.Name, r.Remark, r.decision]), [['Fernandes, Renée', 'niño', 'HOLD']]);

  assert.deepEqual(payout, Buffer.from(LATIN1_LINES.filter(([, keep]) => keep).map(([l]) => `${l}\n`).join(''), 'latin1'));
});

/** A Windows-1252 file (Excel on Windows, "CSV (Comma delimited)"): Latin-1 plus ’ € – “ ” in 0x80–0x9F. */
const WINDOWS_1252_LINES: [string, boolean][] = [
  ['Name,Account,IFSC,Remark', true],
  ['José Menezes,860000000014,SBIN0001234,Menezes’ € 1500 – advance', true], // PAY
  ['"Fernandes, Renée",860000000015,SBIN0001234,“final”', false], // NOT_VERIFIED: HOLD
];
const CP1252_HIGH: Record<string, number> = { '€': 0x80, '–': 0x96, '‘': 0x91, '’': 0x92, '“': 0x93, '”': 0x94 };
const windows1252 = (text: string) => Buffer.from([...text].map((c) => CP1252_HIGH[c] ?? c.charCodeAt(0)));

test('a Windows-1252 input: ’ € – “ ” read as themselves (not C1 controls) in the output and the exceptions; the payout keeps the input\'s bytes', async (t) => {
  const dir = tempDir(t);
  const input = windows1252(WINDOWS_1252_LINES.map(([l]) => `${l}\r\n`).join(''));
  fs.writeFileSync(path.join(dir, 'payees.csv'), input);
  const { out, held, payout } = await bankAndRelease(dir, 'payees.csv');
  assert.ok(!/[\u0080-\u009f]/.test(out.toString('utf8')), 'no C1 control characters');
  assert.deepEqual(rowsOf(out, ',').map((r) => [r.Name, r.Remark, r.verify_status]), [
    ['José Menezes', 'Menezes’ € 1500 – advance', 'VERIFIED'],
    ['Fernandes, Renée', '“final”', 'NOT_VERIFIED'],
  ]);
  assert.deepEqual(rowsOf(held, ',').map((r) => [r.Name, r.Remark]), [['Fernandes, Renée', '“final”']]);
  assert.deepEqual(payout, windows1252(WINDOWS_1252_LINES.filter(([, keep]) => keep).map(([l]) => `${l}\r\n`).join('')));
});

test('a UTF-8 input without a BOM: the output and the exceptions have none either', async (t) => {
  const dir = tempDir(t);
  fs.writeFileSync(path.join(dir, 'payees.csv'), Buffer.from(UTF16_LINES.map(([l]) => `${l}\n`).join(''), 'utf8'));
  const { out, held } = await bankAndRelease(dir, 'payees.csv');
  assert.ok(out.toString('utf8').startsWith('नाम\t'), 'no BOM');
  assert.ok(held.toString('utf8').startsWith('नाम\t'), 'no BOM');
});
