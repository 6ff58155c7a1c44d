/**
 * Which reader a spreadsheet input gets (docs/ARCHITECTURE.md, "Layout", src/input/): an Office
 * Open XML workbook (a zip with `xl/workbook.xml`, whatever its name) is streamed (xlsx.ts);
 * anything else with a spreadsheet's name — BIFF .xls, .ods, an HTML or text table saved as
 * .xls — is read whole by SheetJS within a size bound (sheetjs.ts).
 */
import fs from 'node:fs';
import { openSheetJsRecords } from './sheetjs.js';
import { DEFAULT_SHEET_LIMITS } from './sheet-limits.js';
import { openXlsxRecords, type SpreadsheetOptions, type XlsxRecords } from './xlsx.js';
import { ZipFile } from './zip-reader.js';

export const SPREADSHEET_EXTENSION = /\.(xlsx|xlsm|xls|ods)$/i;

export function isSpreadsheetPath(file: string): boolean {
  return SPREADSHEET_EXTENSION.test(file);
}

/** Whether a file is an Office Open XML workbook (.xlsx, .xlsm), whatever its name says. */
export function isOfficeOpenXml(file: string, head: Buffer = readHead(file)): boolean {
  if (head[0] !== 0x50 || head[1] !== 0x4b) return false;
  const zip = ZipFile.open(file, DEFAULT_SHEET_LIMITS);
  try {
    return zip.find('xl/workbook.xml') !== undefined || (zip.find('[Content_Types].xml') !== undefined && zip.find('content.xml') === undefined);
  } finally {
    zip.close();
  }
}

function readHead(file: string): Buffer {
  const head = Buffer.alloc(8);
  const fd = fs.openSync(file, 'r');
  try {
    fs.readSync(fd, head, 0, 8, 0);
  } finally {
    fs.closeSync(fd);
  }
  return head;
}

/** The payee sheet's rows (or `sheetName`'s) of any spreadsheet vas-verify reads. */
export async function openSpreadsheetRecords(file: string, sheetName: string | undefined, options: SpreadsheetOptions = {}): Promise<XlsxRecords> {
  const head = readHead(file);
  if (isOfficeOpenXml(file, head)) return openXlsxRecords(file, sheetName, options);
  const limits = { ...DEFAULT_SHEET_LIMITS, ...options.limits };
  return openSheetJsRecords(file, sheetName, limits, head[0] === 0x50 && head[1] === 0x4b);
}
