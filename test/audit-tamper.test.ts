/**
 * Decisions changed beside the audit trail (black-box review): a run's PAY/HOLD edited in
 * run_rows, a review inserted, edited or deleted by hand. Each was honoured by the release while
 * `audit` said "hash chain verified". Now `audit` names it (exit 1) and `release` writes nothing.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { runCli, tempDir } from './helpers/cli.js';

const PAYEES = 'Payee Name,Account No,IFSC Code,Amount\nAsha Iyer,880000000011,SBIN0000300,700.00\nVikram Singh,880000000012,HDFC0001234,1000.00\nRavi Rao,880000000013,HDFC0001234,300.00\n';
const HOLDERS = 'accountNumber,ifsc,name,status\n880000000011,SBIN0000300,ASHA IYER,VERIFIED\n880000000012,HDFC0001234,RAJESH KHANNA,VERIFIED\n880000000013,HDFC0001234,RAVI RAO,VERIFIED\n';

/** A state where Vikram is held (another holder), Asha paid, Ravi rejected by a reviewer. */
async function setUp(dir: string): Promise<void> {
  fs.writeFileSync(path.join(dir, 'payees.csv'), PAYEES);
  fs.writeFileSync(path.join(dir, 'holders.csv'), HOLDERS);
  const run = await runCli(['bank', 'payees.csv', '-o', 'out.csv', '--state', 's.sqlite', '--sandbox', '--sandbox-accounts', 'holders.csv'], { cwd: dir });
  assert.equal(run.code, 0, run.stderr);
  const rows = parse(fs.readFileSync(path.join(dir, 'out.csv'))) as string[][];
  rows[3]![rows[0]!.indexOf('decision')] = 'HOLD';
  fs.writeFileSync(path.join(dir, 'reviewed.csv'), stringify(rows));
  const imported = await runCli(['review', '--import', 'reviewed.csv', '--state', 's.sqlite', '--reviewer', 'asha'], { cwd: dir });
  assert.equal(imported.code, 0, imported.stderr);
}

function tamper(dir: string, name: string, sql: string): string {
  const file = `${name}.sqlite`;
  fs.copyFileSync(path.join(dir, 's.sqlite'), path.join(dir, file));
  const db = new Database(path.join(dir, file));
  db.exec(sql);
  db.close();
  return file;
}

async function refused(dir: string, state: string, problem: RegExp): Promise<void> {
  const audit = await runCli(['audit', '--state', state], { cwd: dir });
  assert.equal(audit.code, 1, audit.stderr);
  assert.match(audit.stderr, problem);
  const release = await runCli(['release', '-o', `${state}.payout.csv`, '--state', state], { cwd: dir });
  assert.equal(release.code, 1, release.stderr);
  assert.match(release.stderr, /^error: release refused, nothing written: the audit trail of .* is broken: /m);
  assert.match(release.stderr, problem);
  assert.ok(!fs.existsSync(path.join(dir, `${state}.payout.csv`)), 'no payout written');
}

