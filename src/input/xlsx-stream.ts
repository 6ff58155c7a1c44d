/**
 * An .xlsx workbook read as a stream (docs/ARCHITECTURE.md, "Layout", src/input/): the zip's
 * index (zip-reader.ts), the sheets' names and parts (workbook.xml and its relationships), the
 * shared strings (shared-strings.ts), then one sheet's rows as they inflate, each cell with its
 * type, style and raw value, so that a reader gets its text and a writer can copy it as it was.
 * Every bound of sheet-limits.ts is checked as the bytes arrive.
 */
import path from 'node:path/posix';
import { SharedStrings } from './shared-strings.js';
import { damagedError, formatBytes, limitError, type SheetLimits } from './sheet-limits.js';
import { readXmlPart, XmlFeed, type XmlHandlers } from './xml-feed.js';
import { ZipFile, type ZipEntry } from './zip-reader.js';

/** Excel's last column, XFD. */
const MAX_COLUMNS = 16_384;

export interface SheetInfo {
  name: string;
  /** The sheet's part in the zip, e.g. `xl/worksheets/sheet1.xml`. */
  part: string;
  /** `visible`, `hidden` or `veryHidden`. */
  state: string;
}

export interface SheetCell {
  /** 0-based column. */
  col: number;
  /** The `t` attribute: `n` (number, the default), `s` (shared string), `str`, `inlineStr`, `b`, `e`, `d`. */
  type: string;
  /** The `s` attribute (style index), when given. */
  style: string | undefined;
  /** `<v>`'s text, or the inline string's text. */
  value: string;
  /** `<f>`'s text, when the cell has a formula ('' for a shared formula's followers). */
  formula: string | undefined;
  /** `<f>`'s attributes (a shared formula's `t`, `ref`, `si`), for a writer that copies the cell. */
  formulaAttributes?: Record<string, string> | undefined;
  /** The cell's other attributes (`cm`, `vm`, `ph`), for a writer that copies the cell. */
  extra?: Record<string, string> | undefined;
  /**
   * A formula with no calculated value: no `<v>`, or an empty one where only a string can be empty
   * (openpyxl, exceljs, Apache POI write formulas so; Excel calculates them on open, a reader
   * sees nothing). Absent otherwise.
   */
  uncalculated?: true | undefined;
}

export interface SheetRow {
  /** 1-based row number. */
  number: number;
  cells: SheetCell[];
  /** The row's own attributes but `r` (height, style, hidden, …). */
  attributes: Record<string, string>;
}

/** Workbooks opened with `XlsxWorkbook.shared`, by file, and how many users each has. */
const OPEN_BOOKS = new Map<string, { book: Promise<XlsxWorkbook>; users: number }>();

/** An opened workbook: its sheets and shared strings, and its sheets' rows on demand. */
export class XlsxWorkbook {
  private constructor(
    readonly zip: ZipFile,
    readonly sheets: readonly SheetInfo[],
    readonly strings: SharedStrings,
    readonly workbookPart: string,
    private readonly limits: SheetLimits,
    /** Style index → width, for the styles whose number format pads with zeros (`000000000000`). */
    private readonly zeroPadded: ReadonlyMap<number, number> = new Map(),
    /** The workbook asks to be calculated when opened (`fullCalcOnLoad`): no formula's stored value is its own. */
    private readonly staleFormulas = false,
  ) {}

  static async open(file: string, limits: SheetLimits, spoolDir: string | undefined): Promise<XlsxWorkbook> {
    const zip = ZipFile.open(file, limits);
    const strings = new SharedStrings(file, limits, spoolDir);
    try {
      const workbookPart = await officeDocument(zip, limits);
      const { sheets, sharedStrings, staleFormulas } = await sheetParts(zip, workbookPart, limits);
      if (sheets.length === 0) throw damagedError(file, 'it has no worksheet');
      const entry = sharedStrings === undefined ? undefined : zip.find(sharedStrings);
      if (entry) await readSharedStrings(zip, entry, strings, limits);
      strings.finish();
      return new XlsxWorkbook(zip, sheets, strings, workbookPart, limits, await zeroPaddedStyles(zip, workbookPart, limits), staleFormulas);
    } catch (error) {
      strings.close();
      zip.close();
      throw error;
    }
  }

