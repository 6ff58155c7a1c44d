/**
 * The decision (src/decision/): every status and name verdict, a changed holder, reviews, the
 * policy file, verify_reason_code for every kind of reason the tool writes, amounts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decide, DEFAULT_POLICY, parsePolicy, verifyReasonCode, type DecisionInput, type DecisionPolicy } from '../src/decision/index.js';
import { parseAmount } from '../src/input/amount.js';
import { standingOf } from '../src/state/reviews.js';
import type { ReviewRecord } from '../src/state/types.js';
import { checkRow } from '../src/pipeline/checks.js';

const base: DecisionInput = { status: 'VERIFIED', nameMatch: 'DIRECT_MATCH', holderChanged: false };

test('decide: each status and name verdict under the default policy', () => {
  const cases: [Partial<DecisionInput>, string, string, string][] = [
    [{}, 'PAY', 'NAME_MATCH', 'MATCH'],
    [{ nameMatch: 'GOOD_PARTIAL_MATCH' }, 'PAY', 'NAME_MATCH', 'CLOSE_MATCH'],
    [{ nameMatch: 'MODERATE_PARTIAL_MATCH' }, 'REVIEW', 'NAME_CLOSE', 'CLOSE_MATCH'],
    [{ nameMatch: 'POOR_PARTIAL_MATCH' }, 'HOLD', 'NAME_MISMATCH', 'NO_MATCH'],
    [{ nameMatch: 'NO_MATCH' }, 'HOLD', 'NAME_MISMATCH', 'NO_MATCH'],
    [{ nameMatch: undefined }, 'REVIEW', 'NO_NAME_TO_CHECK', 'NOT_POSSIBLE'],
    [{ holderChanged: true }, 'HOLD', 'HOLDER_CHANGED', 'MATCH'],
    [{ status: 'NOT_VERIFIED', nameMatch: undefined }, 'HOLD', 'ACCOUNT_NOT_VERIFIED', 'NOT_POSSIBLE'],
    [{ status: 'INVALID', nameMatch: undefined }, 'HOLD', 'ACCOUNT_INVALID', 'NOT_POSSIBLE'],
    [{ status: 'DEFERRED', nameMatch: undefined }, 'HOLD', 'NOT_FINAL', 'NOT_POSSIBLE'],
    [{ status: 'FAILED', nameMatch: undefined }, 'HOLD', 'NOT_FINAL', 'NOT_POSSIBLE'],
    [{ status: 'UNCONFIRMED', nameMatch: undefined }, 'HOLD', 'NOT_FINAL', 'NOT_POSSIBLE'],
    [{ status: 'SKIPPED', nameMatch: undefined }, '', 'NOT_A_PAYEE', ''],
    [{ review: { verdict: 'ACCEPTED', reviewers: ['asha'] }, nameMatch: 'NO_MATCH' }, 'PAY', 'REVIEW_ACCEPTED', 'NO_MATCH'],
    [{ review: { verdict: 'ACCEPTED', reviewers: ['asha'] }, holderChanged: true }, 'PAY', 'REVIEW_ACCEPTED', 'MATCH'],
    [{ review: { verdict: 'REJECTED', reviewers: ['asha'] } }, 'HOLD', 'REVIEW_REJECTED', 'MATCH'],
    [{ review: { verdict: 'ACCEPTED', reviewers: ['asha'] }, status: 'NOT_VERIFIED' }, 'HOLD', 'ACCOUNT_NOT_VERIFIED', 'NOT_POSSIBLE'],
  ];
  for (const [input, decision, reason, check] of cases) {
    const got = decide({ ...base, ...input }, DEFAULT_POLICY);
    assert.deepEqual([got.decision, got.reason, got.payeeCheck], [decision, reason, check], JSON.stringify(input));
  }
});

test('decide: two approvals need two different reviewers', () => {
  const policy: DecisionPolicy = { ...DEFAULT_POLICY, approvals: 2 };
  assert.equal(decide({ ...base, nameMatch: 'NO_MATCH', review: { verdict: 'ACCEPTED', reviewers: ['asha'] } }, policy).reason, 'AWAITING_APPROVAL');
  assert.equal(decide({ ...base, nameMatch: 'NO_MATCH', review: { verdict: 'ACCEPTED', reviewers: ['asha', 'asha'] } }, policy).decision, 'REVIEW');
  assert.equal(decide({ ...base, nameMatch: 'NO_MATCH', review: { verdict: 'ACCEPTED', reviewers: ['asha', 'ravi'] } }, policy).decision, 'PAY');
});

test('the policy file: over the defaults, unknown fields and a paid changed holder refused', () => {
  const stricter = parsePolicy('{"nameMatch": {"GOOD_PARTIAL_MATCH": "REVIEW"}, "noNameToCheck": "HOLD"}');
  assert.ok(stricter.ok);
  assert.equal(stricter.policy.nameMatch.GOOD_PARTIAL_MATCH, 'REVIEW');
  assert.equal(stricter.policy.nameMatch.DIRECT_MATCH, 'PAY');
  assert.equal(decide({ ...base, nameMatch: undefined }, stricter.policy).decision, 'HOLD');
  const paid = parsePolicy('{"holderChanged": "PAY"}');
  assert.ok(!paid.ok);
  assert.match(paid.problem, /holderChanged: a changed holder is REVIEW or HOLD, never PAY/);
  const unknown = parsePolicy('{"nameMatch": {"EXACT": "PAY"}}');
  assert.ok(!unknown.ok);
  assert.match(unknown.problem, /nameMatch: unknown field "EXACT"/);
  assert.match((parsePolicy('{') as { problem: string }).problem, /not JSON/);
  assert.match((parsePolicy('{"approvals": 3}') as { problem: string }).problem, /approvals is 1 or 2/);
  // Saved by Notepad or PowerShell's Out-File: UTF-8 with a byte-order mark.
  const withBom = parsePolicy('\uFEFF{"approvals": 2}');
  assert.ok(withBom.ok, JSON.stringify(withBom));
  assert.equal(withBom.policy.approvals, 2);
});

test('verify_reason_code for every kind of reason the tool writes', () => {
  const local = (account: string, ifsc: string): string => {
    const check = checkRow(account, ifsc);
    assert.ok(!check.ok);
    return check.reason;
  };
  const cases: [Parameters<typeof verifyReasonCode>[0], string, string][] = [
    ['VERIFIED', '', 'OK'],
    ['SKIPPED', 'not a payee row: a total', 'NOT_A_PAYEE'],
    ['INVALID', `line 3: ${local('1.23457E+11', 'SBIN0001234')}`, 'ACCOUNT_DAMAGED'],
    ['INVALID', `line 3: ${local('12345', 'SBIN0001234')}`, 'ACCOUNT_INVALID'],
    ['INVALID', `line 3: ${local('', 'SBIN0001234')}`, 'ACCOUNT_INVALID'],
    ['INVALID', `line 3: ${local('123456789012', 'SBIN000123')}`, 'IFSC_INVALID'],
    ['INVALID', `line 3: ${local('12345', 'SBIN000123')}`, 'ACCOUNT_INVALID'],
    ['INVALID', 'line 3: IFSC ZZZZ0001234: no bank issues IFSCs under the code ZZZZ, per the IFSC registry of 2026-01-01; check the IFSC', 'BANK_UNKNOWN'],
    ['INVALID', "line 14 has 5 field(s), the header has 4: fix the row's quoting or commas", 'ROW_MALFORMED'],
    ['INVALID', 'Invalid Account Number', 'ACCOUNT_INVALID'],
    ['INVALID', 'Invalid IFSC', 'IFSC_INVALID'],
    ['INVALID', 'Bank IFSC must be 11 characters', 'IFSC_INVALID'],
    ['NOT_VERIFIED', 'Account closed or does not exist', 'ACCOUNT_CLOSED'],
    ['NOT_VERIFIED', 'Account is dormant', 'ACCOUNT_DORMANT'],
    ['NOT_VERIFIED', 'Inoperative account', 'ACCOUNT_DORMANT'],
    ['NOT_VERIFIED', 'Debit freeze on account', 'ACCOUNT_FROZEN'],
    ['NOT_VERIFIED', 'not verified by the bank', 'ACCOUNT_NOT_VERIFIED'],
    ['DEFERRED', 'daily transaction limit reached', 'DAILY_LIMIT'],
    ['FAILED', '503 Service Not Available', 'UPSTREAM_FAILURE'],
    ['UNCONFIRMED', 'a rupee may have moved', 'ANSWER_LOST'],
  ];
  for (const [status, reason, code] of cases) assert.equal(verifyReasonCode(status, reason), code, `${status}: ${reason}`);
});

test('amounts as payout files write them', () => {
  const cases: [string, number | undefined][] = [
    ['1,23,456.78', 123456.78], ['₹ 5,000', 5000], ['Rs. 500/-', 500], ['INR 1200.50', 1200.5], ['(250.00)', -250], ['  42 ', 42],
    ['', undefined], ['five', undefined], ['1.2.3', undefined], ['12abc', undefined],
    // A European-locale export (a ;-delimited file): a decimal comma, dots grouping thousands.
    ['2.500,00', 2500], ['1.000,5', 1000.5], ['2500,75', 2500.75], ['(1.250,00)', -1250], ['1.000.000', 1000000],
    ['1,00,000', 100000], ['1,000', 1000], ['1.00.000,00', undefined], ['1.000,000', undefined], ['50,00', 5000],
    ['12,34,567', 1234567], ['1,23,45,678.9', 12345678.9], ['5,00,000.00', 500000],
  ];
  for (const [cell, value] of cases) assert.equal(parseAmount(cell), value, cell);
});

test('a payee standing: the newest word counts; an acceptance is for one exact holder', () => {
  let id = 0;
  const review = (verdict: 'ACCEPTED' | 'REJECTED', reviewer: string, holder = 'ASHA RAO'): ReviewRecord => ({
    id: ++id, account: '1', ifsc: 'X', holder, verdict, reviewer, note: null, runId: 1, row: 1, at: id,
  });
  assert.equal(standingOf([], 'ASHA RAO'), undefined);
  assert.deepEqual(standingOf([review('ACCEPTED', 'a')], 'ASHA RAO')?.reviewers, ['a']);
  assert.equal(standingOf([review('ACCEPTED', 'a')], 'SOMEONE ELSE'), undefined, 'a new holder needs a new look');
  assert.equal(standingOf([review('ACCEPTED', 'a'), review('REJECTED', 'b')], 'ASHA RAO')?.verdict, 'REJECTED');
  assert.deepEqual(standingOf([review('ACCEPTED', 'a'), review('REJECTED', 'b'), review('ACCEPTED', 'c')], 'ASHA RAO')?.reviewers, ['c'], 'acceptances before a rejection do not count');
  assert.deepEqual(standingOf([review('ACCEPTED', 'a'), review('ACCEPTED', 'a'), review('ACCEPTED', 'b')], 'ASHA RAO')?.reviewers, ['a', 'b']);
});
