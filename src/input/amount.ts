/**
 * An amount cell as payout files write it: `1,23,456.78`, `₹ 5,000`, `Rs. 500/-`, `INR 1200.50`,
 * `(250.00)` for a negative; and as a European-locale Excel writes it: `2.500,00`, `2500,5`.
 * Pure; the summary adds the amounts held and to review.
 */
const CURRENCY = /^(?:₹|rs\.?|inr|rupees)\s*/i;
const NUMBER = /^-?\d+(?:\.\d+)?$/;

/**
 * The digits with a decimal point: a comma is a decimal comma when it is the last separator, one or
 * two digits follow it and the digits before it are grouped by dots or are four or more (`2.500,00`,
 * `2500,75`): Indian and English grouping always puts three digits after the last comma (`1,00,000`,
 * `1,000`). Several dots group thousands (`1.000.000`). Undefined for a shape no reading is safe for.
 */
function withDecimalPoint(text: string): string | undefined {
  const comma = text.lastIndexOf(',');
  const dot = text.lastIndexOf('.');
  if (comma > dot && /^,\d{1,2}$/.test(text.slice(comma))) {
    const whole = text.slice(0, comma);
    // 2.500,00 or 2500,75; not 50,00, which could be a mistyped 5,000 as well as 50.00.
    if (/^-?(\d{4,}|\d{1,3}(\.\d{3})+)$/.test(whole)) return `${whole.replace(/\./g, '')}.${text.slice(comma + 1)}`;
  }
  // 1.000.000: dots grouping thousands (a European export), no decimals.
  if (/^-?\d{1,3}(\.\d{3}){2,}$/.test(text)) return text.replace(/\./g, '');
  // A dot before a comma that is not a decimal comma (1.000,000): no reading is safe.
  if (dot !== -1 && comma > dot) return undefined;
  return text.replace(/,/g, '');
}

/** The cell's value in rupees, or undefined when it is not an amount. */
export function parseAmount(cell: string): number | undefined {
  let text = cell.trim().replace(CURRENCY, '').replace(/\/-$/, '').replace(/\s/g, '');
  let sign = 1;
  if (/^\(.*\)$/.test(text)) {
    sign = -1;
    text = text.slice(1, -1);
  }
  const plain = withDecimalPoint(text);
  if (plain === undefined || !NUMBER.test(plain)) return undefined;
  const value = Number(plain) * sign;
  return Number.isFinite(value) ? value : undefined;
}

/** Amounts by decision (rupees), and the cells that were not amounts. */
export interface AmountsByDecision {
  PAY: number;
  REVIEW: number;
  HOLD: number;
  unreadable: number;
}

/** Adds an amount cell to its decision's total (a cell that is not an amount is counted apart). */
export function addAmount(amounts: AmountsByDecision, decision: string, cell: string): void {
  const value = parseAmount(cell);
  if (value === undefined) amounts.unreadable += 1;
  // Paise kept exact: sums of two-decimal amounts in floating point drift.
  else if (decision === 'PAY' || decision === 'REVIEW' || decision === 'HOLD') amounts[decision] = Math.round((amounts[decision] + value) * 100) / 100;
}

/** Header words of an amount column (after headerKey's folding: lower case, punctuation to spaces). */
const AMOUNT_HEADER = /(^| )(amount|amt|net pay|net salary|salary|payable|transfer value|payment value|value rs|rs|inr|राशि|रकम|रक्कम|धनराशि|தொகை|మొత్తం|ಮೊತ್ತ|തുക|টাকা|রাশি|રકમ|ਰਕਮ)( |$)|₹/u;

/** Whether a header names an amount (its key as headerKey folds it). */
export function isAmountHeader(key: string): boolean {
  return AMOUNT_HEADER.test(key);
}
