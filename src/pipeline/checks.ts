/**
 * Local checks that cost nothing: a row that fails them is INVALID and never sent.
 * They also recognise the damage spreadsheets do to long numbers, and say how to undo it.
 */
import { isLostDigitsText } from '../input/xlsx-stream.js';

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

/** The zero of each block of decimal digits a payee sheet may be typed in: Devanagari, Bengali, Gurmukhi, Gujarati, Odia, Tamil, Telugu, Kannada, Malayalam, Arabic-Indic. */
const DIGIT_ZEROS = [0x0966, 0x09e6, 0x0a66, 0x0ae6, 0x0b66, 0x0be6, 0x0c66, 0x0ce6, 0x0d66, 0x0660, 0x06f0];
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const OTHER_DIGIT = /[\u0660-\u0669\u06f0-\u06f9\u0966-\u096f\u09e6-\u09ef\u0a66-\u0a6f\u0ae6-\u0aef\u0b66-\u0b6f\u0be6-\u0bef\u0c66-\u0c6f\u0ce6-\u0cef\u0d66-\u0d6f]/g;

/**
 * A cell as the checks read it: full-width forms folded (NFKC: １２３ is 123), digits of the Indian
 * scripts read as the digits they are (१२३ is 123), and invisible format characters (a zero-width
 * space pasted from a web page, a BOM) dropped.
 */
function plainCell(value: string): string {
  // Most cells are printable ASCII, which none of this changes.
  if (PRINTABLE_ASCII.test(value)) return unwrapSpreadsheetText(value);
  return unwrapSpreadsheetText(value.normalize('NFKC').replace(/\p{Cf}/gu, '')).replace(OTHER_DIGIT, (d) => {
    const cp = d.codePointAt(0)!;
    const zero = DIGIT_ZEROS.find((z) => cp >= z && cp <= z + 9)!;
    return String(cp - zero);
  });
}

/** The first character of `text` that is not a digit, as a reason can show it (an invisible one by its code point). */
function firstNonDigit(text: string): string {
  const ch = [...text].find((c) => !/\d/.test(c)) ?? '';
  return /^[\p{L}\p{N}\p{P}\p{S}]$/u.test(ch) ? `"${ch}"` : `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

export function checkAccount(raw: string): { ok: true; account: string } | { ok: false; reason: string } {
  const text = plainCell(raw);
  if (text === '') return { ok: false, reason: 'account number is empty' };
  // A spreadsheet's number cell past 15 digits: Excel kept 15 and the rest may be gone, whatever
  // the cell shows (9.87654E+15 in General format, 9876543210987650 with no decimals).
  if (isLostDigitsText(text)) {
    return {
      ok: false,
      reason: `account number is stored as a number in the spreadsheet, and a number keeps only 15 significant digits (this one has ${text.replace(/^-/, '').length}: it may have lost its last digits): format the account column as Text and type the account again`,
    };
  }
  if (/^[+-]?\d+(\.\d+)?e[+-]?\d+$/i.test(text)) {
    return {
      ok: false,
      reason: `account number is in scientific notation (${text}): a spreadsheet turned it into a number and lost digits; ${REEXPORT}`,
    };
  }
  const digits = text.replace(/[\s-]/g, '');
  if (/^\d+\.0+$/.test(digits)) {
    return { ok: false, reason: `account number has a decimal part (${digits.length} characters): ${REEXPORT}` };
  }
  if (!/^\d+$/.test(digits)) return { ok: false, reason: `account number must contain only digits (it has ${firstNonDigit(digits)})` };
  // Spreadsheets keep 15 significant digits and pad the rest with zeros. One trailing zero on a
  // 16-digit number is as likely a real account (one in ten end in 0) as damage, and a real
  // account rejected here could never be verified; from two zeros on, damage is the safe bet.
  if (/^\d{15}0{2,3}$/.test(digits)) {
    return {
      ok: false,
      reason: `account number has ${digits.length} digits ending in zeros past the 15th: a spreadsheet probably lost its last digits; ${REEXPORT}`,
    };
  }
  if (digits.length < 9 || digits.length > 18) {
    return { ok: false, reason: `account number must have 9 to 18 digits, it has ${digits.length}` };
  }
  return { ok: true, account: digits };
}

export function checkIfsc(raw: string): { ok: true; ifsc: string } | { ok: false; reason: string } {
  const ifsc = plainCell(raw).toUpperCase().replace(/\s+/g, '');
  if (ifsc === '') return { ok: false, reason: 'IFSC is empty' };
  if (ifsc.length !== 11) return { ok: false, reason: `IFSC must be 11 characters, it has ${ifsc.length}` };
  if (!/^[A-Z]{4}/.test(ifsc)) return { ok: false, reason: 'IFSC must start with 4 letters (the bank code)' };
  if (ifsc[4] !== '0') {
    return { ok: false, reason: `IFSC's 5th character must be the digit zero, it is "${ifsc[4]}"` };
  }
  if (!/^[A-Z]{4}0[A-Z0-9]{6}$/.test(ifsc)) return { ok: false, reason: 'IFSC must end with 6 letters or digits' };
  return { ok: true, ifsc };
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
