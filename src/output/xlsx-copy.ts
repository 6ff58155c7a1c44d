/**
 * An .xlsx output that is the input workbook with the tool's columns (docs/ARCHITECTURE.md,
 * "Layout", src/output/): every other part — sheets, shared strings, styles, names, charts — is
 * copied as it is stored (still compressed); the payee sheet keeps its name, everything around
 * its rows, its row numbers, and each input cell as it was (numbers stay numbers, text stays
 * text, formulas and styles kept); the tool's columns are added as text cells. Rows are matched
 * to the input's by their text (the rows the run leaves out, blank ones, are copied unchanged;
 * a row the sheet has no element for gets only the tool's cells); should a row not match, the
 * rest is written as text rows after the last one matched.
 * Memory: one batch of rows and the input's shared-string index (see src/input/shared-strings.ts).
 */
import fs from 'node:fs';
import { OutputError } from '../errors.js';
import { DEFAULT_SHEET_LIMITS } from '../input/sheet-limits.js';
import { rowFields } from '../input/xlsx.js';
import { XlsxWorkbook, type SheetCell, type SheetRow } from '../input/xlsx-stream.js';
import type { ZipEntry } from '../input/zip-reader.js';
import { cellXml, rowOpenXml, sheetPieces, textCellXml, type SheetPiece } from './xlsx-sheet-copy.js';
import { TempFile } from './temp-file.js';
import { ZipWriter } from './zip-writer.js';
import type { XlsxOutput, XlsxSource } from './xlsx-types.js';

type Rows = readonly (readonly string[])[];

/** Batches of rows from the run to the sheet's writer, one batch waiting at most. */
class RowInbox {
  private readonly queue: Rows[] = [];
  private ended = false;
  private failure: Error | undefined;
  private wake: (() => void) | undefined;
  /** Writers waiting for room: all are woken, so that none is left waiting by a failure. */
  private rooms: Array<() => void> = [];

  async put(rows: Rows): Promise<void> {
    if (this.failure) throw this.failure;
    this.queue.push(rows);
    this.wake?.();
    while (this.queue.length > 1 && !this.failure) await new Promise<void>((resolve) => this.rooms.push(resolve));
    if (this.failure) throw this.failure;
  }

  private makeRoom(): void {
    const waiting = this.rooms;
    this.rooms = [];
    for (const resolve of waiting) resolve();
  }

  end(): void {
    this.ended = true;
    this.wake?.();
  }

  fail(error: Error): void {
    this.failure ??= error;
    this.makeRoom();
    this.wake?.();
  }

  async *take(): AsyncGenerator<Rows> {
    for (;;) {
      if (this.failure) throw this.failure;
      const batch = this.queue.shift();
      if (batch) {
        this.makeRoom();
        yield batch;
      } else if (this.ended) return;
      else await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }
}

const isBlank = (fields: readonly string[]) => fields.every((f) => f.trim() === '');

function plainRow(number: number, out: readonly string[], from = 0): string {
  let xml = '';
  for (let col = from; col < out.length; col += 1) if (out[col] !== '') xml += textCellXml(col, number, out[col]!);
  return xml;
}

/** The payee sheet: the input's rows, each with the run's row for it. */
class SheetMerge {
  private pending: SheetRow | undefined;
  private after = '';
  private rowsDone = false;
  private aligned = true;
  private lastRow = 0;
  private readonly pieces: AsyncGenerator<SheetPiece>;

  private readonly textColumns: ReadonlySet<number>;

  constructor(
    private readonly book: XlsxWorkbook,
    entry: ZipEntry,
    textColumns: readonly number[],
    private readonly columns: XlsxSource['columns'],
  ) {
    this.textColumns = new Set(textColumns);
    this.pieces = sheetPieces(book.zip, entry, DEFAULT_SHEET_LIMITS);
  }

  /** The XML before the first row. */
  async prefix(): Promise<string> {
    let xml = '';
    for (;;) {
      const next = await this.pieces.next();
      if (next.done) {
        this.rowsDone = true;
        return xml;
      }
      if (next.value.kind === 'row') {
        this.pending = next.value.row;
        return xml;
      }
      xml += next.value.xml;
    }
  }

  private async nextSource(): Promise<SheetRow | undefined> {
    const held = this.pending;
    this.pending = undefined;
    if (held) return held;
    while (!this.rowsDone) {
      const next = await this.pieces.next();
      if (next.done) this.rowsDone = true;
      else if (next.value.kind === 'row') return next.value.row;
      else {
        // XML after the rows: kept for the end (it is bounded, see SheetSplitter).
        this.after += next.value.xml;
        this.rowsDone = true;
      }
    }
    return undefined;
  }

  private sourceRow(row: SheetRow, out?: readonly string[], width = 0): string {
    this.lastRow = row.number;
    let cells = '';
    for (const cell of row.cells) cells += this.sourceCell(cell, row.number, out !== undefined);
    return `${rowOpenXml(row)}${cells}${out ? plainRow(row.number, out, width) : ''}</row>`;
  }

  private sourceCell(cell: SheetCell, row: number, payeeRow: boolean, col = cell.col): string {
    // An account number stored as a number is written as the text a person reads in it.
    const asText = payeeRow && cell.type === 'n' && cell.formula === undefined && cell.value !== '' && this.textColumns.has(cell.col);
    return asText ? textCellXml(col, row, this.book.text(cell), cell.style) : cellXml(col === cell.col ? cell : { ...cell, col }, row);
  }

