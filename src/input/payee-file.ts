/**
 * Opening a payee file as people have it (docs/ARCHITECTURE.md, "Layout", src/input/): its first lines are read, the header
 * and the columns recognised (recognise.ts), and the records handed on from the first data row,
 * the lines above the header kept for the output. CSV here; .xlsx through xlsx.ts.
 */
import path from 'node:path';
import { InputError } from '../errors.js';
import type { Encoding } from './inspect.js';
import { openCsvRecords, sniffCsvFormat, type CsvFormat, type CsvRecord, type Delimiter } from './read-csv.js';
import { HEADER_SEARCH_LINES, HeaderRecogniser, nameColumnsOf, renameClashes, SAMPLE_ROWS, type ColumnMap, type ColumnOverrides, type DecidedBy, type HeaderChoice } from './recognise.js';
import { MergedCells } from './merged-cells.js';
import { notPayeeReason } from './row-kind.js';
import { quoteSheets, type XlsxRecords } from './xlsx.js';
import { isSpreadsheetPath, openSpreadsheetRecords, readsAsSpreadsheet } from './spreadsheet.js';
import { ColumnError } from '../errors.js';
import { sweepSpool } from './shared-strings.js';

export interface PayeeFileOptions {
  columns: ColumnOverrides;
  /** `--header-row N`: the header is at line N (1-based). */
  headerRow?: number | undefined;
  /** `--sheet NAME` of an .xlsx input (default: the first sheet, or the one sheet whose content is a payee list). */
  sheet?: string | undefined;
  /** `--delimiter`: the CSV delimiter (default: sniffed from the first lines). */
  delimiter?: Delimiter | undefined;
  /** `--explain-columns`: each column's header meaning and content scores go to the reasons. */
  explainColumns?: boolean | undefined;
  /** A spreadsheet's spool folder (the state file's folder; see xlsx.ts). Default: none, nothing spooled. */
  spoolDir?: string | undefined;
}

/** A data row, and why it is not a payee row when it is not one (copied through, SKIPPED). */
export interface InputRow extends CsvRecord {
  notPayee?: string | undefined;
  /**
   * The fields the verification reads when a merge covers a payee cell (its top-left's value
   * filled in, merged-cells.ts); `fields` stay as the file has them, for the output to copy.
   */
  read?: string[] | undefined;
}

/** How the file was read: what the summary's `input` records (docs/ARCHITECTURE.md, "Summary JSON"). */
export interface InputSummary {
  file: string;
  /** 1-based line (for .xlsx: row) of the header. */
  headerLine: number;
  /** `confirmAccount`, `confirmIfsc`: the columns repeating the account number and the IFSC, cross-checked with them (only when there is one). */
  columns: { account: string; ifsc: string; name: string | null; nameParts?: string[]; amount?: string | null | undefined; confirmAccount?: string | undefined; confirmIfsc?: string | undefined };
  /** What decided each column: its header, its content, both, or a flag. */
  columnChoice?: { account: DecidedBy; ifsc: DecidedBy; name: DecidedBy | null; confirmAccount?: DecidedBy; confirmIfsc?: DecidedBy };
  /** Output columns written under another name because the input has one of that name. */
  renamed: Record<string, string>;
  sheet?: string | undefined;
}

export interface PayeeFile {
  header: string[];
  columns: ColumnMap;
  /** Records above the header, written to the output above its header, unchanged. */
  preamble: string[][];
  /** Data rows, from the first one after the header; rows that are not payees carry `notPayee`. */
  records: AsyncIterator<InputRow>;
  /** How a CSV input is written (delimiter, BOM, line endings), for the output to keep; undefined for a spreadsheet. */
  format: CsvFormat | undefined;
  /** Lines for the run log: which column was taken for what, and why. */
  reasons: string[];
  /** The appended output columns under the names they get in this file (`vas_` where taken). */
  appendedNames(appended: readonly string[]): string[];
  summary: InputSummary;
  close(): void;
}

/** A spreadsheet's name (.xlsx, .xlsm, .xls, .ods) rather than a CSV's. Whether an input is read as one: `readsAsSpreadsheet`. */
export function isXlsxPath(file: string): boolean {
  return isSpreadsheetPath(file);
}

