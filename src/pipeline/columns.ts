/**
 * The bank run's columns of the enriched file (docs/ARCHITECTURE.md, "Output columns"): the input
 * columns unchanged, then these, each row's cells from its outcome, formula-neutralised. The file
 * itself is written by src/output/.
 */
import type { RowDecision, VerifyReasonCode } from '../decision/index.js';
import type { ResultRecord } from '../state/types.js';

export const APPENDED_COLUMNS = [
  'verify_status',
  'verify_reason',
  'verify_reason_code',
  'beneficiary_name',
  'name_match',
  'name_match_score',
  'transaction_remark',
  'penny_drop',
  'bank_name',
  'bank_branch',
  'bank_city',
  'bank_district',
  'bank_state',
  'bank_micr',
  'bank_iso3166',
  'bank_swift',
  'bank_imps',
  'bank_neft',
  'bank_rtgs',
  'bank_upi',
  'verify_source',
  'verify_request_id',
  'verified_at',
  'changed_since',
  'decision',
  'decision_reason',
  'payee_check',
] as const;

/** SKIPPED: a row that is not a payee (blank, total, repeated header, note), copied through, never called. */
export type RowStatus = 'VERIFIED' | 'NOT_VERIFIED' | 'INVALID' | 'DEFERRED' | 'FAILED' | 'UNCONFIRMED' | 'SKIPPED';
export type RowSource = 'api' | 'reuse' | 'duplicate' | 'local';

export interface RowOutcome {
  status: RowStatus;
  reason: string;
  source: RowSource | '';
  result: ResultRecord | undefined;
  requestId: string;
  nameMatch?: { result: string; score: number } | undefined;
  /** verify_reason_code, and the row's decision (src/decision/): filled in as the row leaves. */
  reasonCode?: VerifyReasonCode | undefined;
  decision?: RowDecision | undefined;
}

/** The appended columns for this input: the name-match pair only when a name column exists. */
export function appendedColumns(hasName: boolean): string[] {
  return APPENDED_COLUMNS.filter((c) => hasName || (c !== 'name_match' && c !== 'name_match_score'));
}

/**
 * OWASP CSV injection: a cell starting with = + - @, tab or CR (or their full-width forms) is
 * read as a formula by spreadsheets. Prefixing a single quote makes it text. Line feeds inside
 * a cell are flattened as well, so an API value cannot forge rows in naive readers.
 */
const DANGEROUS_START = /^[=+\-@\t\r\n\uFF1D\uFF0B\uFF0D\uFF20]/;
const LINE_BREAK = /[\r\n]/;
export function neutralise(value: string): string {
  // Nearly every cell is harmless: answer it without building a new string.
  if (!LINE_BREAK.test(value) && !DANGEROUS_START.test(value)) return value;
  const flat = value.replace(/[\r\n]+/g, ' ');
  return DANGEROUS_START.test(value) || DANGEROUS_START.test(flat) ? `'${flat}` : flat;
}

function cell(value: string | null | undefined): string {
  return value === null || value === undefined ? '' : neutralise(value);
}
function flag(value: boolean | null | undefined): string {
  return value === null || value === undefined ? '' : value ? 'true' : 'false';
}

/** `registry`: the IFSC registry's bank name (used where the API gave none) and its note for verify_reason. */
export function outcomeCells(outcome: RowOutcome, hasName: boolean, registry?: { bankName: string | null; note: string }): string[] {
  const r = outcome.result;
  const note = registry?.note ?? '';
  const cells = [
    outcome.status,
    cell(note === '' ? outcome.reason : outcome.reason === '' ? note : `${outcome.reason}; ${note}`),
    outcome.reasonCode ?? '',
    cell(r?.beneficiaryName),
  ];
  if (hasName) {
    cells.push(outcome.nameMatch?.result ?? '', outcome.nameMatch ? String(outcome.nameMatch.score) : '');
  }
  cells.push(
    cell(r?.transactionRemark),
    r ? (r.mode === 'pd' ? 'true' : 'false') : '',
    cell(r?.bankName ?? registry?.bankName),
    cell(r?.bankBranch),
    cell(r?.bankCity),
    cell(r?.bankDistrict),
    cell(r?.bankState),
    cell(r?.bankMicr),
    cell(r?.bankIso3166),
    cell(r?.bankSwift),
    flag(r?.bankImps),
    flag(r?.bankNeft),
    flag(r?.bankRtgs),
    flag(r?.bankUpi),
    outcome.source,
    cell(outcome.requestId || r?.requestId),
    r ? new Date(r.verifiedAt).toISOString() : '',
    cell(r?.changedSince),
    outcome.decision?.decision ?? '',
    outcome.decision?.reason ?? '',
    outcome.decision?.payeeCheck ?? '',
  );
  return cells;
}
