/**
 * Printed commands are safe to paste (#26): the resume command on stderr and the report's
 * "continue with" are POSIX shell-quoted (src/shell-quote.ts). Each printed line is run in bash,
 * as a person pasting it would, with `vas-verify` on PATH: no command hidden in the input's name
 * runs, and the line resumes the run.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { cliOnPath, readCsvObjects, runCli, tempDir } from './helpers/cli.js';
import { shellCommand, shellQuote } from '../src/shell-quote.js';
import { startSandbox } from '../src/sandbox/index.js';
import Database from 'better-sqlite3';

const HOSTILE = 'Vendor Payees $(touch PWNED).csv';
const PAYEES = 'name,account number,ifsc\nA,900000000011,SBIN0001234\nB,900000000012,SBIN0001234\nC,900000000013,SBIN0001234\nD,900000000014,SBIN0001234\n';


/** Runs `line` in bash in `cwd`, the way a pasted line runs. */
function paste(line: string, cwd: string, bin: string) {
  return spawnSync('bash', ['-c', line], { cwd, encoding: 'utf8', env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, VAS_TOKEN: 'sandbox-token' } });
}

/** `paste`, without blocking this process: for a sandbox that answers from within it. */
function pasteAsync(line: string, cwd: string, bin: string): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', line], { cwd, env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, VAS_TOKEN: 'sandbox-token' } });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stderr }));
  });
}

