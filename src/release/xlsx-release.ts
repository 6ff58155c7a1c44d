/**
 * The release of an .xlsx input (docs/ARCHITECTURE.md, "Decisions"): the input workbook with the
 * payee sheet's rows of payees not cleared left out. Every other part is copied as stored; the
 * payee sheet keeps everything around its rows and each kept cell as it was (src/output/
 * xlsx-sheet-copy.ts); the rows below a removed one move up, so the sheet has no gaps, and so do
 * the merged cells, hyperlinks, conditional formats, validations and filter after the rows
 * (formulas are kept as they were written).
 */
import fs from 'node:fs';
import { OutputError } from '../errors.js';
import { DEFAULT_SHEET_LIMITS } from '../input/sheet-limits.js';
import { XlsxWorkbook, type SheetRow } from '../input/xlsx-stream.js';
import type { ZipEntry, ZipFile } from '../input/zip-reader.js';
import { cellXml, rowOpenXml, sheetPieces } from '../output/xlsx-sheet-copy.js';
import { ZipWriter } from '../output/zip-writer.js';
import type { RunInput, WalkedRow } from './walk.js';

function movedRow(row: SheetRow, number: number): string {
  let cells = '';
  for (const cell of row.cells) cells += cellXml(cell, number);
  return `${rowOpenXml({ ...row, number })}${cells}</row>`;
}

/** Rows removed, sorted: how far a row moves up, and where a range ends up. */
export class RemovedRows {
  private readonly rows: number[];

  constructor(rows: Iterable<number>) {
    this.rows = [...rows].sort((a, b) => a - b);
  }

  /** Removed rows numbered below `row` (`orAt`: and `row` itself). */
  below(row: number, orAt = false): number {
    let lo = 0;
    let hi = this.rows.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.rows[mid]! < row || (orAt && this.rows[mid] === row)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** A range of rows once the removed ones are gone; undefined when none of its rows is left. */
  range(first: number, last: number): [number, number] | undefined {
    const from = first - this.below(first);
    const to = last - this.below(last, true);
    return to < from ? undefined : [from, to];
  }
}

const CELL_RANGE = /^(\$?[A-Z]{1,3}\$?)(\d+)(?::(\$?[A-Z]{1,3}\$?)(\d+))?$/;

/** A `ref`/`sqref` value (cell ranges, space-separated) once the removed rows are gone; '' when nothing is left. */
export function movedRefs(value: string, removed: RemovedRows): string {
  const kept: string[] = [];
  for (const part of value.split(/\s+/).filter(Boolean)) {
    const m = CELL_RANGE.exec(part);
    if (!m) {
      kept.push(part); // a whole column or row range: left as it is
      continue;
    }
    const moved = removed.range(Number(m[2]), Number(m[4] ?? m[2]));
    if (moved) kept.push(m[3] === undefined ? `${m[1]}${moved[0]}` : `${m[1]}${moved[0]}:${m[3]}${moved[1]}`);
  }
  return kept.join(' ');
}

/** Elements after the rows that name cells: merged cells, hyperlinks, conditional formats, validations, the filter. */
const REF_ELEMENT = /<(mergeCell|hyperlink|conditionalFormatting|dataValidation|autoFilter)\b([^>]*?)\b(sqref|ref)="([^"]*)"([^>]*?)(\/?)>/g;

/** The XML after the sheet's rows with its cell references moved up (an element whose cells are all gone is left out). */
export function movedAfterRows(xml: string, removed: RemovedRows): string {
  let dropped = 0;
  const moved = xml.replace(REF_ELEMENT, (all, name: string, before: string, attr: string, value: string, after: string, selfClosing: string) => {
    const refs = movedRefs(value, removed);
    if (refs !== '') return `<${name}${before}${attr}="${refs}"${after}${selfClosing}>`;
    // Only a self-closing merge or hyperlink can simply go; anything with content keeps its place.
    if (selfClosing === '/' && (name === 'mergeCell' || name === 'hyperlink')) {
      if (name === 'mergeCell') dropped += 1;
      return '';
    }
    return all;
  });
  return dropped === 0 ? moved : moved.replace(/<mergeCells\b([^>]*?)\bcount="(\d+)"/, (_m, before: string, n: string) => `<mergeCells${before}count="${Number(n) - dropped}"`);
}

/** The sheet's XML with the rows numbered in `dropped` left out and the rows below moved up. */
async function* filteredSheet(zip: ZipFile, entry: ZipEntry, dropped: ReadonlySet<number>): AsyncGenerator<string> {
  const removedRows = new RemovedRows(dropped);
  let removed = 0;
  let rowsSeen = false;
  let xml = '';
  for await (const piece of sheetPieces(zip, entry, DEFAULT_SHEET_LIMITS)) {
    if (piece.kind === 'xml') xml += rowsSeen ? movedAfterRows(piece.xml, removedRows) : piece.xml;
    else {
      rowsSeen = true;
      if (dropped.has(piece.row.number)) removed += 1;
      else xml += movedRow(piece.row, piece.row.number - removed);
    }
    if (xml.length >= 1 << 16) {
      yield xml;
      xml = '';
    }
  }
  yield xml;
}

/** Writes `temp` (mode 0600): the input workbook without the payee sheet's rows `keep` says no to. */
export async function writeXlsxRelease(input: RunInput, temp: string, keep: (row: WalkedRow) => boolean, spoolDir?: string): Promise<void> {
  const dropped = new Set<number>();
  for await (const row of input.rows()) if (!keep(row)) dropped.add(row.line);
  const sheetName = input.file.summary.sheet;
  const book = await XlsxWorkbook.shared(input.inputPath, DEFAULT_SHEET_LIMITS, spoolDir);
  const out = fs.createWriteStream(temp, { mode: 0o600, flags: 'wx' });
  try {
    const sheet = book.sheets.find((s) => s.name === sheetName);
    if (!sheet) throw new OutputError(`the input ${input.inputPath} has no sheet ${JSON.stringify(sheetName)} any more`);
    const sheetEntry = book.entryOf(sheet);
    const zip = new ZipWriter(out);
    for (const entry of book.zip.entries.values()) {
      if (entry !== sheetEntry) await zip.copy(entry.name, entry, book.zip.raw(entry));
    }
    await zip.add(sheetEntry.name, filteredSheet(book.zip, sheetEntry, dropped));
    await zip.finish();
  } catch (error) {
    out.destroy();
    throw error;
  } finally {
    book.close();
  }
}
