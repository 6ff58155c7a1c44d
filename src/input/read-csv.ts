/**
 * Reading a CSV input: its records as a stream with their line numbers, and the file's format
 * (delimiter, byte-order mark, line endings) sniffed from its first lines so that the output can
 * keep it. What identifies the file (fingerprint, encoding) is found by inspect.ts before.
 */
import fs from 'node:fs';
import { parse, type Parser } from 'csv-parse';
import { Transform } from 'node:stream';
import { InputError } from '../errors.js';
import { decodeText, type Encoding } from './inspect.js';

export { inspectInput, utf8Boundary, type Encoding, type InputInfo } from './inspect.js';

export interface CsvRecord {
  /** Fields as text. */
  fields: string[];
  /** Line number where the record starts (1-based, header is line 1). */
  line: number;
  /** A spreadsheet's: the 0-based columns whose cells hold a formula never calculated (xlsx-stream.ts, `uncalculated`). */
  uncalculated?: readonly number[] | undefined;
}

/** The delimiters sniffed: what Excel writes in the locales our users have, and what bank host-to-host files use. */
export const DELIMITERS = [',', ';', '\t', '|'] as const;
export type Delimiter = (typeof DELIMITERS)[number];

/** How a CSV file is written: the output keeps it. */
export interface CsvFormat {
  delimiter: Delimiter;
  /**
   * The output starts with a UTF-8 byte-order mark, so that Excel reads it as UTF-8 (without one it
   * takes the file for the ANSI code page, and a Hindi or an accented name shows as mojibake): when
   * the input starts with one (Excel's "CSV UTF-8"), and when the input is not UTF-8 at all
   * (UTF-16 with its BOM, Excel's "Unicode Text"; Windows-1252), since the output is always UTF-8.
   * Only a UTF-8 input without a BOM gets an output without one.
   */
  bom: boolean;
  eol: '\r\n' | '\n' | '\r';
}

export const DEFAULT_FORMAT: CsvFormat = { delimiter: ',', bom: false, eol: '\n' };

/** Bytes looked at to sniff the format. */
const SNIFF_BYTES = 64 * 1024;
/** Lines looked at to sniff the delimiter. */
const SNIFF_LINES = 50;

/** Largest record accepted (its fields' characters); a larger one means the file is not a payee list (or a quote is unclosed). */
export const MAX_RECORD_BYTES = 8 * 1024 * 1024;

/**
 * Most fields one record may have: Excel's 16,384 columns (XFD), the bound the .xlsx reader keeps
 * too (xlsx-stream.ts); a payee list has tens. MAX_RECORD_BYTES counts the fields' characters, not
 * the delimiters, so a line of millions of tiny fields (`x,x,x,…`, or commas alone) passed under it
 * as an array of millions of strings, each then looked at by the header search: 30 s and 800 MB
 * before an error. csv-parse keeps everything past this many fields as one more field
 * (`ignore_last_delimiters`), whose characters, delimiters included, the 8 MiB cap then counts, and
 * a record that has that field is refused (tooManyFields): memory stays bounded while it is read.
 */
export const MAX_FIELDS = 16_384;

/** The file's format from its first 64 KiB; `delimiter` (`--delimiter`) forces one. */
export function sniffCsvFormat(inputPath: string, encoding: Encoding, delimiter?: Delimiter): CsvFormat {
  const fd = fs.openSync(inputPath, 'r');
  let head: Buffer;
  try {
    const buf = Buffer.alloc(SNIFF_BYTES);
    head = buf.subarray(0, fs.readSync(fd, buf, 0, SNIFF_BYTES, 0));
  } finally {
    fs.closeSync(fd);
  }
  const text = decodeText(head, encoding);
  const bom = encoding !== 'utf8' || (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf);
  const eolMatch = /\r\n|\n|\r/.exec(text);
  const eol = (eolMatch?.[0] ?? '\n') as CsvFormat['eol'];
  return { delimiter: delimiter ?? sniffDelimiter(text), bom, eol };
}

/**
 * The delimiter of the first lines: the one that splits the most lines into the same number of
 * fields (more than one), quoted text left out. Comma when nothing splits (a one-column file).
 */
export function sniffDelimiter(text: string): Delimiter {
  const lines = text.split(/\r\n|\n|\r/).filter((l) => l.trim() !== '').slice(0, SNIFF_LINES);
  // The last line may be cut by the 64 KiB window.
  if (lines.length > 1) lines.pop();
  let best: Delimiter = ',';
  let bestScore = 0;
  for (const d of DELIMITERS) {
    const counts = new Map<number, number>();
    for (const line of lines) {
      const n = countOutsideQuotes(line, d);
      if (n > 0) counts.set(n, (counts.get(n) ?? 0) + 1);
    }
    // Lines that agree on a field count, weighted a little by how many fields they make.
    let score = 0;
    for (const [n, lineCount] of counts) score = Math.max(score, lineCount * 1000 + Math.min(n, 999));
    if (score > bestScore) {
      best = d;
      bestScore = score;
    }
  }
  return best;
}

