/**
 * Rows of a payee file that are not payees (docs/ARCHITECTURE.md, "Layout", src/input/): blank
 * rows, total and subtotal rows, header lines repeated on every printed page, notes and footers
 * ("Prepared by …"). They are copied to the output in place, SKIPPED, and never called. A row with
 * a payee's name but no account number is a payee row (it is INVALID, with its reason).
 */
import { nameColumnsOf, nameIn, type ColumnMap } from './recognise.js';
import { BUSINESS_DESCRIPTORS, LEGAL_FORMS } from '../match/lexicon.js';

const TOTAL = /^(grand\s*)?(sub\s*-?\s*)?totals?\b|\btotal\s*:|\b(grand|sub\s*-?\s*|hash\s*)total\b|^net\s+(pay(able)?|amount|salary)\b|^amount\s+payable\b/i;
/**
 * The total words of the Indian languages whose headers the aliases read (src/input/aliases.ts):
 * Hindi कुल / योग / महायोग, Marathi एकूण, Gujarati કુલ, Bengali মোট / সর্বমোট, Tamil மொத்தம்,
 * Telugu మొత్తం, Kannada ಒಟ್ಟು, Malayalam ആകെ / മൊത്തം, Punjabi ਕੁੱਲ, Odia ମୋଟ; at the cell's start,
 * alone or before a sum word (कुल योग, कुल राशि, மொத்தம் தொகை), a colon, a number or a bracket
 * (कुल: 6000, कुल 5 कर्मचारी). A name that goes on in letters is a name: कुलदीप, योगेश, योग राज.
 */
const TOTAL_INDIAN = /^(उप\s*-?\s*|উপ\s*-?\s*|துணை\s*)?(कुल|योग|महायोग|एकूण|કુલ|মোট|সর্বমোট|மொத்தம்|మొత్తం|ಒಟ್ಟು|ആകെ|മൊത്തം|ਕੁੱਲ|ਕੁਲ|ମୋଟ)(\s*(योग|जोड़|राशि|रकम|रक्कम|धनराशि|தொகை|మొత్తం|ಮೊತ್ತ|തുക|টাকা|রাশি|રકમ|ਰਕਮ))?(?=\s*($|[^\p{L}\p{M}\s]))/u;
/** A cell that is only a total's label: Total, Grand Total, Sub-Total, Hash Total, Control Total, Total Amount, Totals:. */
const TOTAL_LABEL = /^\s*(grand\s+|sub\s*-?\s*|hash\s+|control\s+|batch\s+)?totals?(\s+(amount|value|payable|of\s+accounts?))?\s*:?\s*$/i;
const SUBTOTAL = /sub\s*-?\s*total|^(उप|উপ|துணை)\s*-?\s*(कुल|योग|মোট|மொத்தம்)/iu;
const isTotal = (cell: string) => TOTAL.test(cell) || TOTAL_INDIAN.test(cell);
/** An amount or a count: what a control-total row holds. */
const NUMBER = /^[-+]?[\d,. ]*\d[\d,. ]*$/;
const ACCOUNT = /^\d{9,18}$/;
const NOTE = /^(prepared|checked|verified|approved|authori[sz]ed|signature|signatory|note|notes|remarks?|generated|printed|page \d)\b|^[^:]{1,30}:\s/i;
/**
 * A sign-off cell: who prepared, checked and approved the sheet. A footer of them spans as many
 * columns as there are signatories (`Prepared by, Checked by, Verified by, Approved by, Authorised
 * Signatory`), so under the account and the IFSC headers too; it holds no digit, which every
 * account number and IFSC has.
 */
const SIGN_OFF = /^(prepared|checked|verified|reviewed|approved|authori[sz]ed|signature|signatory|sign|maker|checker|approver|accountant|manager|director|cashier)\b/i;
/**
 * Whether a name cell names a firm: a legal form (Ltd, Pvt, LLP) or a line of business (Traders,
 * Solutions, Enterprises), from the name matcher's lexicon. Such a cell is a payee's, whatever
 * total word it holds (`Amount Payable Ltd`, `Total Solutions`, `Net Amount Traders`): INVALID
 * without an account, never SKIPPED, since a skipped row is copied into the payout file. Any
 * other label with a total word (`Total Amount Paid`, `Grand Total (A+B)`) is a total.
 */
