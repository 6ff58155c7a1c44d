/**
 * Worker-thread entry of `openSheetJsRecords` (sheetjs.ts): reads a whole .xls, .ods or HTML
 * table with SheetJS, chooses the payee sheet, and posts its rows as text. On a thread of its own
 * with a capped heap, so that a file too large for memory ends this thread, not the run.
 */
import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import * as XLSX from '@e965/xlsx';
import { isAppError } from '../errors.js';
import { unescapeXml } from './ods-sheets.js';
import { choosePayeeSheet, namedSheetIndex } from './xlsx.js';
import { numberText, padWithZeros, pastExactDigits, zeroPadWidth } from './xlsx-stream.js';

/** `odsHidden`: the sheets an .ods hides through their table style (ods-sheets.ts), which SheetJS does not read. */
const { file, sheetName, odsHidden } = workerData as { file: string; sheetName: string | undefined; odsHidden: readonly string[] };
/** The texts of number cells past 15 digits in the sheet posted (sheetjs.ts notes them for the account check). */
const lostDigits = new Set<string>();

function cellText(cell: XLSX.CellObject | undefined): string {
  if (!cell) return '';
  switch (cell.t) {
    case 's':
      return String(cell.v ?? '');
    case 'n': {
      // A whole number formatted `000000000000` shows its leading zeros in Excel (xlsx-stream.ts, zeroPadWidth).
      const width = typeof cell.z === 'string' ? zeroPadWidth(cell.z) : undefined;
      const text = width === undefined ? numberText(String(cell.v)) : padWithZeros(numberText(String(cell.v)), width);
      if (pastExactDigits(String(cell.v))) lostDigits.add(text);
      return text;
    }
    case 'b':
      return cell.v ? 'TRUE' : 'FALSE';
    case 'd':
      return cell.v instanceof Date ? cell.v.toISOString().slice(0, 10) : String(cell.v ?? '');
    case 'e':
      return cell.w ?? '#ERROR';
    default:
      return '';
  }
}

/** A sheet's rows as [row number, fields], blank rows left out (sheetjs.ts gives them back as the .xlsx reader does). */
function rowsOf(sheet: XLSX.WorkSheet, limit = Infinity): Array<[number, string[]]> {
  const data = (sheet['!data'] ?? []) as Array<Array<XLSX.CellObject | undefined> | undefined>;
  const rows: Array<[number, string[]]> = [];
  for (let r = 0; r < data.length && rows.length < limit; r += 1) {
    const row = data[r];
    if (!row) continue;
    const fields = Array.from({ length: row.length }, (_, c) => cellText(row[c]));
    rows.push([r + 1, fields.length === 0 ? [''] : fields]);
  }
  return rows;
}

try {
  // `raw`: the cells of an HTML table are the text they show, never parsed into numbers or dates
  // (`000123456789` would lose its zeros, an 18-digit account its last digits, `05/11/2026` become
  // a serial). BIFF and .ods cells keep their own types.
  const book = XLSX.read(fs.readFileSync(file), { type: 'buffer', dense: true, raw: true, cellNF: true, cellFormula: false, cellHTML: false, cellText: false, cellStyles: false, cellDates: false });
  // SheetJS leaves an .ods's sheet names XML-escaped (`R&amp;D`): the names people see are unescaped.
  const fromXml = book.bookType === 'ods' || book.bookType === 'fods';
  const names = fromXml ? book.SheetNames.map(unescapeXml) : book.SheetNames;
  if (names.length === 0) throw new Error('it has no sheet');
  const sheetOf = (i: number) => book.Sheets[book.SheetNames[i]!]!;
  const hiddenInOds = new Set(odsHidden);
  // Hidden is 1 (hidden) or 2 (very hidden) in an .xls; an .ods hides a sheet through its style.
  const isHidden = (i: number) => (book.Workbook?.Sheets?.[i]?.Hidden ?? 0) !== 0 || hiddenInOds.has(names[i]!);
  const index = sheetName === undefined ? await choosePayeeSheet(file, names, async (i) => rowsOf(sheetOf(i), 40).map(([, f]) => f), isHidden) : namedSheetIndex(file, names, sheetName);
  lostDigits.clear();
  const rows = rowsOf(sheetOf(index));
  // SheetJS's merged ranges are 0-based both ways (.xls MERGEDCELLS, an .ods's rows- and columns-spanned).
  const merges = (sheetOf(index)['!merges'] ?? []).map((m) => ({ top: m.s.r + 1, left: m.s.c, bottom: m.e.r + 1, right: m.e.c }));
  const hiddenSheets = names.filter((_, i) => isHidden(i));
  parentPort!.postMessage({ ok: true, sheets: names, hiddenSheets, sheet: names[index], rows, lostDigits: [...lostDigits], merges });
} catch (error) {
  const e = error as Error;
  parentPort!.postMessage({ ok: false, app: isAppError(e), message: e.message });
}
