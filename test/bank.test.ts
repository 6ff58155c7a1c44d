/**
 * `vas-verify bank` end to end: the real CLI in a temp directory against the sandbox on port 0.
 * Counts come from the sandbox's stats; results from the CSV the CLI wrote.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import Database from 'better-sqlite3';
import { startSandbox } from '../src/sandbox/index.js';
import { readCsv, readCsvObjects, runCli, spawnCli, sum, tempDir, waitFor } from './helpers/cli.js';

const DAY = 86_400_000;

function writeCsv(dir: string, name: string, text: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

test('every test-account kind lands in its status with its reason; damaged rows make no call', async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  writeCsv(
    dir,
    'payees.csv',
    [
      'Beneficiary Name,Account Number,IFSC,Amount',
      'Plain,100000000012,SBIN0001234,10',
      'Closed,100000000090,HDFC0000123,10',
      'Invalid,100000000091,SBIN0001234,10',
      'Limited,100000000092,SBIN0001234,10',
      'Flaky,100000000093,ICIC0001234,10',
      'Formula,100000000094,UTIB0000456,10',
      'FiveHundred,100000000095,SBIN0001234,10',
      'Slow,100000000096,SBIN0001234,10',
      'Dropped,100000000097,SBIN0001234,10',
      'Excel,1.23457E+11,SBIN0001234,10',
      'Zeros,123456789012345000,SBIN0001234,10',
      'Wrapped,"=""001234567812""",kkbk0000958 ,10',
      'BadIfsc,100000000012,SBIN000123,10',
    ].join('\n') + '\n',
  );
  const r = await runCli(['bank', 'payees.csv', '-o', 'out.csv', '--base-url', sandbox.url, '--summary', 'summary.json'], { cwd: dir });
  assert.equal(r.code, 3, `exit 3 because of the deferred row\n${r.stderr}`);
  const rows = readCsvObjects(path.join(dir, 'out.csv'));
  const by = Object.fromEntries(rows.map((row) => [row['Beneficiary Name'], row]));
  assert.equal(rows.length, 13);
  assert.equal(by.Plain!.verify_status, 'VERIFIED');
  assert.equal(by.Plain!.bank_name, 'State Bank of India');
  assert.match(by.Plain!.bank_iso3166!, /^IN-[A-Z]{2}$/);
  assert.equal(by.Plain!.verify_source, 'api');
  assert.match(by.Plain!.verified_at!, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  assert.equal(by.Closed!.verify_status, 'NOT_VERIFIED');
  assert.match(by.Closed!.verify_reason!, /closed|does not exist/i);
  assert.equal(by.Invalid!.verify_status, 'INVALID');
  assert.equal(by.Invalid!.verify_reason, 'Invalid Account Number');
  assert.equal(by.Limited!.verify_status, 'DEFERRED');
  assert.match(by.Limited!.verify_reason!, /daily transaction limit.*deferred until \d+ \w+ \d{4}, 00:00 IST/);
  assert.equal(by.Flaky!.verify_status, 'VERIFIED');
  assert.equal(by.Formula!.verify_status, 'VERIFIED');
  assert.ok(by.Formula!.beneficiary_name!.startsWith("'="), `neutralised: ${by.Formula!.beneficiary_name}`);
  assert.equal(by.FiveHundred!.verify_status, 'VERIFIED');
  assert.equal(by.Slow!.verify_status, 'VERIFIED');
  assert.equal(by.Dropped!.verify_status, 'VERIFIED', 'penny-less is retried after the dropped connection');
  assert.equal(by.Excel!.verify_status, 'INVALID');
  assert.match(by.Excel!.verify_reason!, /scientific notation.*Text/);
  assert.equal(by.Excel!.verify_source, 'local');
  assert.equal(by.Zeros!.verify_status, 'INVALID');
  assert.match(by.Zeros!.verify_reason!, /lost its last digits/);
  assert.equal(by.Wrapped!.verify_status, 'VERIFIED', '="…" unwrapped, IFSC trimmed and upper-cased');
  assert.equal(by.BadIfsc!.verify_status, 'INVALID');
  assert.match(by.BadIfsc!.verify_reason!, /line 14: IFSC must be 11 characters/);

  const stats = sandbox.stats();
  const accounts = JSON.stringify(stats);
  assert.doesNotMatch(accounts, /23457|123456789012345000/);
  // 9 API rows + 2 retries for 93 + 1 for 95 + 1 for 97; the three damaged rows cost nothing.
  assert.equal(stats.requests['account-verification-pl'], 10 + 2 + 1 + 1);
  const summary = JSON.parse(fs.readFileSync(path.join(dir, 'summary.json'), 'utf8'));
  assert.equal(summary.statuses.INVALID, 4);
  assert.equal(summary.avoided.local, 3);
  assert.equal(summary.callsMade, 10);
  assert.equal(summary.exitCode, 3);
  assert.equal(fs.statSync(path.join(dir, 'vas-verify.sqlite')).mode & 0o777, 0o600);
});

test('duplicates cost one call; a --reuse 30d second run makes none', async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  const lines = ['name,account_number,ifsc_code'];
  for (let i = 0; i < 5; i += 1) lines.push(`Payee ${i},20000000001${i},HDFC0000123`);
  for (let i = 0; i < 5; i += 1) lines.push(`Again ${i},20000000001${i},hdfc0000123`);
  writeCsv(dir, 'a.csv', lines.join('\n') + '\n');
  const first = await runCli(['bank', 'a.csv', '-o', 'a.out.csv', '--base-url', sandbox.url], { cwd: dir });
  assert.equal(first.code, 0, first.stderr);
  assert.equal(sandbox.stats().requests['account-verification-pl'], 5);
  const out = readCsvObjects(path.join(dir, 'a.out.csv'));
  assert.deepEqual(out.map((r) => r.verify_source), ['api', 'api', 'api', 'api', 'api', 'duplicate', 'duplicate', 'duplicate', 'duplicate', 'duplicate']);
  assert.equal(out[5]!.beneficiary_name, out[0]!.beneficiary_name);

  // Another file with the same payees, the next night.
  writeCsv(dir, 'b.csv', lines.reverse().join('\n').replace(/^(.*)$/m, 'name,account_number,ifsc_code\n$1') + '\n');
  sandbox.reset();
  const second = await runCli(['bank', 'b.csv', '-o', 'b.out.csv', '--base-url', sandbox.url, '--reuse', '30d'], { cwd: dir });
  assert.equal(second.code, 0, second.stderr);
  assert.equal(sum(sandbox.stats().requests), 0, 'every answer reused');
  const reused = readCsvObjects(path.join(dir, 'b.out.csv')).filter((r) => r.verify_status === 'VERIFIED');
  assert.ok(reused.length >= 10);
  assert.ok(reused.every((r) => r.verify_source === 'reuse' || r.verify_source === 'duplicate'));
});

test('a daily-limit row and its siblings are DEFERRED (exit 3) and verified by a --resume after midnight IST', async (t) => {
  let offset = 0;
  const sandbox = await startSandbox({ dailyLimit: 2, now: () => Date.now() + offset });
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  writeCsv(
    dir,
    'p.csv',
    ['Payee Name,A/C No,IFSC Code', 'A1,300000000011,SBIN0001234', 'A2,300000000011,HDFC0000123', 'A3,300000000011,ICIC0001234', 'B,300000000022,SBIN0001234', 'A4,300000000011,UTIB0000456'].join('\n') + '\n',
  );
  const args = ['bank', 'p.csv', '-o', 'out.csv', '--base-url', sandbox.url, '--concurrency', '1'];
  const first = await runCli(args, { cwd: dir });
  assert.equal(first.code, 3, first.stderr);
  let rows = readCsvObjects(path.join(dir, 'out.csv'));
  assert.deepEqual(rows.map((r) => r.verify_status), ['VERIFIED', 'VERIFIED', 'DEFERRED', 'VERIFIED', 'DEFERRED']);
  assert.equal(sandbox.stats().requests['account-verification-pl'], 4, 'A4 deferred with its sibling, no call');
  assert.match(first.stderr, /--resume/);

  const again = await runCli([...args, '--resume'], { cwd: dir });
  assert.equal(again.code, 3, 'still before midnight: nothing is due');
  assert.equal(sandbox.stats().requests['account-verification-pl'], 4);
  const without = await runCli(args, { cwd: dir });
  assert.equal(without.code, 2, 'an unfinished run without --resume is an error');
  assert.match(without.stderr, /add --resume/);

  offset = DAY;
  const next = await runCli([...args, '--resume'], { cwd: dir, env: { VAS_TEST_CLOCK_OFFSET_MS: String(DAY) } });
  assert.equal(next.code, 0, next.stderr);
  rows = readCsvObjects(path.join(dir, 'out.csv'));
  assert.deepEqual(rows.map((r) => r.verify_status), ['VERIFIED', 'VERIFIED', 'VERIFIED', 'VERIFIED', 'VERIFIED']);
  assert.equal(sandbox.stats().requests['account-verification-pl'], 6, 'only the two deferred rows were sent');
});

/** Columns that legitimately differ between two runs of the same file. */
const VOLATILE = new Set(['verify_request_id', 'verified_at']);
function stable(file: string): string[][] {
  const [header, ...rows] = readCsv(file);
  const keep = header!.map((h, i) => (VOLATILE.has(h) ? -1 : i)).filter((i) => i >= 0);
  return [header!, ...rows].map((r) => keep.map((i) => r[i] ?? ''));
}

