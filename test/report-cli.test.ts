/**
 * --report on runs that do not finish: a SIGINT mid-run and a --max-calls stop still write the
 * page, which says the run is unfinished and how to continue it; the resumed run's page is
 * finished. A dry run writes none; a bad --report path fails before any call.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { startSandbox } from '../src/sandbox/index.js';
import { runCli, spawnCli, tempDir, waitFor } from './helpers/cli.js';

function payees(dir: string, rows: number): void {
  const lines = ['Name,Account Number,IFSC'];
  // Every account ends in 12: none of the sandbox's test-account endings (90–97).
  for (let i = 0; i < rows; i += 1) lines.push(`Payee ${i},7000000${String(i).padStart(3, '0')}12,SBIN0001234`);
  fs.writeFileSync(path.join(dir, 'p.csv'), `${lines.join('\n')}\n`);
}

test('an interrupted run writes a report that says it is unfinished; the resumed run\'s report is finished', { timeout: 120_000 }, async (t) => {
  const sandbox = await startSandbox({ latencyMs: 40 });
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  payees(dir, 120);
  const args = ['bank', 'p.csv', '-o', 'out.csv', '--state', 's.sqlite', '--base-url', sandbox.url, '--concurrency', '2', '--report', 'run.html'];
  const first = spawnCli(args, { cwd: dir });
  await waitFor(() => (sandbox.stats().requests['account-verification-pl'] ?? 0) >= 10, 20_000, 'the run to start');
  first.child.kill('SIGINT');
  const stopped = await first.result;
  assert.equal(stopped.code, 3, stopped.stderr);
  const html = fs.readFileSync(path.join(dir, 'run.html'), 'utf8');
  assert.equal(fs.statSync(path.join(dir, 'run.html')).mode & 0o777, 0o600);
  assert.match(html, /data-finished="false"/);
  assert.match(html, /The run stopped early \(stopped by signal\)/);
  assert.match(html, /data-testid="decision">So far: /, 'the decisions counted are of the rows written before the stop');
  assert.match(html, /vas-verify bank p\.csv -o out\.csv --mode pl --resume --state s\.sqlite/);
  assert.match(html, /counts are payees/, 'a stopped run is counted from what the state checkpointed');
  const answered = Number(/<g data-key="VERIFIED" data-count="(\d+)">/.exec(html)?.[1]);
  assert.ok(answered >= 10, `every answer checkpointed before the stop is counted (${answered})`);

  const resumed = await runCli([...args, '--resume'], { cwd: dir });
  assert.equal(resumed.code, 0, resumed.stderr);
  const done = fs.readFileSync(path.join(dir, 'run.html'), 'utf8');
  assert.match(done, /data-finished="true"/);
  assert.match(done, /yes: continued an earlier run/);
  assert.match(done, /<g data-key="VERIFIED" data-count="120">/);
});

test('--max-calls stop, dry run and a bad --report path', { timeout: 120_000 }, async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  payees(dir, 20);
  const r = await runCli(['bank', 'p.csv', '-o', 'out.csv', '--state', 's.sqlite', '--base-url', sandbox.url, '--max-calls', '5', '--concurrency', '1', '--report', 'run.html'], { cwd: dir });
  assert.equal(r.code, 3, r.stderr);
  const html = fs.readFileSync(path.join(dir, 'run.html'), 'utf8');
  assert.match(html, /The run stopped early \(--max-calls 5 reached\)/);
  assert.match(html, /<span data-testid="calls-pl">5<\/span>/);

  const dry = await runCli(['bank', 'p.csv', '-o', 'dry.csv', '--state', 'd.sqlite', '--dry-run', '--report', 'dry.html'], { cwd: dir });
  assert.equal(dry.code, 0, dry.stderr);
  assert.match(dry.stderr, /a dry run makes no run to report on/);
  assert.ok(!fs.existsSync(path.join(dir, 'dry.html')));

  const before = sandbox.stats().requests['account-verification-pl'] ?? 0;
  const bad = await runCli(['bank', 'p.csv', '-o', 'o2.csv', '--state', 's2.sqlite', '--base-url', sandbox.url, '--report', 'no/such/dir/run.html'], { cwd: dir });
  assert.equal(bad.code, 2, bad.stderr);
  assert.match(bad.stderr, /--report/);
  assert.equal(sandbox.stats().requests['account-verification-pl'] ?? 0, before, 'no call was made');
});

test('a report of an old run shows its own rows: after night two wrote the same -o, night one\'s report still lists night one\'s decisions from the state', { timeout: 120_000 }, async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  const night = (label: string, first: number) => {
    const lines = ['Name,Account Number,IFSC'];
    for (let i = 0; i < 20; i += 1) lines.push(`${label} ${i},7100000${String(first + i).padStart(3, '0')}12,SBIN0001234`);
    fs.writeFileSync(path.join(dir, 'p.csv'), `${lines.join('\n')}\n`);
  };
  const args = ['bank', 'p.csv', '-o', 'out.csv', '--state', 's.sqlite', '--base-url', sandbox.url, '--resume'];
  night('NightOne', 0);
  assert.equal((await runCli(args, { cwd: dir })).code, 0);
  night('NightTwo', 500);
  assert.equal((await runCli(args, { cwd: dir })).code, 0);
  const old = await runCli(['report', '--state', 's.sqlite', '--run', '1', '-o', 'r1.html'], { cwd: dir });
  assert.equal(old.code, 0, old.stderr);
  const html = fs.readFileSync(path.join(dir, 'r1.html'), 'utf8');
  // "NightOne i" against the sandbox's generated holders: every row is held, read from the state, not from out.csv.
  assert.match(html, /data-testid="held-count">20</);
  assert.match(html, /<bdi>NightOne 0<\/bdi>/);
  assert.doesNotMatch(html, /NightTwo/, 'night two\'s rows are never shown as night one\'s');
  assert.doesNotMatch(html, /has been replaced since/, 'the enriched file is not needed');
});

test('bank … -o out.xlsx --report r.html: the report lists the held rows of a run written to a workbook', { timeout: 120_000 }, async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  payees(dir, 12); // "Payee i" against the sandbox's generated holders: every verified row is held
  const r = await runCli(['bank', 'p.csv', '-o', 'out.xlsx', '--state', 's.sqlite', '--base-url', sandbox.url, '--report', 'r.html'], { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  const html = fs.readFileSync(path.join(dir, 'r.html'), 'utf8');
  assert.doesNotMatch(html, /enriched CSV, which was not found/);
  assert.match(html, /data-testid="held-count">12</);
  assert.match(html, /<td><span class="mono">2<\/span><\/td><td><bdi>Payee 0<\/bdi><\/td>/, 'a held row, at its line');
});

test('the report of a run that exits 4 (--fail-on hold) says what 4 means (it said "unknown")', async (t) => {
  const dir = tempDir(t);
  fs.writeFileSync(path.join(dir, 'p.csv'), 'Payee Name,Account No,IFSC Code\nVikram Singh,880000000012,HDFC0001234\n');
  fs.writeFileSync(path.join(dir, 'holders.csv'), 'accountNumber,ifsc,name\n880000000012,HDFC0001234,RAJESH KHANNA\n');
  const run = await runCli(['bank', 'p.csv', '-o', 'out.csv', '--state', 's.sqlite', '--sandbox', '--sandbox-accounts', 'holders.csv', '--fail-on', 'hold', '--report', 'r.html'], { cwd: dir });
  assert.equal(run.code, 4, run.stderr);
  assert.match(fs.readFileSync(path.join(dir, 'r.html'), 'utf8'), /<b data-testid="exit-code">4<\/b> — <span data-testid="exit-meaning">every row is final, but payees are held or to review \(--fail-on\)/);
});
