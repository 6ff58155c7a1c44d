/** Turning an API answer, an API refusal or a stored payee into what the run keeps and writes. */
import { formatIst } from '../../ist.js';
import type { VasError } from '../../api/errors.js';
import type { BankResult } from '../../api/schemas.js';
import type { BankStore } from '../../state/bank-store.js';
import type { NewResult, PayeeRecord, VerifyMode } from '../../state/types.js';
import type { PayeeOutcome } from './types.js';

/** A final result from the API's answer to one call. */
export function toNewResult(account: string, ifsc: string, mode: VerifyMode, api: BankResult, requestId: string | undefined, at: number): NewResult {
  const d = api.ifscDetails;
  return {
    account,
    ifsc,
    mode,
    status: api.verificationStatus,
    reason: api.verificationStatus === 'NOT_VERIFIED' ? api.transactionRemark ?? 'not verified by the bank' : null,
    beneficiaryName: api.beneficiaryName,
    transactionRemark: api.transactionRemark,
    bankName: d?.name ?? null,
    bankBranch: d?.branch ?? null,
    bankCity: d?.city ?? null,
    bankDistrict: d?.district ?? null,
    bankState: d?.state ?? null,
    bankMicr: d?.micr ?? null,
    bankIso3166: d?.iso3166 ?? null,
    bankSwift: d?.swift ?? null,
    bankImps: d?.imps ?? null,
    bankNeft: d?.neft ?? null,
    bankRtgs: d?.rtgs ?? null,
    bankUpi: d?.upi ?? null,
    requestId: requestId ?? null,
    verifiedAt: at,
  };
}

/** A final INVALID result from the API refusing the account or IFSC. */
export function invalidResult(account: string, ifsc: string, mode: VerifyMode, error: VasError, at: number): NewResult {
  return {
    account, ifsc, mode, status: 'INVALID', reason: error.message, beneficiaryName: null, transactionRemark: null,
    bankName: null, bankBranch: null, bankCity: null, bankDistrict: null, bankState: null, bankMicr: null,
    bankIso3166: null, bankSwift: null, bankImps: null, bankNeft: null, bankRtgs: null, bankUpi: null,
    requestId: error.requestId ?? null, verifiedAt: at,
  };
}

/** The outcome an earlier run left for this payee, if it left one (DONE, DEFERRED, FAILED, UNCONFIRMED). */
export function outcomeOfRecord(store: BankStore, record: PayeeRecord): PayeeOutcome | undefined {
  switch (record.status) {
    case 'DONE': {
      const result = record.result ?? (record.resultId === null ? undefined : store.getResult(record.resultId));
      if (!result) return undefined;
      return { status: result.status, reason: result.reason ?? '', source: record.source ?? 'api', result, requestId: record.requestId ?? result.requestId ?? '' };
    }
    case 'DEFERRED':
    case 'FAILED':
    case 'UNCONFIRMED':
      return { status: record.status, reason: record.reason ?? '', source: 'api', result: undefined, requestId: record.requestId ?? '' };
    default:
      return undefined;
  }
}

/** A payee met for the first time in this run, at data row `firstRow`. */
export function newPayee(account: string, ifsc: string, firstRow: number): PayeeRecord {
  return { payee: `${account}|${ifsc}`, account, ifsc, firstRow, status: 'PENDING', mode: null, source: null, reason: null, resultId: null, requestId: null, dueAt: null, attempts: 0 };
}

export function deferralReason(dueAt: number): string {
  return `daily transaction limit reached for this account: deferred until ${formatIst(dueAt)} (the next midnight in India); re-run with --resume then`;
}
