/**
 * .xlsx in and out with exceljs (a well-kept library: the zip and XML are never parsed here).
 * Reading streams the first sheet (or the one named) row by row as the CSV reader's records;
 * writing streams text-typed cells, so account numbers never become 1.23E+11.
 */
import fs from 'node:fs';
import ExcelJS from 'exceljs';
import { InputError } from '../errors.js';
import type { CsvRecord } from './read-csv.js';

/** Excel keeps 15 significant digits: a whole number of more digits has lost its last ones. */
const EXACT_DIGITS = 15;

/**
 * The text of a cell as a person sees it. A number too long for Excel to have kept exactly is
 * given in scientific notation, which the account check reports as digits lost (re-export as Text).
 */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') {
    if (Number.isInteger(value) && Math.abs(value) >= 10 ** EXACT_DIGITS) return value.toExponential().toUpperCase();
    return String(value);
  }
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    const v = value as { richText?: Array<{ text: string }>; text?: unknown; result?: unknown; error?: string; formula?: string };
    if (Array.isArray(v.richText)) return v.richText.map((r) => r.text).join('');
    if ('result' in v || 'formula' in v) return cellText(v.result);
    if (v.text !== undefined) return cellText(v.text);
    if (typeof v.error === 'string') return v.error;
  }
  return String(value);
}

export interface XlsxRecords {
  records: AsyncIterable<CsvRecord>;
  /** The sheet read. */
  sheet: string | undefined;
  close(): void;
}

/** The rows of the first sheet (or `sheetName`) as records; `line` is the row number. */
export async function openXlsxRecords(inputPath: string, sheetName?: string): Promise<XlsxRecords> {
  const stream = fs.createReadStream(inputPath);
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(stream, { worksheets: 'emit', sharedStrings: 'cache', hyperlinks: 'ignore', styles: 'ignore', entries: 'ignore' });
  const sheets = reader[Symbol.asyncIterator]();
  let sheet: ExcelJS.stream.xlsx.WorksheetReader | undefined;
  const seen: string[] = [];
  try {
    for (;;) {
      const next = await sheets.next();
      if (next.done) break;
      const name = (next.value as unknown as { name: string }).name;
      seen.push(name);
      if (sheetName === undefined || name === sheetName) {
        sheet = next.value;
        break;
      }
      // Another sheet: its rows are skipped by reading them.
      for await (const _row of next.value) void _row;
    }
  } catch (error) {
    stream.destroy();
    throw new InputError(`input ${inputPath} is not a readable .xlsx workbook: ${(error as Error).message}`);
  }
  if (!sheet) {
    stream.destroy();
    throw new InputError(sheetName === undefined
      ? `input ${inputPath} has no worksheet`
      : `input ${inputPath} has no sheet named ${JSON.stringify(sheetName)}; its sheets: ${seen.map((s) => JSON.stringify(s)).join(', ')}`);
  }
  const chosen = sheet;
  async function* iterate(): AsyncGenerator<CsvRecord> {
    try {
      for await (const row of chosen) {
        const values = row.values as unknown[];
        const fields: string[] = [];
        // row.values is 1-based and sparse.
        for (let i = 1; i < values.length; i += 1) fields.push(cellText(values[i]));
        yield { fields: fields.length === 0 ? [''] : fields, line: row.number };
      }
    } catch (error) {
      throw new InputError(`input ${inputPath} is not a readable .xlsx workbook: ${(error as Error).message}`);
    }
  }
  return { records: iterate(), sheet: (chosen as unknown as { name: string }).name, close: () => stream.destroy() };
}

export interface XlsxOutput {
  writeRows(rows: readonly (readonly string[])[]): Promise<void>;
  commit(): Promise<void>;
  discard(): Promise<void>;
}

/**
 * Streams a one-sheet workbook to `temp` with every cell a text cell (number format `@`), so
 * Excel shows account numbers and IFSCs as written. The caller renames it into place.
 */
export function openXlsxWriter(temp: string, sheetName = 'verified'): XlsxOutput {
  // Mode 0600 like the CSV output: the file holds personal data (docs/ARCHITECTURE.md, "Security").
  const file = fs.createWriteStream(temp, { mode: 0o600 });
  const closed = new Promise<void>((resolve, reject) => {
    file.once('close', resolve);
    file.once('error', reject);
  });
  closed.catch(() => undefined);
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: file, useStyles: true, useSharedStrings: false });
  const worksheet = workbook.addWorksheet(sheetName);
  let done = false;
  return {
    async writeRows(rows) {
      for (const row of rows) {
        const added = worksheet.addRow([...row]);
        added.eachCell({ includeEmpty: false }, (cell) => {
          cell.numFmt = '@';
        });
        added.commit();
      }
    },
    async commit() {
      if (done) return;
      done = true;
      worksheet.commit();
      await workbook.commit();
      // The zip is finished when the file is closed, not when commit() resolves.
      await closed;
    },
    async discard() {
      if (done) return;
      done = true;
      file.destroy();
      await fs.promises.rm(temp, { force: true });
    },
  };
}
