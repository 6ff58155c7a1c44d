/**
 * The release of an .xlsx input (docs/ARCHITECTURE.md, "Decisions"): the input workbook with the
 * payee sheet's rows of payees not cleared left out. Every other part is copied as stored; the
 * payee sheet keeps everything around its rows and each kept cell as it was (src/output/
 * xlsx-sheet-copy.ts); the rows below a removed one move up, so the sheet has no gaps.
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

/** The sheet's XML with the rows numbered in `dropped` left out and the rows below moved up. */
async function* filteredSheet(zip: ZipFile, entry: ZipEntry, dropped: ReadonlySet<number>): AsyncGenerator<string> {
  let removed = 0;
  let xml = '';
  for await (const piece of sheetPieces(zip, entry, DEFAULT_SHEET_LIMITS)) {
    if (piece.kind === 'xml') xml += piece.xml;
    else if (dropped.has(piece.row.number)) removed += 1;
    else xml += removed === 0 ? movedRow(piece.row, piece.row.number) : movedRow(piece.row, piece.row.number - removed);
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