function payeeFile(dir: string, name: string, count: number, start = 400000000000): string {
  const lines = ['Payee Name,Account Number,IFSC'];
  for (let i = 0; i < count; i += 1) {
    // Avoid the test-account endings so the comparison is about resuming, not scenarios.
    let account = start + i * 100 + 11;
    lines.push(`Payee ${i},${account},${['SBIN0001234', 'HDFC0000123', 'ICIC0001234'][i % 3]}`);
    if (i % 10 === 9) lines.push(`Payee ${i} again,${account},${['SBIN0001234', 'HDFC0000123', 'ICIC0001234'][i % 3]}`);
    account += 0;
  }
  return writeCsv(dir, name, lines.join('\n') + '\n');
}

test('SIGKILL mid-run, then --resume: the output equals an uninterrupted run; no account has two deposits', async (t) => {
  const dir = tempDir(t);
  payeeFile(dir, 'p.csv', 150);
  const clean = await startSandbox();
  t.after(() => clean.close());
  const reference = await runCli(['bank', 'p.csv', '-o', 'ref.csv', '--state', 'ref.sqlite', '--base-url', clean.url], { cwd: dir });
  assert.equal(reference.code, 0, reference.stderr);

  for (const mode of ['pl', 'pd'] as const) {
    const sandbox = await startSandbox({ latencyMs: [5, 25] });
    t.after(() => sandbox.close());
    const args = ['bank', 'p.csv', '-o', `${mode}.csv`, '--state', `${mode}.sqlite`, '--base-url', sandbox.url, '--mode', mode, '--concurrency', '4'];
    const op = mode === 'pd' ? 'account-verification-pd' : 'account-verification-pl';
    const victim = spawnCli(args, { cwd: dir });
    await waitFor(() => (sandbox.stats().requests[op] ?? 0) >= 40, 20_000, 'forty calls');
    victim.child.kill('SIGKILL');
    const killed = await victim.result;
    assert.equal(killed.signal, 'SIGKILL');
    assert.ok(!fs.existsSync(path.join(dir, `${mode}.csv`)), 'no partial output presented as complete');
    assert.ok(fs.existsSync(path.join(dir, `.${mode}.csv.${victim.child.pid}.tmp`)), 'the killed run left its temporary file');

    const resumed = await runCli([...args, '--resume'], { cwd: dir });
    assert.deepEqual(fs.readdirSync(dir).filter((f) => f.endsWith('.tmp')), [], 'stale temporary files removed');
    const rows = readCsvObjects(path.join(dir, `${mode}.csv`));
    const deposits = sandbox.stats().deposits;
    assert.ok(Object.values(deposits).every((n) => n === 1), `one deposit per account at most: ${JSON.stringify(deposits)}`);
    if (mode === 'pl') {
      assert.equal(resumed.code, 0, resumed.stderr);
      assert.deepEqual(stable(path.join(dir, 'pl.csv')), stable(path.join(dir, 'ref.csv')));
    } else {
      const unconfirmed = new Set(rows.filter((r) => r.verify_status === 'UNCONFIRMED').map((r) => r['Account Number']));
      assert.ok(unconfirmed.size <= 4, `at most the calls in flight at the kill: ${unconfirmed.size}`);
      assert.equal(resumed.code, unconfirmed.size > 0 ? 3 : 0, resumed.stderr);
      assert.equal(rows.length, 165);
      assert.ok(rows.every((r) => r.verify_status === 'VERIFIED' || r.verify_status === 'UNCONFIRMED'));
      // An UNCONFIRMED key may or may not have reached the bank before the kill.
      assert.ok(Object.keys(deposits).length >= 150 - unconfirmed.size, 'every answered account got its one rupee');
    }
  }
});

