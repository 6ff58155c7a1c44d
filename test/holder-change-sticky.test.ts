/**
 * A changed holder is held until a person settles it (black-box review): the night after a
 * HOLDER_CHANGED, the same new holder was PAY (its answer measured only against the one before,
 * which already named it); a NOT_VERIFIED answer without a name between two holders hid the
 * change; and a release of an older run paid an account the bank had since called invalid.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { readCsvObjects, runCli, tempDir } from './helpers/cli.js';
import { openDatabase } from '../src/state/db.js';
import { BankStore } from '../src/state/bank-store.js';
import { invalidResult } from '../src/pipeline/bank-run/results.js';
import { VasError } from '../src/api/errors.js';
import { describeChange } from '../src/state/changes.js';

const PAYEES = 'Payee Name,Account No,IFSC Code,Amount\nRahul Verma,870000000011,HDFC0000001,500.00\nAsha Iyer,870000000012,SBIN0000300,700.00\n';

function holders(dir: string, rahul: string): void {
  const line = rahul === '' ? '870000000011,HDFC0000001,,NOT_VERIFIED' : `870000000011,HDFC0000001,${rahul},VERIFIED`;
  fs.writeFileSync(path.join(dir, 'holders.csv'), `accountNumber,ifsc,name,status\n${line}\n870000000012,SBIN0000300,ASHA IYER,VERIFIED\n`);
}

/** One night: the payee list as it is that night (its own file, so its own run), against the bank's holders then. */
async function night(dir: string, n: number, amount = '500.00') {
  fs.writeFileSync(path.join(dir, `night${n}.csv`), PAYEES.replace('500.00', amount));
  const r = await runCli(['bank', `night${n}.csv`, '-o', `out${n}.csv`, '--state', 's.sqlite', '--sandbox', '--sandbox-accounts', 'holders.csv'], { cwd: dir });
  assert.ok(r.code === 0 || r.code === 4, r.stderr);
  return readCsvObjects(path.join(dir, `out${n}.csv`)).find((row) => row['Payee Name'] === 'Rahul Verma')!;
}

const decisionOf = (row: Record<string, string>) => `${row.decision} ${row.decision_reason}`;

test('a changed holder stays held night after night until a reviewer accepts it; then it is paid, and a second change holds it again', async (t) => {
  const dir = tempDir(t);
  holders(dir, 'RAHUL VERMA');
  assert.equal(decisionOf(await night(dir, 1)), 'PAY NAME_MATCH');
  holders(dir, 'RAHUL KUMAR VERMA');
  const second = await night(dir, 2);
  assert.equal(decisionOf(second), 'HOLD HOLDER_CHANGED');
  assert.match(second.changed_since!, /^\d{4}-\d\d-\d\d: beneficiary name "RAHUL VERMA" -> "RAHUL KUMAR VERMA"$/);
  // The next nights ask the bank again and get the same new holder: still held, the change as first recorded.
  for (const n of [3, 4]) {
    const row = await night(dir, n, '9999.00');
    assert.equal(decisionOf(row), 'HOLD HOLDER_CHANGED', `night ${n}`);
    assert.equal(row.changed_since, second.changed_since);
  }
  const release = await runCli(['release', '-o', 'payout.csv', '--state', 's.sqlite'], { cwd: dir });
  assert.equal(release.code, 0, release.stderr);
  assert.doesNotMatch(fs.readFileSync(path.join(dir, 'payout.csv'), 'utf8'), /Rahul/);

  // A reviewer accepts the new holder: tonight's run and the release pay it.
  const rows = parse(fs.readFileSync(path.join(dir, 'out4.csv'))) as string[][];
  const decision = rows[0]!.indexOf('decision');
  rows[1]![decision] = 'PAY';
  fs.writeFileSync(path.join(dir, 'reviewed.csv'), stringify(rows));
  const imported = await runCli(['review', '--import', 'reviewed.csv', '--state', 's.sqlite', '--reviewer', 'asha'], { cwd: dir });
  assert.equal(imported.code, 0, imported.stderr);
  assert.equal(decisionOf(await night(dir, 5, '9999.00')), 'PAY REVIEW_ACCEPTED');
  const paid = await runCli(['release', '-o', 'payout5.csv', '--state', 's.sqlite'], { cwd: dir });
  assert.equal(paid.code, 0, paid.stderr);
  assert.match(fs.readFileSync(path.join(dir, 'payout5.csv'), 'utf8'), /Rahul Verma,870000000011,HDFC0000001,9999\.00/);

  // The holder changes again: the acceptance was for RAHUL KUMAR VERMA only.
  holders(dir, 'KARAN MEHTA');
  const third = await night(dir, 6);
  assert.equal(decisionOf(third), 'HOLD HOLDER_CHANGED');
  assert.match(third.changed_since!, /beneficiary name "RAHUL KUMAR VERMA" -> "KARAN MEHTA"$/);
});

