/**
 * Opening a payee file as people have it (docs/ARCHITECTURE.md, "Layout", src/input/): its first lines are read, the header
 * and the columns recognised (recognise.ts), and the records handed on from the first data row,
 * the lines above the header kept for the output. CSV here; .xlsx through xlsx.ts.
 */
import path from 'node:path';
import { InputError } from '../errors.js';
import type { Encoding } from './inspect.js';
import { openCsvRecords, sniffCsvFormat, type CsvFormat, type CsvRecord, type Delimiter } from './read-csv.js';
import { HEADER_SEARCH_LINES, HeaderRecogniser, renameClashes, SAMPLE_ROWS, type ColumnMap, type ColumnOverrides, type DecidedBy, type HeaderChoice } from './recognise.js';
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
}

/** How the file was read: what the summary's `input` records (docs/ARCHITECTURE.md, "Summary JSON"). */
export interface InputSummary {
  file: string;
  /** 1-based line (for .xlsx: row) of the header. */
  headerLine: number;
  /** `confirmAccount`: the column repeating the account number, cross-checked with it (only when there is one). */
  columns: { account: string; ifsc: string; name: string | null; amount?: string | null | undefined; confirmAccount?: string | undefined };
  /** What decided each column: its header, its content, both, or a flag. */
  columnChoice?: { account: DecidedBy; ifsc: DecidedBy; name: DecidedBy | null };
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
    const choice = recogniseSheet(() => new HeaderRecogniser({ overrides: options.columns, headerRow: options.headerRow, place }).recognise(head), book, options.sheet);
    const width = choice.header.length;
    // A sheet row ends at its last non-empty cell: pad it to the header (CSV rows keep their count, a short one is reported).
    const shape = xlsx ? (r: CsvRecord): CsvRecord => fitRow(r, width) : (r: CsvRecord) => r;
    const classify = (r: CsvRecord): InputRow => {
      const row = shape(r);
      const notPayee = notPayeeReason(row.fields, choice.header, choice.columns);
      return notPayee === undefined ? row : { ...row, notPayee };
    };
    const buffered = head.slice(choice.headerIndex + 1).map(classify);
    // A header and no payee rows (a failed export) must not pass for a run of nothing: cron notices an exit 2.
    if (ended && buffered.every((r) => r.notPayee !== undefined)) {
      throw new InputError(`no payee rows in ${inputPath}: the header at line ${choice.headerLine} has ${buffered.length === 0 ? 'nothing' : `only ${buffered.length} row(s) that are not payees (blank, totals, notes)`} under it; was the export cut short?`);
    }
    const records: AsyncIterator<InputRow> = {
      async next(): Promise<IteratorResult<InputRow>> {
        const first = buffered.shift();
        if (first) return { done: false, value: first };
        const next = await iterator.next();
        return next.done ? next : { done: false, value: classify(next.value) };
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
  const confirm = choice.columns.confirm;
  const columns: InputSummary['columns'] = amount >= 0 ? { ...choice.names, amount: choice.header[amount] ?? null } : { ...choice.names };
  if (confirm !== undefined) columns.confirmAccount = choice.header[confirm] ?? '';
  return { file, headerLine: choice.headerLine, columns, columnChoice: choice.decidedBy, renamed: {} };
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

function fitRow(record: CsvRecord, width: number): CsvRecord {
  const { fields } = record;
  if (fields.length < width) return { ...record, fields: [...fields, ...new Array<string>(width - fields.length).fill('')] };
  if (fields.length > width && fields.slice(width).every((f) => f === '')) return { ...record, fields: fields.slice(0, width) };
  return record;
}
