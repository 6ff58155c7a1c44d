/**
 * The nightly decision (issue #30), through the real CLI over two and three nights (an injected
 * clock) against the sandbox on port 0: answers re-checked by age and counted by the sandbox, a
 * changed holder held, exit 4 with --fail-on, the cron notice under --quiet, and nothing at all
 * under --quiet when nobody needs to look.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { loadRegistry, startSandbox, type Sandbox } from '../src/sandbox/index.js';
import Database from 'better-sqlite3';
import { AuditTrail } from '../src/state/audit.js';
import { readCsvObjects, runCli, tempDir } from './helpers/cli.js';

/** The audit trail as the state keeps it, each entry with whether the chain holds there. */
function auditOf(dir: string): { kind: string; entry: Record<string, unknown>; problem: string | undefined }[] {
  const db = new Database(path.join(dir, 's.sqlite'), { readonly: true });
  try {
    return [...new AuditTrail(db).entries()].map(({ entry, problem }) => ({ kind: entry.kind, entry: entry.entry, problem }));
  } finally {
    db.close();
  }
}

const DAY = 86_400_000;
const PAYEES = [
  ['Asha Rao', '500100000011', 'HDFC0000123', '12,500.00', 'ASHA RAO'],
  ['Ravi Kumar Sharma', '500100000012', 'SBIN0001234', '8000', 'RAVI KUMAR SHARMA'],
  ['Imran Khan', '500100000013', 'ICIC0001234', '15000', 'IMRAN KHAN'],
  ['Meena Iyer', '500100000014', 'UTIB0000456', '4,000.50', 'MEENA IYER'],
];

function writeFiles(dir: string, holders: Record<string, string>): void {
  fs.writeFileSync(path.join(dir, 'payees.csv'), ['Payee Name,Account Number,IFSC,Amount', ...PAYEES.map((p) => `${p[0]},${p[1]},${p[2]},"${p[3]}"`)].join('\n') + '\n');
  const registry = ['accountNumber,ifsc,name', ...PAYEES.map((p) => `${p[1]},${p[2]},${holders[p[1]!] ?? p[4]}`)];
  fs.writeFileSync(path.join(dir, 'holders.csv'), registry.join('\n') + '\n');
}

async function sandboxFor(t: { after: (fn: () => Promise<void>) => void }, dir: string): Promise<Sandbox> {
  const sandbox = await startSandbox({ accounts: loadRegistry(fs.readFileSync(path.join(dir, 'holders.csv'), 'utf8')) });
  t.after(() => sandbox.close());
  return sandbox;
}

const night = (dir: string, url: string, days: number, extra: string[] = []) =>
  runCli(['bank', 'payees.csv', '-o', 'out.csv', '--state', 's.sqlite', '--base-url', url, '--resume', '--max-age', '7d', '--summary', 'summary.json', ...extra], {
    cwd: dir, env: { VAS_TEST_CLOCK_OFFSET_MS: String(days * DAY) },
  });

const calls = (s: Sandbox): number => Object.values(s.stats().requests).reduce((a: number, b) => a + (b as number), 0);