test('SIGTERM mid-run stops promptly with the resume hint; the resume completes', async (t) => {
  const sandbox = await startSandbox({ latencyMs: 30 });
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  payeeFile(dir, 'p.csv', 200);
  const args = ['bank', 'p.csv', '-o', 'out.csv', '--base-url', sandbox.url, '--concurrency', '2'];
  const run = spawnCli(args, { cwd: dir });
  await waitFor(() => (sandbox.stats().requests['account-verification-pl'] ?? 0) >= 10, 20_000, 'ten calls');
  run.child.kill('SIGTERM');
  const stopped = await run.result;
  assert.equal(stopped.code, 3, stopped.stderr);
  assert.match(stopped.stderr, /Resume with: vas-verify bank p\.csv -o out\.csv --mode pl --resume/);
  assert.ok(!fs.existsSync(path.join(dir, 'out.csv')));
  const before = sandbox.stats().requests['account-verification-pl']!;
  assert.ok(before < 200, 'it stopped dispatching');
  const resumed = await runCli([...args, '--resume'], { cwd: dir });
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.equal(readCsvObjects(path.join(dir, 'out.csv')).length, 220);
  assert.equal(sandbox.stats().requests['account-verification-pl'], 200, 'no account was called twice');
});

test('SIGHUP (the terminal closed) stops a penny-drop run like SIGTERM: the deposits in flight are answered, exit 3 with the resume line, the resume sends nobody a second rupee', async (t) => {
  const sandbox = await startSandbox({ latencyMs: 300 });
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  payeeFile(dir, 'p.csv', 60);
  const args = ['bank', 'p.csv', '-o', 'out.csv', '--mode', 'pd', '--base-url', sandbox.url, '--concurrency', '4'];
  const run = spawnCli(args, { cwd: dir });
  await waitFor(() => (sandbox.stats().requests['account-verification-pd'] ?? 0) >= 6, 20_000, 'six penny-drops');
  run.child.kill('SIGHUP');
  const stopped = await run.result;
  assert.equal(stopped.signal, null, 'not killed by the signal');
  assert.equal(stopped.code, 3, stopped.stderr);
  assert.match(stopped.stderr, /stopped by signal; every answered row is checkpointed in vas-verify\.sqlite\. Resume with: vas-verify bank p\.csv -o out\.csv --mode pd --resume/);
  assert.deepEqual(fs.readdirSync(dir).filter((name) => name.endsWith('.tmp')), [], 'no temporary output left');
  const sent = sandbox.stats().requests['account-verification-pd']!;
  assert.ok(sent < 60, 'it stopped dispatching');
  const resumed = await runCli([...args, '--resume'], { cwd: dir });
  assert.equal(resumed.code, 0, `no penny-drop left UNCONFIRMED by the stop\n${resumed.stderr}`);
  const rows = readCsvObjects(path.join(dir, 'out.csv'));
  assert.ok(rows.every((row) => row.verify_status === 'VERIFIED'));
  const deposits = sandbox.stats().deposits;
  assert.equal(Object.keys(deposits).length, 60);
  assert.ok(Object.values(deposits).every((n) => n === 1), 'one rupee each');
});

