/**
 * Reading the input: its content fingerprint (which identifies a run), its encoding, and the
 * CSV records as a stream with their line numbers.
 */
import fs from 'node:fs';
import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import { parse, type Parser } from 'csv-parse';

export class InputError extends Error {
  override readonly name = 'InputError';
}

export type Encoding = 'utf8' | 'utf16le' | 'latin1';

export interface InputInfo {
  fingerprint: string;
  bytes: number;
  encoding: Encoding;
  /** Line breaks in the file: an estimate of the row count for progress before the end is read. */
  lines: number;
}

/**
 * SHA-256 of the content, read sequentially in large blocks (a 100 MB file takes a fraction
 * of a second), and the encoding: UTF-8 unless a UTF-16 BOM says otherwise or the bytes are
 * not valid UTF-8, in which case the file is read as Latin-1 (what Excel on Windows writes).
 */
export async function inspectInput(inputPath: string): Promise<InputInfo> {
  let stat: fs.Stats;
  try {
    stat = await fs.promises.stat(inputPath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(
      code === 'ENOENT' ? `input file ${inputPath} does not exist` : `cannot read input ${inputPath}: ${(error as Error).message}`,
    );
  }
  if (stat.isDirectory()) throw new InputError(`input ${inputPath} is a directory, not a CSV file`);
  const hash = createHash('sha256');
  let validUtf8 = true;
  let carry: Buffer = Buffer.alloc(0);
  let first: Buffer | undefined;
  let bytes = 0;
  let lines = 1;
  try {
    for await (const chunk of fs.createReadStream(inputPath, { highWaterMark: 1 << 20 })) {
      const buf = chunk as Buffer;
      first ??= buf;
      bytes += buf.length;
      hash.update(buf);
      for (let at = buf.indexOf(10); at !== -1; at = buf.indexOf(10, at + 1)) lines += 1;
      if (validUtf8) {
        // Native validation, chunk by chunk; a character split across chunks is carried over.
        const joined = carry.length > 0 ? Buffer.concat([carry, buf]) : buf;
        const cut = utf8Boundary(joined);
        validUtf8 = isUtf8(joined.subarray(0, cut));
        carry = Buffer.from(joined.subarray(cut));
      }
    }
    if (validUtf8 && carry.length > 0) validUtf8 = isUtf8(carry);
  } catch (error) {
    throw new InputError(`cannot read input ${inputPath}: ${(error as Error).message}`);
  }
  if (bytes === 0 || !first) throw new InputError(`input ${inputPath} is empty: it needs a header row and payee rows`);
  let encoding: Encoding = validUtf8 ? 'utf8' : 'latin1';
  if (first[0] === 0xff && first[1] === 0xfe) encoding = 'utf16le';
  if (first[0] === 0xfe && first[1] === 0xff) {
    throw new InputError(`input ${inputPath} is UTF-16 big-endian: save it as "CSV UTF-8" and run again`);
  }
  if (encoding !== 'utf16le') {
    const head = first.subarray(0, 4096);
    if (looksLikeUtf16WithoutBom(head)) {
      throw new InputError(`input ${inputPath} looks like UTF-16 without a byte-order mark: save it as "CSV UTF-8" and run again`);
    }
    if (head.includes(0) || controlShare(head) > 0.01) {
      throw new InputError(`input ${inputPath} is not a text CSV file (it contains binary data)`);
    }
  }
  return { fingerprint: hash.digest('hex'), bytes, encoding, lines };
}

/** Every other byte zero in ASCII-range text: UTF-16 whose BOM was lost. */
function looksLikeUtf16WithoutBom(head: Buffer): boolean {
  if (head.length < 8) return false;
  let zeroOdd = 0;
  let zeroEven = 0;
  for (let i = 0; i < head.length; i += 1) if (head[i] === 0) (i % 2 === 0 ? (zeroEven += 1) : (zeroOdd += 1));
  const half = head.length / 2;
  return zeroOdd > half * 0.9 || zeroEven > half * 0.9;
}

/**
 * Share of C0 control bytes other than tab, CR and LF. Text, whatever its encoding, has next to
 * none; random or compressed bytes have about one in nine (they need not contain a zero byte).
 */
function controlShare(head: Buffer): number {
  if (head.length === 0) return 0;
  let controls = 0;
  for (const byte of head) if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) controls += 1;
  return controls / head.length;
}

/** Where the last complete UTF-8 character of `buf` ends (a trailing partial one is left out). */
export function utf8Boundary(buf: Buffer): number {
  const end = buf.length;
  for (let back = 1; back <= 3 && back <= end; back += 1) {
    const byte = buf[end - back]!;
    if ((byte & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead
    const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return need > back ? end - back : end;
  }
  return end;
}

export interface CsvRecord {
  /** Fields as text. */
  fields: string[];
  /** Line number where the record starts (1-based, header is line 1). */
  line: number;
}

/** Largest field accepted; a larger one means the file is not a payee list (or a quote is unclosed). */
export const MAX_RECORD_BYTES = 8 * 1024 * 1024;

export function openCsvRecords(inputPath: string, encoding: Encoding): { records: AsyncIterable<CsvRecord>; close(): void } {
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
        if (fields.length === 1 && fields[0]!.trim() === '') continue;
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
