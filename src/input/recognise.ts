/**
 * Which line is the header and which columns hold the account number, the IFSC and the payee's
 * name (docs/ARCHITECTURE.md, "Layout", src/input/). Pure: it is handed the first records of the
 * file and returns its choice with the reasons, or throws a ColumnError that says what to do.
 * Modelled on fast-csv's HeaderTransformer: one small class, one job, tested alone.
 */
import { createHash } from 'node:crypto';
import { isAmountHeader, parseAmount } from './amount.js';
import { ColumnError } from '../errors.js';
import { confirmMeaning, headerKey, headerMeaning, OTHER_PERSON_WORDS, payeeWordIn, RANK_ORDER, type Rank, type Role } from './aliases.js';
import { isLostDigitsText, isSpreadsheetError } from './xlsx-stream.js';
import { ifscRegistry } from './ifsc-registry.js';

export interface ColumnOverrides {
  account?: string | undefined;
  ifsc?: string | undefined;
  name?: string | undefined;
  /** `--confirm-account-col`: the column repeating the account number to confirm it. */
  confirm?: string | undefined;
  /** `--confirm-ifsc-col`: the column repeating the IFSC to confirm it. */
  confirmIfsc?: string | undefined;
}

export interface ColumnMap {
  account: number;
  ifsc: number;
  /** -1 when the file has no name column (name matching is then left out). */
  name: number;
  /**
   * A name split into parts (First, Middle and Last Name): the columns joined, in that order, into
   * the payee's name (nameIn); `name` is then the first of them. Absent for a name in one column.
   */
  nameParts?: number[] | undefined;
  /** The amount to pay each payee; -1 when the file has none (the summary then adds no amounts). */
  amount?: number | undefined;
  /**
   * The column that repeats the account number to confirm it ("Confirm Account Number",
   * "Re-enter A/c No"); each payee row's two cells are cross-checked (src/pipeline/checks.ts,
   * checkConfirmAccount). Absent when the file has none.
   */
  confirm?: number | undefined;
  /** The column that repeats the IFSC to confirm it ("Confirm IFSC Code"), cross-checked alike (checkConfirmIfsc). */
  confirmIfsc?: number | undefined;
}

/** A record as the readers give it: its fields and the 1-based line where it starts. */
export interface SourceRecord {
  fields: string[];
  line: number;
}

/** What decided a choice, for the summary's `input.columnChoice` and the log. */
export type DecidedBy = 'flag' | 'header' | 'content' | 'header and content';

export interface HeaderChoice {
  /** Index of the header among the records handed in (records before it are the preamble). */
  headerIndex: number;
  /** 1-based line of the header in the file. */
  headerLine: number;
  header: string[];
  columns: ColumnMap;
  /** The headers taken, for the summary (`nameParts`: a name split over columns, joined in this order). */
  names: { account: string; ifsc: string; name: string | null; nameParts?: string[] };
  /** What decided each choice (the summary's `input.columnChoice`); `confirmAccount` and `confirmIfsc` only where one is cross-checked. */
  decidedBy: { account: DecidedBy; ifsc: DecidedBy; name: DecidedBy | null; confirmAccount?: DecidedBy; confirmIfsc?: DecidedBy };
  /** One line per choice, for the run log. */
  reasons: string[];
  /** One line per column with its header meaning and content scores (`--explain-columns`). */
  explain: string[];
}

export interface RecogniserOptions {
  overrides?: ColumnOverrides | undefined;
  /** `--header-row N`: the header is the record starting at line N. */
  headerRow?: number | undefined;
  /** Where the records are, for the header's line in the log: a workbook's sheet (`in sheet "Payees"`). Default: nothing said. */
  place?: string | undefined;
}

/** The header is looked for within this many lines. */
export const HEADER_SEARCH_LINES = 20;
/** Data rows looked at for the content checks and scores. */
export const SAMPLE_ROWS = 300;
/** An account column with one value on at least this many rows (and every sampled row) is a debit account. */
export const CONSTANT_ACCOUNT_MIN_ROWS = 3;
/** Rows with both cells from which a confirm column must equal the account on at least half. */
export const CONFIRM_MIN_PAIRS = 4;
/** Share of a column's values that must have a shape for the column to be taken by it. */
const SHAPE_SHARE = 0.8;

/** Longest header shown in a message: a damaged file can have a header of megabytes. */
const HEADER_SHOWN_CHARS = 40;

export function listHeaders(headers: readonly string[]): string {
  const shown = headers
    .slice(0, 30)
    .map((h) => JSON.stringify(h.length > HEADER_SHOWN_CHARS ? `${h.slice(0, HEADER_SHOWN_CHARS)}…` : h))
    .join(', ');
  return headers.length > 30 ? `${shown}, … (${headers.length} in all)` : shown || '(none)';
}

const ROLES: readonly Role[] = ['account', 'ifsc', 'name'];
const FLAGS: Readonly<Record<Role, string>> = { account: '--account-col', ifsc: '--ifsc-col', name: '--name-col' };
const WHAT: Readonly<Record<Role, string>> = { account: 'account number', ifsc: 'IFSC', name: 'payee name' };

interface Candidate {
  index: number;
  header: string;
  /** A payee name split over columns (given name, middle name, surname): their indices, in that order. */
  parts?: number[];
  /** `none`: no alias says so; the column is a candidate by its content alone. */
  rank: Rank | 'explicit' | 'none';
  why: string;
  by: DecidedBy;
}

/** Rank order with content-only candidates between a weak header and the payer's own. */
function rankValue(rank: Candidate['rank']): number {
  if (rank === 'explicit') return 10;
  return rank === 'none' ? 0.5 : RANK_ORDER[rank];
}

function isBlank(fields: readonly string[]): boolean {
  return fields.every((f) => f.trim() === '');
}

function quoteFlag(role: Role, header: string): string {
  return `${FLAGS[role]} ${JSON.stringify(header)}`;
}

