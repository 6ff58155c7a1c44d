/**
 * Spreadsheet input as records (docs/ARCHITECTURE.md, "Layout", src/input/): an .xlsx workbook
 * streamed within bounds (xlsx-stream.ts, sheet-limits.ts), the payee sheet chosen by name
 * (`--sheet`) or by its content, each row handed on as the CSV reader's record with its row
 * number as `line`. Older formats (.xls, .ods, HTML saved as .xls) go through sheetjs.ts.
 */
import { InputError } from '../errors.js';
import type { CsvRecord } from './read-csv.js';
import { HEADER_SEARCH_LINES, SAMPLE_ROWS } from './recognise.js';
import { DEFAULT_SHEET_LIMITS, type SheetLimits } from './sheet-limits.js';
import { LostDigits, XlsxWorkbook, type MergeRange, type SheetInfo, type SheetRow } from './xlsx-stream.js';

export { numberText } from './xlsx-stream.js';

export interface SpreadsheetOptions {
  /** The folder where shared strings past 8 MiB may be spooled (the state file's folder). Default: none, held in memory up to 64 MiB. */
  spoolDir?: string | undefined;
  /** Bounds of the read; default DEFAULT_SHEET_LIMITS. */
  limits?: Partial<SheetLimits> | undefined;
  /**
   * When no sheet is named: the first sheet whose first rows this says yes to, before the payee
   * sheet is looked for (an output read back wants the sheet with the tool's columns). .xlsx only.
   */
  wantedSheet?: ((sample: readonly (readonly string[])[]) => boolean) | undefined;
}

export interface XlsxRecords {
  records: AsyncIterable<CsvRecord>;
  /** The sheet read. */
  sheet: string | undefined;
  /** Every sheet's name, in the workbook's order (for messages). */
  sheets: readonly string[];
  /** The hidden sheets' names (hidden or very hidden in Excel): read only when named with --sheet. */
  hiddenSheets: readonly string[];
  /** The sheet's merged ranges: only a range's top-left cell holds its value (merged-cells.ts fills the payee columns). */
  merges: readonly MergeRange[];
  close(): void;
}

/** Rows of a sheet looked at to tell whether it is a payee list: as many as the header recogniser reads. */
const SHEET_SAMPLE_ROWS = HEADER_SEARCH_LINES + SAMPLE_ROWS;
const IFSC_SHAPE = /^[A-Z]{4}0[A-Z0-9]{6}$/;
const ACCOUNT_SHAPE = /^\d{9,18}$/;
/** An account in scientific notation (typed or pasted so into a text cell) lost digits: still account-shaped. */
const DAMAGED_ACCOUNT = /^\d(\.\d+)?E\+\d+$/;

export function quoteSheets(names: readonly string[]): string {
  return names.map((s) => JSON.stringify(s)).join(', ');
}

/** A row's cells as record fields: by column, the gaps empty. */
export function rowFields(book: XlsxWorkbook, row: SheetRow): string[] {
  let last = -1;
  for (const cell of row.cells) if (cell.col > last) last = cell.col;
  const fields = new Array<string>(last + 1).fill('');
  for (const cell of row.cells) fields[cell.col] = book.text(cell);
  return fields.length === 0 ? [''] : fields;
}

/**
 * How much a sheet's first rows look like a payee list: `none`; `one account` when they hold an
 * IFSC-shaped column and an account-shaped one whose accounts are all one number (a batch header's
 * or a summary's debit account: the payer's own, or a list of one payee); `several` when that
 * column holds several accounts.
 */
export type PayeeSheetLook = 'none' | 'one account' | 'several';

export function payeeSheetLook(rows: readonly (readonly string[])[]): PayeeSheetLook {
  const ifsc = new Map<number, number>();
  const account = new Map<number, number>();
  const accounts = new Map<number, Set<string>>();
  const filled = new Map<number, number>();
  for (const fields of rows.slice(0, SHEET_SAMPLE_ROWS)) {
    fields.forEach((text, col) => {
      const value = text.trim().toUpperCase();
      if (value === '') return;
      filled.set(col, (filled.get(col) ?? 0) + 1);
      if (IFSC_SHAPE.test(value)) ifsc.set(col, (ifsc.get(col) ?? 0) + 1);
      const digits = value.replace(/[\s-]/g, '');
      if (ACCOUNT_SHAPE.test(digits) || DAMAGED_ACCOUNT.test(value)) {
        account.set(col, (account.get(col) ?? 0) + 1);
        accounts.set(col, (accounts.get(col) ?? new Set<string>()).add(digits));
      }
    });
  }
  // Most of a column's values, its header and a note or two aside.
  const mostly = (counts: Map<number, number>) => [...counts].filter(([col, n]) => n >= 1 && n * 2 >= (filled.get(col) ?? 0) - 2).map(([col]) => col);
  const accountColumns = mostly(account);
  if (mostly(ifsc).length === 0 || accountColumns.length === 0) return 'none';
  return accountColumns.some((col) => accounts.get(col)!.size > 1) ? 'several' : 'one account';
}

async function sampleOf(book: XlsxWorkbook, sheet: SheetInfo): Promise<string[][]> {
  const rows: string[][] = [];
  for await (const row of book.rows(sheet)) {
    rows.push(rowFields(book, row));
    if (rows.length >= SHEET_SAMPLE_ROWS) break;
  }
  return rows;
}

