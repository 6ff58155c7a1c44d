/**
 * What a bank answer's beneficiary name may be before it is stored (README, Security): a name is
 * cut at MAX_STORED_NAME_CHARS (a 900,000-character "name" is not one, and would be written whole
 * into the state file and the CSV), and a name that arrived as invalid UTF-8 — decoded to U+FFFD —
 * is not passed off as verified: the row becomes NOT_VERIFIED with a reason that says why. The
 * name, the remark and the branch details are stored and written, so they are redacted like error
 * text (a gateway that echoes headers into a success answer must not get a token into the CSV),
 * and each is cut like the name.
 */
import type { BankResult, IfscDetails } from './schemas.js';
import { redact } from '../redact.js';

/** Longest beneficiary name (and transaction remark) stored and written; longer ones are cut and end in "…". */
export const MAX_STORED_NAME_CHARS = 300;

/** The reason given to a row whose name could not be decoded. */
export const UNDECODABLE_NAME_REASON =
  'the beneficiary name in the answer is not valid UTF-8 (undecodable bytes shown as \ufffd): not verified, check this account by hand';

export function checkBankResult(result: BankResult): BankResult {
  let checked = result;
  const details = result.ifscDetails === null ? null : checkedDetails(result.ifscDetails);
  if (details !== result.ifscDetails) checked = { ...checked, ifscDetails: details };
  const remark = result.transactionRemark;
  if (remark !== null) {
    const clean = cut(redact(remark));
    if (clean !== remark) checked = { ...checked, transactionRemark: clean };
  }
  const name = result.beneficiaryName === null ? null : redact(result.beneficiaryName);
  if (name === null) return checked;
  if (name !== result.beneficiaryName) checked = { ...checked, beneficiaryName: name };
  if (name.length > MAX_STORED_NAME_CHARS) checked = { ...checked, beneficiaryName: cut(name) };
  if (name.includes('\ufffd') && result.verificationStatus === 'VERIFIED') {
    checked = { ...checked, verificationStatus: 'NOT_VERIFIED', transactionRemark: UNDECODABLE_NAME_REASON };
  }
  return checked;
}

/** The branch details with every text field redacted and cut (the same object when nothing changed). */
function checkedDetails(details: IfscDetails): IfscDetails {
  let checked = details;
  // for…in, not Object.entries: no array of pairs for every answer's fourteen fields.
  for (const field in details) {
    const value = details[field as keyof IfscDetails];
    if (typeof value !== 'string') continue;
    const clean = cut(redact(value));
    if (clean !== value) checked = { ...checked, [field]: clean };
  }
  return checked;
}

function cut(text: string): string {
  return text.length > MAX_STORED_NAME_CHARS ? `${text.slice(0, MAX_STORED_NAME_CHARS - 1)}…` : text;
}