  /**
   * One opened workbook per file for the reader and the .xlsx output together (src/output/), so
   * its shared strings are held once; each `shared` call is matched by one close().
   */
  static shared(file: string, limits: SheetLimits, spoolDir: string | undefined): Promise<XlsxWorkbook> {
    const held = OPEN_BOOKS.get(file);
    if (held) {
      held.users += 1;
      return held.book;
    }
    const book = XlsxWorkbook.open(file, limits, spoolDir);
    const entry = { book, users: 1 };
    OPEN_BOOKS.set(file, entry);
    book.catch(() => OPEN_BOOKS.delete(file));
    return book;
  }

  entryOf(sheet: SheetInfo): ZipEntry {
    const entry = this.zip.find(sheet.part);
    if (!entry) throw damagedError(this.zip.file, `the sheet ${JSON.stringify(sheet.name)} has no part ${sheet.part}`);
    return entry;
  }

  /** The sheet's merged ranges (a pass over its part, `sheetMerges`). */
  merges(sheet: SheetInfo): Promise<MergeRange[]> {
    return sheetMerges(this.zip, this.entryOf(sheet), this.limits);
  }

  /** The sheet's rows as they inflate; stop early by leaving the loop. */
  rows(sheet: SheetInfo): AsyncGenerator<SheetRow> {
    return sheetRows(this.zip, this.entryOf(sheet), this.limits, this.staleFormulas);
  }

  /** The text of a cell as a person sees it (a shared string looked up, a whole number padded as its format pads it). */
  text(cell: SheetCell): string {
    const text = cellValueText(cell, this.strings);
    const width = cell.type === 'n' && cell.style !== undefined ? this.zeroPadded.get(Number(cell.style)) : undefined;
    return width === undefined ? text : padWithZeros(text, width);
  }

  /** Lets go of the workbook; the last of its users closes it. */
  close(): void {
    const held = OPEN_BOOKS.get(this.zip.file);
    if (held && held.users > 1) {
      held.users -= 1;
      return;
    }
    OPEN_BOOKS.delete(this.zip.file);
    this.strings.close();
    this.zip.close();
  }
}

/** Elements of a small part, each with its attributes (the part read whole, within maxPartBytes). */
async function elementsOf(zip: ZipFile, name: string, wanted: ReadonlySet<string>, limits: SheetLimits): Promise<Array<{ name: string; attributes: Record<string, string> }>> {
  const entry = zip.find(name);
  if (!entry) return [];
  if (entry.size > limits.maxPartBytes) throw limitError(zip.file, `its part ${name} is ${formatBytes(entry.size)}, more than ${formatBytes(limits.maxPartBytes)}`);
  const found: Array<{ name: string; attributes: Record<string, string> }> = [];
  await readXmlPart(zip, entry, { open: (tag, attributes) => wanted.has(tag) && found.push({ name: tag, attributes }), text: () => undefined, close: () => undefined }, limits.maxCellChars);
  return found;
}

/** A relationship's target as a zip path: relative to the part's folder, or absolute from the zip's root. */
function resolveTarget(from: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  return path.normalize(path.join(path.dirname(from), target));
}

function relsOf(part: string): string {
  return path.join(path.dirname(part), '_rels', `${path.basename(part)}.rels`);
}

async function officeDocument(zip: ZipFile, limits: SheetLimits): Promise<string> {
  const rels = await elementsOf(zip, '_rels/.rels', new Set(['Relationship']), limits);
  const main = rels.find((r) => (r.attributes.Type ?? '').endsWith('/officeDocument'));
  return main?.attributes.Target ? resolveTarget('', main.attributes.Target) : 'xl/workbook.xml';
}