test('a second SIGTERM while the stop waits for the calls in flight exits at once with 143, as a shell reports SIGTERM (130 is SIGINT\'s)', async (t) => {
  const sandbox = await startSandbox({ latencyMs: 5_000 });
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  payeeFile(dir, 'p.csv', 20);
  const run = spawnCli(['bank', 'p.csv', '-o', 'out.csv', '--base-url', sandbox.url, '--concurrency', '2'], { cwd: dir });
  await waitFor(() => (sandbox.stats().requests['account-verification-pl'] ?? 0) >= 1, 20_000, 'a call in flight');
  run.child.kill('SIGTERM');
  // The first stop prints nothing at once (the header lines were there before it): a second signal
  // sent straight after it can be delivered as one with it. A second later the first has been
  // handled, and the stop still waits for the answers (5 s away).
  await new Promise((r) => setTimeout(r, 1_000));
  assert.equal(run.child.exitCode, null, 'the first stop waits for the calls in flight');
  run.child.kill('SIGTERM');
  const ended = await run.result;
  assert.equal(ended.code, 143, ended.stderr);
  assert.match(ended.stderr, /second SIGTERM: exiting now/);
});

test('a second concurrent run on the same state is refused, naming the holder, with no calls', async (t) => {
  // The first run must still hold the lock when the second has started: 100 rows one at a time at
  // 250 ms each leave 25 s (at 40 ms, a second CLI slow to start on a loaded CI machine found it done).
  const sandbox = await startSandbox({ latencyMs: 250 });
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  payeeFile(dir, 'p.csv', 100);
  payeeFile(dir, 'q.csv', 10, 500000000000);
  const first = spawnCli(['bank', 'p.csv', '-o', 'p.out.csv', '--base-url', sandbox.url, '--concurrency', '1'], { cwd: dir });
  await waitFor(() => (sandbox.stats().requests['account-verification-pl'] ?? 0) >= 2, 20_000, 'the first run to start');
  const second = await runCli(['bank', 'q.csv', '-o', 'q.out.csv', '--base-url', sandbox.url], { cwd: dir });
  assert.equal(second.code, 1);
  assert.match(second.stderr, new RegExp(`pid ${first.child.pid}`));
  assert.ok(!fs.existsSync(path.join(dir, 'q.out.csv')));
  first.child.kill('SIGTERM');
  await first.result;
  const stats = sandbox.stats();
  assert.ok(Object.keys(stats.requests).every((op) => op === 'account-verification-pl'));
  // Stale lock from a killed run: taken over.
  const killed = spawnCli(['bank', 'p.csv', '-o', 'p.out.csv', '--base-url', sandbox.url, '--concurrency', '1', '--resume'], { cwd: dir });
  const at = sandbox.stats().requests['account-verification-pl'] ?? 0;
  await waitFor(() => (sandbox.stats().requests['account-verification-pl'] ?? 0) > at, 20_000, 'the resumed run to start');
  killed.child.kill('SIGKILL');
  await killed.result;
  const takeover = await runCli(['bank', 'q.csv', '-o', 'q.out.csv', '--base-url', sandbox.url], { cwd: dir });
  assert.equal(takeover.code, 0, takeover.stderr);
});

