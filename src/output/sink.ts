/**
 * The output file (docs/ARCHITECTURE.md, "Layout", src/output/): its format chosen once, from its
 * path; one sink interface with a CSV and an .xlsx implementation, each written to a temporary
 * file beside the target and renamed into place only by commit(). Used by the bank run, and by
 * every later writer of an enriched or released file.
 */
import { isSpreadsheetPath, SPREADSHEET_EXTENSION } from '../input/spreadsheet.js';
import fs from 'node:fs';
import path from 'node:path';
import { removeLeftovers, symlinkProblem } from '../safe-path.js';
import { OutputError } from '../errors.js';
import { clearTemp } from './temp-file.js';
import type { CsvFormat } from '../input/read-csv.js';
import { openCsvSink } from './csv.js';
import { openXlsxSink } from './xlsx-sink.js';
import type { XlsxSource } from './xlsx.js';
import type { OutputSink } from './types.js';

export type { OutputSink, SinkPlace } from './types.js';

/** What an output file is written as. */
export type OutputFormat = 'csv' | 'xlsx';

/** The format of an output, from its path: .xlsx (and .xlsm) is a workbook, anything else CSV. Decided here only. */
export function outputFormatOf(outputPath: string): OutputFormat {
  return /\.(xlsx|xlsm)$/i.test(outputPath) ? 'xlsx' : 'csv';
}

/** The output a bank run writes by default for an input: .verified beside it, a workbook for a spreadsheet input. */
export function defaultOutputPath(input: string): string {
  // A macro workbook's copy keeps its macros and their content type: Excel opens it only as .xlsm.
  if (/\.xlsm$/i.test(input)) return input.replace(/\.xlsm$/i, '.verified.xlsm');
  if (isSpreadsheetPath(input)) return input.replace(SPREADSHEET_EXTENSION, '.verified.xlsx');
  return input.replace(/(\.csv)?$/i, '.verified.csv');
}


/** How the output keeps the input's form: a CSV's delimiter, BOM and line endings; an .xlsx input's workbook. */
export interface OutputSource {
  /** The input's delimiter, BOM and line endings (default: comma, no BOM, LF). */
  format?: CsvFormat | undefined;
  /** An .xlsx input, whose workbook an .xlsx output copies (src/output/xlsx.ts). */
  xlsxSource?: XlsxSource | undefined;
}

/**
 * Opens the output at `outputPath`: the preamble and the header first, then rows as they come.
 * Temporary files that killed runs left beside it go first (`isAlive` tells a live run's).
 */
export function openOutput(outputPath: string, header: readonly string[], isAlive: (pid: number) => boolean = () => true, preamble: readonly (readonly string[])[] = [], source: OutputSource = {}): OutputSink {
  const target = path.resolve(outputPath);
  removeStaleTemps(target, isAlive);
  const place = { outputPath, target, temp: path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.tmp`) };
  const first = [...preamble, header];
  return outputFormatOf(outputPath) === 'xlsx' ? openXlsxSink(place, first, source.xlsxSource) : openCsvSink(place, first, source.format);
}

/**
 * Why the enriched output of `inputPath` cannot be written under the name `outputPath`, or
 * undefined: it is written as CSV or as an .xlsx workbook (outputFormatOf), so a name that says
 * another spreadsheet format (.xls, .ods, .xlsb) would be CSV text Excel refuses or misreads, and
 * .xlsm (macro-enabled, which Excel opens only with a macro workbook's content type) is the copy
 * of an .xlsm input only.
 */
export function outputNameProblem(outputPath: string, inputPath: string): string | undefined {
  const ext = path.extname(outputPath).toLowerCase();
  if (['.xls', '.ods', '.xlsb', '.numbers', '.fods'].includes(ext)) {
    return `-o ${outputPath}: vas-verify writes CSV or .xlsx, not ${ext}: name the output .xlsx (or .csv)`;
  }
  if (ext === '.xlsm' && path.extname(inputPath).toLowerCase() !== '.xlsm') {
    return `-o ${outputPath}: an .xlsm (macro-enabled) output is written only from an .xlsm input, whose macros it keeps: name it .xlsx`;
  }
  return undefined;
}

/** Fails early (before any call) when the output cannot be written where asked. */
export function checkOutputPath(outputPath: string, flag = '-o'): void {
  // An empty name resolves to the current folder only when the file is renamed into place, after the work.
  if (outputPath === '') throw new OutputError(`${flag} is empty: give a file name`);
  // A link there would be written through (src/safe-path.ts).
  const linked = symlinkProblem(outputPath, `${flag} path`);
  if (linked) throw new OutputError(linked);
  const dir = path.dirname(path.resolve(outputPath));
  let stat: fs.Stats;
  try {
    stat = fs.statSync(dir);
  } catch {
    throw new OutputError(`output directory ${dir} does not exist: create it or choose another ${flag} path`);
  }
  if (!stat.isDirectory()) throw new OutputError(`output directory ${dir} is not a directory`);
  let existing: fs.Stats | undefined;
  try {
    existing = fs.statSync(outputPath);
  } catch {
    existing = undefined; // not there yet: it is created
  }
  if (existing?.isDirectory()) throw new OutputError(`output path ${outputPath} is a directory: give a file name`);
  // Every output is written beside its path and renamed over it: a device or a pipe there would be
  // replaced by a file (/dev/null, a FIFO someone reads from), and a full device would report success.
  if (existing && !existing.isFile()) throw new OutputError(`output path ${outputPath} is not a regular file (a pipe, a device or a socket): give a file name`);
  // Permission bits say nothing for root, a read-only mount or /proc: create a file to know.
  const probe = path.join(dir, `.${path.basename(outputPath)}.${process.pid}.probe`);
  try {
    fs.closeSync(fs.openSync(probe, fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_WRONLY, 0o600));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    throw new OutputError(`output directory ${dir} is not writable (${code || (error as Error).message}): choose another ${flag} path`);
  }
  fs.rmSync(probe, { force: true });
}


/** Temporary files of earlier runs that were killed before they could rename or remove them. */
function removeStaleTemps(target: string, isAlive: (pid: number) => boolean): void {
  const prefix = `.${path.basename(target)}.`;
  removeLeftovers(path.dirname(target), (name) => (name.startsWith(prefix) && name.endsWith('.tmp') ? Number(name.slice(prefix.length, -'.tmp'.length)) : undefined), isAlive);
}


/**
 * Copies a finished output to `outputPath` (a finished run re-emitted unchanged): into a temporary
 * file beside it, mode 0600, then renamed into place, as every output is. Nothing to do when
 * `outputPath` is that file.
 */
export function copyOutput(from: string, outputPath: string, isAlive: (pid: number) => boolean = () => true): void {
  const target = path.resolve(outputPath);
  if (target === path.resolve(from)) return;
  removeStaleTemps(target, isAlive);
  const temp = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.tmp`);
  try {
    clearTemp(temp);
    fs.copyFileSync(from, temp, fs.constants.COPYFILE_EXCL);
    fs.chmodSync(temp, 0o600);
    fs.renameSync(temp, target);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw new OutputError(`cannot write ${outputPath}: ${(error as Error).message}`, { cause: error });
  }
}