function unescapeHtml(text: string): string {
  return text.replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&#96;/g, '`').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

test('the resume command printed for an input named `Vendor Payees $(touch PWNED).csv` runs nothing when pasted, and resumes the run', async (t) => {
  const dir = tempDir(t);
  const bin = cliOnPath(t);
  fs.writeFileSync(path.join(dir, HOSTILE), PAYEES);
  const first = await runCli(['bank', HOSTILE, '-o', "out 'night' $HOME.csv", '--state', 'a state;.sqlite', '--sandbox', '--max-calls', '1', '--report', 'run.html'], { cwd: dir });
  assert.equal(first.code, 3, first.stderr);
  const printed = /Resume with: (.*)$/m.exec(first.stderr)?.[1];
  assert.ok(printed, first.stderr);
  assert.equal(printed, `vas-verify bank 'Vendor Payees $(touch PWNED).csv' -o 'out '\\''night'\\'' $HOME.csv' --mode pl --resume --state 'a state;.sqlite' --report run.html --sandbox --max-calls 1`);

  // The report's "continue with" is the same command, and just as safe.
  const html = fs.readFileSync(path.join(dir, 'run.html'), 'utf8');
  const fromReport = unescapeHtml(/Continue with <code class="cmd">([^<]*)<\/code>/.exec(html)?.[1] ?? '');
  assert.equal(fromReport, printed);

  // One call an invocation, as the run was started: pasted until the run is done.
  let pasted = paste(printed, dir, bin);
  for (let i = 0; i < 3 && pasted.status === 3; i += 1) pasted = paste(printed, dir, bin);
  assert.equal(pasted.status, 0, pasted.stderr);
  assert.ok(!fs.existsSync(path.join(dir, 'PWNED')), 'the command in the file name ran');
  assert.match(pasted.stderr, /resum/i);
  const rows = readCsvObjects(path.join(dir, "out 'night' $HOME.csv"));
  assert.deepEqual(rows.map((r) => r.verify_status), ['VERIFIED', 'VERIFIED', 'VERIFIED', 'VERIFIED']);
  assert.ok(!fs.existsSync(path.join(dir, 'PWNED')));
});

test('the resume command carries every flag that shapes the run, never --retry-unconfirmed; pasted, it continues the run; a resume that reads other payee columns is refused before any call', async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  const bin = cliOnPath(t);
  // Two account columns: the run is told to read the old one.
  const rows = Array.from({ length: 8 }, (_, i) => `Payee ${String.fromCharCode(65 + i)},11110000${String(i).padStart(4, '0')},SBIN0001234,90000000${String(i).padStart(4, '0')}`);
  fs.writeFileSync(path.join(dir, 'p.csv'), `Name,Beneficiary Account Number,IFSC,Old Account Number\n${rows.join('\n')}\n`);
  const flags = [
    '--account-col', 'Old Account Number', '--rate', '50', '--concurrency', '3', '--reuse', '30d', '--max-age', '2d', '--fail-on', 'hold',
    '--deposit-memory', '60d', '--summary', 'sum.json', '--report', 'r.html', '--base-url', sandbox.url, '--max-calls', '5', '--timeout', '10s', '--retry-unconfirmed',
  ];
  const first = await runCli(['bank', 'p.csv', '-o', 'out.csv', '--state', 's.sqlite', ...flags], { cwd: dir, env: { VAS_TOKEN: 'sandbox-token' } });
  assert.equal(first.code, 3, first.stderr);
  const printed = /Resume with: (.*)$/m.exec(first.stderr)?.[1];
  assert.equal(
    printed,
    `vas-verify bank p.csv -o out.csv --mode pl --resume --state s.sqlite --rate 50 --concurrency 3 --account-col 'Old Account Number' --reuse 30d --max-age 2d --fail-on hold --deposit-memory 60d --summary sum.json --report r.html --base-url ${sandbox.url} --max-calls 5 --timeout 10s`,
  );
  // What the sandbox received is the run's calls plus any it sent again (a connection reset under load).
  type Summary = { calls: { pl: number }; retries: Record<string, number> };
  const summaryOf = () => JSON.parse(fs.readFileSync(path.join(dir, 'sum.json'), 'utf8')) as Summary;
  const sent = (s: Summary) => s.calls.pl + Object.values(s.retries).reduce((a, b) => a + b, 0);
  const firstSummary = summaryOf();
  assert.equal(firstSummary.calls.pl, 5, '--max-calls 5');
  const afterFirst = sandbox.stats().requests['account-verification-pl'];
  assert.equal(afterFirst, sent(firstSummary));

  // Resumed without the column flag (what the command printed before this fix said): refused, nothing called.
  const otherColumns = await runCli(['bank', 'p.csv', '-o', 'out.csv', '--state', 's.sqlite', '--resume', '--base-url', sandbox.url], { cwd: dir, env: { VAS_TOKEN: 'sandbox-token' } });
  assert.equal(otherColumns.code, 2, otherColumns.stderr);
  assert.match(otherColumns.stderr, /^error: run 1 of this input read the account from column 4 "Old Account Number" and the IFSC from column 3 "IFSC" under the header at line 1; this invocation reads the account from column 2 "Beneficiary Account Number".*Nothing was called\. Resume it as it started \(--account-col 'Old Account Number'\)/m);
  assert.equal(sandbox.stats().requests['account-verification-pl'], afterFirst, 'no call');

  // The printed command, pasted: the rest of the payees, the summary and the report written again.
  fs.rmSync(path.join(dir, 'sum.json'));
  fs.rmSync(path.join(dir, 'r.html'));
  const pasted = await pasteAsync(printed!, dir, bin);
  assert.ok(pasted.status === 0 || pasted.status === 4, pasted.stderr);
  const pastedSummary = summaryOf();
  assert.equal(pastedSummary.calls.pl, 3, 'only the payees the first invocation left');
  assert.equal(sandbox.stats().requests['account-verification-pl'], afterFirst + sent(pastedSummary));
  const out = readCsvObjects(path.join(dir, 'out.csv'));
  assert.equal(out.length, 8);
  assert.ok(out.every((r) => r['Old Account Number']!.startsWith('9') && r.verify_status !== 'PENDING'));
  assert.ok(fs.existsSync(path.join(dir, 'sum.json')) && fs.existsSync(path.join(dir, 'r.html')));
});

test('the report rebuilt from the state (`vas-verify report`) prints a quoted command too', async (t) => {
  const dir = tempDir(t);
  const bin = cliOnPath(t);
  fs.writeFileSync(path.join(dir, HOSTILE), PAYEES);
  const first = await runCli(['bank', HOSTILE, '-o', 'out.csv', '--state', 's`id`.sqlite', '--sandbox', '--max-calls', '1'], { cwd: dir });
  assert.equal(first.code, 3, first.stderr);
  const report = await runCli(['report', '--state', 's`id`.sqlite', '-o', 'r.html'], { cwd: dir });
  assert.equal(report.code, 0, report.stderr);
  const line = unescapeHtml(/Continue with <code class="cmd">([^<]*)<\/code>/.exec(fs.readFileSync(path.join(dir, 'r.html'), 'utf8'))?.[1] ?? '');
  assert.match(line, /^vas-verify bank 'Vendor Payees \$\(touch PWNED\)\.csv'/);
  // One call an invocation, as the run was started: pasted until the run is done.
  let pasted = paste(line, dir, bin);
  for (let i = 0; i < 3 && pasted.status === 3; i += 1) pasted = paste(line, dir, bin);
  assert.equal(pasted.status, 0, pasted.stderr);
  assert.ok(!fs.existsSync(path.join(dir, 'PWNED')));
});

