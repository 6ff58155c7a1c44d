/**
 * The layouts corpus (test/fixtures/layouts/README.md): every real, published layout runs end
 * to end through the CLI against one sandbox with no column flags, and the summary says which
 * columns were taken. The negative cases stop before any call with exit 2.
 *
 * The corpus runs the CLI's main() in this process (argv in, the exit code, stdout and stderr
 * out: what bin.js wires to the process) over real HTTP against the sandbox: spawning the
 * executable once per layout spent ~0.9 s of CPU each on starting Node and loading the CLI, 90 s
 * of CI for what the recogniser does in a few ms. The other tests here spawn the built CLI.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import pLimit from 'p-limit';
import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { startSandbox } from '../src/sandbox/index.js';
import { main } from '../src/cli/main.js';
import { readCsv, ROOT, runCli, sum, tempDir } from './helpers/cli.js';
import { writeOds } from './helpers/xlsx-files.js';

const LAYOUTS = path.join(ROOT, 'test', 'fixtures', 'layouts');

interface Expected {
  file: string;
  headerLine: number;
  /** `nameParts`: a name split over columns (First/Middle/Last…), in joining order; `name` is then the first part's header. */
  columns: { account: string; ifsc: string; name: string | null; nameParts?: string[] };
  /** Row counts by status when they are not five VERIFIED payees (totals SKIPPED, a MICR INVALID). */
  statuses?: Record<string, number>;
  /** 29: the corpus of issue #29, split into a tuning and a held-out part. */
  issue?: number;
  /** 2: the second round of real layouts (2026-12-02), split the same way and reported apart. */
  round?: number;
}

interface InputSummary {
  file: string;
  headerLine: number;
  columns: { account: string; ifsc: string; name: string | null; nameParts?: string[] };
  renamed: Record<string, string>;
}

const expected = JSON.parse(fs.readFileSync(path.join(LAYOUTS, 'layouts.json'), 'utf8')) as Expected[];

/**
 * The held-out part of issue #29's corpus: a fixed hash of the file name (SHA-1, first byte mod 3
 * == 0), never looked at while the recogniser was tuned. The layouts before #29 were all tuned on.
 */
export function isHeldOut(file: string): boolean {
  return createHash('sha1').update(file).digest()[0]! % 3 === 0;
}

function partOf(layout: Expected): string {
  if (layout.round === 2) return isHeldOut(layout.file) ? 'round 2 held-out' : 'round 2 tuning';
  if (layout.issue !== 29) return 'earlier';
  return isHeldOut(layout.file) ? 'held-out' : 'tuning';
}

/** The parts in the order they are reported. */
const PARTS = ['earlier', 'tuning', 'held-out', 'round 2 tuning', 'round 2 held-out'];

/** The CLI's main() in this process, as bin.js runs it: its exit code and what it wrote. */
async function runMain(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    env: { ...process.env, VAS_TOKEN: 'sandbox-token' },
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    stderrIsTty: false,
    stopSignal: new AbortController().signal,
  });
  return { code, stdout, stderr };
}

