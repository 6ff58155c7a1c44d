/**
 * The bounds a spreadsheet is read within (docs/ARCHITECTURE.md, "Layout", src/input/): a
 * workbook is a zip of XML parts whose inflated size, cells and shared strings a hostile or
 * damaged file can make as large as it likes. Each bound, when crossed, ends the run with one
 * InputError (exit 2) naming the bound and what to do, before memory grows past it.
 */
import { InputError } from '../errors.js';

export interface SheetLimits {
  /** Inflated bytes of every part read, together. Default 4 GiB (a full-size sheet of 20 columns is ~1 GiB). */
  maxInflatedBytes: number;
  /** How many times its compressed size one part may inflate to (past 1 MiB). Default 100: sheet XML and shared strings compress 4–10× (a sheet of empty styled cells ~50×), a zip bomb ~1,000×. */
  maxInflateRatio: number;
  /** Characters of one cell. Default 32,767: Excel's own limit. */
  maxCellChars: number;
  /** Characters of one row's cells together. Default 1 MiB. */
  maxRowChars: number;
  /** Rows of one sheet. Default 1,048,576: Excel's own limit. */
  maxRows: number;
  /** Shared strings of the workbook. Default 8,388,608 (eight text columns of a full-size sheet, all different). */
  maxSharedStrings: number;
  /** UTF-8 bytes of the shared strings together. Default 256 MiB (spooled to disk past 8 MiB when a spool folder is given, else at most 64 MiB in memory). */
  maxSharedStringBytes: number;
  /** Bytes of a workbook part read whole (workbook.xml, its relationships). Default 16 MiB. */
  maxPartBytes: number;
  /** Bytes of a non-streamed spreadsheet (.xls, .ods, HTML saved as .xls). Default 32 MiB (a full-size .xls, 65,536 rows, is ~12 MB). */
  maxWholeFileBytes: number;
}

export const DEFAULT_SHEET_LIMITS: Readonly<SheetLimits> = Object.freeze({
  maxInflatedBytes: 4 * 1024 ** 3,
  maxInflateRatio: 100,
  maxCellChars: 32_767,
  maxRowChars: 1024 ** 2,
  maxRows: 1_048_576,
  maxSharedStrings: 8 * 1_048_576,
  maxSharedStringBytes: 256 * 1024 ** 2,
  maxPartBytes: 16 * 1024 ** 2,
  maxWholeFileBytes: 32 * 1024 ** 2,
});

/** Shared strings kept in memory when no spool folder is given (a library caller's default). */
export const IN_MEMORY_SHARED_STRING_BYTES = 64 * 1024 ** 2;

const SAVE_AS_CSV = 'save the payee sheet as "CSV UTF-8" and run again';

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${Math.round((bytes / 1024 ** 3) * 10) / 10} GiB`;
  if (bytes >= 1024 ** 2) return `${Math.round((bytes / 1024 ** 2) * 10) / 10} MiB`;
  return `${bytes.toLocaleString('en-US')} bytes`;
}

/** The one shape of a crossed bound: which file, which bound, and what to do. */
export function limitError(file: string, what: string, advice = SAVE_AS_CSV): InputError {
  return new InputError(`input ${file}: ${what}; ${advice}`);
}

/** A workbook that is not what it says (a damaged zip or XML). */
export function damagedError(file: string, what: string): InputError {
  return new InputError(`input ${file} is not a readable workbook: ${what} (open it in Excel and save it again, or save the payee sheet as "CSV UTF-8")`);
}