/**
 * The payee sheet when none is named (its index in `names`): the first visible sheet if it is a
 * payee list of several accounts, else the one visible sheet that is; several such sheets stop the
 * run, naming them and `--sheet`. A sheet whose accounts are one number (a batch header's or a
 * summary's debit account, before the payees' sheet) gives way to such a sheet; with none, the
 * first visible sheet that is a payee list at all is taken as before (a list of one payee). When
 * no sheet looks like one, the first visible is taken and the header recogniser says what it
 * misses (with the sheets listed, payee-file.ts). A hidden sheet (a template with sample payees, a
 * lookup list) is never taken unless named with --sheet.
 */
export async function choosePayeeSheet(file: string, names: readonly string[], sample: (index: number) => Promise<string[][]>, isHidden: (index: number) => boolean = () => false): Promise<number> {
  const visible = names.map((_, i) => i).filter((i) => !isHidden(i));
  // Excel keeps one sheet visible; a workbook written otherwise is read from its first sheet.
  const first = visible[0] ?? 0;
  if (visible.length <= 1) return first;
  const looks = new Map<number, PayeeSheetLook>([[first, payeeSheetLook(await sample(first))]]);
  if (looks.get(first) === 'several') return first;
  for (const i of visible.slice(1)) looks.set(i, payeeSheetLook(await sample(i)));
  const pick = (look: PayeeSheetLook, from: readonly number[]): number | undefined => {
    const candidates = from.filter((i) => looks.get(i) === look);
    if (candidates.length > 1) {
      throw new InputError(`input ${file} has several sheets that look like payee lists: ${quoteSheets(candidates.map((i) => names[i]!))}; choose one with --sheet NAME`);
    }
    return candidates[0];
  };
  const others = visible.slice(1);
  return pick('several', others) ?? (looks.get(first) === 'one account' ? first : undefined) ?? pick('one account', others) ?? first;
}

/** The index of the first sheet whose sample `wanted` says yes to, or undefined. */
async function firstSheetWhere(names: readonly string[], sample: (index: number) => Promise<string[][]>, wanted: (rows: readonly (readonly string[])[]) => boolean): Promise<number | undefined> {
  for (let i = 0; i < names.length; i += 1) if (wanted(await sample(i))) return i;
  return undefined;
}

/** The index of the sheet named, matched exactly or ignoring case and surrounding spaces. */
export function namedSheetIndex(file: string, names: readonly string[], name: string): number {
  const wanted = name.trim().toLowerCase();
  let index = names.indexOf(name);
  if (index < 0) index = names.findIndex((n) => n.trim().toLowerCase() === wanted);
  if (index < 0) throw new InputError(`input ${file} has no sheet named ${JSON.stringify(name)}; its sheets: ${quoteSheets(names)}`);
  return index;
}

/** The rows of the payee sheet (or `sheetName`) as records; `line` is the row number. */
export async function openXlsxRecords(inputPath: string, sheetName?: string, options: SpreadsheetOptions = {}): Promise<XlsxRecords> {
  const limits = { ...DEFAULT_SHEET_LIMITS, ...options.limits };
  const book = await XlsxWorkbook.shared(inputPath, limits, options.spoolDir);
  let sheet: SheetInfo;
  let merges: MergeRange[];
  try {
    const names = book.sheets.map((s) => s.name);
    const sample = (i: number) => sampleOf(book, book.sheets[i]!);
    const wanted = sheetName === undefined && options.wantedSheet ? await firstSheetWhere(names, sample, options.wantedSheet) : undefined;
    const index = sheetName !== undefined ? namedSheetIndex(inputPath, names, sheetName) : wanted ?? (await choosePayeeSheet(inputPath, names, sample, (i) => book.sheets[i]!.state !== 'visible'));
    sheet = book.sheets[index]!;
    merges = await book.merges(sheet);
  } catch (error) {
    book.close();
    throw error;
  }
  const lost = new LostDigits();
  async function* iterate(): AsyncGenerator<CsvRecord> {
    let next = 1;
    for await (const row of book.rows(sheet)) {
      const uncalculated: number[] = [];
      for (const cell of row.cells) {
        if (cell.type === 'n') lost.note(cell.value, book.text(cell));
        if (cell.uncalculated) uncalculated.push(cell.col);
      }
      yield* blankRows(next, row.number);
      yield uncalculated.length === 0 ? { fields: rowFields(book, row), line: row.number } : { fields: rowFields(book, row), line: row.number, uncalculated };
      next = Math.max(next, row.number + 1);
    }
  }
  const close = () => {
    lost.close();
    book.close();
  };
  return { records: iterate(), sheet: sheet.name, sheets: book.sheets.map((s) => s.name), hiddenSheets: book.sheets.filter((s) => s.state !== 'visible').map((s) => s.name), merges, close };
}

/**
 * The rows a sheet leaves out (an empty row has no element) from `from` up to `to`, as blank
 * records: every row number is a record, as every line of a CSV is, so that the rows above the
 * header are copied whole and a CSV output's line N is the sheet's row N, the one the reasons
 * name (a blank data row is SKIPPED in its place, like a blank CSV line). A gap longer than
 * MAX_FILLED_GAP is left as it is: one stray cell at row 1,048,576 would otherwise become a million
 * SKIPPED rows; past such a gap the reasons still name sheet rows, the CSV's lines no longer match.
 */
export function* blankRows(from: number, to: number): Generator<CsvRecord> {
  if (to - from > MAX_FILLED_GAP) return;
  for (let line = from; line < to; line += 1) yield { fields: [''], line };
}

/** The longest run of absent rows given back as blank records (blankRows). */
export const MAX_FILLED_GAP = 1_000;
