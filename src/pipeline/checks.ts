/**
 * Local checks that cost nothing: a row that fails them is INVALID and never sent.
 * They also recognise the damage spreadsheets do to long numbers, and say how to undo it.
 */
import { isLostDigitsText, isSpreadsheetError } from '../input/xlsx-stream.js';

export type CheckResult =
  | { ok: true; account: string; ifsc: string }
  | { ok: false; reason: string };

const REEXPORT = 're-export the file with the account column formatted as Text';

/** Excel writes `="0123"` to keep leading zeros, and `'0123` marks text; both are unwrapped. */
export function unwrapSpreadsheetText(value: string): string {
  let text = value.trim();
  const formula = /^=\s*"(.*)"$/.exec(text);
  if (formula) text = formula[1]!.trim();
  if (text.startsWith("'")) text = text.slice(1).trim();
  return text;
}

/** Why a cell holding a spreadsheet error value is not `what`, or undefined. */
function spreadsheetErrorReason(text: string, what: string): string | undefined {
  if (!isSpreadsheetError(text)) return undefined;
  return `${what} is the spreadsheet error ${text}: the formula that fills the cell failed (a lookup that found nothing, a reference to a deleted cell); fix the formula, or copy the column and paste it as values`;
}

/** Decimal digits of another script or width: what they are typed as, for the reason. */
const OTHER_DIGITS: readonly { zero: number; name: string }[] = [
  { zero: 0x0966, name: 'Devanagari' }, { zero: 0x09e6, name: 'Bengali' }, { zero: 0x0a66, name: 'Gurmukhi' },
  { zero: 0x0ae6, name: 'Gujarati' }, { zero: 0x0b66, name: 'Odia' }, { zero: 0x0be6, name: 'Tamil' },
  { zero: 0x0c66, name: 'Telugu' }, { zero: 0x0ce6, name: 'Kannada' }, { zero: 0x0d66, name: 'Malayalam' },
  { zero: 0x0660, name: 'Arabic-Indic' }, { zero: 0x06f0, name: 'Arabic-Indic' }, { zero: 0xff10, name: 'full-width' },
];

/**
 * Why a cell that is not all digits is not an account number, naming its first other character.
 * Digits of an Indian script or full-width ones, and invisible characters (a zero-width space
 * pasted from a web page), are named as such: they are not read as the digits they look like,
 * since the row's cell goes into the payout file as it is and a bank's upload reads 0-9 only.
 */
function notDigitsReason(text: string, what: string): string {
  const ch = [...text].find((c) => !/[0-9]/.test(c)) ?? '';
  const cp = ch.codePointAt(0) ?? 0;
  const script = OTHER_DIGITS.find((d) => cp >= d.zero && cp <= d.zero + 9);
  if (script) return `${what} is typed in ${script.name} digits (${ch}): retype it in the digits 0-9, the only ones a bank's upload reads`;
  if (/^\p{Cf}$/u.test(ch)) return `${what} holds an invisible character (${codePoint(ch)}, pasted with it from a web page or a PDF): retype the cell`;
  return `${what} must contain only digits (it has ${/^[\p{L}\p{N}\p{P}\p{S}]$/u.test(ch) ? `"${ch}"` : codePoint(ch)})`;
}