async function sheetParts(zip: ZipFile, workbookPart: string, limits: SheetLimits): Promise<{ sheets: SheetInfo[]; sharedStrings: string | undefined; staleFormulas: boolean }> {
  const rels = await elementsOf(zip, relsOf(workbookPart), new Set(['Relationship']), limits);
  const targets = new Map(rels.map((r) => [r.attributes.Id ?? '', resolveTarget(workbookPart, r.attributes.Target ?? '')]));
  const shared = rels.find((r) => (r.attributes.Type ?? '').endsWith('/sharedStrings'));
  const sheets: SheetInfo[] = [];
  let staleFormulas = false;
  for (const { name, attributes } of await elementsOf(zip, workbookPart, new Set(['sheet', 'calcPr']), limits)) {
    // XlsxWriter stores 0 as every formula's value and asks for a calculation on open: the values
    // stored are not the formulas' (its documentation says so).
    if (name === 'calcPr') {
      staleFormulas = /^(1|true)$/.test(attributes.fullCalcOnLoad ?? '');
      continue;
    }
    // The relationship id's prefix is usually r:, but it is the namespace that counts.
    const idKey = Object.keys(attributes).find((k) => k.endsWith(':id'));
    const part = targets.get(idKey === undefined ? '' : attributes[idKey]!);
    if (part === undefined || attributes.name === undefined) continue;
    // Chart sheets and macro sheets are listed too; only worksheets hold rows.
    if (!zip.find(part) || !/worksheets?\//i.test(part)) continue;
    sheets.push({ name: attributes.name, part, state: attributes.state ?? 'visible' });
  }
  if (!zip.find(workbookPart)) throw damagedError(zip.file, `it has no ${workbookPart} (is it an .xlsx workbook?)`);
  const sharedStrings = shared?.attributes.Target ? resolveTarget(workbookPart, shared.attributes.Target) : zip.find('xl/sharedStrings.xml') ? 'xl/sharedStrings.xml' : undefined;
  return { sheets, sharedStrings, staleFormulas };
}

/**
 * The styles (indexes into `cellXfs`, a cell's `s`) whose number format pads with zeros: an
 * account typed as a number in a column formatted `000000000000` shows its leading zeros in Excel.
 */
async function zeroPaddedStyles(zip: ZipFile, workbookPart: string, limits: SheetLimits): Promise<Map<number, number>> {
  const rels = await elementsOf(zip, relsOf(workbookPart), new Set(['Relationship']), limits);
  const styles = rels.find((r) => (r.attributes.Type ?? '').endsWith('/styles'));
  const part = styles?.attributes.Target ? resolveTarget(workbookPart, styles.attributes.Target) : 'xl/styles.xml';
  const widths = new Map<string, number>();
  const padded = new Map<number, number>();
  let inCellXfs = false;
  let index = 0;
  // cellStyleXfs hold <xf>s too; a cell's `s` counts those of cellXfs only.
  for (const { name, attributes } of await elementsOf(zip, part, new Set(['numFmt', 'cellXfs', 'cellStyles', 'xf']), limits)) {
    if (name === 'numFmt') {
      const width = zeroPadWidth(attributes.formatCode ?? '');
      if (width !== undefined && attributes.numFmtId !== undefined) widths.set(attributes.numFmtId, width);
    } else if (name === 'cellXfs') inCellXfs = true;
    else if (name === 'cellStyles') inCellXfs = false;
    else if (inCellXfs) {
      const width = widths.get(attributes.numFmtId ?? '0');
      if (width !== undefined) padded.set(index, width);
      index += 1;
    }
  }
  return padded;
}

/**
 * Characters a number format shows as they are without quotes (Excel's list, less `/` and `:`,
 * which make a fraction or a time): the separators of `0000-0000-0000`, `(0000) 000000`.
 */
const PLAIN_LITERALS = new Set([' ', '-', '+', '(', ')', '$', '!', '^', '&', "'", '~', '{', '}', '<', '>', '=']);
/** A bracketed part that only colours the number or names a currency or locale (`[Red]`, `[Color10]`, `[$₹-4009]`). */
const COLOUR_OR_LOCALE = /^(black|blue|cyan|green|magenta|red|white|yellow|color\d{1,2}|\$[^\]]*)$/i;

