/**
 * Which reader a spreadsheet input gets (docs/ARCHITECTURE.md, "Layout", src/input/): an Office
 * Open XML workbook (a zip with `xl/workbook.xml`, whatever its name) is streamed (xlsx.ts);
 * anything else with a spreadsheet's name — BIFF .xls, .ods, an HTML table saved as .xls — is
 * read whole by SheetJS within a size bound (sheetjs.ts). A plain CSV or tab-separated file named
 * .xls is no spreadsheet: the CSV reader reads it, with its encoding found (`readsAsSpreadsheet`).
 */
import fs from 'node:fs';
import { isCompoundFile, isEncryptedPackage, passwordProtectedError } from './encrypted.js';
import { isDelimitedText } from './inspect.js';
import { openSheetJsRecords } from './sheetjs.js';
import { DEFAULT_SHEET_LIMITS } from './sheet-limits.js';
import { openXlsxRecords, type SpreadsheetOptions, type XlsxRecords } from './xlsx.js';
import { ZipFile } from './zip-reader.js';

export const SPREADSHEET_EXTENSION = /\.(xlsx|xlsm|xls|ods)$/i;

export function isSpreadsheetPath(file: string): boolean {
  return SPREADSHEET_EXTENSION.test(file);
}

/**
 * Whether a payee file is read as a spreadsheet: a spreadsheet's name, unless its bytes are plain
 * delimited text (SheetJS would read that as Latin-1 and turn its cells into numbers and dates).
 * A file that cannot be read is judged by its name (the read says why later).
 */
export function readsAsSpreadsheet(file: string): boolean {
  if (!isSpreadsheetPath(file)) return false;
  try {
    return !isDelimitedText(readHead(file, 4096));
  } catch {
    return true;
  }
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

function readHead(file: string, size = 8): Buffer {
  const head = Buffer.alloc(size);
  const fd = fs.openSync(file, 'r');
  try {
    return head.subarray(0, fs.readSync(fd, head, 0, size, 0));
  } finally {
    fs.closeSync(fd);
  }
}

/** The payee sheet's rows (or `sheetName`'s) of any spreadsheet vas-verify reads. */
export async function openSpreadsheetRecords(file: string, sheetName: string | undefined, options: SpreadsheetOptions = {}): Promise<XlsxRecords> {
  const head = readHead(file);
  if (isCompoundFile(head) && isEncryptedPackage(file)) throw passwordProtectedError(file);
  if (isOfficeOpenXml(file, head)) return openXlsxRecords(file, sheetName, options);
  const limits = { ...DEFAULT_SHEET_LIMITS, ...options.limits };
  return openSheetJsRecords(file, sheetName, limits, head[0] === 0x50 && head[1] === 0x4b);
}