test('CSV edge cases: BOM, CRLF, quoted commas and newlines, ragged rows, header-only, empty', async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  writeCsv(
    dir,
    'edge.csv',
    '\uFEFFName,Account No,IFSC\r\n' +
      '"Sharma, Ravi",600000000011,SBIN0001234\r\n' +
      '"Line\r\nBreak ""Quoted""",600000000012,SBIN0001234\r\n' +
      'Ragged,600000000013\r\n' +
      'Too,600000000014,SBIN0001234,extra\r\n' +
      '\r\n' +
      'Last,600000000015,SBIN0001234',
  );
  const r = await runCli(['bank', 'edge.csv', '-o', 'edge.out.csv', '--base-url', sandbox.url], { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  const out = readCsv(path.join(dir, 'edge.out.csv'));
  assert.deepEqual(out[0]!.slice(0, 3), ['Name', 'Account No', 'IFSC'], 'BOM stripped from the header');
  assert.equal(out.length, 7, 'the blank line is copied through (issue #29)');
  assert.deepEqual(out[1]!.slice(0, 4), ['Sharma, Ravi', '600000000011', 'SBIN0001234', 'VERIFIED']);
  assert.deepEqual(out[2]!.slice(0, 4), ['Line\r\nBreak "Quoted"', '600000000012', 'SBIN0001234', 'VERIFIED']);
  assert.equal(out[3]![3], 'INVALID');
  assert.match(out[3]![4]!, /^line 5 has 2 field/);
  assert.equal(out[4]![3], 'INVALID');
  assert.match(out[4]![4]!, /^line 6 has 4 field/);
  assert.deepEqual(out[5]!.slice(3, 5), ['SKIPPED', 'not a payee row: a blank row']);
  assert.equal(out[6]![3], 'VERIFIED');
  assert.equal(sandbox.stats().requests['account-verification-pl'], 3);

  // A header with no payee rows is a failed export, not a run of nothing (issue #29).
  writeCsv(dir, 'header.csv', 'Name,Account No,IFSC\n');
  const header = await runCli(['bank', 'header.csv', '-o', 'header.out.csv', '--base-url', sandbox.url], { cwd: dir });
  assert.equal(header.code, 2, header.stderr);
  assert.match(header.stderr, /no payee rows in header\.csv/);

  writeCsv(dir, 'empty.csv', '');
  const empty = await runCli(['bank', 'empty.csv', '-o', 'empty.out.csv', '--base-url', sandbox.url], { cwd: dir });
  assert.equal(empty.code, 2);
  assert.match(empty.stderr, /empty/);
  assert.doesNotMatch(empty.stderr, /\n\s+at /, 'no stack trace');
});

test('csv-spectrum files round-trip unchanged, every row checked locally with no call', async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  const spectrum = path.dirname(fileURLToPath(import.meta.resolve('csv-spectrum')));
  const files = fs.readdirSync(path.join(spectrum, 'csvs')).filter((f) => f.endsWith('.csv'));
  assert.ok(files.length >= 10, 'csv-spectrum is installed');
  for (const file of files) {
    const input = path.join(spectrum, 'csvs', file);
    const parsed = JSON.parse(fs.readFileSync(path.join(spectrum, 'json', file.replace(/\.csv$/, '.json')), 'utf8')) as Record<string, string> | Array<Record<string, string>>;
    const expected = Array.isArray(parsed) ? parsed : [parsed];
    const header = Object.keys(expected[0]!);
    const args = ['bank', input, '-o', `${file}.out.csv`, '--state', `${file}.sqlite`, '--base-url', sandbox.url, '--account-col', header[0]!, '--ifsc-col', header[1]!];
    const r = await runCli(args, { cwd: dir });
    assert.equal(r.code, 0, `${file}: ${r.stderr}`);
    const out = readCsvObjects(path.join(dir, `${file}.out.csv`));
    assert.equal(out.length, expected.length, file);
    for (let i = 0; i < expected.length; i += 1) {
      for (const column of header) {
        // csv-spectrum's own JSON disagrees with its CSV on this one cell.
        if (file === 'location_coordinates.csv' && column === 'Contact Phone Number') continue;
        assert.equal(out[i]![column], expected[i]![column], `${file} row ${i} ${column}: input columns unchanged`);
      }
      assert.equal(out[i]!.verify_status, 'INVALID', file);
      assert.match(out[i]!.verify_reason!, /^line \d+/, file);
    }
  }
  assert.equal(sum(sandbox.stats().requests), 0);
});

