/**
 * The .xlsx output (docs/ARCHITECTURE.md, "Layout", src/output/): written as a stream to a
 * temporary file that the caller renames into place.
 */
import fs from 'node:fs';
import ExcelJS from 'exceljs';

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
