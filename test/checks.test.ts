import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkAccount, checkIfsc, checkRow, maskAccount, maskDigits } from '../src/pipeline/checks.js';
import { resolveColumns } from '../src/input/recognise.js';
import { ColumnError, UsageError } from '../src/errors.js';
import { stringify } from 'csv-stringify/sync';
import { parse } from 'csv-parse/sync';
import { neutralise } from '../src/pipeline/columns.js';
import fs from 'node:fs';
import path from 'node:path';
import { csvOutputOptions, encodeCsv, OUTPUT_CHUNK_CHARS } from '../src/output/csv.js';
import { openOutput } from '../src/output/sink.js';
import { tempDir } from './helpers/cli.js';
import { nextIstMidnight, parseDuration } from '../src/pipeline/time.js';

test('a spreadsheet error value (#N/A from a failed VLOOKUP, #REF!, Calc\'s Err:502) is named as such in the account or the IFSC', () => {
  for (const value of ['#N/A', '#REF!', '#VALUE!', '#NAME?', '#DIV/0!', 'Err:502', ' #n/a ']) {
    const account = checkAccount(value);
    assert.ok(!account.ok && /^account number is the spreadsheet error .*: the formula that fills the cell failed/.test(account.reason), `${value}: ${JSON.stringify(account)}`);
    const ifsc = checkIfsc(value);
    assert.ok(!ifsc.ok && /^IFSC is the spreadsheet error .*fix the formula, or copy the column and paste it as values$/.test(ifsc.reason), `${value}: ${JSON.stringify(ifsc)}`);
  }
  assert.ok(!checkAccount('#12345678901').ok && !/spreadsheet error/.test((checkAccount('#12345678901') as { reason: string }).reason), 'a stray # before digits is not an error value');
});

test('checkAccount: normalises and recognises spreadsheet damage', () => {
  assert.deepEqual(checkAccount(' 1234 5678-9012 '), { ok: true, account: '123456789012' });
  assert.deepEqual(checkAccount('="001234567890"'), { ok: true, account: '001234567890' });
  assert.deepEqual(checkAccount("'001234567890"), { ok: true, account: '001234567890' });
  const sci = checkAccount('1.23457E+11');
  assert.ok(!sci.ok && /scientific notation/.test(sci.reason) && /Text/.test(sci.reason));
  const zeros = checkAccount('123456789012345000');
  assert.ok(!zeros.ok && /15th/.test(zeros.reason));
  assert.ok(checkAccount('12345678901234567').ok, 'a 17-digit number not ending in zeros is fine');
  assert.ok(checkAccount('1234567890123450').ok, 'a 16-digit account ending in one zero is an account (one in ten are)');
  assert.ok(!checkAccount('12345678901234500').ok, 'two zeros past the 15th digit: damage');
  assert.ok(!checkAccount('').ok);
  assert.ok(!checkAccount('12345678').ok, '8 digits is too short');
  assert.ok(!checkAccount('1234567890123456789').ok, '19 digits is too long');
  assert.ok(!checkAccount('12345ABC901').ok);
  assert.ok(!checkAccount('123456789012.0').ok);
  // Digits as other keyboards type them, and invisible characters, are named: the cell goes into
  // the payout file as it is, and a bank's upload reads 0-9 only (review: they were paid raw).
  const inScript = (zero: number) => [...'610000000095'].map((d) => String.fromCodePoint(zero + Number(d))).join('');
  assert.deepEqual(checkAccount(inScript(0x0966)), { ok: false, reason: 'account number is typed in Devanagari digits (६): retype it in the digits 0-9, the only ones a bank\'s upload reads' });
  assert.match((checkAccount(inScript(0x0be6)) as { reason: string }).reason, /typed in Tamil digits/);
  assert.match((checkAccount(inScript(0xff10)) as { reason: string }).reason, /typed in full-width digits/);
  assert.deepEqual(checkAccount('610000000093\u200b'), { ok: false, reason: 'account number holds an invisible character (U+200B, pasted with it from a web page or a PDF): retype the cell' });
  assert.deepEqual(checkAccount('61000O000093'), { ok: false, reason: 'account number must contain only digits (it has "O")' });
  assert.deepEqual(checkAccount('₹610000000094'), { ok: false, reason: 'account number must contain only digits (it has "₹")' });
  assert.deepEqual(checkAccount('6100\u00070000093'), { ok: false, reason: 'account number must contain only digits (it has U+0007)' });
  assert.deepEqual(checkAccount('6100\u00a00000 0093'), { ok: true, account: '610000000093' }, 'a no-break space is a space');
});

