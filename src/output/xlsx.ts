/**
 * The .xlsx output (docs/ARCHITECTURE.md, "Layout", src/output/): written as a stream to a
 * temporary file that the caller renames into place. From an .xlsx input, the input workbook
 * with the tool's columns added to its payee sheet (xlsx-copy.ts); otherwise (a CSV, .xls or
 * .ods input) one sheet of text cells.
 */
import { createRequire } from 'node:module';
import type ExcelJS from 'exceljs';
import { isOfficeOpenXml } from '../input/spreadsheet.js';
import { TempFile } from './temp-file.js';
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
  const tempFile = new TempFile(temp);
  const workbook = new (excel().stream.xlsx.WorkbookWriter)({ stream: tempFile.stream, useStyles: true, useSharedStrings: false });
  const worksheet = workbook.addWorksheet(sheetName);
  let done = false;
  return {
    async writeRows(rows) {
      // A committed or discarded output takes no more rows.
      if (done) return;
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
      try {
        worksheet.commit();
        await workbook.commit();
      } catch (error) {
        await tempFile.discard();
        throw tempFile.failure ?? error;
      }
      // The zip is finished when the file is closed, not when commit() resolves.
      await tempFile.closed();
      if (tempFile.failure) {
        await tempFile.discard();
        throw tempFile.failure;
      }
    },
    async discard() {
      if (done) return;
      done = true;
      await tempFile.discard();
    },
  };
}