/**
 * The width a number format pads whole numbers to with zeros: how many `0` placeholders it has
 * (`000000000000` → 12), whatever literal text stands around and between them — separators
 * (`0000 0000 0000`, `0000-0000-0000`), escaped characters (`00000\-000000`), quoted text
 * (`"A/c "000000000000`), a colour or currency in brackets. Excel shows 1234567 formatted
 * `0000 0000 0000` as 0000 0123 4567: the cell is read as the digits it shows, 000001234567
 * (the separators are layout, as a CSV's spaces and hyphens are to the account check). `#`s before the zeros
 * show nothing (`##0000` → 4). Undefined for any format that is not a whole number's padding: a
 * decimal point, a thousands separator or scaling comma, a percentage, a fraction, scientific
 * notation, a date or time, text (`@`), `General`, a condition, `?` placeholders; and a single
 * zero. Only the first section counts (the one for positive numbers).
 */
export function zeroPadWidth(format: string): number | undefined {
  let zeros = 0;
  for (let i = 0; i < format.length; i += 1) {
    const c = format[i]!;
    if (c === ';') break;
    if (c === '"') {
      const end = format.indexOf('"', i + 1);
      if (end < 0) return undefined;
      i = end;
    } else if (c === '\\' || c === '_' || c === '*') {
      // An escaped character, a space as wide as the next one, a fill character: literal text.
      i += 1;
    } else if (c === '[') {
      const end = format.indexOf(']', i + 1);
      if (end < 0 || !COLOUR_OR_LOCALE.test(format.slice(i + 1, end))) return undefined;
      i = end;
    } else if (c === '0') zeros += 1;
    else if (c === '#') {
      // A # after a zero is no padding a person reads as such.
      if (zeros > 0) return undefined;
    } else if (!PLAIN_LITERALS.has(c)) return undefined;
  }
  return zeros >= 2 ? zeros : undefined;
}

/** A whole number's digits padded with zeros to `width`, as its format shows it; any other text as it is. */
export function padWithZeros(text: string, width: number): string {
  return /^\d+$/.test(text) ? text.padStart(width, '0') : text;
}

/** `<si>` items: the text of their `<t>`s, phonetic guides (`<rPh>`) left out. */
async function readSharedStrings(zip: ZipFile, entry: ZipEntry, strings: SharedStrings, limits: SheetLimits): Promise<void> {
  let text = '';
  let inText = false;
  let phonetic = 0;
  const handlers: XmlHandlers = {
    open(name) {
      if (name === 'si') text = '';
      else if (name === 't') inText = phonetic === 0;
      else if (name === 'rPh') phonetic += 1;
    },
    text(chunk) {
      if (!inText) return;
      text += chunk;
      if (text.length > limits.maxCellChars) throw limitError(zip.file, `a shared string is longer than ${limits.maxCellChars.toLocaleString('en-US')} characters (Excel's limit for a cell)`);
    },
    close(name) {
      if (name === 't') inText = false;
      else if (name === 'rPh') phonetic -= 1;
      else if (name === 'si') strings.add(text);
    },
  };
  await readXmlPart(zip, entry, handlers, limits.maxCellChars);
}

/** `B12` → 1 (0-based column); -1 when it is not a cell reference. */
export function columnOf(ref: string): number {
  let col = 0;
  let i = 0;
  for (; i < ref.length; i += 1) {
    const code = ref.charCodeAt(i);
    if (code >= 65 && code <= 90) col = col * 26 + (code - 64);
    else if (code >= 97 && code <= 122) col = col * 26 + (code - 96);
    else break;
    if (col > MAX_COLUMNS) return MAX_COLUMNS;
  }
  return i === 0 ? -1 : col - 1;
}