function namesAFirm(text: string): boolean {
  const words = text.toLowerCase().match(/[a-z]+/g) ?? [];
  return words.some((w) => LEGAL_FORMS.has(w) || BUSINESS_DESCRIPTORS.has(w));
}

/** The reasons notPayeeReason gives a total or subtotal row (a release names these rows when it leaves payees out). */
const TOTAL_ROW = 'a total row';
const SUBTOTAL_ROW = 'a subtotal row';

/** Whether a notPayeeReason is a total's: a row whose sums count the payees above it. */
export function isTotalRow(reason: string | undefined): boolean {
  return reason === TOTAL_ROW || reason === SUBTOTAL_ROW;
}

/** Why a data row is not a payee row ("a total row"), or undefined for a payee row. */
export function notPayeeReason(fields: readonly string[], header: readonly string[], columns: ColumnMap): string | undefined {
  const cells = fields.map((f) => f.trim());
  if (cells.every((c) => c === '')) return 'a blank row';
  if (cells.length === header.length && cells.every((c, i) => c.toLowerCase() === header[i]!.trim().toLowerCase())) return 'a repeated header line';
  const cell = (index: number) => (index >= 0 ? (cells[index] ?? '') : '');
  const filled = cells.filter((c) => c !== '');
  // Two or more sign-off cells and nothing else: a lone name cell (`Manager Singh`) stays a payee's.
  if (filled.length >= 2 && filled.every((c) => SIGN_OFF.test(c) && !/\d/.test(c))) return 'a note';
  // In a footer's few cells, words without a digit under the account or the IFSC header are a
  // label ("Total", "Approved by"), not a mistyped account or IFSC: every account number and IFSC
  // has digits. A row of many cells is a payee's, however wrong its account (INVALID, not skipped:
  // a row taken for a footer would be copied into the payout file).
  const label = (text: string) => filled.length <= 3 && !/\d/.test(text);
  const account = label(cell(columns.account)) ? '' : cell(columns.account);
  const ifsc = label(cell(columns.ifsc)) ? '' : cell(columns.ifsc);
  // A total row may put its sum under the account header (Odoo's payment advice does), or a hash
  // total of the account numbers: with no IFSC, and no account number or no payee name, a
  // "Total" makes it a total row.
  const noAccount = account === '' || !ACCOUNT.test(account.replace(/[\s-]/g, ''));
  const name = nameIn(cells, nameColumnsOf(columns));
  // A name cell that is a total's label and nothing else (`Hash Total`, `Control Total:`, `कुल योग`)
  // names no payee: the number beside it is the sum, even shaped like an account (a hash total of
  // the account numbers).
  // (A lone कुल or योग may be a name: two words, कुल योग, कुल राशि, are the label.)
  const labelled = (text: string) => TOTAL_LABEL.test(text) || (TOTAL_INDIAN.test(text) && /\s/.test(text.trim()) && /^[\s:.-]*$/.test(text.replace(TOTAL_INDIAN, '')));
  if (ifsc === '' && (((noAccount || name === '') && filled.some(isTotal)) || labelled(name)) && !namesAFirm(name)) {
    return filled.some((c) => SUBTOTAL.test(c)) ? SUBTOTAL_ROW : TOTAL_ROW;
  }
  // Anything else with an account number or an IFSC is a payee row: the row checks judge it.
  if (account !== '' || ifsc !== '') return undefined;
  // A footer may sit in the name column: "Prepared by: …", "Note: …", "Page 2 of 3". A note
  // carries no amount: a name with a colon and an amount is a payee's ("Kumar Traders - Attn: Ravi").
  const amount = columns.amount === undefined ? '' : cell(columns.amount);
  if (filled.length <= 2 && filled.some((c) => NOTE.test(c)) && !(name !== '' && NUMBER.test(amount))) return 'a note';
  if (name !== '') return undefined;
  if (filled.every((c) => NUMBER.test(c))) return TOTAL_ROW;
  return 'a note';
}