test('the cron line over three nights: answers re-checked by age, a changed holder held, exit 4, the notice last', async (t) => {
  const dir = tempDir(t, 'vas-nightly-');
  writeFiles(dir, {});
  const first = await sandboxFor(t, dir);
  const one = await night(dir, first.url, 0, ['--fail-on', 'hold', '--quiet']);
  assert.equal(one.code, 0, one.stderr);
  assert.equal(calls(first), 4);
  assert.equal(one.stderr, '', 'nothing to look at: a quiet cron mail is empty');
  assert.deepEqual(readCsvObjects(path.join(dir, 'out.csv')).map((r) => r.decision), ['PAY', 'PAY', 'PAY', 'PAY']);
  // New PAY decisions are committed by the run's entry (its digest), not one entry each.
  const firstAudit = auditOf(dir);
  assert.deepEqual(firstAudit.map((e) => e.kind), ['run']);
  assert.equal(firstAudit[0]!.entry.rowsDecided, 4);
  assert.match(String(firstAudit[0]!.entry.rowsDigest), /^[0-9a-f]{64}$/);

  // Night two, eight days on: every answer is older than --max-age 7d and is asked again; one holder changed.
  writeFiles(dir, { '500100000013': 'SUNITA DEVI' });
  const second = await sandboxFor(t, dir);
  const two = await night(dir, second.url, 8, ['--fail-on', 'hold', '--quiet']);
  assert.equal(two.code, 4, two.stderr);
  assert.equal(calls(second), 4, 'every answer older than 7d is re-checked');
  const rows = readCsvObjects(path.join(dir, 'out.csv'));
  const imran = rows.find((r) => r['Payee Name'] === 'Imran Khan')!;
  assert.equal(imran.decision, 'HOLD');
  assert.equal(imran.decision_reason, 'HOLDER_CHANGED');
  assert.match(imran.changed_since!, /beneficiary name "IMRAN KHAN" -> "SUNITA DEVI"/);
  assert.ok(Date.parse(imran.verified_at!) > Date.now() + 7 * DAY, 'verified_at is the new answer');
  const lines = two.stderr.trim().split('\n');
  assert.match(lines.at(-1)!, /^warn: 1 payee\(s\) on HOLD, 0 to REVIEW \(exit 4: --fail-on hold\)$/);
  assert.ok(lines.some((l) => /HOLD 1: HOLDER_CHANGED 1; ₹ 15,000\.00/.test(l)), two.stderr);
  assert.ok(lines.every((l) => l.startsWith('warn: ')), `only the notice under --quiet: ${two.stderr}`);
  const summary = JSON.parse(fs.readFileSync(path.join(dir, 'summary.json'), 'utf8'));
  assert.equal(summary.reverify.rechecked, 4);
  assert.equal(summary.reverify.reused, 0);
  assert.deepEqual(summary.decisions, { PAY: 3, REVIEW: 0, HOLD: 1 });
  assert.equal(summary.decisionReasons.HOLDER_CHANGED, 1);
  assert.deepEqual(summary.amounts, { PAY: 24500.5, REVIEW: 0, HOLD: 15000, unreadable: 0 });
  assert.equal(summary.run.invocations, 2);
  assert.deepEqual(summary.run.calls, { pl: 8, pd: 0 }, 'the whole run: both nights');
  assert.deepEqual(summary.calls, { pl: 4, pd: 0 }, 'this invocation');
  assert.equal(summary.exitCode, 4);
  // The changed decision has an entry of its own, naming what it was; the chain holds.
  const secondAudit = auditOf(dir);
  assert.deepEqual(secondAudit.map((e) => e.kind), ['run', 'decision', 'run']);
  assert.deepEqual(secondAudit.map((e) => e.problem), [undefined, undefined, undefined]);
  const changed = secondAudit[1]!.entry;
  assert.deepEqual([changed.decision, changed.reason, changed.holder, changed.before], ['HOLD', 'HOLDER_CHANGED', 'SUNITA DEVI', { decision: 'PAY', reason: 'NAME_MATCH' }]);

  // Night three, a day later: the answers are a day old, re-emitted with no call; the hold stands.
  const three = await night(dir, second.url, 9, ['--fail-on', 'review']);
  assert.equal(three.code, 4);
  assert.equal(calls(second), 4, 'no call for answers younger than --max-age');
  const third = JSON.parse(fs.readFileSync(path.join(dir, 'summary.json'), 'utf8'));
  assert.equal(third.reverify.reused, 4);
  assert.equal(third.reverify.rechecked, 0);
  assert.equal(readCsvObjects(path.join(dir, 'out.csv')).find((r) => r['Payee Name'] === 'Imran Khan')!.decision_reason, 'HOLDER_CHANGED');
  assert.match(three.stderr.trim().split('\n').at(-1)!, /1 payee\(s\) on HOLD, 0 to REVIEW \(exit 4: --fail-on review\)/);
  assert.deepEqual(auditOf(dir).map((e) => e.kind), ['run', 'decision', 'run', 'run'], 'an unchanged HOLD is not entered again');
});

