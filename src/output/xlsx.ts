/**
 * The .xlsx output (docs/ARCHITECTURE.md, "Layout", src/output/): written as a stream to a
 * temporary file that the caller renames into place. From an .xlsx input, the input workbook
 * with the tool's columns added to its payee sheet (xlsx-copy.ts); otherwise (a CSV, .xls or
 * .ods input) one sheet of text cells.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type ExcelJS from 'exceljs';
import { isOfficeOpenXml } from '../input/spreadsheet.js';
import { openWorkbookCopy } from './xlsx-copy.js';
import type { XlsxOutput, XlsxSource } from './xlsx-types.js';

export type { XlsxOutput, XlsxSource } from './xlsx-types.js';

/**
 * exceljs, loaded when an .xlsx output is written: loading it costs 150–250 ms of CPU, which every
 * CSV run paid at start-up (before its first request).
 */
function excel(): typeof ExcelJS {
  return createRequire(import.meta.url)('exceljs') as typeof ExcelJS;
}

/**
 * Streams the output workbook to `temp`; the caller renames it into place. With `source` (an
 * .xlsx input), a copy of it with the tool's columns; without, one sheet `sheetName` with every
 * cell a text cell (number format `@`), so Excel shows account numbers and IFSCs as written.
 */
export function openXlsxWriter(temp: string, sheetName = 'verified', source?: XlsxSource): XlsxOutput {
  if (source !== undefined && isOfficeOpenXml(source.file)) return openWorkbookCopy(temp, source);
  return openTextSheetWriter(temp, sheetName);
}

function openTextSheetWriter(temp: string, sheetName: string): XlsxOutput {
  // Mode 0600 like the CSV output: the file holds personal data (docs/ARCHITECTURE.md, "Security").
  const file = fs.createWriteStream(temp, { mode: 0o600 });
  const closed = new Promise<void>((resolve, reject) => {
    file.once('close', resolve);
    file.once('error', reject);
  });
  closed.catch(() => undefined);
  const workbook = new (excel().stream.xlsx.WorkbookWriter)({ stream: file, useStyles: true, useSharedStrings: false });
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