test('a NOT_VERIFIED answer without a holder between two holders does not hide the change', async (t) => {
  const dir = tempDir(t);
  holders(dir, 'RAHUL VERMA');
  assert.equal(decisionOf(await night(dir, 1)), 'PAY NAME_MATCH');
  holders(dir, '');
  assert.equal(decisionOf(await night(dir, 2)), 'HOLD ACCOUNT_NOT_VERIFIED');
  holders(dir, 'RAHUL KUMAR VERMA');
  const third = await night(dir, 3);
  assert.equal(decisionOf(third), 'HOLD HOLDER_CHANGED');
  assert.match(third.changed_since!, /status NOT_VERIFIED -> VERIFIED; beneficiary name "RAHUL VERMA" -> "RAHUL KUMAR VERMA"$/);
});

test('the release of an older run holds a payee the bank has since called invalid', async (t) => {
  const dir = tempDir(t);
  holders(dir, 'RAHUL VERMA');
  assert.equal(decisionOf(await night(dir, 1)), 'PAY NAME_MATCH');
  // Another file's run got "Invalid Account Number" for Rahul's account (stored as that run stores it).
  const db = openDatabase(path.join(dir, 's.sqlite'));
  const store = new BankStore(db, () => Date.now());
  const error = VasError.invalidInput({ code: 'invalid-account', message: 'Invalid Account Number', retryable: false, ambiguous: false });
  store.insertResult(invalidResult('870000000011', 'HDFC0000001', 'pl', error, Date.now() + 1000));
  store.flushSync();
  store.close();
  db.close();
  const release = await runCli(['release', '-o', 'payout.csv', '--state', 's.sqlite', '--run', '1', '--exceptions', 'held.csv'], { cwd: dir });
  assert.equal(release.code, 0, release.stderr);
  assert.equal(fs.readFileSync(path.join(dir, 'payout.csv'), 'utf8'), 'Payee Name,Account No,IFSC Code,Amount\nAsha Iyer,870000000012,SBIN0000300,700.00\n');
  const held = readCsvObjects(path.join(dir, 'held.csv'))[0]!;
  assert.equal(held.decision_reason, 'HOLDER_CHANGED');
  assert.match(held.changed_since!, /status VERIFIED -> INVALID \(a newer answer than this run's\)/);
});

test('describeChange: the status against the newest answer, the holder against the newest that named one, an unsettled change carried', () => {
  const day = (d: number) => Date.UTC(2026, 10, d);
  const a = { status: 'VERIFIED' as const, beneficiaryName: 'RAHUL VERMA', verifiedAt: day(1), changedSince: null };
  const none = { status: 'NOT_VERIFIED' as const, beneficiaryName: null, verifiedAt: day(2), changedSince: null };
  const b = { status: 'VERIFIED' as const, beneficiaryName: 'RAHUL KUMAR VERMA', verifiedAt: day(3), changedSince: '2026-11-01: beneficiary name "RAHUL VERMA" -> "RAHUL KUMAR VERMA"' };
  const current = { status: 'VERIFIED' as const, beneficiaryName: 'Rahul Kumar Verma ' };
  assert.equal(describeChange({ newest: undefined, named: undefined }, current), null);
  assert.equal(describeChange({ newest: a, named: a }, { status: 'VERIFIED', beneficiaryName: 'rahul verma' }), null);
  assert.equal(describeChange({ newest: none, named: a }, current), '2026-11-01: status NOT_VERIFIED -> VERIFIED; beneficiary name "RAHUL VERMA" -> "Rahul Kumar Verma"');
  // The same new holder again: the change carried, with the date it was first measured from.
  assert.equal(describeChange({ newest: b, named: b }, current), '2026-11-01: beneficiary name "RAHUL VERMA" -> "RAHUL KUMAR VERMA"');
  // A NOT_VERIFIED without a name says nothing of the holder.
  assert.equal(describeChange({ newest: b, named: b }, { status: 'NOT_VERIFIED', beneficiaryName: null }), '2026-11-03: status VERIFIED -> NOT_VERIFIED');
  // An answer that is not final (INVALID) is not measured.
  assert.equal(describeChange({ newest: a, named: a }, { status: 'INVALID', beneficiaryName: null }), null);
});

test('a remembered penny-drop answer is not paid when a newer answer names another holder: the run holds it, as the release does', async (t) => {
  const dir = tempDir(t);
  holders(dir, 'RAHUL VERMA');
  fs.writeFileSync(path.join(dir, 'pd1.csv'), PAYEES);
  const pd = (file: string, out: string) => runCli(['bank', file, '-o', out, '--state', 's.sqlite', '--sandbox', '--sandbox-accounts', 'holders.csv', '--mode', 'pd'], { cwd: dir });
  assert.equal((await pd('pd1.csv', 'pd1.out.csv')).code, 0);
  // Another file's penny-less run finds another holder.
  holders(dir, 'RAHUL KUMAR VERMA');
  assert.equal(decisionOf(await night(dir, 2)), 'HOLD HOLDER_CHANGED');
  // A penny-drop run of a third file: the deposit is remembered (no second rupee), its answer contradicted.
  fs.writeFileSync(path.join(dir, 'pd3.csv'), 'Payee Name,Account No,IFSC Code,Amount\nRahul Verma,870000000011,HDFC0000001,42.00\n');
  const third = await pd('pd3.csv', 'pd3.out.csv');
  assert.equal(third.code, 0, third.stderr);
  const row = readCsvObjects(path.join(dir, 'pd3.out.csv'))[0]!;
  assert.equal(row.verify_source, 'reuse');
  assert.equal(decisionOf(row), 'HOLD HOLDER_CHANGED');
  assert.match(row.changed_since!, /beneficiary name "RAHUL VERMA" -> "RAHUL KUMAR VERMA" \(a newer answer than this one\)$/);
  assert.match(third.stderr, /1 payee\(s\) on HOLD/);
});

test("hybrid: tonight's own penny-less NOT_VERIFIED does not contradict the remembered penny-drop's VERIFIED (review: every such payee was held)", async (t) => {
  const dir = tempDir(t);
  holders(dir, 'RAHUL VERMA');
  fs.writeFileSync(path.join(dir, 'pd1.csv'), PAYEES);
  const run = (file: string, out: string, mode: string) => runCli(['bank', file, '-o', out, '--state', 's.sqlite', '--sandbox', '--sandbox-accounts', 'holders.csv', '--mode', mode], { cwd: dir });
  assert.equal((await run('pd1.csv', 'pd1.out.csv', 'pd')).code, 0);
  // The bank's penny-less answers NOT_VERIFIED (it does not support it): hybrid falls back to the remembered deposit.
  holders(dir, '');
  fs.writeFileSync(path.join(dir, 'hybrid2.csv'), PAYEES.replace('500.00', '600.00'));
  const hybrid = await run('hybrid2.csv', 'hybrid2.out.csv', 'hybrid');
  assert.equal(hybrid.code, 0, hybrid.stderr);
  const row = readCsvObjects(path.join(dir, 'hybrid2.out.csv')).find((r) => r['Payee Name'] === 'Rahul Verma')!;
  assert.deepEqual([row.verify_status, row.verify_source, decisionOf(row), row.changed_since], ['VERIFIED', 'reuse', 'PAY NAME_MATCH', '']);
  // …and the release of the penny-drop night pays him too.
  const release = await runCli(['release', '-o', 'payout.csv', '--state', 's.sqlite', '--run', '1'], { cwd: dir });
  assert.equal(release.code, 0, release.stderr);
  assert.match(fs.readFileSync(path.join(dir, 'payout.csv'), 'utf8'), /Rahul Verma/);
});