/** Builds rows from a sheet's events; completed rows wait in `ready`. */
export class RowBuilder implements XmlHandlers {
  readonly ready: SheetRow[] = [];
  private row: SheetRow | undefined;
  private cell: SheetCell | undefined;
  private capture: 'v' | 'f' | 't' | undefined;
  private sawValue = false;
  private phonetic = 0;
  private inInline = false;
  private nextCol = 0;
  private lastRow = 0;
  private rows = 0;
  private rowChars = 0;

  /** `staleFormulas`: every formula's stored value is taken for none (XlsxWorkbook's). */
  constructor(
    private readonly file: string,
    private readonly limits: SheetLimits,
    private readonly staleFormulas = false,
  ) {}

  open(name: string, attributes: Record<string, string>): void {
    if (name === 'row') this.openRow(attributes);
    else if (name === 'c' && this.row) this.openCell(attributes);
    else if (this.cell === undefined) return;
    else if (name === 'v') {
      this.capture = name;
      this.sawValue = true;
    }
    else if (name === 'f') {
      this.capture = name;
      this.cell.formula = '';
      this.cell.formulaAttributes = attributes;
    }
    else if (name === 'is') this.inInline = true;
    else if (name === 't' && this.inInline && this.phonetic === 0) this.capture = 't';
    else if (name === 'rPh') this.phonetic += 1;
  }

  private openRow(attributes: Record<string, string>): void {
    const { r, ...rest } = attributes;
    const number = r === undefined ? this.lastRow + 1 : Number(r);
    this.rows += 1;
    if (this.rows > this.limits.maxRows || !(number >= 1 && number <= this.limits.maxRows)) {
      throw limitError(this.file, `the sheet has more rows than Excel's ${this.limits.maxRows.toLocaleString('en-US')}`);
    }
    this.lastRow = number;
    this.row = { number, cells: [], attributes: rest };
    this.nextCol = 0;
    this.rowChars = 0;
  }

  private openCell(attributes: Record<string, string>): void {
    if (this.row!.cells.length >= MAX_COLUMNS) throw damagedError(this.file, `row ${this.row!.number} has more cells than Excel's ${MAX_COLUMNS.toLocaleString('en-US')} columns`);
    const col = attributes.r === undefined ? this.nextCol : columnOf(attributes.r);
    if (col < 0 || col >= MAX_COLUMNS) throw damagedError(this.file, `a cell of row ${this.row!.number} is past Excel's last column (${attributes.r ?? ''})`);
    this.nextCol = col + 1;
    const { r: _r, t, s, ...extra } = attributes;
    this.cell = { col, type: t ?? 'n', style: s, value: '', formula: undefined, extra };
    this.sawValue = false;
  }

  text(text: string): void {
    const cell = this.cell;
    if (cell === undefined || this.capture === undefined) return;
    if (this.capture === 'f') cell.formula = (cell.formula ?? '') + text;
    else cell.value += text;
    this.rowChars += text.length;
    if (cell.value.length > this.limits.maxCellChars) {
      throw limitError(this.file, `the cell in row ${this.row!.number}, column ${cell.col + 1} is longer than ${this.limits.maxCellChars.toLocaleString('en-US')} characters (Excel's limit for a cell)`);
    }
    if (this.rowChars > this.limits.maxRowChars) throw limitError(this.file, `row ${this.row!.number} holds more than ${formatBytes(this.limits.maxRowChars)} of text`);
  }