test('bad input: clear one-line errors, exit 2, no call, nothing checkpointed lost', async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  payeeFile(dir, 'p.csv', 3);
  const base = ['--base-url', sandbox.url];
  const cases: Array<[string[], RegExp]> = [
    [['bank', 'missing.csv', '-o', 'o.csv', ...base], /input file missing\.csv does not exist/],
    [['bank', 'p.csv', '-o', 'nowhere/o.csv', ...base], /output directory .*nowhere does not exist/],
    [['bank', 'p.csv', '-o', '.', ...base], /is a directory/],
    [['bank', 'p.csv', '-o', 'o.csv', '--account-col', 'Konto', ...base], /--account-col "Konto" is not a column.*"Payee Name", "Account Number", "IFSC"/],
    [['bank', 'p.csv', '-o', 'o.csv', '--state', 'foreign.sqlite', ...base], /another program, not a vas-verify state file/],
    [['bank', 'binary.bin', '-o', 'o.csv', ...base], /not a text CSV/],
    [['bank', 'noheaders.csv', '-o', 'o.csv', ...base], /input has no account number column.*headers found: "first", "second"/],
    [['bank', 'p.csv', '-o', 'o.csv', '--mode', 'cheap', ...base], /Invalid values|Choices/],
    [['bank', 'p.csv', '-o', 'o.csv'], /--base-url.*--sandbox/],
    [['bank', 'p.csv', '-o', 'o.csv', '--base-url', 'not a url'], /not a URL/],
    [['bank', 'p.csv', '-o', 'o.csv', '--reuse', 'forever', ...base], /not a duration/],
  ];
  const foreign = new Database(path.join(dir, 'foreign.sqlite'));
  foreign.exec('CREATE TABLE invoices (id INTEGER)');
  foreign.close();
  fs.writeFileSync(path.join(dir, 'binary.bin'), Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0, 1, 2, 3, 0xff, 0xfe, 0]));
  writeCsv(dir, 'noheaders.csv', 'first,second\n1,2\n');
  for (const [args, pattern] of cases) {
    const r = await runCli(args, { cwd: dir });
    assert.equal(r.code, 2, `${args.join(' ')}\n${r.stderr}`);
    assert.match(r.stderr, pattern, args.join(' '));
    assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
  }
  const noToken = await runCli(['bank', 'p.csv', '-o', 'o.csv', ...base], { cwd: dir, env: { VAS_TOKEN: undefined } });
  assert.equal(noToken.code, 2);
  assert.match(noToken.stderr, /no credentials: set VAS_TOKEN/);
  assert.equal(sum(sandbox.stats().requests), 0, 'no call was made');

  // A checkpointed run survives a bad invocation.
  const ok = await runCli(['bank', 'p.csv', '-o', 'o.csv', ...base], { cwd: dir });
  assert.equal(ok.code, 0, ok.stderr);
  await runCli(['bank', 'p.csv', '-o', 'missing-dir/o.csv', ...base, '--resume'], { cwd: dir });
  sandbox.reset();
  const again = await runCli(['bank', 'p.csv', '-o', 'o2.csv', ...base, '--resume'], { cwd: dir });
  assert.equal(again.code, 0);
  assert.equal(sum(sandbox.stats().requests), 0, 're-emitted from the state');
  assert.deepEqual(stable(path.join(dir, 'o2.csv')), stable(path.join(dir, 'o.csv')));
});

