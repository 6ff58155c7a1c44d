/**
 * What a bank answer's beneficiary name may be before it is stored (README, Security): a name is
 * cut at MAX_STORED_NAME_CHARS (a 900,000-character "name" is not one, and would be written whole
 * into the state file and the CSV), and a name that arrived as invalid UTF-8 — decoded to U+FFFD —
 * is not passed off as verified: the row becomes NOT_VERIFIED with a reason that says why.
 */
import type { BankResult } from './schemas.js';

/** Longest beneficiary name stored and written; longer names are cut and end in "…". */
export const MAX_STORED_NAME_CHARS = 300;

/** The reason given to a row whose name could not be decoded. */
export const UNDECODABLE_NAME_REASON =
  'the beneficiary name in the answer is not valid UTF-8 (undecodable bytes shown as \ufffd): not verified, check this account by hand';

export function checkBankResult(result: BankResult): BankResult {
  const name = result.beneficiaryName;
  if (name === null) return result;
  let checked = result;
  if (name.length > MAX_STORED_NAME_CHARS) {
    checked = { ...checked, beneficiaryName: `${name.slice(0, MAX_STORED_NAME_CHARS - 1)}…` };
  }
  if (name.includes('\ufffd') && result.verificationStatus === 'VERIFIED') {
    checked = { ...checked, verificationStatus: 'NOT_VERIFIED', transactionRemark: UNDECODABLE_NAME_REASON };
  }
  return checked;
}