  close(name: string): void {
    if (name === 'v' || name === 'f' || name === 't') this.capture = undefined;
    else if (name === 'rPh') this.phonetic -= 1;
    else if (name === 'is') this.inInline = false;
    else if (name === 'c' && this.cell) {
      const cell = this.cell;
      // A string formula may calculate to '' (`<v></v>`); a number, a boolean or an error never does.
      if (cell.formula !== undefined && (this.staleFormulas || !this.sawValue || (cell.value === '' && cell.type !== 'str'))) cell.uncalculated = true;
      this.row!.cells.push(cell);
      this.cell = undefined;
    } else if (name === 'row' && this.row) {
      this.ready.push(this.row);
      this.row = undefined;
    }
  }
}

async function* sheetRows(zip: ZipFile, entry: ZipEntry, limits: SheetLimits, staleFormulas = false): AsyncGenerator<SheetRow> {
  const builder = new RowBuilder(zip.file, limits, staleFormulas);
  const feed = new XmlFeed(zip, entry, builder, limits.maxCellChars);
  for await (const chunk of zip.inflate(entry)) {
    feed.write(chunk);
    if (builder.ready.length > 0) yield* builder.ready.splice(0);
  }
  feed.end();
  yield* builder.ready.splice(0);
}

/** A merged range of a sheet: 1-based rows, 0-based columns, both ends included. */
export interface MergeRange {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

const MERGE_TAG = Buffer.from('mergeCell', 'latin1');
/** A merge's `ref` in the XML: `C2:C5` (a one-cell `ref` merges nothing). */
const MERGE_REF = /<(?:[\w.-]+:)?mergeCell\b[^>]*?\bref\s*=\s*["']\s*([A-Za-z]{1,3})(\d{1,7})\s*:\s*([A-Za-z]{1,3})(\d{1,7})\s*["']/g;

/**
 * The sheet's merged ranges. `<mergeCells>` follows `<sheetData>`, so a reader that streams the
 * rows learns of them only at the end: this is a first pass over the sheet's part that inflates it
 * and looks for the word `mergeCell` in the bytes, without parsing the XML (about an eighth of
 * what reading the rows costs: 0.1–0.25 s for 100,000 rows of five cells, 24 MB of XML). Only the
 * text from the first `mergeCell` on is kept, within maxPartBytes.
 */
export async function sheetMerges(zip: ZipFile, entry: ZipEntry, limits: SheetLimits): Promise<MergeRange[]> {
  let tail: Buffer[] | undefined;
  let kept = 0;
  let carry: Buffer = Buffer.alloc(0);
  // The rows' reader bounds a run of text (xml-feed.ts); this pass meets a 600 MB cell first and says the same.
  const maxRun = limits.maxCellChars * 6 + 64 * 1024;
  let run = 0;
  for await (const chunk of zip.inflate(entry)) {
    const lastTag = chunk.lastIndexOf(0x3c);
    run = lastTag < 0 ? run + chunk.length : chunk.length - lastTag - 1;
    if (run > maxRun) throw limitError(zip.file, `the part ${entry.name} has a cell, tag or comment longer than ${maxRun.toLocaleString('en-US')} characters (Excel holds at most 32,767 in a cell)`);
    if (tail === undefined) {
      // The word may straddle two chunks: the last bytes of one are looked at with the next.
      const joined = carry.length === 0 ? chunk : Buffer.concat([carry, chunk]);
      const at = joined.indexOf(MERGE_TAG);
      if (at < 0) {
        carry = joined.subarray(Math.max(0, joined.length - 64));
        continue;
      }
      tail = [joined.subarray(Math.max(0, at - 32))];
      kept = tail[0]!.length;
    } else {
      tail.push(chunk);
      kept += chunk.length;
    }
    if (kept > limits.maxPartBytes) throw limitError(zip.file, `the merged cells of the sheet part ${entry.name} take more than ${formatBytes(limits.maxPartBytes)}`);
  }
  if (tail === undefined) return [];
  const merges: MergeRange[] = [];
  for (const m of Buffer.concat(tail).toString('latin1').matchAll(MERGE_REF)) {
    const [a, b] = [columnOf(m[1]!), columnOf(m[3]!)];
    const [r1, r2] = [Number(m[2]), Number(m[4])];
    const range = { top: Math.min(r1, r2), left: Math.min(a, b), bottom: Math.max(r1, r2), right: Math.max(a, b) };
    if (range.bottom > range.top || range.right > range.left) merges.push(range);
  }
  return merges;
}

/** Excel keeps 15 significant digits: a whole number of more digits has lost its last ones. */
const EXACT_DIGITS = 15;

/** Whether a number cell's value is a whole number of more than 15 digits: one whose last digits may be lost. */
export function pastExactDigits(raw: string): boolean {
  const value = Number(raw);
  return raw.trim() !== '' && Number.isInteger(value) && Math.abs(value) >= 10 ** EXACT_DIGITS;
}

/**
 * A number cell's text, as written: a whole number in all its digits (`9876543210987654`, as
 * Excel shows it formatted with no decimals), never JavaScript's `9.876543210987654e+15`. A
 * number of more than 15 digits is damage all the same; the reader notes it (`LostDigits`) so
 * that the account check says so.
 */
export function numberText(raw: string): string {
  const value = Number(raw);
  if (raw.trim() === '' || Number.isNaN(value)) return raw;
  if (!pastExactDigits(raw)) return String(value);
  // The digits as the file stores them; else (`9.8765432109876E+15`) the stored number's own.
  const stored = /^\s*(-?)0*(\d+)\s*$/.exec(raw);
  return stored ? `${stored[1]}${stored[2]}` : BigInt(value).toString();
}

/**
 * The texts of number cells past 15 digits in the spreadsheets being read, one set per open
 * reader: a number cell's text (`9876543210987654`) cannot tell by itself that it came from a
 * number, and the account check (src/pipeline/checks.ts) asks here. A reader adds what it reads
 * and lets go of its set when it closes.
 */
const LOST_DIGITS = new Set<ReadonlySet<string>>();

export class LostDigits {
  private readonly texts = new Set<string>();

  constructor() {
    LOST_DIGITS.add(this.texts);
  }

  /** Notes a number cell's text when its number is past 15 digits. */
  note(raw: string, text: string): void {
    if (pastExactDigits(raw)) this.texts.add(text);
  }

  close(): void {
    LOST_DIGITS.delete(this.texts);
  }
}

/** Whether `text` is the text of a number cell past 15 digits in a spreadsheet being read. */
export function isLostDigitsText(text: string): boolean {
  for (const texts of LOST_DIGITS) if (texts.has(text)) return true;
  return false;
}

/**
 * A spreadsheet's error value: what a formula cell shows when it fails (`#N/A` from a VLOOKUP that
 * found nothing, `#REF!` after its source was deleted); an .xlsx holds it as an error cell (`e`),
 * and a CSV saved from Excel or LibreOffice Calc (`Err:502`) as its text. It says nothing of what
 * the column holds, and the account and IFSC checks name it.
 */
const SPREADSHEET_ERROR = /^(#(NULL!|DIV\/0!|VALUE!|REF!|NAME\?|NUM!|N\/A|SPILL!|CALC!|FIELD!|BLOCKED!|CONNECT!|BUSY!|UNKNOWN!|GETTING_DATA)|Err:\d{3})$/i;

export function isSpreadsheetError(text: string): boolean {
  return SPREADSHEET_ERROR.test(text.trim());
}

export function cellValueText(cell: SheetCell, strings: SharedStrings): string {
  switch (cell.type) {
    case 's':
      return strings.get(Number(cell.value));
    case 'b':
      return cell.value === '1' ? 'TRUE' : cell.value === '0' ? 'FALSE' : cell.value;
    case 'n':
      return numberText(cell.value);
    case 'd':
      return cell.value.slice(0, 10);
    default:
      // str (a formula's text), inlineStr, e (#N/A …).
      return cell.value;
  }
}