test('an unreachable or refusing API ends the run with one clear line and exit 1; rows stay resumable', async (t) => {
  const dir = tempDir(t);
  payeeFile(dir, 'p.csv', 20);
  const refused = await runCli(['bank', 'p.csv', '-o', 'o.csv', '--base-url', 'http://127.0.0.1:9'], { cwd: dir });
  assert.equal(refused.code, 1, refused.stderr);
  assert.match(refused.stderr, /cannot reach the API: connection refused/);
  assert.match(refused.stderr, /--resume/);
  assert.doesNotMatch(refused.stderr, /\n\s+at /);
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const wrongPath = await runCli(['bank', 'p.csv', '-o', 'o.csv', '--base-url', `${sandbox.url}/v2`, '--resume'], { cwd: dir });
  assert.equal(wrongPath.code, 1);
  assert.match(wrongPath.stderr, /endpoint not found/);
  const resumed = await runCli(['bank', 'p.csv', '-o', 'o.csv', '--base-url', sandbox.url, '--resume'], { cwd: dir });
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.equal(readCsvObjects(path.join(dir, 'o.csv')).length, 22);
});

test('an input that is a pipe is refused at once (exit 2), before any call or any wait on the pipe', async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  // Nobody ever writes to this pipe. Opening it would wait for ever, beyond every signal (the
  // fingerprint pass's thread could not be stopped), and a run reads its input twice anyway.
  const fifo = path.join(dir, 'payees.csv');
  execFileSync('mkfifo', [fifo]);
  const r = await runCli(['bank', 'payees.csv', '-o', 'out.csv', '--base-url', sandbox.url], { cwd: dir });
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /input payees\.csv is not a regular file \(a pipe or a device\): save it to a file first/);
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  assert.equal(fs.existsSync(path.join(dir, 'out.csv')), false);
  assert.equal(sandbox.stats().requests['account-verification-pl'] ?? 0, 0);
});

