/**
 * Reading a CSV input: its records as a stream with their line numbers. What identifies the
 * file (fingerprint, encoding) is found by inspect.ts before.
 */
import fs from 'node:fs';
import { parse, type Parser } from 'csv-parse';
import { InputError } from '../errors.js';
import type { Encoding } from './inspect.js';

export { inspectInput, utf8Boundary, type Encoding, type InputInfo } from './inspect.js';

export interface CsvRecord {
  /** Fields as text. */
  fields: string[];
  /** Line number where the record starts (1-based, header is line 1). */
  line: number;
}

/** Largest field accepted; a larger one means the file is not a payee list (or a quote is unclosed). */
export const MAX_RECORD_BYTES = 8 * 1024 * 1024;

/** `keepBlank`: blank lines come through as `['']` (the preamble above a header keeps its shape). */
export function openCsvRecords(inputPath: string, encoding: Encoding, keepBlank = false): { records: AsyncIterable<CsvRecord>; close(): void } {
  const stream = fs.createReadStream(inputPath, { highWaterMark: 256 * 1024 });
  if (encoding !== 'utf8') stream.setEncoding(encoding);
  const parser: Parser = parse({
    bom: true,
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
  });
  stream.on('error', (error) => parser.destroy(error));
  stream.pipe(parser);
  async function* iterate(): AsyncGenerator<CsvRecord> {
    let line = 1;
    try {
      for await (const fields of parser as AsyncIterable<string[]>) {
        const start = line;
        line += 1 + innerLineBreaks(fields);
        if (!keepBlank && fields.length === 1 && fields[0]!.trim() === '') continue;
        yield { fields, line: start };
      }
    } catch (error) {
      throw new InputError(`input ${inputPath} is not valid CSV: ${describeCsvError(error, line)}`);
    }
  }
  return {
    records: iterate(),
    close() {
      stream.destroy();
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
