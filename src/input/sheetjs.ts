/**
 * The spreadsheets that are not streamed (docs/ARCHITECTURE.md, "Layout", src/input/): .xls
 * (BIFF, what bank portals, Tally and payout templates still give), .ods, and the HTML or text
 * tables banks save with an .xls name, read whole by SheetJS (@e965/xlsx: the SheetJS
 * Community Edition 0.20.3 as published to npm; the `xlsx` package on npm stopped at 0.18.5,
 * with known prototype-pollution and ReDoS advisories). Read on a worker thread with a capped
 * heap, after the file's size (and for a zip, its inflated size) is checked against
 * sheet-limits.ts: whatever the file, the run ends in a clear exit 2, never a heap abort.
 */
import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import { InputError } from '../errors.js';
import { passwordProtectedError } from './encrypted.js';
import type { CsvRecord } from './read-csv.js';
import { formatBytes, limitError, type SheetLimits } from './sheet-limits.js';
import { blankRows, type XlsxRecords } from './xlsx.js';
import { LostDigits, type MergeRange } from './xlsx-stream.js';
import { ODS_SHEET_PARTS, OdsSheetStates } from './ods-sheets.js';
import { XmlFeed } from './xml-feed.js';
import { ZipFile } from './zip-reader.js';

/** The worker's heap: SheetJS holds a full-size .xls (65,536 rows) in ~190 MB. */
const WORKER_HEAP_MB = 224;
/** A zip (.ods) read whole may inflate to this many times the file's size limit. */
const WHOLE_INFLATE_FACTOR = 8;

type Answer = { ok: true; sheets: string[]; hiddenSheets: string[]; sheet: string; rows: Array<[number, string[]]>; lostDigits: string[]; merges: MergeRange[] } | { ok: false; app: boolean; message: string };

/**
 * Inflates every part of a zip within the bounds (a zip bomb stops here, before SheetJS inflates
 * it in memory); an .ods's content.xml and styles.xml are parsed on the way for the sheets it
 * hides and the formula cells never calculated (ods-sheets.ts), which SheetJS does not tell.
 */
async function checkZip(file: string, limits: SheetLimits): Promise<OdsSheetStates> {
  const zip = ZipFile.open(file, { ...limits, maxInflatedBytes: limits.maxWholeFileBytes * WHOLE_INFLATE_FACTOR });
  const states = new OdsSheetStates();
  try {
    // LibreOffice encrypts an .ods's parts with a password and lists how in the manifest: its parts are no XML to read.
    const manifest = zip.find('META-INF/manifest.xml');
    if (manifest !== undefined && manifest.size <= limits.maxPartBytes) {
      const chunks: Buffer[] = [];
      for await (const chunk of zip.inflate(manifest)) chunks.push(chunk);
      if (/<([\w.-]+:)?encryption-data\b/.test(Buffer.concat(chunks).toString('utf8'))) throw passwordProtectedError(file, 'calc');
    }
    for (const entry of zip.entries.values()) {
      // No bound on a run of text here but the zip's: SheetJS holds the whole part in memory anyway.
      const feed = ODS_SHEET_PARTS.has(entry.name) ? new XmlFeed(zip, entry, states.handlersFor(entry.name), Infinity) : undefined;
      for await (const chunk of zip.inflate(entry)) feed?.write(chunk);
      feed?.end();
    }
  } finally {
    zip.close();
  }
  return states;
}

function startWorker(file: string, sheetName: string | undefined, odsHidden: readonly string[]): Worker {
  const workerData = { file, sheetName, odsHidden };
  const resourceLimits = { maxOldGenerationSizeMb: WORKER_HEAP_MB };
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./sheetjs-worker.js', import.meta.url), { workerData, resourceLimits });
  // Run from source (the tests), the worker registers tsx's hooks itself first (as inspect.ts does).
  const tsx = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./sheetjs-worker.ts', import.meta.url).href;
  const code = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`;
  return new Worker(code, { eval: true, workerData, resourceLimits });
}

function readInWorker(file: string, sheetName: string | undefined, odsHidden: readonly string[], isZip: boolean): Promise<Answer & { ok: true }> {
  return new Promise((resolve, reject) => {
    const worker = startWorker(file, sheetName, odsHidden);
    let answered = false;
    worker.once('message', (answer: Answer) => {
      answered = true;
      if (answer.ok) resolve(answer);
      else if (answer.app) reject(new InputError(answer.message));
      // SheetJS's words for an .xls with a password to open (FILEPASS) or an encrypted package or .ods.
      else if (/password-protected|encrypt/i.test(answer.message)) reject(passwordProtectedError(file, isZip ? 'calc' : 'excel'));
      else reject(new InputError(`input ${file} is not a readable spreadsheet: ${answer.message} (open it in Excel and save it as .xlsx or "CSV UTF-8")`));
      void worker.terminate();
    });
    worker.once('error', (error: Error & { code?: string }) => {
      if (answered) return;
      answered = true;
      reject(error.code === 'ERR_WORKER_OUT_OF_MEMORY'
        ? limitError(file, `it needs more memory than ${WORKER_HEAP_MB} MB to read whole (an .xls or .ods is not read as a stream)`)
        : new InputError(`input ${file} is not a readable spreadsheet: ${error.message}`));
    });
    worker.once('exit', (code) => {
      if (!answered) reject(new InputError(`input ${file} could not be read (the reading thread exited with code ${code})`));
    });
  });
}

/** The rows of an .xls / .ods / HTML-table file's payee sheet (or `sheetName`) as records. */
export async function openSheetJsRecords(file: string, sheetName: string | undefined, limits: SheetLimits, isZip: boolean): Promise<XlsxRecords> {
  const size = fs.statSync(file).size;
  if (size > limits.maxWholeFileBytes) {
    throw limitError(file, `it is ${formatBytes(size)}; an .xls or .ods is read whole, up to ${formatBytes(limits.maxWholeFileBytes)}`, 'save it from Excel as .xlsx (read as a stream) or as "CSV UTF-8"');
  }
  const ods = isZip ? await checkZip(file, limits) : undefined;
  const answer = await readInWorker(file, sheetName, ods?.hiddenSheets() ?? [], isZip);
  const uncalculated = ods?.uncalculatedCells(answer.sheet) ?? new Map<number, readonly number[]>();
  // The worker tells which texts are number cells past 15 digits (xlsx-stream.ts, LostDigits).
  const lost = new LostDigits();
  for (const text of answer.lostDigits) lost.note(text, text);
  async function* records(): AsyncGenerator<CsvRecord> {
    let next = 1;
    // SheetJS drops a formula cell with no result: the row's cells there read as empty (and a row
    // of such cells alone is absent, given back as a blank row).
    const withUncalculated = (record: CsvRecord): CsvRecord => {
      const cols = uncalculated.get(record.line);
      return cols === undefined ? record : { ...record, uncalculated: cols };
    };
    for (const [line, fields] of answer.rows) {
      for (const blank of blankRows(next, line)) yield withUncalculated(blank);
      yield withUncalculated({ fields, line });
      next = Math.max(next, line + 1);
    }
  }
  return { records: records(), sheet: answer.sheet, sheets: answer.sheets, hiddenSheets: answer.hiddenSheets, merges: answer.merges, close: () => lost.close() };
}