function countOutsideQuotes(line: string, d: string): number {
  let n = 0;
  let quoted = false;
  for (let i = 0; i < line.length; i += 1) {
    const c = line[i];
    if (c === '"') quoted = !quoted;
    else if (c === d && !quoted) n += 1;
  }
  return n;
}

/**
 * How every CSV input is cut into records: the release (src/release/) cuts the same file the same
 * way to copy records byte for byte, so both read through these options.
 */
export function csvParseOptions(delimiter: Delimiter) {
  return {
    bom: true,
    delimiter,
    relax_column_count: true,
    // A stray quote inside an unquoted field is kept as text, as spreadsheets do.
    relax_quotes: true,
    // Files glued together from several exports mix CRLF, LF and even bare CR: each ends a
    // record (csv-parse otherwise keeps only the first kind it meets and merges the rest).
    record_delimiter: ['\r\n', '\n', '\r'],
    // Blank lines come through so that line numbers can be counted here: csv-parse counts a
    // CRLF inside a quoted field as two lines.
    skip_empty_lines: false,
    max_record_size: MAX_RECORD_BYTES,
    // Fields past MAX_FIELDS are one field, its delimiters kept as text: at most MAX_FIELDS + 1.
    ignore_last_delimiters: MAX_FIELDS + 1,
  };
}

/** Whether a parse error or record is one of more than MAX_FIELDS fields (its field MAX_FIELDS + 1 being read or read). */
function tooManyFields(error: unknown): boolean {
  const e = error as { code?: string; index?: unknown };
  return e.code === 'VAS_TOO_MANY_FIELDS' || (typeof e.code === 'string' && e.code.startsWith('CSV_') && e.index === MAX_FIELDS);
}

/** `keepBlank`: blank lines come through as `['']` (the preamble above a header keeps its shape). */
export function openCsvRecords(inputPath: string, encoding: Encoding, keepBlank = false, delimiter: Delimiter = ','): { records: AsyncIterable<CsvRecord>; close(): void } {
  const stream = fs.createReadStream(inputPath, { highWaterMark: 256 * 1024 });
  // csv-parse decodes UTF-8 itself; UTF-16LE by Node; Windows-1252 (one byte a character) chunk by chunk.
  if (encoding === 'utf16le') stream.setEncoding(encoding);
  const text = encoding === 'windows-1252' ? stream.pipe(new Transform({ transform: (chunk: Buffer, _, done) => done(null, decodeText(chunk, encoding)) })) : stream;
  // The line where the next record starts, counted as csv-parse hands each record over: records
  // it has parsed but the reader has not taken yet are counted too, so that a parse error names
  // the line where the failing record starts (not one up to 16 buffered records earlier).
  let nextLine = 1;
  const parser: Parser = parse({
    ...csvParseOptions(delimiter),
    // The record handed on carries its line (csv-parse types records as string[]).
    on_record: (fields: string[]) => {
      if (fields.length > MAX_FIELDS) throw Object.assign(new Error('too many fields'), { code: 'VAS_TOO_MANY_FIELDS' });
      const line = nextLine;
      nextLine += 1 + innerLineBreaks(fields);
      return { fields, line } as unknown as string[];
    },
  });
  stream.on('error', (error) => parser.destroy(error));
  text.pipe(parser);
  async function* iterate(): AsyncGenerator<CsvRecord> {
    try {
      for await (const record of parser as AsyncIterable<CsvRecord>) {
        if (!keepBlank && record.fields.length === 1 && record.fields[0]!.trim() === '') continue;
        yield record;
      }
    } catch (error) {
      if (tooManyFields(error)) {
        throw new InputError(`input ${inputPath} is not a payee list: line ${nextLine} has more than ${MAX_FIELDS.toLocaleString('en-US')} fields (a spreadsheet has at most ${MAX_FIELDS.toLocaleString('en-US')} columns)`);
      }
      throw new InputError(`input ${inputPath} is not valid CSV: ${describeCsvError(error, nextLine)}`);
    }
  }
  return {
    records: iterate(),
    close() {
      stream.destroy();
      if (text !== stream) text.destroy();
      parser.destroy();
    },
  };
}

/** Line breaks inside quoted fields (CRLF, LF or CR each count once). */
function innerLineBreaks(fields: readonly string[]): number {
  let count = 0;
  for (const field of fields) {
    if (field.length < 1) continue;
    for (let i = 0; i < field.length; i += 1) {
      const c = field.charCodeAt(i);
      if (c === 10) count += 1;
      else if (c === 13) {
        count += 1;
        if (field.charCodeAt(i + 1) === 10) i += 1;
      }
    }
  }
  return count;
}

function describeCsvError(error: unknown, line: number): string {
  const e = error as { code?: string; message?: string };
  const where = ` (in the record starting at line ${line})`;
  if (e.code === 'CSV_QUOTE_NOT_CLOSED') return `a quoted field is never closed${where}`;
  if (e.code === 'CSV_MAX_RECORD_SIZE') return `a record is larger than ${MAX_RECORD_BYTES / 1024 / 1024} MiB${where}`;
  if (e.code === 'CSV_INVALID_CLOSING_QUOTE') return `a quote is followed by text before the delimiter${where}`;
  return (e.message ?? String(error)).split('\n')[0]!;
}
