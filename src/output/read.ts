/**
 * Reading an output back (docs/ARCHITECTURE.md, "Layout", src/output/): the report and the filter
 * read an enriched file, CSV in any delimiter or .xlsx, through here, as records with their line.
 *
 * Fast path for comma-separated CSV, because a 1M-row output is read at the end of every run with
 * --report: records are cut at line ends (a line with an odd number of quotes continues the
 * record), a record without quotes is split on commas, and only records with quotes go through
 * csv-parse. Any other delimiter goes through the input's streaming reader; a workbook through
 * the spreadsheet reader (its payee sheet).
 */
import fs from 'node:fs';
import { parse } from 'csv-parse/sync';
import { InputError } from '../errors.js';
import { MAX_RECORD_BYTES, openCsvRecords, sniffCsvFormat, type CsvRecord } from '../input/read-csv.js';
import { openSpreadsheetRecords } from '../input/spreadsheet.js';
import { outputFormatOf } from './sink.js';

/** The records of an output file, from its first line; stop early by leaving the loop. */
export async function* readOutputRecords(file: string): AsyncGenerator<CsvRecord> {
  checkRegularFile(file);
  if (outputFormatOf(file) === 'xlsx') {
    // The sheet with the tool's columns: a workbook of several payee sheets is no question here.
    const book = await openSpreadsheetRecords(file, undefined, { wantedSheet: (rows) => rows.some((fields) => ownStatusColumn(fields) >= 0) });
    try {
      yield* book.records;
    } finally {
      book.close();
    }
    return;
  }
  const { delimiter } = sniffCsvFormat(file, 'utf8');
  if (delimiter === ',') {
    yield* commaRecords(file);
    return;
  }
  const reader = openCsvRecords(file, 'utf8', true, delimiter);
  try {
    yield* reader.records;
  } finally {
    reader.close();
  }
}

/** A `verify_status` column, or one renamed `vas_verify_status` (`vas_vas_…`) because the input has one. */
const STATUS_NAME = /^(vas_)*verify_status$/;

/**
 * The tool's own status column in an output's header, or -1: the last `verify_status` (or its
 * `vas_` name), since the tool's columns come after every input column and an input's own (last
 * week's enriched file run again) before them. The tool's other columns follow it (`ownColumn`).
 */
export function ownStatusColumn(header: readonly string[]): number {
  for (let i = header.length - 1; i >= 0; i -= 1) if (STATUS_NAME.test(header[i]!.trim().toLowerCase())) return i;
  return -1;
}

/** Where the tool's own column `name` (or its `vas_` name) is: at or after its status column (`ownStatusColumn`); -1 when none. */
export function ownColumn(header: readonly string[], name: string): number {
  const status = ownStatusColumn(header);
  if (status < 0) return -1;
  const bare = (text: string) => text.trim().toLowerCase().replace(/^(vas_)+/, '');
  const wanted = bare(name);
  for (let i = status; i < header.length; i += 1) if (bare(header[i]!) === wanted) return i;
  return -1;
}

/** A directory, a pipe or a device is no output to read (/dev/zero would be read for ever). */
function checkRegularFile(file: string): void {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(code === 'ENOENT' ? `${file} does not exist` : `cannot read ${file}: ${(error as Error).message}`);
  }
  if (stat.isDirectory()) throw new InputError(`${file} is a directory: give the output file of a run`);
  if (!stat.isFile()) throw new InputError(`${file} is not a regular file (a pipe or a device): save it to a file first`);
}

/** A record past the cap the input reader keeps too (read-csv.ts): a file of one endless line is no output. */
function tooLong(file: string, line: number): InputError {
  return new InputError(`${file} is not an output of vas-verify: the record at line ${line} is larger than ${MAX_RECORD_BYTES / 1024 / 1024} MiB`);
}

function fieldsOf(record: string): string[] {
  if (!record.includes('"')) return record.split(',');
  try {
    return (parse(record, { relax_column_count: true, relax_quotes: true }) as string[][])[0] ?? [];
  } catch {
    return record.split(',');
  }
}

function quotesIn(line: string): number {
  let n = 0;
  for (let i = line.indexOf('"'); i >= 0; i = line.indexOf('"', i + 1)) n += 1;
  return n;
}

/**
 * Lines into records: a line with an odd number of quotes opens (or closes) a quoted cell, and
 * the record goes on to the next line. Hands each record, with its first line's number, on.
 */
class RecordJoiner {
  private line = 0;
  private pending = '';
  private pendingLine = 0;
  private open = false;

  constructor(
    private readonly onRecord: (record: string, line: number) => void,
    private readonly onTooLong: (line: number) => never,
  ) {}

  take(raw: string): void {
    this.line += 1;
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (this.open) {
      if (this.pending.length + text.length > MAX_RECORD_BYTES) this.onTooLong(this.pendingLine);
      this.pending += `\n${text}`;
    } else {
      this.pending = this.line === 1 && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
      this.pendingLine = this.line;
    }
    if (quotesIn(text) % 2 === 1) this.open = !this.open;
    if (!this.open) {
      this.onRecord(this.pending, this.pendingLine);
      this.pending = '';
    }
  }

  /** The number of the line `take` reads next. */
  nextLine(): number {
    return this.line + 1;
  }

  /** The end of the file: a record left open is taken as it is. */
  end(): void {
    if (this.open && this.pending !== '') this.onRecord(this.pending, this.pendingLine);
  }
}

/** A line's end: CRLF, LF, or a bare CR (Excel for Mac's "CSV (Macintosh)" and an output of such an input). */
const LINE_END = /\r\n|\n|\r/g;

/** A comma-separated output's records, cut at line ends (the fast path). */
async function* commaRecords(file: string): AsyncGenerator<CsvRecord> {
  const ready: CsvRecord[] = [];
  const joiner = new RecordJoiner((record, line) => ready.push({ fields: record === '' ? [] : fieldsOf(record), line }), (line) => {
    throw tooLong(file, line);
  });
  const stream = fs.createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 });
  let rest = '';
  try {
    for await (const chunk of stream as AsyncIterable<string>) {
      let start = 0;
      const text = rest + chunk;
      LINE_END.lastIndex = 0;
      for (let end = LINE_END.exec(text); end !== null; end = LINE_END.exec(text)) {
        // A CR that ends the chunk may be the first half of a CRLF: the next chunk tells.
        if (end[0] === '\r' && LINE_END.lastIndex === text.length) break;
        joiner.take(text.slice(start, end.index));
        start = LINE_END.lastIndex;
      }
      rest = text.slice(start);
      if (rest.length > MAX_RECORD_BYTES) throw tooLong(file, joiner.nextLine());
      yield* ready.splice(0);
    }
    if (rest !== '') joiner.take(rest.endsWith('\r') ? rest.slice(0, -1) : rest);
    joiner.end();
    yield* ready.splice(0);
  } finally {
    stream.destroy();
  }
}