test('checkIfsc: trims, upper-cases, explains', () => {
  assert.deepEqual(checkIfsc(' sbin0001234 '), { ok: true, ifsc: 'SBIN0001234' });
  const short = checkIfsc('SBIN000123');
  assert.ok(!short.ok && /11 characters, it has 10/.test(short.reason));
  const letterO = checkIfsc('SBINO001234');
  assert.ok(!letterO.ok && /digit zero/.test(letterO.reason));
  assert.ok(!checkIfsc('1BIN0001234').ok);
  assert.match((checkIfsc('SBIN0001234\u200b') as { reason: string }).reason, /^IFSC holds an invisible character \(U\+200B\)/);
  assert.match((checkIfsc('ＳＢＩＮ０００１２３４') as { reason: string }).reason, /^IFSC holds "Ｓ" \(U\+FF33\): retype it/);
  assert.ok(!checkRow('', '').ok);
});

test('masking keeps the last four digits only', () => {
  assert.equal(maskAccount('123456789012'), 'xxxxxxxx9012');
  assert.equal(maskDigits('account 123456789012 failed'), 'account xxxxxxxx9012 failed');
  assert.equal(maskDigits('HTTP 503'), 'HTTP 503');
  assert.equal(maskDigits('session 00000000-0000-4000-8000-000000000001'), 'session 00000000-0000-4000-8000-000000000001');
  assert.equal(maskDigits('(123456789012)'), '(xxxxxxxx9012)');
});

test('resolveColumns: common spellings, overrides, clear errors', () => {
  assert.deepEqual(resolveColumns(['Payee Name', 'A/C No', 'IFSC Code']), { account: 1, ifsc: 2, name: 0 });
  assert.deepEqual(resolveColumns(['accountNumber', 'ifscNumber', 'Beneficiary Name']), { account: 0, ifsc: 1, name: 2 });
  assert.deepEqual(resolveColumns(['account_number', 'IFSC', 'amount']), { account: 0, ifsc: 1, name: -1 });
  assert.deepEqual(resolveColumns(['Account No', 'Bank IFSC', 'Name']), { account: 0, ifsc: 1, name: 2 });
  assert.deepEqual(resolveColumns(['x', 'y', 'z'], { account: 'x', ifsc: 'y', name: 'z' }), { account: 0, ifsc: 1, name: 2 });
  assert.throws(() => resolveColumns(['Name', 'Amount']), (e: Error) => e instanceof ColumnError && /headers found: "Name", "Amount"/.test(e.message));
  assert.throws(() => resolveColumns(['a', 'IFSC'], { account: 'Acct' }), /--account-col "Acct" is not a column/);
});

test('neutralise: OWASP formula starts, full-width forms, line breaks', () => {
  for (const s of ['=1+2', '+91', '-2', '@SUM(A1)', '\tX', '\rX', '＝1', '＋1', '－1', '＠x']) {
    assert.ok(neutralise(s).startsWith("'"), s);
  }
  assert.equal(neutralise('RAVI KUMAR'), 'RAVI KUMAR');
  assert.equal(neutralise('A\nB'), 'A B');
});

/** RFC 4180 as written by hand: the reference the output's bytes are held to. */
function rfc4180(row: readonly string[]): string {
  return `${row.map((cell) => (/[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell)).join(',')}\n`;
}

test('the output is csv-stringify with RFC 4180 bytes, and csv-parse reads the cells back', () => {
  const cells = ['', 'plain', 'a,b', 'say "hi"', '"', '""', ',', 'line\nbreak', '\r\n', ' leading', 'trailing ',
    "'=SUM(A1)", 'नाम', '\t', 'a""b', 'x,"y"\nz', '0012', 'ŚRĪ', '\uFEFFbom'];
  const rows = [cells, [...cells].reverse(), [''], ['', ''], cells.map((c) => c + c)];
  for (const row of rows) {
    assert.equal(encodeCsv([row]), rfc4180(row), JSON.stringify(row));
    assert.equal(encodeCsv([row]), stringify([row], { eof: true, record_delimiter: 'unix' }), JSON.stringify(row));
    assert.deepEqual(parse(encodeCsv([row]))[0], row);
  }
  assert.equal(encodeCsv(rows), rows.map(rfc4180).join(''), 'a batch is its records one after the other');
  // A batch of the ordered writer (512 rows) is encoded a few dozen records per call: the same bytes.
  const batch = Array.from({ length: 517 }, (_, i) => rows[i % rows.length]!.map((cell) => `${cell}${i}`));
  assert.equal(encodeCsv(batch), batch.map(rfc4180).join(''));
  // One option beyond csv-stringify's defaults: a bare CR is quoted (left bare, many readers end
  // the record there).
  assert.equal(encodeCsv([['cr\rx', 'y']]), '"cr\rx",y\n');
  assert.deepEqual(parse(encodeCsv([['cr\rx', 'y']])), [['cr\rx', 'y']]);
});

