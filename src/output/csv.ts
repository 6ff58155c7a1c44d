/**
 * The CSV sink of the output (docs/ARCHITECTURE.md, "Layout", src/output/): RFC 4180 text through
 * csv-stringify, in the input's delimiter and line endings with a BOM as CsvFormat.bom says, written to the temporary file
 * and renamed into place by commit().
 */
import { stringify } from 'csv-stringify/sync';
import { DELIMITERS, type CsvFormat, type Delimiter } from '../input/read-csv.js';
import { outputWriteError, TempFile } from './temp-file.js';
import type { OutputSink, SinkPlace } from './types.js';

/**
 * csv-stringify's options for the output: RFC 4180 quoting (a cell is quoted only when it holds a
 * comma, a quote or a line break; quotes are doubled), records ending with \n, and a bare CR
 * quoted too — csv-stringify leaves it bare by default, and a reader that splits records on CR
 * would cut the row there.
 */
const CSV_OPTIONS = { eof: true, record_delimiter: 'unix', quoted_match: '\r' } as const;
/**
 * Records per csv-stringify call. Its sync API keeps every record's text of a call until it joins
 * them at the end: measured on 50,000 output rows of 28 cells, 4.4 µs a row in calls of 64
 * records against 6.4 µs in calls of 512 (a batch of the ordered writer). A string for
 * `quoted_match` instead of a RegExp saved another 0.4 µs.
 */
const RECORDS_PER_CALL = 64;

/**
 * A cell csv-stringify would quote (with the options above): one holding the delimiter, a quote,
 * a CR or an LF. Any other cell it writes as it is — and a record of such cells is its cells
 * joined by the delimiter, ended by the record delimiter.
 */
const NEEDS_QUOTING: ReadonlyMap<Delimiter, RegExp> = new Map(
  DELIMITERS.map((d) => [d, new RegExp(`[${d.replace(/[\\\]^-]/g, '\\$&')}"\r\n]`)]),
);

/**
 * Output records as CSV text, one batch at a time. A record none of whose cells needs quoting is
 * written as csv-stringify writes it — its cells joined — without calling it: csv-stringify
 * builds an array and a context object for every cell (about 23 KB of garbage an output row of
 * 32 cells, a third of all a run allocated; 30,000 rows took ~28 µs less CPU a row without). Every
 * record with a cell to quote goes through csv-stringify, a few dozen per call. The bytes are
 * the same either way (test/checks.test.ts compares them record by record).
 */
export function encodeCsv(rows: readonly (readonly string[])[], options: typeof CSV_OPTIONS | CsvStringifyOptions = CSV_OPTIONS): string {
  const delimiter = 'delimiter' in options ? options.delimiter : ',';
  const eol = options.record_delimiter === 'unix' ? '\n' : options.record_delimiter;
  const needsQuoting = NEEDS_QUOTING.get(delimiter)!;
  let text = '';
  let quoted: (readonly string[])[] = [];
  const flushQuoted = () => {
    if (quoted.length === 0) return;
    text += stringify(quoted as string[][], options);
    quoted = [];
  };
  for (const row of rows) {
    if (row.length === 0 || anyCellMatches(row, needsQuoting)) {
      quoted.push(row);
      if (quoted.length === RECORDS_PER_CALL) flushQuoted();
      continue;
    }
    flushQuoted();
    text += row.join(delimiter) + eol;
  }
  flushQuoted();
  return text;
}

function anyCellMatches(row: readonly string[], pattern: RegExp): boolean {
  for (const cell of row) if (pattern.test(cell)) return true;
  return false;
}

type CsvStringifyOptions = { eof: true; record_delimiter: string; quoted_match: '\r'; quote_record_delimiter: true; delimiter: Delimiter };

/**
 * The input's delimiter and line endings for the output (its BOM is written by openCsvSink). With
 * a record delimiter of its own, csv-stringify stops quoting a cell that holds a bare LF (it
 * quotes only the record delimiter then): a CRLF file's multi-line cell came out unquoted, and a
 * reader that ends records at LF (Excel) cut the row there. `quote_record_delimiter` keeps it quoted.
 */
export function csvOutputOptions(format: CsvFormat | undefined): typeof CSV_OPTIONS | CsvStringifyOptions {
  if (!format || (format.delimiter === ',' && format.eol === '\n')) return CSV_OPTIONS;
  return { eof: true, record_delimiter: format.eol, quoted_match: '\r', quote_record_delimiter: true, delimiter: format.delimiter };
}

/** Output text gathered before it is written to the file (characters; ~64 KiB). */
export const OUTPUT_CHUNK_CHARS = 64 * 1024;

/** The CSV sink: `first` (the preamble and the header) then the rows, in the input's delimiter and line endings, UTF-8 with a BOM as CsvFormat.bom says. */
export function openCsvSink(place: SinkPlace, first: readonly (readonly string[])[], format: CsvFormat | undefined): OutputSink {
  const { outputPath, target, temp } = place;
  const tempFile = new TempFile(temp);
  const file = tempFile.stream;
  const csvOptions = csvOutputOptions(format);
  if (format?.bom) file.write('\uFEFF');
  let done = false;

  /** Waits for 'drain', a failure or the file's end (a discarded output), and leaves no listener behind. */
  const drained = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        file.off('drain', done);
        file.off('error', done);
        file.off('close', done);
        resolve();
      };
      file.on('drain', done);
      file.on('error', done);
      file.on('close', done);
    });
  const check = () => {
    if (tempFile.failure) throw outputWriteError(outputPath, tempFile.failure);
  };
  // Rows go out as one string per batch (a stream transform per row cost more than the quoting),
  // gathered up to OUTPUT_CHUNK_CHARS: each write to the stream is a write on libuv's thread pool
  // and a wake-up of the event loop when it is done.
  let pending = '';
  const writeRows = async (rows: readonly (readonly string[])[]) => {
    // A committed or discarded output takes no more rows.
    if (done) return;
    check();
    if (rows.length === 0) return;
    pending += encodeCsv(rows, csvOptions);
    if (pending.length < OUTPUT_CHUNK_CHARS) return;
    const text = pending;
    pending = '';
    if (!file.write(text)) await drained();
    if (!done) check();
  };
  void writeRows(first).catch(() => undefined); // a failure is tempFile.failure, reported by the next write or commit()

  return {
    writeRows,
    async commit() {
      if (done) return;
      done = true;
      if (pending !== '') file.write(pending);
      pending = '';
      file.end();
      // Waits for the file to close, or to fail: a failure (a full disk, up to the last 64 KiB
      // written here) is tempFile.failure, reported as an OutputError, the temporary file removed.
      await tempFile.closed();
      if (tempFile.failure) {
        await tempFile.discard();
        throw outputWriteError(outputPath, tempFile.failure);
      }
      await tempFile.renameTo(target, outputPath);
    },
    async discard() {
      if (done) return;
      done = true;
      pending = '';
      await tempFile.discard();
    },
  };
}
