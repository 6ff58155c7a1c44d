/**
 * `verify_reason_code`: the closed code for a row's status and its free-text `verify_reason`
 * (src/decision/codes.ts, VERIFY_REASON_CODES). Reasons are written by the local checks, the
 * IFSC registry, the API's errors and the bank's remark; the state keeps the text, so the code is
 * read from it here, in one place, with a test over every kind of reason the tool writes.
 */
import type { VerifyReasonCode } from './codes.js';
import type { VerifyStatus } from './decide.js';

const MALFORMED = /field\(s\), the header has/;
const DAMAGED = /scientific notation|decimal part|lost its last digits|lost digits/i;
const ACCOUNT = /account number/i;
const BANK_UNKNOWN = /no bank issues IFSCs under the code/;
const IFSC = /IFSC/i;
const DORMANT = /dormant|inoperative|in-operative/i;
const CLOSED = /closed/i;
const FROZEN = /frozen|freeze|blocked/i;

/** The code for a row: `reason` is its verify_reason (for NOT_VERIFIED, the bank's remark). */
export function verifyReasonCode(status: VerifyStatus, reason: string): VerifyReasonCode {
  switch (status) {
    case 'VERIFIED':
      return 'OK';
    case 'SKIPPED':
      return 'NOT_A_PAYEE';
    case 'DEFERRED':
      return 'DAILY_LIMIT';
    case 'UNCONFIRMED':
      return 'ANSWER_LOST';
    case 'FAILED':
      return 'UPSTREAM_FAILURE';
    case 'NOT_VERIFIED':
      if (DORMANT.test(reason)) return 'ACCOUNT_DORMANT';
      if (CLOSED.test(reason)) return 'ACCOUNT_CLOSED';
      return FROZEN.test(reason) ? 'ACCOUNT_FROZEN' : 'ACCOUNT_NOT_VERIFIED';
    case 'INVALID':
      return invalidCode(reason);
  }
}

function invalidCode(reason: string): VerifyReasonCode {
  if (MALFORMED.test(reason)) return 'ROW_MALFORMED';
  if (DAMAGED.test(reason)) return 'ACCOUNT_DAMAGED';
  // "account number …; IFSC …": both wrong, the account is named first.
  if (ACCOUNT.test(reason)) return 'ACCOUNT_INVALID';
  if (BANK_UNKNOWN.test(reason)) return 'BANK_UNKNOWN';
  return IFSC.test(reason) ? 'IFSC_INVALID' : 'ACCOUNT_INVALID';
}
