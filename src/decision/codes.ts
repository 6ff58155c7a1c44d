/**
 * The closed lists a row's decision is written in (docs/ARCHITECTURE.md, "Decisions"). Scripts
 * and bank portals key on these words: add to a list, never rename an entry.
 */

/** What to do with a payee before the morning's payouts. */
export const DECISIONS = ['PAY', 'REVIEW', 'HOLD'] as const;
export type Decision = (typeof DECISIONS)[number];

/**
 * Why a row got its decision, one code each:
 * - `NAME_MATCH`: verified, and the bank's holder is the payee (a name verdict the policy pays).
 * - `NAME_CLOSE`: verified, the holder's name is close to the payee's but not enough to pay.
 * - `NAME_MISMATCH`: verified, the holder's name is not the payee's.
 * - `NO_NAME_TO_CHECK`: verified, but the file or the bank gave no name to compare.
 * - `HOLDER_CHANGED`: the holder (or the account's status) differs from an earlier check: never PAY.
 * - `ACCOUNT_INVALID`: the account or IFSC is wrong (locally or by the bank): `INVALID`.
 * - `ACCOUNT_NOT_VERIFIED`: the bank could not verify the account: `NOT_VERIFIED`.
 * - `NOT_FINAL`: no answer yet (`DEFERRED`, `FAILED`, `UNCONFIRMED`); a later `--resume` settles it.
 * - `NOT_A_PAYEE`: a blank, total or note row (`SKIPPED`): no decision.
 * - `REVIEW_ACCEPTED`: a person accepted this holder for this account (`vas-verify review`).
 * - `REVIEW_REJECTED`: a person rejected this payee; it is held until someone accepts it.
 * - `AWAITING_APPROVAL`: accepted by fewer reviewers than the policy's `approvals`.
 * - `PAYEE_NAME_CHANGED`: a person accepted this holder for another payee name in the file (an
 *   acceptance is for the name it was given on): the row's own decision (REVIEW or HOLD) stands.
 */
export const DECISION_REASONS = [
  'NAME_MATCH',
  'NAME_CLOSE',
  'NAME_MISMATCH',
  'NO_NAME_TO_CHECK',
  'HOLDER_CHANGED',
  'ACCOUNT_INVALID',
  'ACCOUNT_NOT_VERIFIED',
  'NOT_FINAL',
  'NOT_A_PAYEE',
  'REVIEW_ACCEPTED',
  'REVIEW_REJECTED',
  'AWAITING_APPROVAL',
  'PAYEE_NAME_CHANGED',
] as const;
export type DecisionReason = (typeof DECISION_REASONS)[number];

/**
 * The four outcomes of the EU's Verification of Payee and the UK's Confirmation of Payee, for
 * teams used to those words: `MATCH` (the same name), `CLOSE_MATCH` (a variant, a typo, initials),
 * `NO_MATCH`, `NOT_POSSIBLE` (the check could not be made: no verified account or no name).
 */
export const PAYEE_CHECKS = ['MATCH', 'CLOSE_MATCH', 'NO_MATCH', 'NOT_POSSIBLE'] as const;
export type PayeeCheck = (typeof PAYEE_CHECKS)[number];