test('shellQuote: plain words stay as they are; anything else is single-quoted, quotes and all, and bash reads back the same words', () => {
  assert.equal(shellQuote('payees.csv'), 'payees.csv');
  assert.equal(shellQuote('dir/sub-1/a_b@c%d+e:f,g.csv'), 'dir/sub-1/a_b@c%d+e:f,g.csv');
  assert.equal(shellQuote(''), "''");
  assert.equal(shellQuote("it's"), `'it'\\''s'`);
  assert.equal(shellQuote('~/x'), "'~/x'");
  assert.equal(shellQuote('=x'), "'=x'");
  assert.equal(shellQuote('verify_status=FAILED'), 'verify_status=FAILED');
  const words = ['a b', '$(touch PWNED)', '`id`', "'", '"', '\\', '!', '*', '?', '[a]', '{a,b}', ';', '&', '|', '<', '>', '#x', 'tab\there', 'line\nbreak', 'ग्रीन.csv', '-o'];
  const echoed = spawnSync('bash', ['-c', `printf '%s\\0' ${shellCommand(words)}`], { encoding: 'utf8', cwd: '/' });
  assert.equal(echoed.status, 0, echoed.stderr);
  assert.deepEqual(echoed.stdout.split('\0').slice(0, -1), words);
});

test('resumeWords: a password inside --base-url is masked, --retry-unconfirmed and --dry-run are never carried, defaults are left out', async () => {
  const { resumeWords } = await import('../src/cli/commands/bank/options.js');
  const words = resumeWords({
    input: 'p.csv', mode: 'pd', resume: false, explainColumns: true, maxAge: '7d', depositMemory: '90d', retryUnconfirmed: true, sandbox: false,
    dryRun: false, timeout: '30s', baseUrl: 'https://ops:s3cret@api.example.com/v1', delimiter: ';',
  }, 'out.csv');
  assert.deepEqual(words, ['vas-verify', 'bank', 'p.csv', '-o', 'out.csv', '--mode', 'pd', '--resume', '--delimiter', 'semicolon', '--base-url', 'https://ops:***@api.example.com/v1']);
});

test('a run started by a build that read its columns otherwise (an upgrade between the nights): the refusal names the columns the run read, and resuming with them finishes it', async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  const rows = Array.from({ length: 8 }, (_, i) => `Payee ${i},${500100000011 + i * 37},SBIN0000001,${700100000011 + i * 37}`);
  fs.writeFileSync(path.join(dir, 'p.csv'), `Name,Account Number,IFSC,Alt Account\n${rows.join('\n')}\n`);
  const args = ['bank', 'p.csv', '-o', 'out.csv', '--state', 's.sqlite', '--base-url', sandbox.url];
  const first = await runCli([...args, '--max-calls', '3', '--account-col', 'Alt Account'], { cwd: dir, env: { VAS_TOKEN: 'sandbox-token' } });
  assert.equal(first.code, 3, first.stderr);
  // As an earlier build would have recorded it, had it taken "Alt Account" by itself: no flag recorded.
  const db = new Database(path.join(dir, 's.sqlite'));
  const input = JSON.parse(db.prepare('SELECT input FROM run_stats WHERE run_id = 1').pluck().get() as string);
  assert.equal(input.payeeColumns.account, 3);
  delete input.columns.account;
  db.prepare('UPDATE run_stats SET input = ? WHERE run_id = 1').run(JSON.stringify(input));
  db.close();
  const calls = sandbox.stats().requests['account-verification-pl'];
  const refused = await runCli([...args, '--resume'], { cwd: dir, env: { VAS_TOKEN: 'sandbox-token' } });
  assert.equal(refused.code, 2, refused.stderr);
  assert.match(refused.stderr, /run 1 of this input read the account from column 4 "Alt Account".*This build reads the columns otherwise than the one that started it; resume it as it started: add --account-col 'Alt Account' to the resume command it printed/);
  assert.doesNotMatch(refused.stderr, /without column flags/);
  assert.equal(sandbox.stats().requests['account-verification-pl'], calls, 'no call');
  const resumed = await runCli([...args, '--resume', '--account-col', 'Alt Account'], { cwd: dir, env: { VAS_TOKEN: 'sandbox-token' } });
  assert.equal(resumed.code, 0, resumed.stderr);
});
