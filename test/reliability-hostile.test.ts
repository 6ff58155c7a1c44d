/**
 * A hostile input corpus (test/fixtures/hostile, plus big files generated here rather than
 * committed): every file ends either in per-row INVALID with its line number, or in one clear
 * error with exit 2 — never a stack trace, never a partial output presented as complete.
 * csv-spectrum is run file by file in bank.test.ts ("csv-spectrum files round-trip unchanged").
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startSandbox } from '../src/sandbox/index.js';
import { APPENDED_COLUMNS } from '../src/pipeline/columns.js';
import { ROOT, readCsv, readCsvObjects, runCli, sum, tempDir, type CliResult } from './helpers/cli.js';

const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'hostile');
const MB = 1024 * 1024;

interface Ran {
  result: CliResult;
  calls: number;
  output: string;
}

async function runOn(t: TestContext, dir: string, input: string, extra: string[] = []): Promise<Ran> {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const base = path.basename(input);
  const output = path.join(dir, `${base}.out.csv`);
  const result = await runCli(['bank', input, '-o', output, '--state', path.join(dir, `${base}.sqlite`), '--base-url', sandbox.url, ...extra], { cwd: dir });
  assert.doesNotMatch(result.stderr, /\n\s+at |this is a bug|FATAL ERROR/, `${base}: no stack trace, no crash\n${result.stderr.slice(0, 2000)}`);
  return { result, calls: sum(sandbox.stats().requests), output };
}

/** One clear error: exit 2, one short line on stderr, no output file, no call. */
function assertOneError(ran: Ran, pattern: RegExp, what: string, maxCalls = 0): void {
  const { result } = ran;
  assert.equal(result.code, 2, `${what}: exit 2\n${result.stderr.slice(0, 2000)}`);
  const lines = result.stderr.trim().split('\n');
  assert.equal(lines.length, 1, `${what}: one line\n${result.stderr.slice(0, 2000)}`);
  assert.ok(lines[0]!.length < 600, `${what}: a short line (${lines[0]!.length} characters)`);
  assert.match(lines[0]!, /^error: /);
  assert.match(lines[0]!, pattern, what);
  assert.ok(!fs.existsSync(ran.output), `${what}: no output presented`);
  assert.ok(ran.calls <= maxCalls, `${what}: ${ran.calls} call(s)`);
  // Only this run's temporary file: runs of other files in the same directory may be writing theirs.
  const own = `.${path.basename(ran.output)}.`;
  assert.deepEqual(fs.readdirSync(path.dirname(ran.output)).filter((f) => f.startsWith(own) && f.endsWith('.tmp')), [], `${what}: no temporary output left`);
}

function fixture(name: string): string {
  return path.join(FIXTURES, name);
}

/** Runs `count` tasks at a time: each spawns a CLI, and the machine has two cores. */
async function inBatches<T>(items: readonly T[], count: number, task: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += count) await Promise.all(items.slice(i, i + count).map(task));
}

test('hostile files that must stop with one clear error (exit 2), no output and (but for a late parse error) no call', { timeout: 180_000 }, async (t) => {
  const dir = tempDir(t, 'vas-hostile-err-');
  // Random bytes with no zero byte: not caught by a NUL check, would be read as Latin-1.
  const garbage = Buffer.alloc(64 * 1024);
  let seed = 12345;
  for (let i = 0; i < garbage.length; i += 1) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    garbage[i] = 1 + ((seed >>> 16) % 255);
  }
  fs.writeFileSync(path.join(dir, 'garbage.csv'), garbage);
  fs.writeFileSync(path.join(dir, 'zip.csv'), Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 8, 0, 0x21, 0x22]));
  // A one-field header of 1 MB: the message must not print it.
  fs.writeFileSync(path.join(dir, 'huge-header.csv'), `${'Account'.repeat(150_000)}\n1,2\n`);
  // 1,000 columns and none is an account number.
  const headers = Array.from({ length: 1000 }, (_, i) => `column ${i}`);
  fs.writeFileSync(path.join(dir, 'wide-no-account.csv'), `${headers.join(',')}\n${headers.map((_, i) => i).join(',')}\n`);
  // A field larger than the 8 MiB record limit.
  fs.writeFileSync(path.join(dir, 'huge-field.csv'), `Name,Account Number,IFSC\nA,630000000011,SBIN0001234\nB,630000000012,${'x'.repeat(9 * MB)}\nC,630000000013,SBIN0001234\n`);

  const cases: Array<[string, RegExp, number?]> = [
    [fixture('empty.csv'), /is empty/],
    [fixture('blank-lines-only.csv'), /has no header row/],
    // A header and no payee rows is a failed export (issue #29).
    [fixture('header-only.csv'), /no payee rows in .*header-only\.csv/],
    [fixture('utf16be-bom.csv'), /UTF-16 big-endian: save it as "CSV UTF-8"/],
    [fixture('utf16le-no-bom.csv'), /UTF-16 without a byte-order mark: save it as "CSV UTF-8"/],
    [fixture('duplicate-account-header.csv'), /header "Account Number" names 2 columns \(2, 4\): rename all but one/],
    [path.join(dir, 'garbage.csv'), /is not a text CSV file \(it contains binary data\)/],
    [path.join(dir, 'zip.csv'), /is not a text CSV file/],
    [path.join(dir, 'huge-header.csv'), /no account number column.*headers found: "(Account){5}/],
    [path.join(dir, 'wide-no-account.csv'), /no account number column.*"column 29", … \(1000 in all\)/],
    // The rest of the file is one unclosed field, found at its end: rows before it may have been
    // called (the first request leaves before the file is read to the end), none is presented.
    [fixture('unterminated-quote.csv'), /is not valid CSV: a quoted field is never closed \(in the record starting at line 3\)/, 1],
    [path.join(dir, 'huge-field.csv'), /is not valid CSV: a record is larger than 8 MiB \(in the record starting at line 3\)/, 1],
  ];
  await inBatches(cases, 3, async ([input, pattern, maxCalls]) => {
    const ran = await runOn(t, dir, input);
    assertOneError(ran, pattern, path.basename(input), maxCalls ?? 0);
  });
});

