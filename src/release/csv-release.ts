/**
 * The release of a CSV input (docs/ARCHITECTURE.md, "Decisions"): the input's bytes, record by
 * record, with the records of payees not cleared left out. The file is cut into records as the
 * input reader cuts it (csvParseOptions) and each kept record's bytes are copied as they are, so
 * its quoting, encoding, byte-order mark and line endings are the input's own.
 */
import fs from 'node:fs';
import { parse } from 'csv-parse';
import { InputError } from '../errors.js';
import { decodeText, type Encoding } from '../input/inspect.js';
import { csvParseOptions, type Delimiter } from '../input/read-csv.js';
import type { RunInput, WalkedRow } from './walk.js';

/** A record of the file and where its bytes are: [start, end), its line break included. */
interface Span {
  fields: string[];
  start: number;
  end: number;
}

/** The file's records with their byte spans. */
async function* csvSpans(file: string, encoding: Encoding, delimiter: Delimiter): AsyncGenerator<Span> {
  let start = 0;
  const parser = parse({
    ...csvParseOptions(delimiter),
    // Raw bytes in, so that csv-parse counts the file's own bytes (the input reader decodes first).
    // Windows-1252 is cut as Latin-1 (one byte a character, the same delimiters, quotes and line
    // ends) and its fields decoded again, to compare with the rows the input reader read.
    ...(encoding === 'utf8' ? {} : { encoding: encoding === 'windows-1252' ? 'latin1' : encoding }),
    on_record: (fields: string[], context: { bytes: number }) => {
      const text = encoding === 'windows-1252' ? fields.map((f) => decodeText(Buffer.from(f, 'latin1'), encoding)) : fields;
      const span: Span = { fields: text, start, end: context.bytes };
      start = context.bytes;
      return span as unknown as string[];
    },
  });
  const stream = fs.createReadStream(file, { highWaterMark: 256 * 1024 });
  stream.on('error', (error) => parser.destroy(error));
  stream.pipe(parser);
  try {
    yield* parser as AsyncIterable<Span>;
  } finally {
    stream.destroy();
    parser.destroy();
  }
}

/** Copies byte ranges of one file to another, joining ranges that touch. */
class RangeCopier {
  private from = 0;
  private to = 0;
  private readonly buffer = Buffer.alloc(1 << 20);

  constructor(
    private readonly source: number,
    private readonly target: number,
  ) {}

  add(start: number, end: number): void {
    if (start === this.to) this.to = end;
    else {
      this.flush();
      this.from = start;
      this.to = end;
    }
  }

  flush(): void {
    for (let at = this.from; at < this.to; ) {
      const n = fs.readSync(this.source, this.buffer, 0, Math.min(this.buffer.length, this.to - at), at);
      if (n === 0) throw new InputError('the input ended before its last record: it changed while the release read it; run the release again');
      fs.writeSync(this.target, this.buffer, 0, n);
      at += n;
    }
    this.from = this.to;
  }
}

const sameFields = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((f, i) => f === b[i]);

/**
 * Writes `temp` (mode 0600): the lines above the data rows, then each data row `keep` says yes
 * to, each as its bytes in the input.
 */
export async function writeCsvRelease(input: RunInput, temp: string, keep: (row: WalkedRow) => boolean): Promise<void> {
  const { inputPath, info, file } = input;
  const spans = csvSpans(inputPath, info.encoding, file.format!.delimiter);
  const source = fs.openSync(inputPath, 'r');
  const target = fs.openSync(temp, fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_WRONLY, 0o600);
  try {
    const copier = new RangeCopier(source, target);
    // The preamble and the header: kept as they are.
    for (let i = 0; i <= file.preamble.length; i += 1) {
      const span = await spans.next();
      if (span.done) throw new InputError(`the input ${inputPath} ended above its header: it changed while the release read it`);
      copier.add(span.value.start, span.value.end);
    }
    for await (const row of input.rows()) {
      const span = await spans.next();
      if (span.done || !sameFields(span.value.fields, row.fields)) throw new InputError(`the input ${inputPath} reads differently at line ${row.line}: it changed while the release read it; run the release again`);
      if (keep(row)) copier.add(span.value.start, span.value.end);
    }
    copier.flush();
    fs.fsyncSync(target);
  } finally {
    await spans.return(undefined);
    fs.closeSync(source);
    fs.closeSync(target);
  }
}