/** Runs one layout end to end; returns what is wrong with it, or undefined. */
async function checkLayout(layout: Expected, sandboxUrl: string, dir: string): Promise<string | undefined> {
  const name = layout.file.replace(/\.(csv|txt)$/, '');
  const out = path.join(dir, `${name}.out.csv`);
  const args = ['bank', path.join(LAYOUTS, layout.file), '-o', out, '--state', path.join(dir, `${name}.sqlite`), '--base-url', sandboxUrl, '--summary', path.join(dir, `${name}.json`)];
  const r = await runMain(args);
  if (r.code !== 0) return `exit ${r.code}: ${r.stderr.trim().split('\n').slice(-2).join(' / ')}`;
  const summary = JSON.parse(fs.readFileSync(path.join(dir, `${name}.json`), 'utf8')) as { input: InputSummary; statuses: Record<string, number> };
  // The payee's three columns (an amount column, where a layout has one, is found besides).
  // A layout without nameParts must be read without them (one name column, or none).
  const found = summary.input.columns;
  const gotColumns = { account: found.account, ifsc: found.ifsc, name: found.name, ...(found.nameParts === undefined ? {} : { nameParts: found.nameParts }) };
  const wantColumns = { account: layout.columns.account, ifsc: layout.columns.ifsc, name: layout.columns.name, ...(layout.columns.nameParts === undefined ? {} : { nameParts: layout.columns.nameParts }) };
  if (JSON.stringify(gotColumns) !== JSON.stringify(wantColumns)) return `columns ${JSON.stringify(found)}`;
  if (summary.input.headerLine !== layout.headerLine) return `header line ${summary.input.headerLine}`;
  const statuses = Object.fromEntries(Object.entries(summary.statuses).filter(([, n]) => n > 0));
  const want = layout.statuses ?? { VERIFIED: 5 };
  if (JSON.stringify(Object.entries(statuses).sort()) !== JSON.stringify(Object.entries(want).sort())) return `statuses ${JSON.stringify(statuses)}`;
  if (!new RegExp(`account number: column \\d+ ${JSON.stringify(layout.columns.account).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`).test(r.stderr)) return 'the log does not say which column';
  // Lines above the header are copied above the output's header, unchanged; every line once.
  const inputLines = fs.readFileSync(path.join(LAYOUTS, layout.file), 'utf8').replace(/^\uFEFF/, '').split(/\r?\n/);
  const outputLines = fs.readFileSync(out, 'utf8').replace(/^\uFEFF/, '').split(/\r?\n/);
  const above = layout.headerLine - 1;
  if (JSON.stringify(outputLines.slice(0, above)) !== JSON.stringify(inputLines.slice(0, above))) return 'preamble changed';
  if (outputLines.length !== inputLines.length) return `${outputLines.length} output lines for ${inputLines.length} input lines`;
  return undefined;
}

test('every layout of the corpus is recognised with no column flags, end to end (issue #29 and round 2: tuning and held-out parts)', async (t) => {
  assert.ok(expected.length >= 25 + 30 + 18, `the corpus has ${expected.length} layouts`);
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  const limit = pLimit(4);
  const failures: string[] = [];
  const counts: Record<string, { read: number; all: number }> = {};
  await Promise.all(expected.map((layout) => limit(async () => {
    const part = partOf(layout);
    counts[part] ??= { read: 0, all: 0 };
    counts[part].all += 1;
    const wrong = await checkLayout(layout, sandbox.url, dir);
    if (wrong === undefined) counts[part].read += 1;
    else failures.push(`${part} ${layout.file}: ${wrong}`);
  })));
  for (const part of PARTS) {
    const c = counts[part] ?? { read: 0, all: 0 };
    t.diagnostic(`${part}: ${c.read} of ${c.all} layouts read right`);
  }
  assert.deepEqual(failures.sort(), []);
});

/** A layout's cells as a spreadsheet holds them once opened: a cell of digits alone (up to 15, no leading zero) or a decimal becomes a number, as Excel and LibreOffice turn them; the rest text. */
function layoutCells(layout: Expected): (string | number)[][] {
  const text = fs.readFileSync(path.join(LAYOUTS, layout.file), 'utf8').replace(/^\uFEFF/, '');
  const header = text.split(/\r?\n/)[layout.headerLine - 1] ?? '';
  const delimiter = [',', ';', '\t', '|'].reduce((best, d) => (header.split(d).length > header.split(best).length ? d : best));
  const rows = parse(text, { delimiter, relax_column_count: true }) as string[][];
  return rows.map((row) => row.map((c) => (/^[1-9]\d{0,14}$/.test(c) || /^\d+\.\d+$/.test(c) ? Number(c) : c)));
}