test('hostile files that end in per-row results: encodings, line endings, ragged rows, damaged numbers, formulas', { timeout: 180_000 }, async (t) => {
  const dir = tempDir(t, 'vas-hostile-rows-');
  const checks: Array<[string, (ran: Ran) => void]> = [
    ['bom-crlf.csv', (ran) => {
      const out = readCsv(ran.output);
      assert.deepEqual(out[0]!.slice(0, 3), ['Name', 'Account Number', 'IFSC'], 'BOM stripped');
      assert.deepEqual(out.slice(1).map((r) => r.slice(0, 4)), [
        ['Asha Rao', '610000000011', 'SBIN0001234', 'VERIFIED'],
        ['Rao, Ravi', '610000000012', 'HDFC0000123', 'VERIFIED'],
      ]);
    }],
    ['mixed-line-endings.csv', (ran) => {
      const out = readCsvObjects(ran.output);
      assert.deepEqual(out.map((r) => r.Name), ['A', 'B', 'C', 'D', 'E\r\nquoted', 'F', 'G'], 'CRLF, LF and a bare CR each end a row');
      assert.deepEqual(out.map((r) => r.verify_status), ['VERIFIED', 'VERIFIED', 'VERIFIED', 'VERIFIED', 'VERIFIED', 'INVALID', 'VERIFIED']);
      assert.match(out[5]!.verify_reason!, /^line 8: account number must have 9 to 18 digits/, 'line numbers count every kind of line break');
      assert.equal(ran.calls, 6);
    }],
    ['ragged.csv', (ran) => {
      const out = readCsvObjects(ran.output);
      assert.deepEqual(out.map((r) => [r.Name, r.verify_status]), [['Short', 'INVALID'], ['Long', 'INVALID'], ['Fine', 'VERIFIED'], ['', 'SKIPPED'], ['Lonely', 'INVALID'], ['Fine too', 'VERIFIED']]);
      assert.match(out[0]!.verify_reason!, /^line 2 has 2 field\(s\), the header has 3/);
      assert.match(out[1]!.verify_reason!, /^line 3 has 5 field\(s\)/);
      assert.match(out[4]!.verify_reason!, /^line 6 has 1 field\(s\)/);
      assert.equal(ran.calls, 2);
    }],
    ['latin1.csv', (ran) => {
      const out = readCsvObjects(ran.output);
      assert.deepEqual(out.map((r) => r.Name), ['José François', 'Sérgio Müller'], 'Latin-1 decoded, written as UTF-8');
      assert.ok(out.every((r) => r.verify_status === 'VERIFIED'));
    }],
    ['utf16le-bom.csv', (ran) => {
      const out = readCsvObjects(ran.output);
      assert.deepEqual(out.map((r) => r.Name), ['José', 'सुनीता देवी']);
      assert.ok(out.every((r) => r.verify_status === 'VERIFIED'));
    }],
    ['duplicate-other-headers.csv', (ran) => {
      const out = readCsv(ran.output);
      assert.deepEqual(out[0]!.slice(0, 5), ['Name', 'Account Number', 'IFSC', 'Note', 'Note']);
      assert.deepEqual(out[1]!.slice(0, 6), ['A', '610000000081', 'SBIN0001234', 'first', 'second', 'VERIFIED'], 'columns that are not used may repeat');
    }],
    ['spreadsheet-damage.csv', (ran) => {
      const out = readCsvObjects(ran.output);
      const reasons = Object.fromEntries(out.map((r) => [r.Name, `${r.verify_status} ${r.verify_reason}`]));
      assert.match(reasons.Sci!, /^INVALID line 2: account number is in scientific notation \(1\.23457E\+11\).*re-export the file with the account column formatted as Text/);
      assert.match(reasons.SciLower!, /^INVALID line 3: account number is in scientific notation/);
      assert.match(reasons.Padded!, /^INVALID line 4: account number has 18 digits ending in zeros past the 15th/);
      assert.match(reasons.Decimal!, /^INVALID line 5: account number has a decimal part/);
      assert.match(reasons.Grouped!, /^INVALID line 6: account number must contain only digits/);
      assert.match(reasons.FullWidth!, /^INVALID line 7: account number is typed in full-width digits/);
      assert.match(reasons.Rupee!, /^INVALID line 8: account number must contain only digits/);
      assert.match(reasons.Short!, /^INVALID line 9: account number must have 9 to 18 digits, it has 5/);
      assert.match(reasons['Letter O']!, /^INVALID line 10: IFSC's 5th character must be the digit zero, it is "O"/);
      assert.match(reasons.IfscShort!, /^INVALID line 11: IFSC must be 11 characters, it has 10/);
      assert.match(reasons.Empty!, /^INVALID line 12: account number is empty; IFSC is empty/);
      for (const ok of ['Wrapped', 'Apostrophe', 'Spaced', 'Hyphens']) assert.match(reasons[ok]!, /^VERIFIED/, ok);
      assert.equal(ran.calls, 4, 'damaged rows cost nothing');
    }],
    ['formula-names.csv', (ran) => {
      const input = readCsv(fixture('formula-names.csv'));
      const out = readCsv(ran.output);
      const header = out[0]!;
      for (let i = 1; i < input.length; i += 1) assert.deepEqual(out[i]!.slice(0, 3), input[i], `row ${i + 1}: input cells unchanged`);
      const rows = readCsvObjects(ran.output);
      assert.deepEqual(rows.map((r) => r.verify_status), ['VERIFIED', 'VERIFIED', 'VERIFIED', 'VERIFIED', 'VERIFIED', 'VERIFIED', 'INVALID', 'INVALID']);
      assert.match(rows[6]!.verify_reason!, /^line 8: account number must contain only digits/);
      assert.match(rows[7]!.verify_reason!, /^line 9: IFSC must be 11 characters/);
      assert.ok(rows[5]!.beneficiary_name!.startsWith("'="), `the API's formula is neutralised: ${rows[5]!.beneficiary_name}`);
      const apiColumns = header.slice(3).filter((c) => c !== 'verify_status');
      for (const row of rows) {
        for (const column of apiColumns) assert.doesNotMatch(row[column] ?? '', /^[=+\-@\t\r\n\uFF1D\uFF0B\uFF0D\uFF20]/, `${column} of ${row['Beneficiary Name']}`);
      }
      assert.ok(rows.slice(0, 6).every((r) => /^\d+$/.test(r.name_match_score!)), 'names that are formulas are still matched');
    }],
  ];
  await inBatches(checks, 3, async ([name, check]) => {
    const ran = await runOn(t, dir, fixture(name));
    assert.equal(ran.result.code, 0, `${name}\n${ran.result.stderr}`);
    check(ran);
  });
});

test('a record of more fields than a spreadsheet has columns (16,384) is refused while it is read: exit 2, one line, no call', { timeout: 180_000 }, async (t) => {
  const dir = tempDir(t, 'vas-hostile-fields-');
  const write = (name: string, text: string) => fs.writeFileSync(path.join(dir, name), text);
  // Millions of tiny fields on one line: under the 8 MiB cap on a record's characters (which counts
  // no delimiter) and over it; commas alone, no character at all. Each took 3–35 s and 800–900 MB.
  write('tiny-fields-8mb.csv', `${'x,'.repeat(4_000_000)}\n`);
  write('tiny-fields-10mb.csv', `${'x,'.repeat(5_000_000)}\n`);
  write('commas-20mb.csv', `${','.repeat(20_000_000)}\n`);
  // One field past the bound, and past it a quoted field followed by text (a quote error there is still this).
  const fields = (n: number, value: string) => new Array<string>(n).fill(value).join(',');
  write('one-too-many.csv', `${fields(16_385, 'h')}\n`);
  write('quoted-tail.csv', `${fields(16_384, 'h')},"a"b,"c\n`);
  const names = ['tiny-fields-8mb.csv', 'tiny-fields-10mb.csv', 'commas-20mb.csv', 'one-too-many.csv', 'quoted-tail.csv'];
  await inBatches(names, 3, async (name) => {
    const ran = await runOn(t, dir, path.join(dir, name));
    const pattern = new RegExp(`^error: input .*/${name.replace('.', '\\.')} is not a payee list: line 1 has more than 16,384 fields \\(a spreadsheet has at most 16,384 columns\\)$`);
    assertOneError(ran, pattern, name);
  });

  // The bound itself is read: 16,384 columns, the payee columns among them.
  const header = ['Name', 'Account Number', 'IFSC', ...Array.from({ length: 16_381 }, (_, i) => `c${i}`)];
  const payee = ['Asha Rao', '660000000011', 'SBIN0001234', ...new Array<string>(16_381).fill('')];
  write('widest.csv', `${header.join(',')}\n${payee.join(',')}\n`);
  const widest = await runOn(t, dir, path.join(dir, 'widest.csv'));
  assert.equal(widest.result.code, 0, widest.result.stderr);
  const out = readCsv(widest.output);
  assert.equal(out[0]!.length, 16_384 + APPENDED_COLUMNS.length);
  assert.equal(out[1]![16_384], 'VERIFIED');
  assert.equal(widest.calls, 1);

  // A wide row under a good header is refused at its own line; the rows above it may have been called, none is presented.
  write('wide-row.csv', `Name,Account Number,IFSC\nAsha Rao,660000000012,SBIN0001234\n${fields(20_000, 'v')}\n`);
  const wideRow = await runOn(t, dir, path.join(dir, 'wide-row.csv'));
  assertOneError(wideRow, /is not a payee list: line 3 has more than 16,384 fields/, 'wide-row.csv', 1);
});

test('big hostile files: 1,000 columns; 5 MB fields in a passed-through column, the account and the name columns', { timeout: 180_000 }, async (t) => {
  const dir = tempDir(t, 'vas-hostile-big-');
  const headers = Array.from({ length: 1000 }, (_, i) => (i === 400 ? 'Account Number' : i === 401 ? 'IFSC' : i === 402 ? 'Name' : `c${i}`));
  const row = (account: string) => headers.map((h, i) => (h === 'Account Number' ? account : h === 'IFSC' ? 'SBIN0001234' : h === 'Name' ? 'Asha Rao' : `v${i}`));
  const wide = [headers, row('640000000011'), row('640000000012'), row('12')];
  fs.writeFileSync(path.join(dir, 'wide.csv'), wide.map((r) => r.join(',')).join('\n') + '\n');

  const notes = 'N'.repeat(5 * MB);
  const initials = 'A.'.repeat(2.5 * MB);
  fs.writeFileSync(
    path.join(dir, 'big-fields.csv'),
    [
      'Name,Account Number,IFSC,Notes',
      'Asha Rao,650000000011,SBIN0001234,short',
      `Ravi Kumar,650000000012,SBIN0001234,${notes}`,
      `Sunita Devi,${'1'.repeat(5 * MB)},SBIN0001234,x`,
      // Megabytes of initials in the name column: not a name, and once enough to exhaust the heap.
      `${initials},650000000014,SBIN0001234,x`,
      'Last,650000000015,SBIN0001234,x',
    ].join('\n') + '\n',
  );

  const [wideRan, bigRan] = await Promise.all([runOn(t, dir, path.join(dir, 'wide.csv')), runOn(t, dir, path.join(dir, 'big-fields.csv'))]);

  assert.equal(wideRan.result.code, 0, wideRan.result.stderr);
  const wideOut = readCsv(wideRan.output);
  assert.equal(wideOut[0]!.length, 1000 + APPENDED_COLUMNS.length);
  for (let i = 0; i < wide.length; i += 1) assert.deepEqual(wideOut[i]!.slice(0, 1000), wide[i], `wide row ${i + 1} unchanged`);
  assert.deepEqual(wideOut.slice(1).map((r) => r[1000]), ['VERIFIED', 'VERIFIED', 'INVALID']);
  assert.match(wideOut[3]![1001]!, /^line 4: account number must have 9 to 18 digits/);

  assert.equal(bigRan.result.code, 0, bigRan.result.stderr);
  const big = readCsvObjects(bigRan.output);
  assert.deepEqual(big.map((r) => r.verify_status), ['VERIFIED', 'VERIFIED', 'INVALID', 'VERIFIED', 'VERIFIED']);
  assert.equal(big[1]!.Notes, notes, 'a 5 MB cell passes through unchanged');
  assert.equal(big[2]!.verify_reason, 'line 4: account number must have 9 to 18 digits, it has 5242880', 'the reason does not echo the field');
  assert.equal(big[3]!.Name, initials);
  assert.equal(big[3]!.name_match, 'NO_MATCH', 'megabytes are not a name');
  assert.equal(bigRan.calls, 4);
  assert.ok(bigRan.result.stderr.length < 4000, 'stderr does not echo the fields');
});