test('records that need no quoting are joined without csv-stringify: the same bytes as csv-stringify, every delimiter and line ending', () => {
  // Seeded cells from an alphabet of every character that matters to CSV (each delimiter, the
  // quote, CR, LF, space, a BOM, Devanagari), mixed with cells of plain letters, so that batches
  // hold runs of plain records between records that need quoting.
  let seed = 42;
  const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648);
  const special = [',', ';', '\t', '|', '"', '\r', '\n', ' ', '\uFEFF', 'न', "'", '='];
  const cell = (plain: boolean) => {
    const length = Math.floor(random() * 6);
    let text = '';
    for (let i = 0; i < length; i += 1) text += plain || random() < 0.8 ? 'ABCxyz09'[Math.floor(random() * 8)] : special[Math.floor(random() * special.length)];
    return text;
  };
  const rows = Array.from({ length: 2_000 }, () => {
    const plain = random() < 0.7;
    return Array.from({ length: 1 + Math.floor(random() * 8) }, () => cell(plain));
  });
  rows.push([''], ['', ''], []);
  let plainRows = 0;
  for (const delimiter of [',', ';', '\t', '|'] as const) {
    for (const eol of ['\n', '\r\n'] as const) {
      const options = csvOutputOptions({ delimiter, bom: false, eol });
      assert.equal(encodeCsv(rows, options), stringify(rows, options), `delimiter ${JSON.stringify(delimiter)}, line end ${JSON.stringify(eol)}`);
      for (const row of rows.slice(0, 300)) assert.equal(encodeCsv([row], options), stringify([row], options), JSON.stringify(row));
      assert.deepEqual(parse(encodeCsv(rows.slice(0, -1), options), { delimiter, relax_column_count: true }), rows.slice(0, -1));
      plainRows += rows.filter((row) => row.length > 0 && !row.some((c) => /[,;\t|"\r\n]/.test(c))).length;
    }
  }
  assert.ok(plainRows > 4_000, `the fast path was taken (${plainRows} plain records)`);
  // A multi-line cell stays quoted whatever the input's line ending (csv-stringify quotes only
  // its record delimiter once one is given, unless told to quote line breaks too).
  assert.equal(encodeCsv([['a\nb', 'c']], csvOutputOptions({ delimiter: ',', bom: false, eol: '\r\n' })), '"a\nb",c\r\n');
  assert.equal(encodeCsv([['a\r\nb', 'c']], csvOutputOptions({ delimiter: ';', bom: false, eol: '\n' })), '"a\r\nb";c\n');
  assert.equal(encodeCsv([['a\nb', 'c']], csvOutputOptions({ delimiter: '|', bom: false, eol: '\r\n' })), '"a\nb"|c\r\n');
});

test('the CSV sink gathers its writes into chunks: the file is the BOM, the header and every batch in order, 0600: the last chunk is written at commit', async (t) => {
  const dir = tempDir(t);
  const out = path.join(dir, 'out.csv');
  const format = { delimiter: ';' as const, bom: true, eol: '\r\n' as const };
  const sink = openOutput(out, ['name', 'note'], () => true, [], { format });
  const batches = Array.from({ length: 1200 }, (_, b) => Array.from({ length: 7 }, (_, i) => [`payee ${b}-${i}`, i % 5 === 0 ? `multi\nline; ${b}` : `n${i}`]));
  for (const batch of batches) await sink.writeRows(batch);
  await sink.commit();
  const expected = '\uFEFF' + encodeCsv([['name', 'note'], ...batches.flat()], csvOutputOptions(format));
  assert.ok(expected.length > 2 * OUTPUT_CHUNK_CHARS, 'several chunks');
  assert.equal(fs.readFileSync(out, 'utf8'), expected);
  assert.equal(fs.statSync(out).mode & 0o777, 0o600);
});

test('time: next IST midnight and durations', () => {
  // 2026-11-21 18:29:59 UTC is 23:59:59 IST → next midnight IST is 18:30:00 UTC the same day.
  assert.equal(new Date(nextIstMidnight(Date.parse('2026-11-21T18:29:59Z'))).toISOString(), '2026-11-21T18:30:00.000Z');
  assert.equal(new Date(nextIstMidnight(Date.parse('2026-11-21T18:30:00Z'))).toISOString(), '2026-11-22T18:30:00.000Z');
  assert.equal(parseDuration('30d', '--reuse'), 30 * 86_400_000);
  assert.equal(parseDuration('15m', '--reuse'), 900_000);
  assert.throws(() => parseDuration('soon', '--reuse'), (e) => e instanceof UsageError && /^--reuse: "soon" is not a duration/.test(e.message));
});
