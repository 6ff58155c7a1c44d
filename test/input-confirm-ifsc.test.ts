/**
 * A column that repeats the IFSC to confirm it ("Confirm IFSC Code", "Re-enter IFSC"), as
 * beneficiary templates that ask for the account twice often ask for the IFSC twice too. It is
 * never taken for the IFSC (it was: by its content, over an IFSC column with one branch on every
 * row, so the code verified was the confirmation's), and each row's two codes are cross-checked:
 * a row whose two differ is INVALID (IFSC_INVALID), not called. Real CLI, sandbox on port 0.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { confirmMeaning, headerMeaning } from '../src/input/aliases.js';
import { HeaderRecogniser, type SourceRecord } from '../src/input/recognise.js';
import { checkConfirmIfsc } from '../src/pipeline/checks.js';
import { verifyReasonCode } from '../src/decision/reason-code.js';
import { startSandbox } from '../src/sandbox/index.js';
import { readCsvObjects, runCli, tempDir } from './helpers/cli.js';

const lines = (...rows: string[][]): SourceRecord[] => rows.map((fields, i) => ({ fields, line: i + 1 }));

test('confirmMeaning: an IFSC header qualified by confirm, re-enter, retype or again confirms the IFSC; never the IFSC itself, never the payer\'s', () => {
  for (const h of ['Confirm IFSC Code', 'Confirm IFSC', 'Re-enter IFSC', 'ReEnter IFSC Code', 'Retype IFS Code', 'IFSC Code (Confirm)', 'IFSC Again', 'Confirm Beneficiary IFSC', 'confirm_ifsc_code']) {
    assert.equal(confirmMeaning(h)?.role, 'ifsc', h);
    assert.match(confirmMeaning(h)!.why, /it confirms the IFSC/, h);
    assert.equal(headerMeaning(h), undefined, `${h} is no IFSC column`);
  }
  for (const h of ['IFSC Code', 'IFSC', 'Confirm Debit IFSC', 'Confirmed', 'Confirm Amount']) assert.notEqual(confirmMeaning(h)?.role, 'ifsc', h);
  assert.equal(confirmMeaning('Confirm Account Number')?.role, 'account');
});

const HEADER = ['Beneficiary Name', 'Account Number', 'IFSC Code', 'Confirm IFSC Code', 'Amount'];

test('the recogniser: the IFSC column wins over its confirmation (even when the IFSC is one branch on every row); the confirmation is cross-checked, said in the log', () => {
  const varying = new HeaderRecogniser().recognise(lines(HEADER,
    ['Asha Verma', '500100000011', 'SBIN0000001', 'SBIN0000001', '100'],
    ['Ravi Kumar', '500100000048', 'HDFC0000001', 'HDFC0000001', '100'],
    ['Meena Iyer', '500100000085', 'ICIC0000002', 'ICIC0000002', '100'],
    ['Farah Khan', '500100000122', 'SBIN0000001', 'SBIN0000009', '100'],
  ));
  assert.deepEqual([varying.columns.ifsc, varying.columns.confirmIfsc, varying.columns.amount], [2, 3, 4]);
  assert.equal(varying.decidedBy.confirmIfsc, 'header and content');
  assert.ok(varying.reasons.some((r) => /^confirm IFSC: column 4 "Confirm IFSC Code", .*3 of 4 value\(s\) equal to the IFSC on the same row; each row's IFSC is cross-checked with it/.test(r)), varying.reasons.join('\n'));
  // One branch for every payee in the IFSC column, and a typo in the confirmation: the confirmation varies more, and is still not the IFSC.
  const oneBranch = new HeaderRecogniser().recognise(lines(HEADER,
    ['Asha Verma', '500100000011', 'HDFC0000123', 'HDFC0000123', '100'],
    ['Ravi Kumar', '500100000048', 'HDFC0000123', 'SBIN0000123', '100'],
  ));
  assert.deepEqual([oneBranch.columns.ifsc, oneBranch.columns.confirmIfsc], [2, 3]);
  // Alone, a confirm-IFSC column holds the IFSCs: taken as the IFSC, nothing to cross-check, and said.
  const alone = new HeaderRecogniser().recognise(lines(['Name', 'Account Number', 'Re-enter IFSC'], ['Asha Verma', '500100000011', 'SBIN0000001']));
  assert.equal(alone.columns.ifsc, 2);
  assert.equal(alone.columns.confirmIfsc, undefined);
  assert.ok(alone.reasons.some((r) => /IFSC: column 3 "Re-enter IFSC", .*\(it confirms the IFSC\); taken as the IFSC: the file has no other IFSC column/.test(r)), alone.reasons.join('\n'));
  // A header that says "confirm IFSC" over values that are not the row's IFSCs is passed over, and said.
  const other = new HeaderRecogniser().recognise(lines(HEADER, ...['1', '2', '3', '4'].map((n) => ['Asha Verma', `50010000001${n}`, `SBIN000000${n}`, 'Y', '100'])));
  assert.equal(other.columns.confirmIfsc, undefined);
  assert.equal(other.decidedBy.confirmIfsc, undefined);
  assert.ok(other.reasons.some((r) => /column 4 "Confirm IFSC Code": its header reads as a confirm-IFSC column, but 0 of its 4 value\(s\) beside an IFSC equal it \(0 of 4 IFSC-shaped\): not cross-checked \(name it with --confirm-ifsc-col/.test(r)), other.reasons.join('\n'));
});

test('checkConfirmIfsc: read as the IFSC is (case, spaces, ="…"); an empty cell is not checked; another code fails naming both (IFSC_INVALID); a spreadsheet error is named', () => {
  const column = 'Confirm IFSC Code';
  assert.deepEqual(checkConfirmIfsc('HDFC0000123', 'hdfc 0000123', column), { ok: true, checked: true });
  assert.deepEqual(checkConfirmIfsc('HDFC0000123', '="HDFC0000123"', column), { ok: true, checked: true });
  assert.deepEqual(checkConfirmIfsc('HDFC0000123', '  ', column), { ok: true, checked: false });
  const typo = checkConfirmIfsc('HDFC0000123', 'HDFC0001123', column);
  assert.equal(typo.ok, false);
  const reason = (typo as { reason: string }).reason;
  assert.equal(reason, 'IFSC HDFC0000123 and its confirmation "HDFC0001123" (column "Confirm IFSC Code") differ: one of them is mistyped, so the row was not verified and nothing was called; check the IFSC with the payee, correct the wrong cell and run again');
  assert.equal(verifyReasonCode('INVALID', `line 3: ${reason}`), 'IFSC_INVALID');
  const error = (checkConfirmIfsc('HDFC0000123', '#N/A', column) as { reason: string }).reason;
  assert.match(error, /^confirm IFSC \(column "Confirm IFSC Code"\) is the spreadsheet error #N\/A/);
});

const CSV = [
  'Beneficiary Name,Account Number,Confirm Account Number,IFSC Code,Confirm IFSC Code,Amount',
  'Asha Verma,500100000011,500100000011,HDFC0000123,HDFC0000123,100',
  'Ravi Kumar,500100000048,500100000048,HDFC0000123,SBIN0000123,100',
  'Meena Iyer,500100000085,500100000085,HDFC0000123,,100',
  // The same payee as line 2 with a confirmation that disagrees: no answer reaches it.
  'Asha Verma,500100000011,500100000011,HDFC0000123,HDFC0000124,100',
];

test('CLI: a beneficiary template with Confirm Account Number and Confirm IFSC Code: the row whose IFSCs differ is INVALID (IFSC_INVALID), no call for it nor for a duplicate whose confirmation disagrees; logged and in the summary', async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  fs.writeFileSync(path.join(dir, 'p.csv'), `${CSV.join('\n')}\n`);
  const r = await runCli(['bank', 'p.csv', '-o', 'o.csv', '--base-url', sandbox.url, '--summary', 's.json'], { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  const out = readCsvObjects(path.join(dir, 'o.csv'));
  assert.deepEqual(out.map((row) => row.verify_status), ['VERIFIED', 'INVALID', 'VERIFIED', 'INVALID']);
  for (const i of [1, 3]) {
    assert.equal(out[i]!.verify_reason_code, 'IFSC_INVALID');
    assert.equal(out[i]!.verify_source, 'local');
    assert.equal(out[i]!.decision, 'HOLD');
  }
  assert.match(out[1]!.verify_reason!, /^line 3: IFSC HDFC0000123 and its confirmation "SBIN0000123" \(column "Confirm IFSC Code"\) differ/);
  assert.match(out[3]!.verify_reason!, /^line 5: IFSC HDFC0000123 and its confirmation "HDFC0000124"/);
  assert.equal(sandbox.stats().requests['account-verification-pl'], 2, 'one call per payee whose cells agree (or whose confirmation is empty)');
  assert.match(r.stderr, /confirm IFSC: column 5 "Confirm IFSC Code", .*cross-checked with it/);
  const summary = JSON.parse(fs.readFileSync(path.join(dir, 's.json'), 'utf8')) as { input: { columns: Record<string, unknown>; columnChoice: Record<string, unknown> } };
  assert.equal(summary.input.columns.ifsc, 'IFSC Code');
  assert.equal(summary.input.columns.confirmIfsc, 'Confirm IFSC Code');
  assert.equal(summary.input.columnChoice.confirmIfsc, 'header and content');
});

test('CLI: --confirm-ifsc-col names a column whose header says nothing; naming the IFSC column itself is exit 2', async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  fs.writeFileSync(path.join(dir, 'named.csv'), [
    'Beneficiary Name,Account Number,IFSC Code,Branch Check',
    'Asha Verma,500100000011,SBIN0000001,SBIN0000001',
    'Ravi Kumar,500100000048,HDFC0000001,HDFC0000002',
  ].join('\n') + '\n');
  const named = await runCli(['bank', 'named.csv', '-o', 'named.out.csv', '--base-url', sandbox.url, '--confirm-ifsc-col', 'Branch Check'], { cwd: dir });
  assert.equal(named.code, 0, named.stderr);
  assert.match(named.stderr, /confirm IFSC: column 4 "Branch Check", named by --confirm-ifsc-col/);
  assert.deepEqual(readCsvObjects(path.join(dir, 'named.out.csv')).map((r) => r.verify_status), ['VERIFIED', 'INVALID']);
  const wrong = await runCli(['bank', 'named.csv', '-o', 'x.csv', '--base-url', sandbox.url, '--confirm-ifsc-col', 'IFSC Code'], { cwd: dir });
  assert.equal(wrong.code, 2);
  assert.match(wrong.stderr, /--confirm-ifsc-col "IFSC Code" is the IFSC column itself/);
});