/** Throws ColumnError (a usage error) when the columns cannot be told; InputError when the file cannot be read or has no payee rows. */
export async function openPayeeFile(inputPath: string, encoding: Encoding, options: PayeeFileOptions): Promise<PayeeFile> {
  // A CSV named .xls (a bank portal's export) is read as the CSV it is.
  const xlsx = readsAsSpreadsheet(inputPath);
  // A spool a killed run left behind goes at the next start, whatever this run reads (issue #26).
  if (options.spoolDir !== undefined) sweepSpool(options.spoolDir);
  // The delimiter is sniffed from the first lines unless --delimiter names it.
  const format = xlsx ? undefined : sniffCsvFormat(inputPath, encoding, options.delimiter);
  const reader = xlsx ? await openSpreadsheetRecords(inputPath, options.sheet, { spoolDir: options.spoolDir }) : openCsvRecords(inputPath, encoding, true, format!.delimiter);
  const iterator = reader.records[Symbol.asyncIterator]();
  try {
    // Enough lines to find the header and to look at the first rows under it.
    const head: CsvRecord[] = [];
    const limit = Math.max(options.headerRow ?? 0, HEADER_SEARCH_LINES) + SAMPLE_ROWS;
    let ended = false;
    while (head.length < limit) {
      const next = await iterator.next();
      if (next.done) {
        ended = true;
        break;
      }
      head.push(next.value);
    }
    const book = xlsx ? (reader as XlsxRecords) : undefined;
    const place = book === undefined ? undefined : sheetPlace(book);
    const choice = explained(() => recogniseSheet(() => new HeaderRecogniser({ overrides: options.columns, headerRow: options.headerRow, place }).recognise(head), book, options.sheet), options.explainColumns === true);
    const width = choice.header.length;
    // A sheet row ends at its last non-empty cell: pad it to the header (CSV rows keep their count, a short one is reported).
    const shape = xlsx ? (r: CsvRecord): CsvRecord => fitRow(r, width) : (r: CsvRecord) => r;
    const payeeColumns = [choice.columns.account, choice.columns.ifsc, ...nameColumnsOf(choice.columns)];
    const merged = new MergedCells(book?.merges ?? [], payeeColumns, choice.headerLine);
    const formulas = new UncalculatedFormulas(inputPath, book?.sheet, choice.header, payeeColumns);
    const classify = (r: CsvRecord): InputRow => {
      formulas.note(r);
      const row = shape(r);
      // Whether it is a payee's row, as the file has it: a notes block merged over two lines is a note.
      const notPayee = notPayeeReason(row.fields, choice.header, choice.columns);
      const filled = merged.fill(row);
      return inputRow(row, filled, notPayee);
    };
    const buffered = head.slice(choice.headerIndex + 1).map(classify);
    // Formulas never calculated in a payee column: the run stops before any call.
    formulas.check();
    // A header and no payee rows (a failed export) must not pass for a run of nothing: cron notices an exit 2.
    if (ended && buffered.every((r) => r.notPayee !== undefined)) {
      throw new InputError(`no payee rows in ${inputPath}: the header at line ${choice.headerLine} has ${buffered.length === 0 ? 'nothing' : `only ${buffered.length} row(s) that are not payees (blank, totals, notes)`} under it; was the export cut short?`);
    }
    const records: AsyncIterator<InputRow> = {
      async next(): Promise<IteratorResult<InputRow>> {
        const first = buffered.shift();
        if (first) return { done: false, value: first };
        const next = await iterator.next();
        if (next.done) return next;
        const value = classify(next.value);
        // Past the first rows (a script that added rows to a calculated workbook), the run stops there.
        formulas.check();
        return { done: false, value };
      },
    };
    const summary = inputSummary(inputPath, choice);
    if (xlsx) summary.sheet = (reader as XlsxRecords).sheet;
    return {
      header: choice.header,
      columns: choice.columns,
      preamble: head.slice(0, choice.headerIndex).map((r) => r.fields),
      records,
      format,
      reasons: options.explainColumns ? [...choice.reasons, ...choice.explain] : choice.reasons,
      appendedNames(appended) {
        const { columns, renamed } = renameClashes(choice.header, appended);
        summary.renamed = renamed;
        return columns;
      },
      summary,
      close: () => reader.close(),
    };
  } catch (error) {
    reader.close();
    throw error;
  }
}

function inputSummary(file: string, choice: HeaderChoice): InputSummary {
  const amount = choice.columns.amount ?? -1;
  const { confirm, confirmIfsc } = choice.columns;
  const columns: InputSummary['columns'] = amount >= 0 ? { ...choice.names, amount: choice.header[amount] ?? null } : { ...choice.names };
  if (confirm !== undefined) columns.confirmAccount = choice.header[confirm] ?? '';
  if (confirmIfsc !== undefined) columns.confirmIfsc = choice.header[confirmIfsc] ?? '';
  return { file, headerLine: choice.headerLine, columns, columnChoice: choice.decidedBy, renamed: {} };
}

