/**
 * Hostile and large workbooks through the real CLI (issue #26): each crossed bound is one line
 * and exit 2 with no call, under the CLI's own heap cap (a heap abort would be exit 134); shared
 * strings spooled only into the state file's folder, mode 0600, gone after the run and, after a
 * kill -9, at the next start; nothing in $TMPDIR.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { shebangNodeArgs } from '../bench/lib/procs.js';
import { startSandbox } from '../src/sandbox/index.js';
import { readCsvObjects, runCli, spawnCli, tempDir, waitFor } from './helpers/cli.js';
import { rowXml, sharedStringsXml, sheetXml, writeWorkbook } from './helpers/xlsx-files.js';

/** The heap caps of the CLI's shebang (src/cli/bin.ts), read from it: a test spawns node with the file, which skips its shebang. */
const HEAP_CAPS = shebangNodeArgs(path.join(import.meta.dirname, '..', 'src', 'cli', 'bin.ts'));
if (!HEAP_CAPS.some((flag) => flag.startsWith('--max-old-space-size='))) throw new Error(`no heap cap on bin.ts's first line: ${HEAP_CAPS.join(' ')}`);
const HEADER_ROW = rowXml(1, ['Payee Name', 'Account No', 'IFSC Code']);

/** What the CLI left in a folder, tsx's own compile cache (a test harness artefact) aside. */
const ours = (dir: string) => fs.readdirSync(dir).filter((f) => !f.startsWith('tsx-'));

function* repeat(text: string, times: number): Generator<string> {
  for (let i = 0; i < times; i += 1) yield text;
}

async function runHostile(t: import('node:test').TestContext, build: (file: string) => Promise<void>) {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  const tmp = path.join(dir, 'tmp');
  fs.mkdirSync(tmp);
  fs.mkdirSync(path.join(dir, 'state'), { mode: 0o700 });
  await build(path.join(dir, 'in.xlsx'));
  const r = await runCli(['bank', 'in.xlsx', '-o', 'out.csv', '--base-url', sandbox.url, '--state', 'state/s.sqlite'], { cwd: dir, nodeArgs: HEAP_CAPS, env: { TMPDIR: tmp } });
  const calls = Object.values(sandbox.stats().requests).reduce((a, b) => a + b, 0);
  return { ...r, calls, tmpFiles: ours(tmp), stateFiles: fs.existsSync(path.join(dir, 'state')) ? fs.readdirSync(path.join(dir, 'state')) : [] };
}

function assertRefused(r: Awaited<ReturnType<typeof runHostile>>, message: RegExp): void {
  assert.equal(r.code, 2, r.stderr.slice(-2000));
  assert.match(r.stderr, message);
  assert.doesNotMatch(r.stderr, /\n\s+at |FATAL|heap/, 'one line, no stack, no heap abort');
  assert.equal(r.calls, 0, 'nothing was called');
  assert.deepEqual(r.tmpFiles, [], 'nothing written to $TMPDIR');
  assert.deepEqual(r.stateFiles.filter((f) => f.includes('spool')), [], 'no spool left behind');
}

test('a zip bomb (1 MB inflating to 1 GiB of shared strings) is refused as one, exit 2', async (t) => {
  const item = `<si><t>${'A'.repeat(30_000)}</t></si>`.repeat(32);
  const r = await runHostile(t, (file) => writeWorkbook(file, [{ name: 'Payees', xml: sheetXml([HEADER_ROW]) }], (function* () {
    yield '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">';
    yield* repeat(item, Math.ceil(1024 ** 3 / item.length));
    yield '</sst>';
  })()));
  assertRefused(r, /inflates to more than 100× its compressed size .*zip bomb/);
});