/** A character as U+XXXX. */
function codePoint(ch: string): string {
  return `U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** 15 significant digits and zeros after them: what a spreadsheet leaves of a longer number. */
const PADDED_PAST_15 = /^\d{15}0{2,3}$/;

/** `what`: the cell's name in the reason (default `account number`; the confirm column's own, see checkConfirmAccount). */
export function checkAccount(raw: string, what = 'account number'): { ok: true; account: string } | { ok: false; reason: string } {
  const text = unwrapSpreadsheetText(raw);
  if (text === '') return { ok: false, reason: `${what} is empty` };
  const error = spreadsheetErrorReason(text, what);
  if (error !== undefined) return { ok: false, reason: error };
  // A spreadsheet's number cell past 15 digits: Excel kept 15 and the rest may be gone, whatever
  // the cell shows (9.87654E+15 in General format, 9876543210987650 with no decimals).
  if (isLostDigitsText(text)) {
    return {
      ok: false,
      reason: `${what} is stored as a number in the spreadsheet, and a number keeps only 15 significant digits (this one has ${text.replace(/^-/, '').length}: it may have lost its last digits): format the account column as Text and type the account again`,
    };
  }
  if (/^[+-]?\d+(\.\d+)?e[+-]?\d+$/i.test(text)) {
    return {
      ok: false,
      reason: `${what} is in scientific notation (${text}): a spreadsheet turned it into a number and lost digits; ${REEXPORT}`,
    };
  }
  const digits = text.replace(/[\s-]/g, '');
  if (/^\d+\.0+$/.test(digits)) {
    return { ok: false, reason: `${what} has a decimal part (${digits.length} characters): ${REEXPORT}` };
  }
  if (!/^[0-9]+$/.test(digits)) return { ok: false, reason: notDigitsReason(digits, what) };
  // Spreadsheets keep 15 significant digits and pad the rest with zeros. One trailing zero on a
  // 16-digit number is as likely a real account (one in ten end in 0) as damage, and a real
  // account rejected here could never be verified; from two zeros on, damage is the safe bet.
  if (PADDED_PAST_15.test(digits)) {
    return {
      ok: false,
      reason: `${what} has ${digits.length} digits ending in zeros past the 15th: a spreadsheet probably lost its last digits; ${REEXPORT}`,
    };
  }
  if (digits.length < 9 || digits.length > 18) {
    return { ok: false, reason: `${what} must have 9 to 18 digits, it has ${digits.length}` };
  }
  return { ok: true, account: digits };
}

/**
 * The cross-check of a row's account number (already checked: `account` is its digits) with the
 * cell of the column that repeats it ("Confirm Account Number"), read the same way: spaces and
 * hyphens dropped, `="0123"` and `'0123` unwrapped. An empty cell is not checked (many templates
 * leave it empty). Digits that are not the account's (a typo in either cell) fail with both
 * masked to their last four; a cell a spreadsheet damaged (1.23457E+11, digits past the 15th) or
 * that is not digits fails with the account check's own reason, naming the confirm column.
 * `column`: the confirm column's header, for the reason.
 */
export function checkConfirmAccount(account: string, raw: string, column: string): { ok: true; checked: boolean } | { ok: false; reason: string } {
  const text = unwrapSpreadsheetText(raw);
  const digits = text.replace(/[\s-]/g, '');
  if (digits === '') return { ok: true, checked: false };
  const shown = JSON.stringify(column.length > 40 ? `${column.slice(0, 40)}…` : column);
  const what = `confirm account number (column ${shown})`;
  const confirm = checkAccount(raw, what);
  // Digits that are no account (too few, too many) differ from the account like any other typo; damage is named as damage.
  const typed = confirm.ok ? confirm.account : /^[0-9]+$/.test(digits) && !isLostDigitsText(text) && !PADDED_PAST_15.test(digits) ? digits : undefined;
  if (typed === undefined) return { ok: false, reason: (confirm as { reason: string }).reason };
  if (typed === account) return { ok: true, checked: true };
  const differ = typed.length === account.length
    ? `first differ at digit ${[...account].findIndex((d, i) => d !== typed[i]) + 1}`
    : `differ (the account number has ${account.length} digits, its confirmation ${typed.length})`;
  return {
    ok: false,
    reason: `account number ${maskAccount(account)} and its confirmation ${maskAccount(typed)} (column ${shown}) ${differ}: one of them is mistyped, so the row was not verified and nothing was called; check the account number with the payee, correct the wrong cell and run again`,
  };
}