/** With `--explain-columns`, a failed choice of columns says each column's scores under its one line. */
function explained<T>(recognise: () => T, explain: boolean): T {
  try {
    return recognise();
  } catch (error) {
    const scores = error instanceof ColumnError ? (error.explain ?? (error.cause instanceof ColumnError ? error.cause.explain : undefined)) : undefined;
    if (!explain || scores === undefined || scores.length === 0) throw error;
    throw new ColumnError(`${(error as Error).message}\n${scores.join('\n')}`, { cause: error });
  }
}

/** In a workbook of several sheets, a sheet whose columns are not found may be the wrong sheet: the message lists them and `--sheet`. */
function recogniseSheet<T>(recognise: () => T, book: XlsxRecords | undefined, named: string | undefined): T {
  try {
    return recognise();
  } catch (error) {
    if (!(error instanceof ColumnError) || book === undefined || named !== undefined || book.sheets.length < 2) throw error;
    throw new ColumnError(`${error.message} (in sheet ${JSON.stringify(book.sheet)}; the workbook's sheets: ${quoteSheets(book.sheets)}; name the payee sheet with --sheet NAME)`, { cause: error });
  }
}

/** Where the header was looked for, in a workbook of several sheets: the sheet read, and the hidden ones passed over. */
function sheetPlace(book: XlsxRecords): string | undefined {
  if (book.sheets.length < 2) return undefined;
  const passed = book.hiddenSheets.filter((s) => s !== book.sheet);
  const hidden = passed.length === 0 ? '' : `; hidden, read only when named with --sheet: ${quoteSheets(passed)}`;
  return `in sheet ${JSON.stringify(book.sheet)} (sheets: ${quoteSheets(book.sheets)}${hidden})`;
}

/** The row as read, with the fields a merge filled (`read`) and why it is no payee, if it is not. */
function inputRow(row: CsvRecord, filled: CsvRecord, notPayee: string | undefined): InputRow {
  if (notPayee !== undefined) return { ...row, notPayee };
  // Most rows: no merge to fill — the record as read, no copy.
  return filled === row ? row : { ...row, read: filled.fields };
}

/** `0` → `A`, `27` → `AB`. */
function columnLetters(col: number): string {
  let name = '';
  for (let n = col + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/**
 * Payee cells (account, IFSC, name) that hold a formula with no calculated value (a workbook
 * written by openpyxl, exceljs, Apache POI, pandas): the reader sees them empty, and the rows would
 * be INVALID for a reason that misleads. Counted per column; `check` stops the read naming the
 * sheet, the column, a cell and what to do. A formula elsewhere (a total, a serial number) is no concern.
 */
class UncalculatedFormulas {
  private readonly found = new Map<number, { count: number; first: number }>();

  constructor(
    private readonly file: string,
    private readonly sheet: string | undefined,
    private readonly header: readonly string[],
    private readonly columns: readonly number[],
  ) {}

  note(record: CsvRecord): void {
    for (const col of record.uncalculated ?? []) {
      if (!this.columns.includes(col)) continue;
      const seen = this.found.get(col);
      if (seen) seen.count += 1;
      else this.found.set(col, { count: 1, first: record.line });
    }
  }

  check(): void {
    const [entry] = this.found;
    if (entry === undefined) return;
    const [col, { count, first }] = entry;
    const letter = columnLetters(col);
    const sheet = this.sheet ?? 'Sheet1';
    const quoted = /^[A-Za-z_][A-Za-z0-9_.]*$/.test(sheet) ? sheet : `'${sheet.replace(/'/g, "''")}'`;
    const others = this.found.size > 1 ? ` (and ${this.found.size - 1} other payee column(s))` : '';
    throw new InputError(
      `input ${this.file}: column ${letter} (${JSON.stringify(this.header[col] ?? '')}) of sheet ${JSON.stringify(sheet)} holds formulas that were never calculated, ` +
        `so their cells read as empty: ${count === 1 ? '1 cell' : `${count} cells`} in the rows read, e.g. ${quoted}!${letter}${first}${others}; ` +
        'open the workbook in Excel or LibreOffice and save it, so that its formulas are calculated, or export it as CSV',
    );
  }
}

function fitRow(record: CsvRecord, width: number): CsvRecord {
  const { fields } = record;
  if (fields.length < width) return { ...record, fields: [...fields, ...new Array<string>(width - fields.length).fill('')] };
  if (fields.length > width && fields.slice(width).every((f) => f === '')) return { ...record, fields: fields.slice(0, width) };
  return record;
}