test('re-emitting a finished run gives the same bytes with no call: keys read in file order across scans, duplicates, damaged rows', async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  // 2,600 payees (more than two scans of stored keys), every tenth twice, then rows the API
  // calls invalid (account ending 91) and rows rejected locally.
  payeeFile(dir, 'p.csv', 2_600);
  fs.appendFileSync(path.join(dir, 'p.csv'), 'Bad Account,400000000091,SBIN0001234\nNo IFSC,400000000123,\nBad Account again,400000000091,SBIN0001234\n');
  const args = ['bank', 'p.csv', '--base-url', sandbox.url, '--concurrency', '16'];
  const first = await runCli([...args, '-o', 'first.csv'], { cwd: dir });
  assert.equal(first.code, 0, first.stderr);
  const calls = sum(sandbox.stats().requests);
  assert.equal(calls, 2_601, 'one call per payee');
  // Named the same way, the run's own output is copied; a column flag (a new emit key) writes it afresh.
  const again = await runCli([...args, '-o', 'again.csv', '--resume'], { cwd: dir });
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stderr, /re-emitted by copying the run's output/);
  const emitted = await runCli([...args, '-o', 'emitted.csv', '--resume', '--name-col', 'Payee Name'], { cwd: dir });
  assert.equal(emitted.code, 0, emitted.stderr);
  assert.doesNotMatch(emitted.stderr, /re-emitted by copying/);
  assert.equal(sum(sandbox.stats().requests), calls, 'no call when re-emitting');
  const before = fs.readFileSync(path.join(dir, 'first.csv'), 'utf8');
  assert.equal(fs.readFileSync(path.join(dir, 'again.csv'), 'utf8'), before);
  assert.equal(fs.readFileSync(path.join(dir, 'emitted.csv'), 'utf8'), before);
  const rows = readCsvObjects(path.join(dir, 'emitted.csv'));
  assert.equal(rows.length, 2_863);
  assert.deepEqual([...new Set(rows.map((r) => r.verify_status))].sort(), ['INVALID', 'VERIFIED']);
});
