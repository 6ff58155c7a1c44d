/**
 * Modes, penny-drop safety, name verdicts, change detection and cost control — the real CLI
 * against the sandbox on port 0.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { startSandbox, type RegistryEntry } from '../src/sandbox/index.js';
import { readCsvObjects, runCli, sum, tempDir } from './helpers/cli.js';

function write(dir: string, name: string, lines: string[]): void {
  fs.writeFileSync(path.join(dir, name), lines.join('\n') + '\n');
}

test('hybrid: penny-less first, penny-drop only for the rows penny-less left NOT_VERIFIED', async (t) => {
  const registry: RegistryEntry[] = [
    { accountNumber: '810000000011', ifsc: 'SBIN0001234', name: 'ASHA RAO', status: 'NOT_VERIFIED' },
  ];
  const sandbox = await startSandbox({ accounts: registry });
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  write(dir, 'p.csv', ['name,account number,ifsc', 'Asha Rao,810000000011,SBIN0001234', 'Ravi,810000000012,SBIN0001234', 'Meena,810000000013,HDFC0000123']);
  const r = await runCli(['bank', 'p.csv', '-o', 'out.csv', '--mode', 'hybrid', '--base-url', sandbox.url, '--summary', 's.json'], { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  const stats = sandbox.stats();
  assert.equal(stats.requests['account-verification-pl'], 3);
  assert.equal(stats.requests['account-verification-pd'], 1, 'only the NOT_VERIFIED row cost a deposit');
  assert.deepEqual(Object.keys(stats.deposits), ['810000000011']);
  const rows = readCsvObjects(path.join(dir, 'out.csv'));
  assert.deepEqual(rows.map((row) => row.penny_drop), ['true', 'false', 'false']);
  const summary = JSON.parse(fs.readFileSync(path.join(dir, 's.json'), 'utf8'));
  assert.deepEqual(summary.calls, { pl: 3, pd: 1 });
  assert.equal(summary.avoided.hybrid, 2);
});

test('penny-drop: answers lost in a row stop the run (breaker, exit 1) instead of sending every deposit blind', async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  // Accounts ending 97 lose the answer to their first request; the other fifteen are fine.
  const lines = ['name,account number,ifsc'];
  for (let i = 0; i < 20; i += 1) lines.push(`Payee ${i},8300000${String(i).padStart(3, '0')}${i < 5 ? '97' : '12'},SBIN0001234`);
  write(dir, 'p.csv', lines);
  const args = ['bank', 'p.csv', '-o', 'out.csv', '--mode', 'pd', '--concurrency', '1', '--base-url', sandbox.url];
  const first = await runCli(args, { cwd: dir });
  assert.equal(first.code, 1, first.stderr);
  assert.match(first.stderr, /3 call\(s\) in a row failed .*the service looks down/);
  assert.equal(sandbox.stats().requests['account-verification-pd'], 3, 'the fourth deposit was not sent');

  // The three stay UNCONFIRMED (never re-sent); the two other lost answers do not stop a run that
  // is getting answers.
  const resumed = await runCli([...args, '--resume'], { cwd: dir });
  assert.equal(resumed.code, 3, resumed.stderr);
  assert.equal(sandbox.stats().requests['account-verification-pd'], 20);
  const rows = readCsvObjects(path.join(dir, 'out.csv'));
  assert.deepEqual(rows.map((r) => r.verify_status), [...Array(5).fill('UNCONFIRMED'), ...Array(15).fill('VERIFIED')]);
});

test('penny-drop: a dropped answer is UNCONFIRMED and never re-sent, unless --retry-unconfirmed', async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  write(dir, 'p.csv', ['name,account number,ifsc', 'Drop,820000000097,SBIN0001234', 'Fine,820000000012,SBIN0001234']);
  const args = ['bank', 'p.csv', '-o', 'out.csv', '--mode', 'pd', '--base-url', sandbox.url];
  const first = await runCli(args, { cwd: dir });
  assert.equal(first.code, 3, first.stderr);
  let rows = readCsvObjects(path.join(dir, 'out.csv'));
  assert.equal(rows[0]!.verify_status, 'UNCONFIRMED');
  assert.match(rows[0]!.verify_reason!, /a rupee may have moved/);
  assert.equal(rows[1]!.verify_status, 'VERIFIED');
  assert.equal(sandbox.stats().deposits['820000000097'], 1);

  const resumed = await runCli([...args, '--resume'], { cwd: dir });
  assert.equal(resumed.code, 3);
  assert.equal(sandbox.stats().requests['account-verification-pd'], 2, 'nothing re-sent');

  const retried = await runCli([...args, '--resume', '--retry-unconfirmed'], { cwd: dir });
  assert.equal(retried.code, 0, retried.stderr);
  rows = readCsvObjects(path.join(dir, 'out.csv'));
  assert.equal(rows[0]!.verify_status, 'VERIFIED');
  assert.equal(sandbox.stats().deposits['820000000097'], 2, 'the operator chose to pay again');
});

test('a state file from a newer vas-verify is refused; an older one is migrated', async (t) => {
  const dir = tempDir(t);
  write(dir, 'p.csv', ['name,account number,ifsc', 'A,830000000012,SBIN0001234']);
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const ok = await runCli(['bank', 'p.csv', '-o', 'out.csv', '--base-url', sandbox.url, '--state', 's.sqlite'], { cwd: dir });
  assert.equal(ok.code, 0, ok.stderr);
  const db = new Database(path.join(dir, 's.sqlite'));
  const version = db.pragma('user_version', { simple: true }) as number;
  db.pragma(`user_version = ${version + 5}`);
  db.close();
  const newer = await runCli(['bank', 'p.csv', '-o', 'out.csv', '--base-url', sandbox.url, '--state', 's.sqlite', '--resume'], { cwd: dir });
  assert.equal(newer.code, 2);
  assert.match(newer.stderr, /written by a newer vas-verify.*upgrade/);
});

test('name verdicts from a registry whose holders differ in known ways; changed_since after the registry changes', async (t) => {
  const registry: RegistryEntry[] = [
    { accountNumber: '840000000011', ifsc: 'SBIN0001234', name: 'RAJESH KUMAR SHARMA' },
    { accountNumber: '840000000012', ifsc: 'SBIN0001234', name: 'MRS SUNITA DEVI' },
    { accountNumber: '840000000013', ifsc: 'SBIN0001234', name: 'SURESH KUMAR' },
    { accountNumber: '840000000014', ifsc: 'SBIN0001234', name: 'GANESH TRADERS PRIVATE LIMITED' },
    { accountNumber: '840000000015', ifsc: 'SBIN0001234', name: 'MOHAMMED IRFAN' },
  ];
  const dir = tempDir(t);
  write(dir, 'p.csv', [
    'Payee Name,Account No,IFSC Code',
    'R K Sharma,840000000011,SBIN0001234',
    'Sunita Devi,840000000012,SBIN0001234',
    'Ramesh Kumar,840000000013,SBIN0001234',
    'M/s Ganesh Traders Pvt Ltd,840000000014,SBIN0001234',
    'Mohd Irfan,840000000015,SBIN0001234',
  ]);
  const sandbox = await startSandbox({ accounts: registry });
  t.after(() => sandbox.close());
  const first = await runCli(['bank', 'p.csv', '-o', 'out.csv', '--base-url', sandbox.url, '--summary', 's.json'], { cwd: dir });
  assert.equal(first.code, 0, first.stderr);
  const rows = readCsvObjects(path.join(dir, 'out.csv'));
  const verdicts = rows.map((r) => r.name_match);
  // Given names known only by their initials: many people fit (issue #14, class 5).
  assert.equal(verdicts[0], 'MODERATE_PARTIAL_MATCH', `initials: ${verdicts[0]}`);
  assert.equal(verdicts[1], 'DIRECT_MATCH', 'honorific dropped');
  assert.ok(!['DIRECT_MATCH', 'GOOD_PARTIAL_MATCH'].includes(verdicts[2]!), `a different person: ${verdicts[2]}`);
  assert.equal(verdicts[3], 'DIRECT_MATCH', 'business suffixes');
  // Mohd for Mohammed: one name, but a different letter is at most GOOD (issue #28).
  assert.equal(verdicts[4], 'GOOD_PARTIAL_MATCH', 'transliteration');
  assert.ok(rows.every((r) => /^\d+$/.test(r.name_match_score!)));
  assert.ok(rows.every((r) => r.changed_since === ''));
  const summary = JSON.parse(fs.readFileSync(path.join(dir, 's.json'), 'utf8'));
  assert.equal(sum(summary.nameMatch), 5);

  // The next night the bank reports another holder for one account, and closes another.
  const changed = registry.map((e) => ({ ...e }));
  changed[0]!.name = 'PRIYA VERMA';
  changed[1]!.status = 'NOT_VERIFIED';
  const moved = await startSandbox({ accounts: changed });
  t.after(() => moved.close());
  const second = await runCli(['bank', 'p.csv', '-o', 'out2.csv', '--base-url', moved.url], { cwd: dir });
  assert.equal(second.code, 0, second.stderr);
  const again = readCsvObjects(path.join(dir, 'out2.csv'));
  const today = new Date().toISOString().slice(0, 10);
  assert.match(again[0]!.changed_since!, new RegExp(`^${today}: beneficiary name "RAJESH KUMAR SHARMA" -> "PRIYA VERMA"`));
  assert.match(again[1]!.changed_since!, /status VERIFIED -> NOT_VERIFIED/);
  assert.equal(again[2]!.changed_since, '');
  assert.equal(again[0]!.name_match, 'NO_MATCH');
});

test('--max-calls stops at exactly that many calls (exit 3, resumable); --dry-run makes none', async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  const lines = ['name,account number,ifsc'];
  for (let i = 0; i < 30; i += 1) lines.push(`P${i},85000000${String(1000 + i * 10 + 1)},SBIN0001234`);
  lines.push('Dup,850000001001,SBIN0001234', 'Bad,12,SBIN0001234');
  write(dir, 'p.csv', lines);

  const dry = await runCli(['bank', 'p.csv', '--dry-run', '--price-pl', '2.5', '--base-url', sandbox.url, '--summary', 'dry.json'], { cwd: dir });
  assert.equal(dry.code, 0, dry.stderr);
  assert.equal(sum(sandbox.stats().requests), 0);
  assert.match(dry.stderr, /would call: 30 penny-less/);
  const drySummary = JSON.parse(fs.readFileSync(path.join(dir, 'dry.json'), 'utf8'));
  assert.equal(drySummary.wouldCall.pl, 30);
  assert.equal(drySummary.avoided.duplicate, 1);
  assert.equal(drySummary.avoided.local, 1);
  assert.ok(!fs.existsSync(path.join(dir, 'p.verified.csv')));

  const args = ['bank', 'p.csv', '-o', 'out.csv', '--base-url', sandbox.url, '--concurrency', '8', '--price-pl', '2.5'];
  const capped = await runCli([...args, '--max-calls', '10', '--summary', 's.json'], { cwd: dir });
  assert.equal(capped.code, 3, capped.stderr);
  assert.match(capped.stderr, /--max-calls 10 reached/);
  assert.equal(sandbox.stats().requests['account-verification-pl'], 10);
  const summary = JSON.parse(fs.readFileSync(path.join(dir, 's.json'), 'utf8'));
  assert.equal(summary.spend, 25);

  const spend = await runCli([...args, '--resume', '--max-spend', '26'], { cwd: dir });
  assert.equal(spend.code, 3);
  assert.match(spend.stderr, /--max-spend 26 reached/);
  assert.equal(sandbox.stats().requests['account-verification-pl'], 20);

  const rest = await runCli([...args, '--resume'], { cwd: dir });
  assert.equal(rest.code, 0, rest.stderr);
  assert.equal(sandbox.stats().requests['account-verification-pl'], 30, 'every account called exactly once in all');
  assert.equal(readCsvObjects(path.join(dir, 'out.csv')).length, 32);
});

test('--max-calls and --max-spend hold when payees wait for their turn under --rate: counted after the wait, never overshot (penny-drops included)', async (t) => {
  // Slow answers: no payee finishes (and no new one starts) while the waiting ones get their turns.
  const sandbox = await startSandbox({ latencyMs: 2500 });
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  const lines = ['name,account number,ifsc'];
  for (let i = 0; i < 12; i += 1) lines.push(`P${i},86000000${String(1000 + i * 10 + 1)},SBIN0001234`);
  write(dir, 'p.csv', lines);
  // Eight payees take a place at once and wait for a turn (4 a second): each passed the budget
  // check before its wait; only the first three calls may leave.
  const args = ['bank', 'p.csv', '-o', 'out.csv', '--base-url', sandbox.url, '--concurrency', '8', '--rate', '4'];
  const capped = await runCli([...args, '--max-calls', '3', '--summary', 's.json'], { cwd: dir });
  assert.equal(capped.code, 3, capped.stderr);
  assert.match(capped.stderr, /--max-calls 3 reached/);
  assert.equal(sandbox.stats().requests['account-verification-pl'], 3);
  assert.equal(JSON.parse(fs.readFileSync(path.join(dir, 's.json'), 'utf8')).calls.pl, 3);

  // Penny-drops: ₹2 each, ₹5 to spend: two deposits, not eight.
  const pd = await runCli(['bank', 'p.csv', '-o', 'pd.csv', '--state', 'pd.sqlite', '--base-url', sandbox.url, '--concurrency', '8', '--rate', '4', '--mode', 'pd', '--price-pd', '2', '--max-spend', '5'], { cwd: dir });
  assert.equal(pd.code, 3, pd.stderr);
  assert.match(pd.stderr, /--max-spend 5 reached/);
  assert.equal(sandbox.stats().requests['account-verification-pd'], 2);
  assert.equal(Object.values(sandbox.stats().deposits).reduce((a, b) => a + b, 0), 2);
});

test('vas-verify name-match prints the verdict and, with --explain, the rules', async (t) => {
  const dir = tempDir(t);
  const r = await runCli(['name-match', 'R K Sharma', 'RAJESH KUMAR SHARMA'], { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout) as { score: number; result: string };
  assert.ok(out.score >= 0 && out.score <= 100);
  // Given names known only by initials: many people fit, so MODERATE (issue #14, class 5).
  assert.equal(out.result, 'MODERATE_PARTIAL_MATCH');
  const explained = await runCli(['name-match', 'Suresh Kumar', 'Ramesh Kumar', '--explain'], { cwd: dir });
  const e = JSON.parse(explained.stdout) as { result: string; rules: string[]; why: string[]; tokens: unknown; pairing: unknown[] };
  assert.ok(Array.isArray(e.rules) && e.rules.length > 0);
  assert.equal(e.why.length, e.rules.length);
  assert.ok(e.tokens !== undefined && Array.isArray(e.pairing));
  assert.ok(!['DIRECT_MATCH', 'GOOD_PARTIAL_MATCH'].includes(e.result));
});