test('decisions changed beside the audit trail are found by audit and refused by release; the untouched state releases', async (t) => {
  const dir = tempDir(t);
  await setUp(dir);
  const clean = await runCli(['audit', '--state', 's.sqlite'], { cwd: dir });
  assert.equal(clean.code, 0, clean.stderr);
  assert.match(clean.stderr, /hash chain verified, reviews and run decisions agree with it/);

  // A held row turned PAY in run_rows.
  await refused(dir, tamper(dir, 'decision', `UPDATE run_rows SET decision = 'PAY', decision_reason = 'NAME_MATCH' WHERE name = 'Vikram Singh'`), /run 1's decisions differ from those its audit entry \d+ committed to/);
  // An acceptance inserted by hand.
  await refused(
    dir,
    tamper(dir, 'forged', `INSERT INTO reviews (account, ifsc, holder, verdict, reviewer, note, run_id, row, at) VALUES ('880000000012', 'HDFC0001234', 'RAJESH KHANNA', 'ACCEPTED', 'mallory', 'ok', 1, 2, 1)`),
    /review \d+ \(ACCEPTED by mallory\) has no entry in the audit trail/,
  );
  // Nor does a bank run decide on it: refused before any call (exit 1), the tampered state kept as evidence.
  const forgedRun = await runCli(['bank', 'payees.csv', '-o', 'again.csv', '--state', 'forged.sqlite', '--sandbox', '--sandbox-accounts', 'holders.csv', '--resume'], { cwd: dir });
  assert.equal(forgedRun.code, 1, forgedRun.stderr);
  assert.match(forgedRun.stderr, /^error: the reviews in this state file disagree with its audit trail: review \d+ \(ACCEPTED by mallory\) has no entry in the audit trail/m);
  assert.ok(!fs.existsSync(path.join(dir, 'again.csv')));
  // …nor the review page, nor an import.
  const page = await runCli(['review', '--state', 'forged.sqlite'], { cwd: dir });
  assert.equal(page.code, 1, page.stderr);
  assert.match(page.stderr, /disagree with its audit trail: review \d+ \(ACCEPTED by mallory\)/);
  const imported = await runCli(['review', '--import', 'reviewed.csv', '--state', 'forged.sqlite', '--reviewer', 'ravi'], { cwd: dir });
  assert.equal(imported.code, 1, imported.stderr);

  // A genuine review edited: its reviewer, its verdict.
  await refused(dir, tamper(dir, 'reviewer', `UPDATE reviews SET reviewer = 'ravi'`), /review 1 differs from its audit entry \d+/);
  await refused(dir, tamper(dir, 'verdict', `UPDATE reviews SET verdict = 'ACCEPTED', holder = 'RAVI RAO'`), /review 1 differs from its audit entry \d+/);
  // A rejection deleted: Ravi would be paid.
  await refused(dir, tamper(dir, 'deleted', `DELETE FROM reviews`), /records review 1, which the reviews table no longer has/);

  const release = await runCli(['release', '-o', 'payout.csv', '--state', 's.sqlite'], { cwd: dir });
  assert.equal(release.code, 0, release.stderr);
  assert.equal(fs.readFileSync(path.join(dir, 'payout.csv'), 'utf8'), 'Payee Name,Account No,IFSC Code,Amount\nAsha Iyer,880000000011,SBIN0000300,700.00\n');
});

test('a held row turned PAY after the nightly --resume re-emitted the run by copying its output is found; so is the run entry deleted from the end of the trail', async (t) => {
  const dir = tempDir(t);
  fs.writeFileSync(path.join(dir, 'payees.csv'), PAYEES);
  fs.writeFileSync(path.join(dir, 'holders.csv'), HOLDERS);
  const bank = ['bank', 'payees.csv', '-o', 'out.csv', '--state', 's.sqlite', '--sandbox', '--sandbox-accounts', 'holders.csv', '--resume'];
  const first = await runCli(bank, { cwd: dir });
  assert.equal(first.code, 0, first.stderr);
  const flip = `UPDATE run_rows SET decision = 'PAY', decision_reason = 'NAME_MATCH' WHERE name = 'Vikram Singh';`;
  // The run's own entry, the last of the trail, deleted (the trigger is the file's, anyone can drop it).
  await refused(dir, tamper(dir, 'tail', `DROP TRIGGER audit_no_delete; DELETE FROM audit WHERE kind = 'run'; ${flip}`), /run 1 has decisions but no entry of its own in the audit trail/);

  // The cron line again: the finished run is re-emitted by copying its output (an entry with no digest).
  const again = await runCli(bank, { cwd: dir });
  assert.equal(again.code, 0, again.stderr);
  const db = new Database(path.join(dir, 's.sqlite'), { readonly: true });
  const last = db.prepare(`SELECT entry FROM audit WHERE kind = 'run' ORDER BY seq DESC LIMIT 1`).get() as { entry: string };
  db.close();
  assert.equal((JSON.parse(last.entry) as { reemitted?: string }).reemitted, 'copy');
  await refused(dir, tamper(dir, 'copied', flip), /run 1's decisions differ from those its audit entry \d+ committed to/);
});