  /** Whether `out` is `fields` with the tool's cells put in after the header's width (a row with cells right of it). */
  private movesCells(fields: readonly string[], out: readonly string[]): boolean {
    const columns = this.columns;
    if (!columns || fields.length <= columns.input) return false;
    return fields.every((f, i) => (i < columns.input ? (out[i] ?? '') : (out[i + columns.tool] ?? '')) === f);
  }

  /** A row with cells right of the header: its cells up to the header's width, the tool's, then the rest moved past them. */
  private sourceRowMoved(row: SheetRow, out: readonly string[]): string {
    const { input, tool } = this.columns!;
    this.lastRow = row.number;
    let before = '';
    let after = '';
    for (const cell of row.cells) {
      if (cell.col < input) before += this.sourceCell(cell, row.number, true);
      // Moved, a formula would point elsewhere (its references and a shared formula's range are
      // not rewritten): the cell keeps the value it showed.
      else if (cell.formula !== undefined) after += cell.type === 'str' ? textCellXml(cell.col + tool, row.number, cell.value, cell.style) : cellXml({ ...cell, col: cell.col + tool, formula: undefined, formulaAttributes: undefined }, row.number);
      else after += this.sourceCell(cell, row.number, true, cell.col + tool);
    }
    return `${rowOpenXml(row)}${before}${plainRow(row.number, out.slice(0, input + tool), input)}${after}</row>`;
  }

  /** One output row: with its input row when they match, else as text after the last row written. */
  async row(out: readonly string[]): Promise<string> {
    let xml = '';
    while (this.aligned) {
      const source = await this.nextSource();
      if (!source) {
        this.aligned = false;
        break;
      }
      if (source.number > this.lastRow + 1) {
        // A row the sheet leaves out (an empty row has no element), which the reader gave as a
        // blank record (src/input/xlsx.ts, blankRows): it stays out, only the tool's cells (a
        // blank row's SKIPPED) are written in its place; the sheet's row waits for its own.
        this.pending = source;
        this.lastRow += 1;
        const cells = plainRow(this.lastRow, out);
        return cells === '' ? xml : `${xml}<row r="${this.lastRow}">${cells}</row>`;
      }
      const fields = rowFields(this.book, source);
      if (fields.every((f, i) => (out[i] ?? '') === f)) return xml + this.sourceRow(source, out, fields.length);
      if (this.movesCells(fields, out)) return xml + this.sourceRowMoved(source, out);
      if (isBlank(fields)) {
        xml += this.sourceRow(source);
        continue;
      }
      this.aligned = false;
    }
    this.lastRow += 1;
    return `${xml}<row r="${this.lastRow}">${plainRow(this.lastRow, out)}</row>`;
  }

  /** The input's blank rows left after the last output row, then the XML after the rows. */
  async suffix(): Promise<string> {
    let xml = '';
    for (let source = this.aligned ? await this.nextSource() : undefined; source; source = await this.nextSource()) {
      if (isBlank(rowFields(this.book, source))) xml += this.sourceRow(source);
    }
    for (let next = await this.pieces.next(); !next.done; next = await this.pieces.next()) if (next.value.kind === 'xml') this.after += next.value.xml;
    return xml + this.after;
  }
}

async function* mergedSheet(book: XlsxWorkbook, entry: ZipEntry, inbox: RowInbox, source: XlsxSource): AsyncGenerator<string> {
  const merge = new SheetMerge(book, entry, source.textColumns ?? [], source.columns);
  yield await merge.prefix();
  for await (const batch of inbox.take()) {
    let xml = '';
    for (const out of batch) xml += await merge.row(out);
    yield xml;
  }
  yield await merge.suffix();
}

async function writeCopy(out: fs.WriteStream, source: XlsxSource, inbox: RowInbox, opened: (book: XlsxWorkbook) => void): Promise<void> {
  const book = await XlsxWorkbook.shared(source.file, DEFAULT_SHEET_LIMITS, source.spoolDir);
  opened(book);
  const sheet = book.sheets.find((s) => s.name === source.sheet);
  if (!sheet) throw new OutputError(`the input ${source.file} has no sheet ${JSON.stringify(source.sheet)} any more`);
  const sheetEntry = book.entryOf(sheet);
  const zip = new ZipWriter(out);
  for (const entry of book.zip.entries.values()) {
    if (entry !== sheetEntry) await zip.copy(entry.name, entry, book.zip.raw(entry));
  }
  await zip.add(sheetEntry.name, mergedSheet(book, sheetEntry, inbox, source));
  await zip.finish();
}

/** Writes `temp` as a copy of the source workbook with the run's rows in its payee sheet. */
export function openWorkbookCopy(temp: string, source: XlsxSource): XlsxOutput {
  const tempFile = new TempFile(temp);
  const inbox = new RowInbox();
  let book: XlsxWorkbook | undefined;
  const written = writeCopy(tempFile.stream, source, inbox, (opened) => (book = opened));
  written.catch((error: Error) => inbox.fail(tempFile.failure ?? error));
  let done = false;
  const release = () => {
    book?.close();
  };
  return {
    writeRows: (rows) => inbox.put(rows),
    async commit() {
      if (done) return;
      done = true;
      inbox.end();
      try {
        await written;
      } catch (error) {
        await tempFile.discard();
        // The file's own error (a full disk) says more than the writer's "closed".
        throw tempFile.failure ?? error;
      } finally {
        release();
      }
    },
    async discard() {
      if (done) return;
      done = true;
      // The sheet's writer stops at its next batch; a write in progress ends before the file closes.
      inbox.fail(new OutputError('the output was discarded'));
      await tempFile.discard();
      await written.catch(() => undefined);
      release();
    },
  };
}