/**
 * Why a row has its `verify_status`, as a code beside the free-text `verify_reason`:
 * - `OK`: verified, nothing to add.
 * - `ACCOUNT_INVALID`: the account number is not 9–18 digits, differs from the file's confirm-account
 *   column on its row ("Confirm Account No": one of the two is mistyped), or the bank said it is invalid.
 * - `ACCOUNT_DAMAGED`: a spreadsheet damaged the account number (`1.23457E+11`, digits lost).
 * - `IFSC_INVALID`: the IFSC is malformed, differs from the file's confirm-IFSC column on its row, or the bank said so.
 * - `BANK_UNKNOWN`: the IFSC's bank code is not in the shipped IFSC registry.
 * - `ROW_MALFORMED`: the row has more or fewer fields than the header.
 * - `ACCOUNT_NOT_VERIFIED`: the bank did not verify the account (no more detail given).
 * - `ACCOUNT_DORMANT`, `ACCOUNT_CLOSED`, `ACCOUNT_FROZEN`: the bank's remark says so.
 * - `DAILY_LIMIT`: the account's daily verification limit is spent; retried after midnight IST.
 * - `UPSTREAM_FAILURE`: the service failed after retries (5xx, timeouts, connection errors).
 * - `ANSWER_LOST`: a penny-drop's answer was lost, or one is in flight: a rupee may have moved.
 * - `NOT_A_PAYEE`: a blank, total or note row.
 */
export const VERIFY_REASON_CODES = [
  'OK',
  'ACCOUNT_INVALID',
  'ACCOUNT_DAMAGED',
  'IFSC_INVALID',
  'BANK_UNKNOWN',
  'ROW_MALFORMED',
  'ACCOUNT_NOT_VERIFIED',
  'ACCOUNT_DORMANT',
  'ACCOUNT_CLOSED',
  'ACCOUNT_FROZEN',
  'DAILY_LIMIT',
  'UPSTREAM_FAILURE',
  'ANSWER_LOST',
  'NOT_A_PAYEE',
] as const;
export type VerifyReasonCode = (typeof VERIFY_REASON_CODES)[number];

/** Each decision_reason in a few words, for people (the report, the review page). */
export const DECISION_REASON_MEANING: Readonly<Record<DecisionReason, string>> = {
  NAME_MATCH: 'the holder is the payee',
  NAME_CLOSE: "the holder's name is close to the payee's, not close enough to pay",
  NAME_MISMATCH: "the holder's name is not the payee's",
  NO_NAME_TO_CHECK: 'no name to compare (the file or the bank gave none)',
  HOLDER_CHANGED: 'the holder or the account differs from an earlier check',
  ACCOUNT_INVALID: 'the account number or IFSC is wrong',
  ACCOUNT_NOT_VERIFIED: 'the bank could not verify the account',
  NOT_FINAL: 'no answer yet: continue the run',
  NOT_A_PAYEE: 'a blank, total or note row',
  REVIEW_ACCEPTED: 'a person accepted this holder',
  REVIEW_REJECTED: 'a person rejected this payee',
  AWAITING_APPROVAL: 'accepted by fewer reviewers than the policy asks',
  PAYEE_NAME_CHANGED: 'accepted for another payee name: the payee name in the file changed since the acceptance',
};

/** Each verify_reason_code in a few words, for rows whose reason text the state does not keep (local checks). */
export const VERIFY_REASON_CODE_MEANING: Readonly<Record<VerifyReasonCode, string>> = {
  OK: 'verified',
  ACCOUNT_INVALID: 'the account number is not 9–18 digits, differs from its confirm column, or the bank said it is invalid',
  ACCOUNT_DAMAGED: 'a spreadsheet damaged the account number (1.23457E+11: digits lost)',
  IFSC_INVALID: 'the IFSC is malformed, differs from its confirm column, or the bank said so',
  BANK_UNKNOWN: "the IFSC's bank code is not in the IFSC registry",
  ROW_MALFORMED: 'the row has more or fewer fields than the header',
  ACCOUNT_NOT_VERIFIED: 'the bank did not verify the account',
  ACCOUNT_DORMANT: 'the account is dormant',
  ACCOUNT_CLOSED: 'the account is closed',
  ACCOUNT_FROZEN: 'the account is frozen',
  DAILY_LIMIT: "the account's daily verification limit is spent: asked again after midnight IST",
  UPSTREAM_FAILURE: 'the service failed after retries',
  ANSWER_LOST: "a penny-drop's answer was lost: a rupee may have moved",
  NOT_A_PAYEE: 'a blank, total or note row',
};
