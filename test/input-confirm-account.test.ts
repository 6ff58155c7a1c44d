/**
 * A confirm-account column ("Confirm Account No", "Re-enter A/c No", "Account Number (Confirm)"),
 * as bank bulk-upload and beneficiary templates carry it: recognised by its header and content,
 * never taken as the account, and cross-checked on every row (src/input/recognise.ts,
 * src/pipeline/checks.ts checkConfirmAccount); the CLI end to end against the sandbox.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { confirmMeaning, headerMeaning } from '../src/input/aliases.js';
import { HeaderRecogniser, type SourceRecord } from '../src/input/recognise.js';
import { checkConfirmAccount } from '../src/pipeline/checks.js';
import { verifyReasonCode } from '../src/decision/reason-code.js';
import { startSandbox } from '../src/sandbox/index.js';
import { readCsvObjects, runCli, tempDir } from './helpers/cli.js';

const lines = (...rows: string[][]): SourceRecord[] => rows.map((fields, i) => ({ fields, line: i + 1 }));

test('confirmMeaning: an account header qualified by confirm, re-enter, retype, verify, repeat or again, in front or behind; never the payer\'s', () => {
  for (const h of [
    'Confirm Account Number', 'Confirm Account No', 'Re-enter Account No', 'ReEnter Account Number', 'Reenter A/c No', 'Retype A/c No.',
    'Re-type Account Number', 'Confirm Beneficiary Account Number', 'Confirm Bene A/c No', 'Account Number (Confirm)', 'Account No. Confirmation',
    'Verify Account No', 'Repeat Account Number', 'Account Number Again', 'confirm_account_number', 'Re-Enter Beneficiary Account Number',
    'Confirm Account Number (Mandatory)', 'खाता संख्या की पुष्टि करें',
  ]) {
    assert.equal(confirmMeaning(h)?.role, 'account', h);
    assert.equal(headerMeaning(h), undefined, `${h} is no account header`);
  }
  for (const h of ['Account Number', 'Beneficiary Account Number', 'Confirm Debit Account Number', 'Confirmation Date', 'Verified', 'Account Verified']) {
    assert.equal(confirmMeaning(h), undefined, h);
  }
  // The IFSC's confirmation confirms no account (test/input-confirm-ifsc.test.ts).
  assert.equal(confirmMeaning('Confirm IFSC')?.role, 'ifsc');
  assert.equal(confirmMeaning('Confirm Beneficiary Account Number')!.rank, 'payee');
});

test('the recogniser: the account column wins, the confirm column is found beside it (no tie), in several wordings; the log says it is cross-checked', () => {
  const rows = [['Asha Verma', '500100000011', '500100000011', 'SBIN0000001'], ['Ravi Kumar', '500100000048', '500100000048', 'HDFC0000001'], ['Meena Iyer', '500100000085', '', 'ICIC0000002']];
  for (const [account, confirm] of [
    ['Account Number', 'Account Number (Confirm)'],
    ['Account No', 'Confirm Account No'],
    ['Beneficiary Account Number', 'Confirm Beneficiary Account Number'],
    ['Bene A/c No', 'Re-enter Bene A/c No'],
    ['Account', 'Retype Account'],
    ['Account Number', 'Verify Account Number'],
  ] as const) {
    const choice = new HeaderRecogniser().recognise(lines(['Name', account, confirm, 'IFSC'], ...rows));
    assert.equal(choice.columns.account, 1, `${account} / ${confirm}`);
    assert.equal(choice.columns.confirm, 2, `${account} / ${confirm}`);
    assert.ok(choice.reasons.some((r) => r.startsWith(`confirm account number: column 3 ${JSON.stringify(confirm)}`) && r.includes('cross-checked')), choice.reasons.join('\n'));
  }
  // Confirm column first: still not the account.
  const first = new HeaderRecogniser().recognise(lines(['Confirm Account No', 'Account No', 'IFSC'], ['500100000011', '500100000011', 'SBIN0000001'], ['500100000048', '500100000048', 'HDFC0000001']));
  assert.deepEqual([first.columns.account, first.columns.confirm], [1, 0]);
  // No confirm column: nothing changes.
  assert.equal(new HeaderRecogniser().recognise(lines(['Name', 'Account No', 'IFSC'], ...rows.map((r) => [r[0]!, r[1]!, r[3]!]))).columns.confirm, undefined);
});

test('the recogniser: a confirm column empty on the first rows is taken; one whose values are mostly not the account\'s is passed over, and said; one alone is the account', () => {
  const empty = new HeaderRecogniser().recognise(lines(['Account No', 'Confirm Account No', 'IFSC'], ['500100000011', '', 'SBIN0000001'], ['500100000048', '', 'HDFC0000001']));
  assert.equal(empty.columns.confirm, 1);
  assert.ok(empty.reasons.some((r) => r.includes('empty on the first rows')));
  const other = new HeaderRecogniser().recognise(lines(['Account No', 'Confirm Account No', 'IFSC'],
    ...Array.from({ length: 6 }, (_, i) => [`5001000000${10 + i}`, `6002000000${10 + i}`, 'SBIN0000001'])));
  assert.equal(other.columns.confirm, undefined);
  assert.ok(other.reasons.some((r) => r.includes('reads as a confirm-account column, but 0 of its 6 value(s)') && r.includes('not cross-checked')), other.reasons.join('\n'));
  const flags = new HeaderRecogniser({ overrides: { confirm: 'Confirm Account No' } }).recognise(lines(['Account No', 'Confirm Account No', 'IFSC'],
    ...Array.from({ length: 6 }, (_, i) => [`5001000000${10 + i}`, `6002000000${10 + i}`, 'SBIN0000001'])));
  assert.equal(flags.columns.confirm, 1, '--confirm-account-col cross-checks it whatever its values');
  assert.equal(flags.decidedBy.confirmAccount, 'flag');
  assert.equal(empty.decidedBy.confirmAccount, 'header and content');
  assert.equal(other.decidedBy.confirmAccount, undefined, 'no confirm column taken, none said');
  const alone = new HeaderRecogniser().recognise(lines(['Name', 'Re-enter Account Number', 'IFSC'], ['Asha Verma', '500100000011', 'SBIN0000001'], ['Ravi Kumar', '500100000048', 'HDFC0000001']));
  assert.equal(alone.columns.account, 1);
  assert.equal(alone.columns.confirm, undefined);
  assert.ok(alone.reasons.some((r) => r.includes('taken as the account: the file has no other account column')), alone.reasons.join('\n'));
});

test('checkConfirmAccount: read as the account is; an empty cell is not checked; a typo fails with both masked; damage is named as damage', () => {
  const column = 'Confirm Account No';
  assert.deepEqual(checkConfirmAccount('500100000011', '5001 0000-0011', column), { ok: true, checked: true });
  assert.deepEqual(checkConfirmAccount('500100000011', '="500100000011"', column), { ok: true, checked: true });
  assert.deepEqual(checkConfirmAccount('500100000011', "'500100000011", column), { ok: true, checked: true });
  assert.deepEqual(checkConfirmAccount('500100000011', '', column), { ok: true, checked: false });
  assert.deepEqual(checkConfirmAccount('500100000011', '  ', column), { ok: true, checked: false });
  const typo = checkConfirmAccount('500100000048', '500100000084', column);
  assert.equal(typo.ok, false);
  const reason = (typo as { reason: string }).reason;
  assert.equal(reason, 'account number xxxxxxxx0048 and its confirmation xxxxxxxx0084 (column "Confirm Account No") first differ at digit 11: one of them is mistyped, so the row was not verified and nothing was called; check the account number with the payee, correct the wrong cell and run again');
  assert.doesNotMatch(reason, /500100000048|500100000084/);
  assert.equal(verifyReasonCode('INVALID', `line 3: ${reason}`), 'ACCOUNT_INVALID');
  const short = (checkConfirmAccount('500100000048', '50010000004', column) as { reason: string }).reason;
  assert.match(short, /^account number xxxxxxxx0048 and its confirmation xxxxxxx0004 \(column "Confirm Account No"\) differ \(the account number has 12 digits, its confirmation 11\)/);
  assert.equal(verifyReasonCode('INVALID', short), 'ACCOUNT_INVALID');
  const damaged = (checkConfirmAccount('500100000011', '5.001E+11', column) as { reason: string }).reason;
  assert.match(damaged, /^confirm account number \(column "Confirm Account No"\) is in scientific notation \(5\.001E\+11\)/);
  assert.equal(verifyReasonCode('INVALID', damaged), 'ACCOUNT_DAMAGED');
  const letters = (checkConfirmAccount('500100000011', 'same as above', column) as { reason: string }).reason;
  assert.match(letters, /^confirm account number \(column "Confirm Account No"\) must contain only digits/);
  assert.equal(verifyReasonCode('INVALID', letters), 'ACCOUNT_INVALID');
});

const CSV = [
  'Beneficiary Name,Account No,Confirm Account No,IFSC',
  'Asha Verma,500100000011,500100000011,SBIN0000001',
  'Ravi Kumar,500100000048,500100000084,HDFC0000001',
  'Meena Iyer,500100000085,,ICIC0000002',
  'Farah Khan,500100000122,5001-0000 0122,SBIN0000001',
  // The same payee as line 2 with a confirm cell that disagrees: no answer reaches it.
  'Asha Verma,500100000011,500100000012,SBIN0000001',
  // And one that agrees: it joins line 2's payee.
  'Asha Verma,500100000011,500100000011,SBIN0000001',
];

function assertCrossChecked(out: Array<Record<string, string>>, what: string): void {
  assert.deepEqual(out.map((r) => r.verify_status), ['VERIFIED', 'INVALID', 'VERIFIED', 'VERIFIED', 'INVALID', 'VERIFIED'], what);
  for (const i of [1, 4]) {
    assert.equal(out[i]!.verify_reason_code, 'ACCOUNT_INVALID', what);
    assert.equal(out[i]!.verify_source, 'local', what);
    assert.equal(out[i]!.decision, 'HOLD', what);
    assert.match(out[i]!.verify_reason!, /and its confirmation x+\d{4} \(column "Confirm Account No"\) first differ at digit \d+: one of them is mistyped/, what);
    assert.doesNotMatch(out[i]!.verify_reason!, /\d{9,}/, `${what}: no account number whole in the reason`);
  }
  assert.match(out[1]!.verify_reason!, /^line 3: account number xxxxxxxx0048 and its confirmation xxxxxxxx0084 /);
  assert.match(out[4]!.verify_reason!, /^line 6: account number xxxxxxxx0011 and its confirmation xxxxxxxx0012 /);
  assert.equal(out[5]!.verify_source, 'duplicate', what);
}

test('CLI: a CSV with Account No and Confirm Account No: the row whose two differ is INVALID (ACCOUNT_INVALID, masked), no call for it, nor for a duplicate payee whose confirm disagrees; the rest verified; logged and in the summary', async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  fs.writeFileSync(path.join(dir, 'p.csv'), `${CSV.join('\n')}\n`);
  const r = await runCli(['bank', 'p.csv', '-o', 'o.csv', '--base-url', sandbox.url, '--summary', 's.json'], { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  assertCrossChecked(readCsvObjects(path.join(dir, 'o.csv')), 'csv');
  assert.equal(sandbox.stats().requests['account-verification-pl'], 3, 'one call per payee whose cells agree (or whose confirm is empty)');
  assert.match(r.stderr, /confirm account number: column 3 "Confirm Account No", .*cross-checked with it/);
  assert.doesNotMatch(r.stderr, /500100000048|500100000084/);
  const summary = JSON.parse(fs.readFileSync(path.join(dir, 's.json'), 'utf8')) as { input: { columns: Record<string, unknown>; columnChoice: Record<string, unknown> } };
  assert.deepEqual(summary.input.columns, { account: 'Account No', ifsc: 'IFSC', name: 'Beneficiary Name', confirmAccount: 'Confirm Account No' });
  assert.equal(summary.input.columnChoice.confirmAccount, 'header and content', 'what decided each column, the confirm one too');
});

test('CLI: the same payees in an .xlsx (account numbers as number cells, the confirm column as text), and a dry run calls none of the mismatched', async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Beneficiaries');
  CSV.forEach((line, i) => {
    const cells = line.split(',');
    // Excel keeps 12-digit numbers exact: the account column typed as numbers, the confirm column as text.
    sheet.addRow(i === 0 ? cells : [cells[0], Number(cells[1]), cells[2], cells[3]]);
  });
  await book.xlsx.writeFile(path.join(dir, 'p.xlsx'));
  const dry = await runCli(['bank', 'p.xlsx', '--dry-run', '--base-url', sandbox.url, '--summary', 'd.json'], { cwd: dir });
  assert.equal(dry.code, 0, dry.stderr);
  const dryRun = JSON.parse(fs.readFileSync(path.join(dir, 'd.json'), 'utf8')) as { wouldCall: { pl: number } };
  assert.equal(dryRun.wouldCall.pl, 3);
  const r = await runCli(['bank', 'p.xlsx', '-o', 'o.csv', '--base-url', sandbox.url], { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  assertCrossChecked(readCsvObjects(path.join(dir, 'o.csv')), 'xlsx');
  assert.equal(sandbox.stats().requests['account-verification-pl'], 3);
});

test('CLI: "Account Number" beside "Account Number (Confirm)" no longer stops the run as a tie; --confirm-account-col names a column whose header says nothing', async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  fs.writeFileSync(path.join(dir, 'tie.csv'), [
    'Beneficiary Name,Account Number,Account Number (Confirm),IFSC Code',
    'Asha Verma,500100000011,500100000011,SBIN0000001',
    'Ravi Kumar,500100000048,500100000049,HDFC0000001',
  ].join('\n') + '\n');
  const tie = await runCli(['bank', 'tie.csv', '-o', 'tie.out.csv', '--base-url', sandbox.url], { cwd: dir });
  assert.equal(tie.code, 0, tie.stderr);
  assert.deepEqual(readCsvObjects(path.join(dir, 'tie.out.csv')).map((r) => r.verify_status), ['VERIFIED', 'INVALID']);
  fs.writeFileSync(path.join(dir, 'named.csv'), [
    'Beneficiary Name,Account Number,Check Digits,IFSC Code',
    'Asha Verma,500100000011,500100000011,SBIN0000001',
    'Ravi Kumar,500100000048,500100000049,HDFC0000001',
  ].join('\n') + '\n');
  const named = await runCli(['bank', 'named.csv', '-o', 'named.out.csv', '--base-url', sandbox.url, '--confirm-account-col', 'Check Digits'], { cwd: dir });
  assert.equal(named.code, 0, named.stderr);
  assert.match(named.stderr, /confirm account number: column 3 "Check Digits", named by --confirm-account-col/);
  const out = readCsvObjects(path.join(dir, 'named.out.csv'));
  assert.deepEqual(out.map((r) => r.verify_status), ['VERIFIED', 'INVALID']);
  assert.match(out[1]!.verify_reason!, /\(column "Check Digits"\) first differ at digit 12/);
  const wrong = await runCli(['bank', 'named.csv', '-o', 'x.csv', '--base-url', sandbox.url, '--confirm-account-col', 'Account Number'], { cwd: dir });
  assert.equal(wrong.code, 2);
  assert.match(wrong.stderr, /--confirm-account-col "Account Number" is the account number column itself/);
});