test('a 600 MB cell is refused past Excel\'s 32,767 characters, exit 2', async (t) => {
  const chunk = 'A'.repeat(1024 ** 2);
  const r = await runHostile(t, (file) => writeWorkbook(file, [{ name: 'Payees', xml: sheetXml((function* () {
    yield HEADER_ROW;
    yield '<row r="2"><c t="inlineStr"><is><t>';
    yield* repeat(chunk, 600);
    yield '</t></is></c></row>';
  })()) }]));
  assertRefused(r, /longer than .* characters \(Excel holds at most 32,767 in a cell\)/);
});

test('10 million shared strings are refused past the shared-string limit, exit 2, spooled only in the state\'s folder', async (t) => {
  const r = await runHostile(t, (file) => writeWorkbook(file, [{ name: 'Payees', xml: sheetXml([HEADER_ROW]) }], sharedStringsXml((function* () {
    for (let i = 0; i < 10_000_000; i += 1) yield String(i);
  })())));
  assertRefused(r, /more than 8,388,608 shared strings/);
});

test('a sheet of more rows than Excel allows is refused, exit 2', async (t) => {
  const r = await runHostile(t, (file) => writeWorkbook(file, [{ name: 'Payees', xml: sheetXml((function* () {
    yield HEADER_ROW;
    for (let i = 2; i <= 1_048_600; i += 1) yield `<row r="${i}"/>`;
  })()) }]));
  assertRefused(r, /more rows than Excel's 1,048,576/);
});

test('a damaged zip and a part that is not XML are refused as unreadable workbooks, exit 2', async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  await writeWorkbook(path.join(dir, 'whole.xlsx'), [{ name: 'Payees', xml: sheetXml([HEADER_ROW, rowXml(2, ['Asha', '500100000048', 'SBIN0000001'])]) }]);
  const whole = fs.readFileSync(path.join(dir, 'whole.xlsx'));
  fs.writeFileSync(path.join(dir, 'cut.xlsx'), whole.subarray(0, whole.length - 40));
  const cut = await runCli(['bank', 'cut.xlsx', '--base-url', sandbox.url], { cwd: dir });
  assert.equal(cut.code, 2, cut.stderr);
  assert.match(cut.stderr, /cut\.xlsx is not a readable workbook: .*\(open it in Excel and save it again/);
  await writeWorkbook(path.join(dir, 'bad.xlsx'), [{ name: 'Payees', xml: '<worksheet><sheetData><row r="1"><c t="inlineStr"><is><t>x</is></c></row></sheetData></worksheet>' }]);
  const bad = await runCli(['bank', 'bad.xlsx', '--base-url', sandbox.url], { cwd: dir });
  assert.equal(bad.code, 2, bad.stderr);
  assert.match(bad.stderr, /the part xl\/worksheets\/sheet1\.xml is not well-formed XML/);
  assert.equal(Object.keys(sandbox.stats().requests).length, 0);
});

/**
 * Rows whose shared strings pass what is held in memory: 8 MiB takes ~80,000 rows, so the CLI is
 * given SPOOL_ENV, which lowers it to 256 KiB (~1,800 rows) and spools the rest of SPOOL_ROWS;
 * 500 payees, so few calls.
 */
const SPOOL_ENV = { VAS_TEST_SPOOL_AFTER_BYTES: String(256 * 1024) };
const SPOOL_ROWS = 8_000;
const nameOf = (i: number) => `Payee number ${i} of a long vendor list, Flat ${i % 97}, Sector ${i % 61}, Navi Mumbai 400706, Maharashtra`;
const accountOf = (i: number) => `50010${String(i % 500).padStart(6, '0')}8`;

async function writeSpoolingWorkbook(file: string, rows: number): Promise<void> {
  const sheet = sheetXml((function* () {
    yield `<row r="1"><c t="s"><v>0</v></c><c t="s"><v>1</v></c><c t="s"><v>2</v></c></row>`;
    for (let i = 1; i <= rows; i += 1) yield `<row r="${i + 1}"><c t="s"><v>${3 * i}</v></c><c t="s"><v>${3 * i + 1}</v></c><c t="s"><v>${3 * i + 2}</v></c></row>`;
  })());
  const strings = sharedStringsXml((function* () {
    yield* ['Payee Name', 'Account No', 'IFSC Code'];
    for (let i = 1; i <= rows; i += 1) yield* [nameOf(i), accountOf(i), 'SBIN0000001'];
  })());
  await writeWorkbook(file, [{ name: 'Payees', xml: sheet }], strings);
}

test('shared strings past the memory budget spool into the state\'s folder (0600), never $TMPDIR; removed after the run, and after a kill -9 at the next start', async (t) => {
  const sandbox = await startSandbox({ latencyMs: 200 });
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  const tmp = path.join(dir, 'tmp');
  fs.mkdirSync(tmp);
  fs.mkdirSync(path.join(dir, 'state'), { mode: 0o700 });
  const stateDir = path.join(dir, 'state');
  await writeSpoolingWorkbook(path.join(dir, 'big.xlsx'), SPOOL_ROWS);
  const spoolFiles = () => (fs.existsSync(stateDir) ? fs.readdirSync(stateDir).filter((f) => f.startsWith('.vas-verify-spool-')) : []);
  const env = { TMPDIR: tmp, ...SPOOL_ENV };
  const run = spawnCli(['bank', 'big.xlsx', '-o', 'out.csv', '--base-url', sandbox.url, '--state', 'state/s.sqlite', '--concurrency', '4'], { cwd: dir, env, nodeArgs: HEAP_CAPS });
  await waitFor(() => spoolFiles().length === 1 && (sandbox.stats().requests['account-verification-pl'] ?? 0) > 0, 120_000, 'the run to spool and start calling');
  const [spool] = spoolFiles();
  assert.equal(fs.statSync(path.join(stateDir, spool!)).mode & 0o777, 0o600, 'the spool holds account numbers: mode 0600');
  run.child.kill('SIGKILL');
  await run.result;
  assert.deepEqual(spoolFiles(), [spool], 'a kill -9 leaves it');

  // The next start sweeps it (its process is gone), whatever it reads.
  fs.writeFileSync(path.join(dir, 'small.csv'), 'Payee Name,Account No,IFSC Code\nAsha Verma,500100000048,SBIN0000001\n');
  const next = await runCli(['bank', 'small.csv', '-o', 'small.out.csv', '--base-url', sandbox.url, '--state', 'state/s.sqlite'], { cwd: dir, env });
  assert.equal(next.code, 0, next.stderr);
  assert.deepEqual(spoolFiles(), [], 'swept at the next start');
  assert.deepEqual(ours(tmp), [], 'nothing in $TMPDIR');
});

test('a workbook whose shared strings spool reads every row right and leaves nothing behind', async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  const tmp = path.join(dir, 'tmp');
  fs.mkdirSync(tmp);
  fs.mkdirSync(path.join(dir, 'state'), { mode: 0o700 });
  const rows = SPOOL_ROWS;
  await writeSpoolingWorkbook(path.join(dir, 'big.xlsx'), rows);
  const r = await runCli(['bank', 'big.xlsx', '-o', 'out.csv', '--base-url', sandbox.url, '--state', 'state/s.sqlite'], { cwd: dir, env: { TMPDIR: tmp, ...SPOOL_ENV }, nodeArgs: HEAP_CAPS });
  assert.equal(r.code, 0, r.stderr);
  const out = readCsvObjects(path.join(dir, 'out.csv'));
  assert.equal(out.length, rows);
  for (const i of [1, 1_000, 5_001, rows]) {
    assert.equal(out[i - 1]!['Payee Name'], nameOf(i), `row ${i}, spooled or not`);
    assert.equal(out[i - 1]!['Account No'], accountOf(i));
    assert.equal(out[i - 1]!.verify_status, 'VERIFIED');
  }
  assert.equal(sandbox.stats().requests['account-verification-pl'], 500, 'duplicates cost one call');
  assert.deepEqual(fs.readdirSync(path.join(dir, 'state')).filter((f) => f.includes('spool')), []);
  assert.deepEqual(ours(tmp), []);
});