/** The layout saved as `format`: .xlsx as Excel saves a CSV it opened, .ods as LibreOffice Calc does (an empty cell written empty). */
async function asWorkbook(layout: Expected, file: string, format: 'xlsx' | 'ods'): Promise<void> {
  const rows = layoutCells(layout);
  if (format === 'ods') return writeOds(file, [{ name: 'Sheet1', rows: rows.map((row) => row.map((c) => (c === '' ? { xml: '<table:table-cell/>' } : c))) }]);
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Sheet1');
  for (const row of rows) sheet.addRow(row);
  await workbook.xlsx.writeFile(file);
}

/**
 * The layouts each format is checked on: every one as .xlsx (read as a stream, in this thread);
 * every fifth as .ods, which is read whole by SheetJS on a worker thread of its own (~0.4 s of CPU
 * to start each: all 109 took 54 s of CI beside the other tests).
 */
const CHECKED_AS = { xlsx: expected, ods: expected.filter((_, i) => i % 5 === 0) };

for (const format of ['xlsx', 'ods'] as const) {
  test(`layouts saved as .${format} (${format === 'xlsx' ? 'every one' : 'every fifth'}), as a spreadsheet saves a CSV it opened (digits as numbers), are read as their CSV is: the same columns, header line and statuses`, async (t) => {
    const layouts = CHECKED_AS[format];
    const sandbox = await startSandbox();
    t.after(() => sandbox.close());
    const dir = tempDir(t);
    const failures: string[] = [];
    const limit = pLimit(4);
    await Promise.all(layouts.map((layout) => limit(async () => {
      const file = path.join(dir, layout.file.replace(/\.(csv|txt)$/, `.${format}`));
      await asWorkbook(layout, file, format);
      const r = await runMain(['bank', file, '-o', `${file}.out.csv`, '--state', `${file}.sqlite`, '--base-url', sandbox.url, '--summary', `${file}.json`]);
      if (r.code !== 0) return failures.push(`${partOf(layout)} ${layout.file}: exit ${r.code}`);
      const summary = JSON.parse(fs.readFileSync(`${file}.json`, 'utf8')) as { input: InputSummary; statuses: Record<string, number> };
      // A header cell's surrounding spaces do not survive the workbook's reading (the Citi file's " Bank Code").
      const same = (got: string | null | undefined, want: string | null) => (got ?? null) === (want === null ? null : want.trim()) || got === want;
      const { columns } = summary.input;
      const statuses = Object.entries(summary.statuses).filter(([, n]) => n > 0).sort();
      const ok = same(columns.account, layout.columns.account) && same(columns.ifsc, layout.columns.ifsc) && same(columns.name, layout.columns.name) &&
        summary.input.headerLine === layout.headerLine && JSON.stringify(statuses) === JSON.stringify(Object.entries(layout.statuses ?? { VERIFIED: 5 }).sort());
      if (!ok) failures.push(`${partOf(layout)} ${layout.file}: columns ${JSON.stringify(columns)}, header line ${summary.input.headerLine}, statuses ${JSON.stringify(statuses)}`);
      return undefined;
    })));
    t.diagnostic(`${layouts.length - failures.length} of ${layouts.length} layouts read right as .${format}`);
    assert.deepEqual(failures, []);
  });
}