export function checkIfsc(raw: string): { ok: true; ifsc: string } | { ok: false; reason: string } {
  const error = spreadsheetErrorReason(unwrapSpreadsheetText(raw), 'IFSC');
  if (error !== undefined) return { ok: false, reason: error };
  const ifsc = unwrapSpreadsheetText(raw).toUpperCase().replace(/\s+/g, '');
  const other = /[^\x20-\x7e]/u.exec(ifsc)?.[0];
  if (other !== undefined) {
    return { ok: false, reason: `IFSC holds ${/^\p{Cf}$/u.test(other) ? 'an invisible character' : `"${other}"`} (${codePoint(other)}): retype it in the letters A-Z and digits 0-9` };
  }
  if (ifsc === '') return { ok: false, reason: 'IFSC is empty' };
  if (ifsc.length !== 11) return { ok: false, reason: `IFSC must be 11 characters, it has ${ifsc.length}` };
  if (!/^[A-Z]{4}/.test(ifsc)) return { ok: false, reason: 'IFSC must start with 4 letters (the bank code)' };
  if (ifsc[4] !== '0') {
    return { ok: false, reason: `IFSC's 5th character must be the digit zero, it is "${ifsc[4]}"` };
  }
  if (!/^[A-Z]{4}0[A-Z0-9]{6}$/.test(ifsc)) return { ok: false, reason: 'IFSC must end with 6 letters or digits' };
  return { ok: true, ifsc };
}

/**
 * The cross-check of a row's IFSC (already checked: `ifsc` is its code) with the cell of the column
 * that repeats it ("Confirm IFSC Code"), read as the IFSC is: `="…"` and `'…` unwrapped, spaces
 * dropped, upper case. An empty cell is not checked. Another code fails naming both: the account
 * would be verified at one branch's bank and paid at the other's. `column`: the confirm column's
 * header, for the reason.
 */
export function checkConfirmIfsc(ifsc: string, raw: string, column: string): { ok: true; checked: boolean } | { ok: false; reason: string } {
  const typed = unwrapSpreadsheetText(raw).toUpperCase().replace(/\s+/g, '');
  if (typed === '') return { ok: true, checked: false };
  if (typed === ifsc) return { ok: true, checked: true };
  const shown = JSON.stringify(column.length > 40 ? `${column.slice(0, 40)}…` : column);
  const error = spreadsheetErrorReason(unwrapSpreadsheetText(raw), `confirm IFSC (column ${shown})`);
  if (error !== undefined) return { ok: false, reason: error };
  const other = /^[\x21-\x7e]{1,20}$/.test(typed) ? JSON.stringify(typed) : 'a value that is no IFSC';
  return {
    ok: false,
    reason: `IFSC ${ifsc} and its confirmation ${other} (column ${shown}) differ: one of them is mistyped, so the row was not verified and nothing was called; check the IFSC with the payee, correct the wrong cell and run again`,
  };
}

export function checkRow(accountRaw: string, ifscRaw: string): CheckResult {
  const account = checkAccount(accountRaw);
  const ifsc = checkIfsc(ifscRaw);
  if (!account.ok && !ifsc.ok) return { ok: false, reason: `${account.reason}; ${ifsc.reason}` };
  if (!account.ok) return account;
  if (!ifsc.ok) return ifsc;
  return { ok: true, account: account.account, ifsc: ifsc.ifsc };
}

/** Account numbers in logs show the last four digits only. */
export function maskAccount(account: string): string {
  return account.length <= 4 ? '****' : `${'x'.repeat(Math.min(8, account.length - 4))}${account.slice(-4)}`;
}

/** Masks every run of 9–18 digits in free text (messages from the API may quote the account). */
export function maskDigits(text: string): string {
  // Only free-standing runs: digits inside a longer token (a UUID, a request id) are not accounts.
  return text.replace(/(?<![0-9A-Za-z-])\d{9,18}(?![0-9A-Za-z-])/g, (m) => maskAccount(m));
}