/** IFSC-shaped, leniently: a letter O for the zero is still an IFSC column (the row check says why it fails). */
const IFSC_SHAPE = /^[A-Z]{4}[0O][A-Z0-9]{6}$/;
const MICR_SHAPE = /^\d{9}$/;
const ACCOUNT_SHAPE = /^\d{9,18}$/;
/** A long number in a spreadsheet's scientific notation (5.01002E+13). */
const DAMAGED_NUMBER = /^\d(\.\d+)?E\+?0?(1[0-7]|[89])$/i;
/** Letters, spaces and the punctuation of names; no digits, no @. */
const NAME_SHAPE = /^[\p{L}\p{M}][\p{L}\p{M} .,'’&()/-]*$/u;
/** Columns whose header says they hold another number (phone, Aadhaar, UAN, reference…): never taken as the account by content. */
const NOT_ACCOUNT_WORDS = new Set(['mob', 'universal', 'provident', 'insurance', 'tel', 'telephone', 'cell', 'fax', 'landline', 'whatsapp', 'pran', 'uid', 'ppo', 'card', 'roll', 'enrolment', 'enrollment', 'admission', 'application', 'consumer', 'registration', 'personnel', 'passport', 'epf', 'gpf', 'crn', 'staff', 'phone', 'mobile', 'contact', 'aadhaar', 'aadhar', 'uan', 'esi', 'esic', 'pan', 'amount', 'amt', 'umrn', 'utr', 'rrn', 'reference', 'ref', 'refno', 'id', 'code', 'date', 'micr', 'pin', 'pincode', 'zip', 'cheque', 'folio', 'invoice', 'sequence', 'seq', 'serial', 'sr', 'sno', 'txn', 'transaction', 'lei', 'salary', 'balance', 'mandate', 'va', 'virtual', 'loan', 'policy', 'gstin', 'cin', 'tan', 'pf', 'employee', 'emp',
  // The same in the languages state-scheme sheets are headed in (DBT lists carry Aadhaar and
  // mobile numbers beside the account): Aadhaar, mobile, phone, amount.
  'आधार', 'मोबाइल', 'मोबाईल', 'फोन', 'फ़ोन', 'दूरभाष', 'संपर्क', 'राशि', 'रक्कम', 'रकम', 'धनराशि',
  'আধার', 'মোবাইল', 'ফোন', 'টাকা', 'পরিমাণ', 'આધાર', 'મોબાઇલ', 'ફોન', 'રકમ', 'ஆதார்', 'கைபேசி', 'மொபைல்', 'தொலைபேசி', 'தொகை',
  'ఆధార్', 'మొబైల్', 'ఫోన్', 'మొత్తం', 'ಆಧಾರ್', 'ಮೊಬೈಲ್', 'ದೂರವಾಣಿ', 'ಮೊತ್ತ', 'ആധാർ', 'മൊബൈൽ', 'ഫോൺ', 'തുക',
  'ਆਧਾਰ', 'ਮੋਬਾਈਲ', 'ਫ਼ੋਨ', 'ਫੋਨ', 'ਰਕਮ', 'ଆଧାର', 'ମୋବାଇଲ']);
/** Header words of a contact beside a firm ("Contact Person", "Attn Name", "SPOC"): a vendor's contact, not the account's holder. */
const CONTACT_WORDS = new Set(['contact', 'attention', 'attn', 'spoc', 'poc', 'representative', 'signatory', 'authorised', 'authorized', 'concerned']);
/** A column of payees' names differs on at least this share of its rows (a payer's is one name, or a group's few). */
const PAYEES_DISTINCT_SHARE = 0.8;
/** A payer-worded column read as a list of payees' names needs this many rows: three rows of three group companies say nothing. */
const FIRM_LIST_MIN_ROWS = 10;
/** Columns whose header says they hold another text (bank, branch, status…): never taken as the payee's name by content. */
const NOT_NAME_WORDS = new Set(['बैंक', 'बँक', 'शाखा', 'ব্যাংক', 'બેંક', 'வங்கி', 'బ్యాంక్', 'ಬ್ಯಾಂಕ್', 'ബാങ്ക്', 'ਬੈਂਕ', 'bank', 'branch', 'city', 'state', 'district', 'address', 'email', 'mode', 'type', 'status', 'remark', 'remarks', 'reason', 'description', 'purpose', 'category', 'scheme', 'frequency', 'month', 'designation', 'unit', 'company', 'corporate', 'business', 'currency', 'location', 'product', 'narration', 'department', 'country', 'speed', 'method', 'provider', 'user', 'utility', 'merchant', 'client']);

/** Which part of a payee's name a column holds when an export splits it (HR and payroll systems: First, Middle and Last Name). */
type NamePart = 'first' | 'middle' | 'last';
/**
 * "<word> name": First Name, Given Name, Middle Name, Last Name, Family Name, Sur Name; Hindi
 * पहला / मध्य / अंतिम नाम. Not "F Name" or "M Name" (FName, MName): Indian school and scheme sheets
 * write the father's and the mother's name so; nor उपनाम, which is also a nickname.
 */
const NAME_PART_BEFORE_NAME: Readonly<Record<string, NamePart>> = {
  first: 'first', given: 'first', fore: 'first', पहला: 'first', प्रथम: 'first',
  middle: 'middle', मध्य: 'middle',
  last: 'last', family: 'last', sur: 'last', अंतिम: 'last',
};
/** One word: Forename, Surname, LName; firstName and lastName as one word. */
const NAME_PART_WORD: Readonly<Record<string, NamePart>> = {
  forename: 'first', firstname: 'first', givenname: 'first', middlename: 'middle',
  surname: 'last', lname: 'last', lastname: 'last', familyname: 'last',
};
/** Header words of a person the payee lists beside themself (an emergency contact, a dependant, a guarantor): their name parts are not the payee's. */
const NOT_PAYEE_PART_WORDS = new Set(['emergency', 'kin', 'reference', 'referee', 'dependant', 'dependent', 'child', 'children', 'guarantor', 'co', 'joint', 'minor', 'alternate', 'alt', 'previous', 'old', 'maiden', 'nick', 'nickname', 'preferred', 'display']);
/** "… as per bank", "… in bank": the name as the bank has it, which a part keeps ("First Name As Per Bank"). */
const AS_PER_BANK = / (as per|as in|in) bank( records?| account)?$/;
const NAME_PART_ORDER: readonly NamePart[] = ['first', 'middle', 'last'];

/**
 * The part of a split name a header names ("Employee First Name", "Surname", "First Name As Per
 * Bank") and the words in front of it (`whose`: "employee"), or undefined; never someone else's
 * (Father's First Name, Contact First Name, Emergency Contact Last Name) or a firm's.
 */
function namePartOf(header: string): { part: NamePart; whose: string } | undefined {
  const words = headerKey(header).replace(AS_PER_BANK, '').split(' ');
  if (words.some((w) => NOT_NAME_WORDS.has(w) || OTHER_PERSON_WORDS.has(w) || CONTACT_WORDS.has(w) || NOT_PAYEE_PART_WORDS.has(w))) return undefined;
  const last = words.at(-1) ?? '';
  const one = NAME_PART_WORD[last];
  if (one !== undefined) return { part: one, whose: words.slice(0, -1).join(' ') };
  const part = (last === 'name' || last === 'नाम') && words.length >= 2 ? NAME_PART_BEFORE_NAME[words.at(-2)!] : undefined;
  return part === undefined ? undefined : { part, whose: words.slice(0, -2).join(' ') };
}

/**
 * A payee name split over columns, as HR and payroll systems export it (First Name, Middle Name,
 * Last Name; Forename and Surname): one column of each part at most, a given name and a surname
 * both there, each holding names (or nothing, in the rows read: a middle name most rows lack).
 * Joined in that order they are the name the bank holds; either part alone would hold every
 * row whose holder has a surname. Undefined when the file does not split a name so; else the
 * columns and the log's line.
 */
function splitName(header: readonly string[], stats: readonly ColumnStats[], taken: ReadonlySet<number | undefined>): { name: Candidate; reason: string } | undefined {
  const found = new Map<NamePart, number[]>();
  const whose = new Set<string>();
  header.forEach((h, index) => {
    const read = taken.has(index) ? undefined : namePartOf(h);
    const s = stats[index]!;
    if (read === undefined || !(s.n === 0 || isNameColumn(s))) return;
    found.set(read.part, [...(found.get(read.part) ?? []), index]);
    whose.add(read.whose);
  });
  // One person's parts: the same words in front of each ("Employee First Name", "Employee Last Name").
  if (whose.size > 1) return undefined;
  const one = (part: NamePart) => (found.get(part)?.length === 1 ? found.get(part)![0] : undefined);
  const first = one('first');
  const last = one('last');
  // An empty given-name column in the rows read is no name; with no rows at all (a header read alone, resolveColumns) the headers decide.
  const noRows = stats.every((s) => s.n === 0);
  if (first === undefined || last === undefined || (found.get('middle')?.length ?? 0) > 1 || (stats[first]!.n === 0 && !noRows)) return undefined;
  const parts = NAME_PART_ORDER.map((part) => found.get(part)?.[0]).filter((index): index is number => index !== undefined);
  const list = parts.map((index) => `${index + 1} ${JSON.stringify(header[index])}`);
  const joined = `${list.slice(0, -1).join(', ')} and ${list.at(-1)}`;
  const content = parts.map((index) => `${JSON.stringify(header[index])} ${describeContent('name', stats[index]!)}`).join('; ');
  return {
    name: { index: first, header: header[first]!, parts, rank: 'none', why: 'a name split into parts', by: 'header and content' },
    reason: `${WHAT.name}: columns ${joined}, joined in that order (a name split into given name${parts.length === 3 ? ', middle name' : ''} and surname); by their content: ${content}`,
  };
}

function cellOf(fields: readonly string[], index: number): string {
  // ="0123", '0123: how spreadsheets keep digits as text.
  return (fields[index] ?? '').trim().replace(/^="?|"$|^'/g, '').trim();
}

const COMBINED = /^(\d[\d -]{7,22}\d)\s*[/|,;:-]?\s*([A-Za-z]{4}[0Oo][A-Za-z0-9]{6})$|^([A-Za-z]{4}[0Oo][A-Za-z0-9]{6})\s*[/|,;:-]?\s*(\d[\d -]{7,22}\d)$/;

/** "1234567890 / SBIN0001234" (either order): the account and the IFSC, or undefined. */
function splitCombined(value: string): { account: string; ifsc: string } | undefined {
  const m = COMBINED.exec(value.trim());
  if (!m) return undefined;
  return m[1] !== undefined ? { account: m[1], ifsc: m[2]! } : { account: m[4]!, ifsc: m[3]! };
}

/** The columns a row's payee name is read from: its one name column, its parts (First, Middle, Last Name), or none. */
export function nameColumnsOf(columns: ColumnMap): readonly number[] {
  return columns.nameParts ?? (columns.name >= 0 ? [columns.name] : []);
}

/** A row's payee name: the cell of its name column, or the non-empty cells of its name parts joined by a space. */
export function nameIn(fields: readonly string[], nameColumns: readonly number[]): string {
  if (nameColumns.length === 1) return fields[nameColumns[0]!] ?? '';
  let name = '';
  for (const index of nameColumns) {
    const part = (fields[index] ?? '').trim();
    if (part !== '') name = name === '' ? part : `${name} ${part}`;
  }
  return name;
}

/**
 * The account and IFSC cells of a row. When both are in one column (the account and IFSC
 * columns are the same), the cell is split; a cell that does not split is all account (its
 * row is INVALID for its missing IFSC).
 */
export function payeeCells(fields: readonly string[], columns: ColumnMap): { account: string; ifsc: string } {
  const account = fields[columns.account] ?? '';
  if (columns.account !== columns.ifsc) return { account, ifsc: fields[columns.ifsc] ?? '' };
  return splitCombined(account) ?? { account, ifsc: '' };
}

/**
 * The amount column: a header that names an amount and values that are amounts (`1,23,456.78`,
 * `₹ 500`, `Rs. 500/-`) in at least SHAPE_SHARE of the sampled rows; the first such column that
 * is not the account, IFSC or name. -1 when there is none: no header word alone decides it.
 */
function chooseAmount(header: readonly string[], sample: readonly SourceRecord[], taken: readonly number[]): number {
  return header.findIndex((text, index) => {
    if (taken.includes(index) || !(isAmountHeader(headerKey(text)) || text.includes('₹'))) return false;
    // A header that names an account ("Salary A/c") is no amount, whatever word it shares with one.
    if (headerMeaning(text)?.role === 'account') return false;
    let values = 0;
    let amounts = 0;
    let accounts = 0;
    for (const record of sample) {
      const value = cellOf(record.fields, index);
      if (value === '') continue;
      values += 1;
      if (parseAmount(value) !== undefined) amounts += 1;
      if (ACCOUNT_SHAPE.test(value.replace(/[\s-]/g, ''))) accounts += 1;
    }
    // Whole numbers of 9-18 digits on most rows are account numbers, not crores paid to each payee.
    return values > 0 && amounts >= values * SHAPE_SHARE && accounts * 2 < values;
  });
}

/** What a column's first values look like. */
interface ColumnStats {
  /** Non-empty values. */
  n: number;
  ifsc: number;
  /** Of the IFSC-shaped values, those under a bank code that issues IFSCs (the shipped registry, src/input/ifsc-registry.ts). */
  ifscBank: number;
  micr: number;
  account: number;
  names: number;
  /** Values holding an account number and an IFSC together. */
  combined: number;
  /** Long numbers a spreadsheet damaged (5.01002E+13, digits past the 15th lost): account numbers that were. */
  damaged: number;
  /** A digest of the column's sampled values (spaces and hyphens dropped, upper case): two columns alike hold the same. */
  values: string;
  distinct: number;
}

function columnStats(sample: readonly SourceRecord[], index: number): ColumnStats {
  const stats: ColumnStats = { n: 0, ifsc: 0, ifscBank: 0, micr: 0, account: 0, names: 0, combined: 0, damaged: 0, distinct: 0, values: '' };
  const seen = new Set<string>();
  // A digest, not the values: 300 sampled fields of megabytes each are no string to keep.
  const values = createHash('sha1');
  for (const record of sample) {
    const value = cellOf(record.fields, index);
    // A formula's error value (#N/A) tells nothing of what the column holds.
    if (value === '' || isSpreadsheetError(value)) continue;
    stats.n += 1;
    seen.add(value.toUpperCase());
    const compact = value.toUpperCase().replace(/[\s-]/g, '');
    values.update(compact).update('\u0000');
    if (IFSC_SHAPE.test(compact)) {
      stats.ifsc += 1;
      if (ifscRegistry().isBank(compact.slice(0, 4))) stats.ifscBank += 1;
    } else if (MICR_SHAPE.test(compact)) stats.micr += 1;
    if (ACCOUNT_SHAPE.test(compact)) stats.account += 1;
    else if (DAMAGED_NUMBER.test(compact) || isLostDigitsText(value.trim())) stats.damaged += 1;
    if (NAME_SHAPE.test(value) && value.length >= 2 && !IFSC_SHAPE.test(compact)) stats.names += 1;
    if (splitCombined(value)) stats.combined += 1;
  }
  stats.distinct = seen.size;
  stats.values = values.digest('base64');
  return stats;
}

/** Columns whose header confirms the account number or the IFSC (`role`; aliases.ts, confirmMeaning), by their header alone. */
function confirmCandidates(header: readonly string[], role: 'account' | 'ifsc'): Candidate[] {
  return header.flatMap((h, index): Candidate[] => {
    const meaning = confirmMeaning(h);
    return meaning?.role === role ? [{ index, header: h, rank: meaning.rank, why: meaning.why, by: 'header' }] : [];
  });
}

/** A column named by a flag: its header exactly, trimmed, or by its key. -1 when none. */
function findNamed(header: readonly string[], named: string): number {
  let index = header.indexOf(named);
  if (index < 0) index = header.findIndex((h) => h.trim() === named.trim());
  if (index < 0 && headerKey(named) !== '') index = header.findIndex((h) => headerKey(h) === headerKey(named));
  return index;
}

/** How a would-be confirm column's first values compare with the account column's on the same rows. */
interface ConfirmAgreement {
  /** Its non-empty values. */
  values: number;
  /** Of them, 9–18 digits (spaces and hyphens dropped). */
  shaped: number;
  /** Rows where it and the account both have a value. */
  pairs: number;
  /** Of them, rows where the two are the same digits. */
  equal: number;
  /** Whether it is the account's confirmation: empty so far, or account numbers, mostly the account's own. */
  fits: boolean;
}

/** What a confirm column confirms: its flag, the field in words, and the shape its values take. */
const CONFIRMED = {
  account: { flag: '--confirm-account-col', what: 'account number', shape: 'of 9-18 digits' },
  ifsc: { flag: '--confirm-ifsc-col', what: 'IFSC', shape: 'IFSC-shaped' },
} as const;

function confirmAgreement(role: 'account' | 'ifsc', sample: readonly SourceRecord[], columns: ColumnMap, index: number): ConfirmAgreement {
  const agree = { values: 0, shaped: 0, pairs: 0, equal: 0 };
  // Read as the row checks read them: an account's digits; an IFSC in upper case, spaces dropped.
  const read = role === 'account'
    ? (value: string) => cellOf([value], 0).replace(/[\s-]/g, '')
    : (value: string) => cellOf([value], 0).toUpperCase().replace(/\s+/g, '');
  const shaped = role === 'account' ? ACCOUNT_SHAPE : IFSC_SHAPE;
  for (const record of sample) {
    const confirm = read(record.fields[index] ?? '');
    if (confirm === '') continue;
    agree.values += 1;
    if (shaped.test(confirm)) agree.shaped += 1;
    const cells = payeeCells(record.fields, columns);
    const own = read(role === 'account' ? cells.account : cells.ifsc);
    if (own === '') continue;
    agree.pairs += 1;
    if (own === confirm) agree.equal += 1;
  }
  // Mostly the field's own (at least half) once there are enough rows to say; on fewer, the
  // header and the shape decide (one mistyped row of two must not hide the column).
  const mostlyEqual = agree.pairs < CONFIRM_MIN_PAIRS || agree.equal * 2 >= agree.pairs;
  const fits = agree.values === 0 || (agree.shaped >= agree.values * SHAPE_SHARE && mostlyEqual);
  return { ...agree, fits };
}

/** IFSCs, or IFSCs mixed with MICR codes (NACH sheets), with IFSCs at least as many. */
function isIfscColumn(s: ColumnStats): boolean {
  return s.n > 0 && s.ifsc > 0 && s.ifsc >= s.micr && s.ifsc + s.micr >= s.n * SHAPE_SHARE;
}

function isAccountColumn(s: ColumnStats): boolean {
  return s.n > 0 && s.account >= s.n * SHAPE_SHARE;
}

/**
 * A column whose header names the account holds account numbers even where a spreadsheet damaged
 * some or all of them (5.01002E+13): beside a column of staff or mobile numbers that kept their
 * digits, it is still the account column (its damaged rows are INVALID, saying so).
 */
function holdsAccounts(s: ColumnStats): boolean {
  return s.n > 0 && s.account + s.damaged >= s.n * SHAPE_SHARE && s.account + s.damaged > 0;
}

function isNameColumn(s: ColumnStats): boolean {
  return s.n > 0 && s.names >= s.n * SHAPE_SHARE;
}

function varies(s: ColumnStats): boolean {
  return s.distinct > 1;
}

/**
 * IFSC-shaped values that are IFSCs: under bank codes that issue them (the registry), on at least
 * SHAPE_SHARE of them. An employee code (ACME0001234) has the shape and no bank: between the two,
 * the bank's codes are the IFSC column, even with one branch on every row (a salary file whose
 * staff all bank at the employer's branch).
 */
function atIfscBanks(s: ColumnStats): boolean {
  return s.ifsc > 0 && s.ifscBank >= s.ifsc * SHAPE_SHARE;
}

function headerWords(header: string): string[] {
  return headerKey(header).split(' ');
}

/**
 * NOT_ACCOUNT_WORDS that only say "a number of some kind": beside the words "account number" they
 * say nothing against it ("Payer Account Number Code", "Account Number Ref" hold account numbers).
 */
const GENERIC_NUMBER_WORDS = new Set(['code', 'id', 'ref', 'refno', 'reference', 'serial', 'sequence', 'seq', 'sr', 'sno']);

/** Whether a header says its column holds another number than an account (a phone, a UAN, a reference…). */
function saysOtherNumber(header: string): boolean {
  const key = headerKey(header);
  const words = key.split(' ');
  const account = words.includes('account');
  // "Staff No", "Roll No", "PPO Number", "Card ID": a number of something that is not an account.
  if (!account && words.length >= 2 && NUMBER_WORDS.has(words.at(-1)!)) return true;
  return words.some((w) => NOT_ACCOUNT_WORDS.has(w) && !(account && GENERIC_NUMBER_WORDS.has(w)));
}

/** Last words of a header that name a number of something ("Staff No": the staff's, not an account). */
const NUMBER_WORDS = new Set(['number', 'id', 'code', 'ref', 'refno', 'sno']);

/** Whether a record looks like a payee row: an IFSC-shaped cell and a 9–18-digit cell. */
function looksLikePayeeRow(fields: readonly string[]): boolean {
  const cells = fields.map((_, i) => cellOf(fields, i).toUpperCase().replace(/[\s-]/g, ''));
  return cells.some((c) => IFSC_SHAPE.test(c)) && cells.some((c) => ACCOUNT_SHAPE.test(c));
}

export class HeaderRecogniser {
  private readonly overrides: ColumnOverrides;
  private readonly headerRow: number | undefined;
  private readonly place: string | undefined;

  constructor(options: RecogniserOptions = {}) {
    this.overrides = options.overrides ?? {};
    this.headerRow = options.headerRow;
    this.place = options.place;
  }

  /**
   * `records`: the file's first records, blank lines included, through at least SAMPLE_ROWS data
   * rows after the header (or to the end of the file).
   */
  recognise(records: readonly SourceRecord[]): HeaderChoice {
    if (records.every((r) => isBlank(r.fields))) throw new ColumnError('input has no header row');
    const headerIndex = this.findHeader(records);
    const header = records[headerIndex]!.fields;
    // A header holds column names. A line with an IFSC and an account number is a payee (a bank
    // upload file saved without a header row): taken as the header, it would be called for nothing
    // and copied into the output and the payout file as it is, never verified.
    if (looksLikePayeeRow(header)) throw this.noHeaderRow(records[headerIndex]!.line, 'a payee (an IFSC and an account number)');
    // Header lines repeated on every printed page are not values.
    const headerKeys = header.map((h) => h.trim().toLowerCase()).join('\u0000');
    const sample = records.slice(headerIndex + 1)
      .filter((r) => !isBlank(r.fields) && r.fields.map((f) => f.trim().toLowerCase()).join('\u0000') !== headerKeys)
      .slice(0, SAMPLE_ROWS);
    const stats = header.map((_, i) => columnStats(sample, i));
    try {
      return this.choose(records, headerIndex, sample, stats);
    } catch (error) {
      // `--explain-columns` shows the scores when they are needed most: when no column could be chosen.
      if (error instanceof ColumnError) error.explain ??= explainColumns(header, stats);
      throw error;
    }
  }

  /** The columns of the header at `headerIndex`, from its names and the sampled rows' `stats`. */
  private choose(records: readonly SourceRecord[], headerIndex: number, sample: readonly SourceRecord[], stats: readonly ColumnStats[]): HeaderChoice {
    const header = records[headerIndex]!.fields;
    const reasons: string[] = [];
    let ifsc = this.chooseIfsc(header, stats, reasons);
    // No IFSC column, but one column holds "account / IFSC" in every row: both are read from it.
    const combined = ifsc ? undefined : this.chooseCombined(header, stats, reasons);
    ifsc ??= combined;
    const account = combined ?? this.chooseAccount(header, stats, ifsc, reasons);
    const name = this.chooseName(header, stats, account, ifsc, reasons);
    const confirm = account && ifsc && !combined ? this.chooseConfirm('account', header, sample, account, ifsc, reasons) : undefined;
    const confirmIfsc = account && ifsc && !combined ? this.chooseConfirm('ifsc', header, sample, account, ifsc, reasons) : undefined;
    const missing = (['account', 'ifsc'] as const).filter((role) => !(role === 'account' ? account : ifsc));
    if (missing.length > 0) throw new ColumnError(this.missingMessage(missing, header, records, headerIndex));
    this.checkIsHeader(header, records[headerIndex]!.line, account!, ifsc!);
    this.checkContent(account!, ifsc!, name, sample);
    const amount = chooseAmount(header, sample, [account!.index, ifsc!.index, ...(name?.parts ?? [name?.index ?? -1]), confirm ?? -1, confirmIfsc ?? -1]);
    if (amount >= 0) reasons.push(`amount: column ${amount + 1} "${header[amount]}" (its header names an amount and its values are amounts)`);
    const line = records[headerIndex]!.line;
    reasons.unshift(`header found at line ${line}${this.place === undefined ? '' : ` ${this.place}`}${this.headerRow === undefined ? '' : ' (--header-row)'}${headerIndex > 0 ? `; the ${headerIndex} line(s) above it are copied to the output unchanged` : ''}`);
    return {
      headerIndex,
      headerLine: line,
      header,
      columns: {
        account: account!.index, ifsc: ifsc!.index, name: name?.index ?? -1, ...(name?.parts === undefined ? {} : { nameParts: name.parts }), ...(amount >= 0 ? { amount } : {}),
        ...(confirm === undefined ? {} : { confirm }), ...(confirmIfsc === undefined ? {} : { confirmIfsc }),
      },
      names: { account: account!.header, ifsc: ifsc!.header, name: name?.header ?? null, ...(name?.parts === undefined ? {} : { nameParts: name.parts.map((index) => header[index]!) }) },
      // A confirm column is taken by its header and its values agreeing with the account's (the IFSC's), or named.
      decidedBy: {
        account: account!.by, ifsc: ifsc!.by, name: name?.by ?? null,
        ...(confirm === undefined ? {} : { confirmAccount: this.overrides.confirm !== undefined ? 'flag' as const : 'header and content' as const }),
        ...(confirmIfsc === undefined ? {} : { confirmIfsc: this.overrides.confirmIfsc !== undefined ? 'flag' as const : 'header and content' as const }),
      },
      reasons,
      explain: explainColumns(header, stats),
    };
  }

  /**
   * The first line (of the first 20) whose headers name an account and an IFSC column and is not
   * followed by another such line (the last of such lines one under another); else the
   * line above the first row whose cells hold an IFSC and an account number; or the forced one.
   */
  private findHeader(records: readonly SourceRecord[]): number {
    if (this.headerRow !== undefined) {
      const index = records.findIndex((r) => r.line === this.headerRow);
      if (index < 0 || isBlank(records[index]!.fields)) {
        throw new ColumnError(`--header-row ${this.headerRow}: line ${this.headerRow} is ${index < 0 ? 'not the start of a record in the first lines of the input' : 'blank'}`);
      }
      return index;
    }
    const within = (i: number) => i < records.length && records[i]!.line <= HEADER_SEARCH_LINES;
    const namesBoth = (i: number) => !isBlank(records[i]!.fields) && this.hasRole('account', records[i]!.fields) && this.hasRole('ifsc', records[i]!.fields);
    for (let i = 0; within(i); i += 1) {
      if (!namesBoth(i)) continue;
      // Payees follow their header: a line of column names with another one under it (a template's
      // list of mandatory fields, a group line above the header) is not it; the last of them is.
      let next = i + 1;
      while (next < records.length && isBlank(records[next]!.fields)) next += 1;
      if (within(next) && namesBoth(next)) continue;
      return i;
    }
    for (let i = 0; within(i + 1); i += 1) {
      if (!looksLikePayeeRow(records[i + 1]!.fields)) continue;
      let above = i;
      while (above >= 0 && isBlank(records[above]!.fields)) above -= 1;
      if (above >= 0 && !looksLikePayeeRow(records[above]!.fields)) return above;
      break;
    }
    // None has both: report on the line that came closest (the first non-blank one if none did).
    let best = records.findIndex((r) => !isBlank(r.fields));
    let bestScore = 0;
    for (let i = 0; within(i); i += 1) {
      const score = ROLES.filter((role) => this.candidates(role, records[i]!.fields).length > 0).length;
      if (score > bestScore) {
        best = i;
        bestScore = score;
      }
    }
    return best;
  }

  private hasRole(role: 'account' | 'ifsc', fields: readonly string[]): boolean {
    // A confirm header names its field too (a file that kept only that column).
    return this.candidates(role, fields).some((c) => c.rank !== 'payer') || (this.overrides[role] === undefined && confirmCandidates(fields, role).length > 0);
  }

  /** Every column whose header could hold `role`, with its rank; the named one alone when a flag names it. */
  private candidates(role: Role, header: readonly string[]): Candidate[] {
    const named = this.overrides[role];
    if (named !== undefined) {
      const index = findNamed(header, named);
      return index < 0 ? [] : [{ index, header: header[index]!, rank: 'explicit', why: `named by ${FLAGS[role]}`, by: 'flag' }];
    }
    const out: Candidate[] = [];
    header.forEach((h, index) => {
      const meaning = headerMeaning(h);
      if (meaning?.role === role) out.push({ index, header: h, rank: meaning.rank, why: meaning.why, by: 'header' });
    });
    return out;
  }

  /** The column named by a flag, or undefined when no flag names `role`. */
  private named(role: Role, header: readonly string[], reasons: string[]): Candidate | undefined {
    const named = this.overrides[role];
    if (named === undefined) return undefined;
    const all = this.candidates(role, header);
    if (all.length === 0) throw new ColumnError(`${FLAGS[role]} "${named}" is not a column of the input; headers found: ${listHeaders(header)}`);
    const chosen = all[0]!;
    const twins = header.flatMap((h, i) => (h === chosen.header ? [i + 1] : []));
    if (twins.length > 1) {
      throw new ColumnError(`header ${JSON.stringify(chosen.header)} names ${twins.length} columns (${twins.join(', ')}): rename all but one so that it is clear which one to use (${FLAGS[role]} cannot tell them apart)`);
    }
    reasons.push(`${WHAT[role]}: column ${chosen.index + 1} ${JSON.stringify(chosen.header)}, named by ${FLAGS[role]}`);
    return chosen;
  }

  /** The IFSC column is the one whose values are IFSCs, whatever its header; by its header when no values say. */
  private chooseIfsc(header: readonly string[], stats: readonly ColumnStats[], reasons: string[]): Candidate | undefined {
    const named = this.named('ifsc', header, reasons);
    if (named) return named;
    const byHeader = this.candidates('ifsc', header);
    const confirms = confirmCandidates(header, 'ifsc');
    const shaped: Candidate[] = stats.flatMap((s, index) => {
      if (!isIfscColumn(s)) return [];
      const h = byHeader.find((c) => c.index === index);
      return [h ? { ...h, by: 'header and content' as const } : { index, header: header[index]!, rank: 'none' as const, why: 'no header alias', by: 'content' as const }];
    });
    // The column confirming the IFSC ("Confirm IFSC Code") is never the IFSC while another holds IFSCs:
    // taken for it, the code verified and paid would be the confirmation's.
    const own = shaped.filter((c) => !confirms.some((f) => f.index === c.index));
    const alone = confirms.filter((c) => isIfscColumn(stats[c.index]!))
      .map((c) => ({ ...c, why: `${c.why}; taken as the IFSC: the file has no other IFSC column, so nothing is cross-checked`, by: 'header and content' as const }));
    const pool = own.length > 0 ? own : alone.length > 0 ? alone : byHeader.filter((c) => c.rank !== 'payer');
    return this.pick('ifsc', pool, stats, reasons);
  }

  /** The one column whose every value holds an account number and an IFSC ("1234567890 / SBIN0001234"). */
  private chooseCombined(header: readonly string[], stats: readonly ColumnStats[], reasons: string[]): Candidate | undefined {
    const pool: Candidate[] = stats.flatMap((s, index) => (s.n > 0 && s.combined === s.n ? [{ index, header: header[index]!, rank: 'none' as const, why: 'account and IFSC in one cell', by: 'content' as const }] : []));
    if (pool.length > 1) throw new ColumnError(tieMessage('ifsc', pool));
    const chosen = pool[0];
    if (chosen) reasons.push(`account number and IFSC: column ${chosen.index + 1} ${JSON.stringify(chosen.header)}, both in one cell on each of the first ${stats[chosen.index]!.n} row(s): split`);
    return chosen;
  }

  /**
   * The payees' account: a header alias or a varying 9–18-digit column. Varying beats constant (a
   * constant one is the payer's), then the header's qualifiers; a payer-qualified header
   * ("DebitAccountNo" in a mandate file) is taken only when it varies and nothing better does.
   */
  private chooseAccount(header: readonly string[], stats: readonly ColumnStats[], ifsc: Candidate | undefined, reasons: string[]): Candidate | undefined {
    const named = this.named('account', header, reasons);
    if (named) return named;
    const byHeader = this.candidates('account', header).filter((c) => c.index !== ifsc?.index);
    const byContent: Candidate[] = stats.flatMap((s, index) => {
      if (index === ifsc?.index || !isAccountColumn(s) || byHeader.some((c) => c.index === index)) return [];
      // The column confirming the account is never the account: it would tie with it, or be taken for it.
      if (saysOtherNumber(header[index]!) || confirmMeaning(header[index]!) !== undefined) return [];
      return [{ index, header: header[index]!, rank: 'none' as const, why: 'no header alias', by: 'content' as const }];
    });
    const shaped = [...byHeader.filter((c) => holdsAccounts(stats[c.index]!)).map((c) => ({ ...c, by: 'header and content' as const })), ...byContent];
    // No column holds account numbers (damaged by a spreadsheet, or no rows): the header decides, and the row checks say why.
    let pool = shaped.length > 0 ? shaped : byHeader;
    pool = pool.filter((c) => c.rank !== 'payer' || varies(stats[c.index]!));
    if (pool.length > 0) return this.pick('account', pool, stats, reasons);
    // Only a confirm column ("Re-enter Account No", the first one deleted): it holds the account
    // numbers, and there is nothing to cross-check it with. Taken, and said.
    const confirms = confirmCandidates(header, 'account').filter((c) => c.index !== ifsc?.index)
      .map((c) => ({ ...c, why: `${c.why}; taken as the account: the file has no other account column, so nothing is cross-checked` }));
    return this.pick('account', confirms, stats, reasons);
  }

  /**
   * The column repeating the account number (`role` account) or the IFSC to confirm it: named by
   * --confirm-account-col (--confirm-ifsc-col), or a confirm header (aliases.ts, confirmMeaning)
   * whose values are account numbers (IFSCs) mostly equal to the account's (the IFSC's) on the
   * same rows (or none yet: a template may leave it empty). A header that says so over other
   * values is passed over, and the log says why.
   */
  private chooseConfirm(role: 'account' | 'ifsc', header: readonly string[], sample: readonly SourceRecord[], account: Candidate, ifsc: Candidate, reasons: string[]): number | undefined {
    const { flag, what, shape } = CONFIRMED[role];
    const named = role === 'account' ? this.overrides.confirm : this.overrides.confirmIfsc;
    const taken = (index: number) => index === account.index || index === ifsc.index;
    const checked = `each row's ${what} is cross-checked with it (a row whose two differ is INVALID, not called`;
    if (named !== undefined) {
      const index = findNamed(header, named);
      if (index < 0) throw new ColumnError(`${flag} "${named}" is not a column of the input; headers found: ${listHeaders(header)}`);
      if (taken(index)) throw new ColumnError(`${flag} "${named}" is the ${index === account.index ? 'account number' : 'IFSC'} column itself: name the column that repeats the ${what}`);
      reasons.push(`confirm ${what}: column ${index + 1} ${JSON.stringify(header[index])}, named by ${flag}; ${checked})`);
      return index;
    }
    const columns: ColumnMap = { account: account.index, ifsc: ifsc.index, name: -1 };
    let best: { index: number; agree: ConfirmAgreement } | undefined;
    for (const c of confirmCandidates(header, role)) {
      if (taken(c.index)) continue;
      const agree = confirmAgreement(role, sample, columns, c.index);
      if (!agree.fits) {
        reasons.push(`column ${c.index + 1} ${JSON.stringify(c.header)}: its header reads as a confirm-${role === 'account' ? 'account' : 'IFSC'} column, but ${agree.values === 0 ? 'it holds nothing' : `${agree.equal} of its ${agree.pairs} value(s) beside ${role === 'account' ? 'an account number' : 'an IFSC'} equal it (${agree.shaped} of ${agree.values} ${shape})`}: not cross-checked (name it with ${flag} to cross-check it)`);
        continue;
      }
      if (!best || agree.equal > best.agree.equal) best = { index: c.index, agree };
    }
    if (!best) return undefined;
    const { index, agree } = best;
    const content = agree.values === 0 ? 'empty on the first rows' : `${agree.equal} of ${agree.pairs} value(s) equal to the ${what} on the same row`;
    reasons.push(`confirm ${what}: column ${index + 1} ${JSON.stringify(header[index])}, ${confirmMeaning(header[index]!)!.why}; by its content: ${content}; ${checked}; an empty cell is not checked)`);
    return index;
  }

  /**
   * The payee's name: a header alias (a payer-qualified one when the account taken is payer-qualified:
   * a collections or mandate file's payees are its remitters); else the one varying name-like column.
   */
  private chooseName(header: readonly string[], stats: readonly ColumnStats[], account: Candidate | undefined, ifsc: Candidate | undefined, reasons: string[]): Candidate | undefined {
    const named = this.named('name', header, reasons);
    if (named) return named;
    const payerSide = account?.rank === 'payer';
    // A payer-qualified name that is one value on every row is the payer's ("Corporate Name").
    const byHeader = this.candidates('name', header).flatMap((c): Candidate[] => {
      if (c.rank !== 'payer') return [c];
      return payerSide && varies(stats[c.index]!) ? [{ ...c, rank: 'payee' }] : [];
    });
    // Of several, the ones holding names ("x1" or codes under a "Supplier Name" header do not).
    const nameLike = byHeader.filter((c) => isNameColumn(stats[c.index]!)).map((c) => ({ ...c, by: 'header and content' as const }));
    if (byHeader.length > 0) return this.pick('name', nameLike.length > 0 ? nameLike : byHeader, stats, reasons);
    const taken = new Set([account?.index, ifsc?.index]);
    const byContent = stats.flatMap((s, index): Candidate[] => {
      if (taken.has(index) || !isNameColumn(s) || (s.n > 1 && !varies(s))) return [];
      if (headerWords(header[index]!).some((w) => NOT_NAME_WORDS.has(w) || OTHER_PERSON_WORDS.has(w))) return [];
      return [{ index, header: header[index]!, rank: 'none', why: 'no header alias', by: 'content' }];
    });
    // A split name, unless a column of whole names says it is the payee's ("Employee", "Name of the Staff").
    const split = splitName(header, stats, taken);
    if (split && !byContent.some((c) => !split.name.parts!.includes(c.index) && payeeWordIn(c.header) !== undefined)) {
      reasons.push(split.reason);
      return split.name;
    }
    // Only a contact's name beside a firm's that changes row by row: a vendor list's payee is the firm.
    if (byContent.every((c) => headerWords(c.header).some((w) => CONTACT_WORDS.has(w)))) {
      const firm = this.chooseFirmName(header, stats, taken, byContent, reasons);
      if (firm) return firm;
    }
    if (byContent.length === 0) {
      // Said, never silent: name matching is optional, and the log says it is left out.
      reasons.push(`${WHAT.name}: none: no column holds payee names; names are not compared (name one with --name-col)`);
      return undefined;
    }
    if (byContent.length === 1) return this.pick('name', byContent, stats, reasons);
    // Several: the one whose header says it is the payee's ("Employee" beside "Manager Name").
    const payees = byContent.flatMap((c) => {
      const word = payeeWordIn(c.header);
      return word === undefined ? [] : [{ ...c, why: `its header says whose ("${word}")` }];
    });
    if (payees.length === 1) {
      const chosen = payees[0]!;
      const others = byContent.filter((c) => c.index !== chosen.index).map((c) => JSON.stringify(c.header)).join(', ');
      reasons.push(`${WHAT.name}: column ${chosen.index + 1} ${JSON.stringify(chosen.header)}, ${chosen.why}; by its content: ${describeContent('name', stats[chosen.index]!)}; not ${others} (names, but its header names no payee)`);
      return chosen;
    }
    // Still several: name matching is left out (it is optional), and said, never silently.
    const list = byContent.map((c) => `${JSON.stringify(c.header)} (column ${c.index + 1})`).join(', ');
    reasons.push(`${WHAT.name}: none taken: ${byContent.length} columns hold names (${list}) and no header says which is the payee's; names are not compared. Name it with ${quoteFlag('name', byContent[0]!.header)} to compare them`);
    return undefined;
  }

  /**
   * A vendor or customer list's payee under a payer's word ("Company Name", "Client Name"): the
   * payer's own name is one name on every row (or a few, for a group's companies), a list's
   * payees differ on nearly every row. Taken only when no other column holds names but a
   * contact's ("Contact Person": whom to call, not whose account it is). Undefined otherwise.
   */
  private chooseFirmName(header: readonly string[], stats: readonly ColumnStats[], taken: ReadonlySet<number | undefined>, contacts: readonly Candidate[], reasons: string[]): Candidate | undefined {
    const firms = this.candidates('name', header).filter((c) => {
      const s = stats[c.index]!;
      return c.rank === 'payer' && !taken.has(c.index) && isNameColumn(s) && s.n >= FIRM_LIST_MIN_ROWS && s.distinct >= s.n * PAYEES_DISTINCT_SHARE;
    });
    if (firms.length !== 1) return undefined;
    const firm = firms[0]!;
    const passed = contacts.length === 0 ? '' : `; not ${contacts.map((c) => JSON.stringify(c.header)).join(', ')} (a contact's name, not the account holder's)`;
    reasons.push(`${WHAT.name}: column ${firm.index + 1} ${JSON.stringify(firm.header)}, its header reads as the payer's, but its names differ from row to row as a list of payees' do (the payer's own is one name on every row); by its content: ${describeContent('name', stats[firm.index]!)}${passed}`);
    return { ...firm, rank: 'payee', why: 'a payer-worded header over names that differ on every row', by: 'header and content' };
  }

  /** The best of `pool`: varying before constant, then by header rank; a true tie stops (exit 2). */
  private pick(role: Role, pool: readonly Candidate[], stats: readonly ColumnStats[], reasons: string[]): Candidate | undefined {
    if (pool.length === 0) return undefined;
    // An IFSC column's codes name banks before anything else tells it apart (atIfscBanks); then values that vary beat one on every row (the payer's); then the header.
    // An account column a spreadsheet damaged (5.01002E+13 on every row) may show one value: its header still says whose.
    const differ = (c: Candidate) => varies(stats[c.index]!) || (role === 'account' && c.rank !== 'none' && stats[c.index]!.damaged > 0);
    const score = (c: Candidate) => (role === 'ifsc' && atIfscBanks(stats[c.index]!) ? 200 : 0) + (differ(c) ? 100 : 0) + rankValue(c.rank);
    const top = Math.max(...pool.map(score));
    const best = pool.filter((c) => score(c) === top);
    // Two columns holding the same values on every row (an account under two headers): either gives the same run, the first is taken.
    const alike = best.length > 1 && stats[best[0]!.index]!.n > 0 && best.every((c) => stats[c.index]!.values === stats[best[0]!.index]!.values);
    if (best.length > 1 && !alike) throw new ColumnError(tieMessage(role, best));
    const chosen = best[0]!;
    const others = pool.filter((c) => c !== chosen);
    const s0 = stats[chosen.index]!;
    const passed = others.length === 0 ? '' : `; not ${others.map((c) => `${JSON.stringify(c.header)} (${stats[c.index]!.values === s0.values && score(c) === top ? `the same values as column ${chosen.index + 1}` : describeRank(c, stats[c.index]!, role)})`).join(', ')}`;
    const s = stats[chosen.index]!;
    const content = chosen.by === 'header' ? '' : `; by its content: ${describeContent(role, s)}`;
    reasons.push(`${WHAT[role]}: column ${chosen.index + 1} ${JSON.stringify(chosen.header)}, ${chosen.rank === 'none' ? 'no header alias' : chosen.why}${content}${passed}`);
    return chosen;
  }

  private missingMessage(missing: readonly ('account' | 'ifsc')[], header: readonly string[], records: readonly SourceRecord[], headerIndex: number): string {
    const what = missing.map((role) => `no ${WHAT[role]} column (use ${FLAGS[role]})`).join(' and ');
    const payer = missing.flatMap((role) => this.candidates(role, header).filter((c) => c.rank === 'payer'));
    const payerNote = payer.length === 0
      ? ''
      : `; ${payer.map((c) => JSON.stringify(c.header)).join(', ')} look(s) like the payer's own account, not the payees' (name it with ${FLAGS.account} if it is not)`;
    // Rows of IFSCs right under the line taken: it is the header, and a lower one is no answer.
    const ifscsFollow = records.slice(headerIndex + 1, headerIndex + 6).some((r) => r.fields.some((f) => IFSC_SHAPE.test(f.trim().toUpperCase())));
    const searched = this.headerRow === undefined && !ifscsFollow
      ? `; header below line ${HEADER_SEARCH_LINES}? give --header-row N`
      : '';
    const line = records[headerIndex]!.line;
    return `input has ${what}${payerNote}; headers found: ${listHeaders(header)}${line > 1 ? ` (line ${line})` : ''}${searched}`;
  }

  /**
   * A line whose account and IFSC columns were both found by the values under it, not by their
   * names, is a header only if those two cells read as names: digits where the account is, or a
   * code with digits where the IFSC is, are a payee's (one whose IFSC or account is mistyped, which
   * looksLikePayeeRow does not catch).
   */
  private checkIsHeader(header: readonly string[], line: number, account: Candidate, ifsc: Candidate): void {
    if (account.by !== 'content' || ifsc.by !== 'content') return;
    const accountCell = cellOf(header, account.index).replace(/[\s-]/g, '');
    const ifscCell = cellOf(header, ifsc.index).toUpperCase().replace(/\s/g, '');
    const accountLike = /^\d{5,}/.test(accountCell);
    const ifscLike = /\d/.test(ifscCell) && /^[A-Z]{3,5}[0O]?[A-Z0-9]{4,8}$/.test(ifscCell);
    if (accountLike || ifscLike) throw this.noHeaderRow(line, accountLike ? 'an account number' : 'an IFSC');
  }

  /** A file with no line of column names: its first payee would be taken for one (exit 2, before any call). */
  private noHeaderRow(line: number, what: string): ColumnError {
    return new ColumnError(
      `input has no header row: line ${line} holds ${what}, not column names, and would be neither verified nor checked. Nothing was called. Add a line of column names above the payees (e.g. "Name,Account Number,IFSC")${this.headerRow === undefined ? '' : ' and give its line to --header-row'}`,
    );
  }

  /** The first rows of columns taken by their header alone must look like what they are said to be. */
  private checkContent(account: Candidate, ifsc: Candidate, name: Candidate | undefined, sample: readonly SourceRecord[]): void {
    if (ifsc.by === 'header') {
      // A formula's error value (#N/A) is the row's trouble, named by its check, not the column's.
      const values = sample.map((r) => (r.fields[ifsc.index] ?? '').trim().toUpperCase().replace(/\s+/g, '')).filter((v) => v !== '' && !isSpreadsheetError(v));
      const shaped = values.filter((v) => IFSC_SHAPE.test(v.replace(/^="?|"$|^'/g, ''))).length;
      if (values.length > 0 && shaped * 2 < values.length) {
        const examples = values.slice(0, 3).map((v) => JSON.stringify(v.length > 20 ? `${v.slice(0, 20)}…` : v)).join(', ');
        throw new ColumnError(
          `column ${JSON.stringify(ifsc.header)} was taken as the IFSC column, but ${values.length - shaped} of its first ${values.length} value(s) are not IFSC-shaped (e.g. ${examples}): nothing was called. Name the IFSC column with --ifsc-col "<header>"`,
        );
      }
    }
    if (account.rank !== 'explicit') {
      const rows = sample.filter((r) => (r.fields[account.index] ?? '').trim() !== '');
      const values = rows.map((r) => r.fields[account.index]!.replace(/[\s-]/g, ''));
      // One payee repeated (same IFSC, same name) is a run of duplicates; one account beside
      // payees that differ is the payer's.
      // A split name is compared whole: payees may share a first name and differ in the rest.
      const differs = (columns: readonly number[]) => columns.length > 0 && new Set(rows.map((r) => nameIn(r.fields, columns).trim().toUpperCase())).size > 1;
      const nameColumns = name === undefined ? [] : (name.parts ?? [name.index]);
      if (values.length >= CONSTANT_ACCOUNT_MIN_ROWS && values.every((v) => v === values[0]) && (differs([ifsc.index]) || differs(nameColumns))) {
        const masked = values[0]!.length <= 4 ? '****' : `…${values[0]!.slice(-4)}`;
        throw new ColumnError(
          `column ${JSON.stringify(account.header)} holds the same account (${masked}) on each of the first ${values.length} rows: it looks like the payer's own debit account, not the payees'. Nothing was called. Name the payee account column with --account-col "<header>" (naming ${JSON.stringify(account.header)} itself runs it as it is)`,
        );
      }
    }
  }
}

function tieMessage(role: Role, best: readonly Candidate[]): string {
  const same = best.every((c) => c.header === best[0]!.header);
  if (same) {
    return `header ${JSON.stringify(best[0]!.header)} names ${best.length} columns (${best.map((c) => c.index + 1).join(', ')}): rename all but one so that it is clear which one to use (${FLAGS[role]} cannot tell them apart)`;
  }
  const list = best.map((c) => `${JSON.stringify(c.header)} (column ${c.index + 1})`).join(', ');
  // Every choice named: the first is no likelier than the others.
  const flags = best.filter((c) => c.header.trim() !== '').map((c) => quoteFlag(role, c.header)).join(' or ');
  return `${best.length} columns could be the ${WHAT[role]}: ${list}; nothing tells them apart, so nothing was called. Name the right one: ${flags === '' ? 'give the column a header' : flags}`;
}

function describeRank(c: Candidate, s: ColumnStats, role: Role): string {
  const rank = c.rank === 'payer' ? "the payer's own" : c.rank === 'none' ? 'by content only' : c.rank;
  const banks = role === 'ifsc' && s.ifsc > 0 && !atIfscBanks(s) ? `, ${s.ifsc - s.ifscBank} of its ${s.ifsc} code(s) under no bank that issues IFSCs` : '';
  return s.n > 1 && !varies(s) ? `${rank}, one value on every row${banks}` : `${rank}${banks}`;
}

function describeContent(role: Role, s: ColumnStats): string {
  if (role === 'ifsc') return `${s.ifsc} of ${s.n} value(s) IFSC-shaped${s.micr > 0 ? `, ${s.micr} MICR` : ''}, ${s.distinct} distinct`;
  if (role === 'account') return `${s.account} of ${s.n} value(s) of 9-18 digits, ${s.distinct} distinct`;
  return `${s.names} of ${s.n} value(s) name-like, ${s.distinct} distinct`;
}

/** `--explain-columns`: each column's header meaning and content scores. */
function explainColumns(header: readonly string[], stats: readonly ColumnStats[]): string[] {
  return header.map((h, i) => {
    const meaning = headerMeaning(h);
    const confirm = meaning ? undefined : confirmMeaning(h);
    const s = stats[i]!;
    const said = meaning ? `${meaning.role} (${meaning.rank})` : confirm ? `confirm ${confirm.role} (${confirm.rank})` : '-';
    return `column ${i + 1} ${JSON.stringify(h.length > HEADER_SHOWN_CHARS ? `${h.slice(0, HEADER_SHOWN_CHARS)}…` : h)}: header ${said}; ${s.n} value(s): IFSC ${s.ifsc}, MICR ${s.micr}, 9-18 digits ${s.account}, name-like ${s.names}, ${s.distinct} distinct`;
  });
}

/** The columns of a header line alone (no header search, no content checks): for callers with a known header. */
export function resolveColumns(headers: readonly string[], overrides: ColumnOverrides = {}): ColumnMap {
  return new HeaderRecogniser({ overrides, headerRow: 1 }).recognise([{ fields: [...headers], line: 1 }]).columns;
}

/**
 * An output column whose name an input column already has is written as `vas_<name>`
 * (again prefixed until it is free). Returns the names to write and the renames made.
 */
export function renameClashes(header: readonly string[], appended: readonly string[]): { columns: string[]; renamed: Record<string, string> } {
  const taken = new Set(header.map((h) => h.trim().toLowerCase()));
  const renamed: Record<string, string> = {};
  const columns = appended.map((name) => {
    if (!taken.has(name.toLowerCase())) return name;
    let next = `vas_${name}`;
    while (taken.has(next.toLowerCase())) next = `vas_${next}`;
    renamed[name] = next;
    return next;
  });
  return { columns, renamed };
}