test('a Cashfree beneficiary file keeps its beneficiary_name; the output writes vas_beneficiary_name and the summary says so', async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  const r = await runCli(['bank', path.join(LAYOUTS, 'cashfree-payouts-beneficiaries-v2.csv'), '-o', 'o.csv', '--base-url', sandbox.url, '--summary', 's.json'], { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  const summary = JSON.parse(fs.readFileSync(path.join(dir, 's.json'), 'utf8')) as { input: InputSummary };
  assert.deepEqual(summary.input.renamed, { beneficiary_name: 'vas_beneficiary_name' });
  assert.match(r.stderr, /output column beneficiary_name is written as vas_beneficiary_name/);
  const [header, first] = readCsv(path.join(dir, 'o.csv'));
  assert.equal(header!.filter((h) => h === 'beneficiary_name').length, 1, 'the input column is kept, once');
  assert.ok(header!.includes('vas_beneficiary_name'));
  const [inputHeader, inputFirst] = readCsv(path.join(LAYOUTS, 'cashfree-payouts-beneficiaries-v2.csv'));
  assert.equal(first![header!.indexOf('beneficiary_name')], inputFirst![inputHeader!.indexOf('beneficiary_name')], 'the input cell is unchanged');
  assert.notEqual(first![header!.indexOf('vas_beneficiary_name')], '', 'the API name is in the renamed column');
  assert.notEqual(first![header!.indexOf('name_match')], '', 'names were matched against the input beneficiary_name');
});

test('files the tool cannot read safely stop before any call (exit 2) with a message that says what to do', async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  const write = (name: string, text: string) => fs.writeFileSync(path.join(dir, name), text);
  write('tie.csv', 'Payee,Account No,Bank Account Number,IFSC\nA,123456789012,223456789012,SBIN0000001\n');
  write('debit.csv', 'Account Number,IFSC,Name\n' + ['A', 'B', 'C', 'D'].map((n) => `7878780080316316,SBIN0000001,${n}\n`).join(''));
  write('noifsc.csv', 'Beneficiary Name,Beneficiary Account Number,Amount\nA,123456789012,5\n');
  write('titles.csv', 'ACME Industries\nSalary statement for March\nNA,NA,NA\n,,\nEmployee,Amount,Remarks\nA,5,ok\n');
  write('branchno.csv', 'Account Number,Branch Number,Name\n123456789012,0012,A\n223456789012,0034,B\n');
  const cases: Array<[string, RegExp]> = [
    ['tie.csv', /2 columns could be the account number: "Account No" \(column 2\), "Bank Account Number" \(column 3\).*--account-col "Account No"/],
    ['debit.csv', /"Account Number" holds the same account \(…6316\) on each of the first 4 rows: it looks like the payer's own debit account.*--account-col/],
    ['noifsc.csv', /input has no IFSC column \(use --ifsc-col\); headers found: "Beneficiary Name", "Beneficiary Account Number", "Amount"/],
    ['titles.csv', /input has no account number column \(use --account-col\) and no IFSC column \(use --ifsc-col\);.*--header-row N/],
    ['branchno.csv', /"Branch Number" was taken as the IFSC column, but 2 of its first 2 value\(s\) are not IFSC-shaped.*--ifsc-col/],
  ];
  for (const [file, pattern] of cases) {
    const r = await runCli(['bank', file, '-o', `${file}.out.csv`, '--base-url', sandbox.url], { cwd: dir });
    assert.equal(r.code, 2, `${file}: ${r.stderr}`);
    assert.match(r.stderr, pattern, file);
    assert.doesNotMatch(r.stderr, /7878780080316316/, 'the account is masked');
    assert.ok(!fs.existsSync(path.join(dir, `${file}.out.csv`)), `${file}: no output`);
  }
  assert.equal(sum(sandbox.stats().requests), 0, 'no call was made');
  // Named explicitly, the constant account column runs as it is; --header-row finds a header further down.
  const named = await runCli(['bank', 'debit.csv', '-o', 'd.csv', '--base-url', sandbox.url, '--account-col', 'Account Number'], { cwd: dir });
  assert.equal(named.code, 0, named.stderr);
  write('deep.csv', `${'title\n'.repeat(25)}Account No,IFSC\n123456789012,SBIN0000001\n`);
  const deep = await runCli(['bank', 'deep.csv', '-o', 'deep.out.csv', '--base-url', sandbox.url, '--header-row', '26', '--summary', 'deep.json'], { cwd: dir });
  assert.equal(deep.code, 0, deep.stderr);
  assert.equal((JSON.parse(fs.readFileSync(path.join(dir, 'deep.json'), 'utf8')) as { input: InputSummary }).input.headerLine, 26);
  assert.equal(readCsv(path.join(dir, 'deep.out.csv')).length, 27);
});