test('--policy: a stricter file sends even a DIRECT_MATCH to REVIEW; a file that would pay a changed holder is refused before any call', async (t) => {
  const dir = tempDir(t, 'vas-policy-');
  writeFiles(dir, {});
  const sandbox = await sandboxFor(t, dir);
  fs.writeFileSync(path.join(dir, 'bad.json'), '{"holderChanged": "PAY"}');
  const refused = await night(dir, sandbox.url, 0, ['--policy', 'bad.json']);
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /--policy bad\.json: holderChanged: a changed holder is REVIEW or HOLD, never PAY/);
  assert.equal(calls(sandbox), 0);
  fs.writeFileSync(path.join(dir, 'strict.json'), '{"nameMatch": {"DIRECT_MATCH": "REVIEW"}}');
  const strict = await night(dir, sandbox.url, 0, ['--policy', 'strict.json', '--fail-on', 'review']);
  assert.equal(strict.code, 4, strict.stderr);
  const ravi = readCsvObjects(path.join(dir, 'out.csv')).find((r) => r['Payee Name'] === 'Ravi Kumar Sharma')!;
  assert.equal(ravi.name_match, 'DIRECT_MATCH');
  assert.deepEqual([ravi.decision, ravi.decision_reason, ravi.payee_check], ['REVIEW', 'NAME_MATCH', 'MATCH']);
  const summary = JSON.parse(fs.readFileSync(path.join(dir, 'summary.json'), 'utf8'));
  assert.equal(summary.policy.source, 'strict.json');
  assert.equal(summary.policy.nameMatch.DIRECT_MATCH, 'REVIEW');
});

test('a dry run says only what it would call and what that costs', async (t) => {
  const dir = tempDir(t, 'vas-dry-');
  writeFiles(dir, {});
  const r = await runCli(['bank', 'payees.csv', '--dry-run', '--price-pl', '2.5', '--state', 's.sqlite'], { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /dry run of payees\.csv \(pl\): 4 rows read in [\d:]+; nothing was called/);
  assert.match(r.stderr, /would call: 4 penny-less, 0 penny-drop .*estimated cost 10\.00/);
  assert.doesNotMatch(r.stderr, /\bVERIFIED \d|decision:|HOLD/);
});

test('a re-check (--max-age) stopped before its end leaves the run unfinished: the release refuses it until the run is resumed to its end', async (t) => {
  const dir = tempDir(t, 'vas-nightly-stop-');
  writeFiles(dir, {});
  const sandbox = await sandboxFor(t, dir);
  assert.equal((await night(dir, sandbox.url, 0)).code, 0);
  assert.equal((await runCli(['release', '-o', 'pay0.csv', '--state', 's.sqlite'], { cwd: dir })).code, 0);
  // Eight days on, every answer is due again; the call budget stops the re-check after one.
  const stopped = await night(dir, sandbox.url, 8, ['--max-calls', '1']);
  assert.notEqual(stopped.code, 0, stopped.stderr);
  const release = await runCli(['release', '-o', 'pay.csv', '--state', 's.sqlite'], { cwd: dir, env: { VAS_TEST_CLOCK_OFFSET_MS: String(8 * DAY) } });
  assert.equal(release.code, 2, `the old answers are not paid on while the re-check is unfinished\n${release.stderr}`);
  assert.match(release.stderr, /run \d+ is not final: .*run the bank command again with --resume until it exits 0/);
  assert.equal(fs.existsSync(path.join(dir, 'pay.csv')), false);
  const resumed = await night(dir, sandbox.url, 8);
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.equal((await runCli(['release', '-o', 'pay.csv', '--state', 's.sqlite'], { cwd: dir, env: { VAS_TEST_CLOCK_OFFSET_MS: String(8 * DAY) } })).code, 0);
});
