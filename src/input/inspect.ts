/**
 * What identifies an input before it is parsed: the SHA-256 of its content (a run is the
 * fingerprint and the mode), its encoding, and its line count for progress. The pass reads the
 * whole file, so `inspectInBackground` runs it on a worker thread while the CLI is still
 * loading its modules: on a 1,000,000-row file the two took 150 and 280 ms one after the other.
 * A file of a few MB is inspected on the main thread (INLINE_INSPECT_BYTES).
 */
import fs from 'node:fs';
import { isAscii, isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { isCompoundFile, isEncryptedPackage, passwordProtectedError } from './encrypted.js';
import { InputError } from '../errors.js';


/**
 * How an input's bytes are read as text. `windows-1252` is what Excel on Windows writes as
 * "CSV (Comma delimited)": Latin-1 plus ’ “ ” – € … in 0x80–0x9F (Node's own 'latin1' is
 * ISO-8859-1 and made those C1 control characters).
 */
export type Encoding = 'utf8' | 'utf16le' | 'windows-1252';

const WINDOWS_1252 = new TextDecoder('windows-1252');

/** Bytes of an input as text in its encoding (a whole number of characters for UTF-8 is the caller's care). */
export function decodeText(bytes: Uint8Array, encoding: Encoding): string {
  return encoding === 'windows-1252' ? WINDOWS_1252.decode(bytes) : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString(encoding);
}

export interface InputInfo {
  fingerprint: string;
  bytes: number;
  encoding: Encoding;
  /** Line breaks in the file: an estimate of the row count for progress before the end is read. */
  lines: number;
  /** A UTF-8 file with a few bytes that are not UTF-8: read as UTF-8, those bytes as U+FFFD (the run warns). */
  invalidUtf8?: { bytes: number; lines: number[] } | undefined;
}

/** Lines with invalid UTF-8 bytes named in the warning. */
const INVALID_LINES_SHOWN = 10;

/**
 * SHA-256 of the content, read sequentially in large blocks (a 100 MB file takes a fraction
 * of a second), and the encoding: UTF-8 unless a UTF-16 BOM says otherwise or the bytes are
 * not valid UTF-8, in which case the file is read as Windows-1252 (what Excel on Windows writes).
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
  // A pipe (process substitution, a FIFO) can be read only once, and not twice as a run is (its
  // fingerprint first, then its rows); waiting on one also held the process past every signal.
  if (!stat.isFile()) {
    throw new InputError(`input ${inputPath} is not a regular file (a pipe or a device): save it to a file first, e.g. with > payees.csv`);
  }
  const hash = createHash('sha256');
  const utf8 = new Utf8Tally();
  let first: Buffer | undefined;
  let bytes = 0;
  let lines = 1;
  try {
    for await (const chunk of fs.createReadStream(inputPath, { highWaterMark: 1 << 20 })) {
      const buf = chunk as Buffer;
      first ??= buf;
      bytes += buf.length;
      hash.update(buf);
      utf8.add(buf, lines);
      for (let at = buf.indexOf(10); at !== -1; at = buf.indexOf(10, at + 1)) lines += 1;
    }
    utf8.end(lines);
  } catch (error) {
    throw new InputError(`cannot read input ${inputPath}: ${(error as Error).message}`);
  }
  if (bytes === 0 || !first) throw new InputError(`input ${inputPath} is empty: it needs a header row and payee rows`);
  // An .xlsx workbook is a zip: src/input/xlsx.ts reads it; only its fingerprint is wanted here.
  if (/\.(xlsb|numbers)$/i.test(inputPath)) {
    throw new InputError(`input ${inputPath} is a spreadsheet format vas-verify does not read: save it as .xlsx (Excel Workbook) or as "CSV UTF-8"`);
  }
  // A workbook with a password to open is an encrypted OLE2 file whatever its name: say so, not "not a workbook".
  if (/\.(xlsx|xlsm|xls|ods)$/i.test(inputPath) && isCompoundFile(first) && isEncryptedPackage(inputPath)) throw passwordProtectedError(inputPath);
  if (/\.(xlsx|xlsm)$/i.test(inputPath)) {
    if (first[0] !== 0x50 || first[1] !== 0x4b) throw new InputError(`input ${inputPath} is not an .xlsx workbook (save it from Excel as .xlsx, or as CSV with a .csv name)`);
    return { fingerprint: hash.digest('hex'), bytes, encoding: 'utf8', lines: 0 };
  }
  // A PDF is said to be one by its signature: its first objects are often plain text (no NUL, one
  // binary comment line), which the binary-data check below lets through as a CSV without a header.
  if (first.subarray(0, 5).toString('latin1') === '%PDF-') throw new InputError(`input ${inputPath} is not a text CSV file${binaryKind(first)}`);
  // .xls (BIFF, or an HTML table saved under that name) and .ods: src/input/sheetjs.ts reads them.
  // A plain CSV or tab-separated file named .xls is read as the CSV it is, its encoding found below.
  if (/\.(xls|ods)$/i.test(inputPath) && !isDelimitedText(first)) return { fingerprint: hash.digest('hex'), bytes, encoding: 'utf8', lines: 0 };
  // A few stray bytes in a UTF-8 file (one Windows-1252 é pasted in) are replaced, not taken as a
  // sign that the whole file is Windows-1252: that garbled every Devanagari name. Windows-1252 only
  // when the file is not UTF-8 at all (no valid multi-byte character, or more invalid bytes than valid ones).
  let encoding: Encoding = utf8.isUtf8() ? 'utf8' : 'windows-1252';
  const invalidUtf8 = encoding === 'utf8' && utf8.invalid > 0 ? { bytes: utf8.invalid, lines: utf8.invalidLines } : undefined;
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
      throw new InputError(`input ${inputPath} is not a text CSV file${binaryKind(head)}`);
    }
  }
  return { fingerprint: hash.digest('hex'), bytes, encoding, lines, ...(encoding === 'utf8' && invalidUtf8 ? { invalidUtf8 } : {}) };
}

/**
 * What a binary file under a CSV's name is, by its first bytes (the end of the message): a
 * workbook renamed rather than saved as CSV says so and how to run it; anything else is binary data.
 */
function binaryKind(head: Buffer): string {
  const starts = (magic: number[]) => magic.every((byte, i) => head[i] === byte);
  if (starts([0x50, 0x4b, 0x03, 0x04])) return ': it is a zip file, most likely an .xlsx or .ods workbook renamed; give it its own name (payees.xlsx) and run that, or save it from Excel as CSV';
  if (starts([0xd0, 0xcf, 0x11, 0xe0])) return ': it is an Office file, most likely an Excel 97-2003 .xls workbook renamed; give it its own name (payees.xls) and run that, or save it from Excel as CSV';
  if (starts([0x25, 0x50, 0x44, 0x46])) return ': it is a PDF; export the payee list from its source as CSV or .xlsx';
  return ' (it contains binary data)';
}

/**
 * Whether a file's first bytes are plain delimited text (a CSV or tab-separated export a bank
 * portal named .xls) rather than a spreadsheet SheetJS must read: not a zip (.xlsx, .ods), not
 * OLE2 or raw BIFF (binary), not markup (an HTML table, SpreadsheetML), not SYLK or DIF.
 */
export function isDelimitedText(head: Buffer): boolean {
  if (head.length === 0) return false;
  const utf16 = head[0] === 0xff && head[1] === 0xfe;
  const bytes = head.subarray(0, 4096);
  if (!utf16 && bytes.includes(0)) return false;
  const text = (utf16 ? bytes.subarray(2).toString('utf16le') : bytes.toString('latin1')).replace(/^(\xef\xbb\xbf)?\s*/, '');
  if (/^(PK|<|ID;|TABLE\r?\n)/.test(text)) return false;
  return utf16 || controlShare(bytes) <= 0.01;
}

/**
 * Whether a file read chunk by chunk is UTF-8, and where it is not: chunks that validate natively
 * cost nothing more; only a chunk that does not is walked byte by byte.
 */
class Utf8Tally {
  invalid = 0;
  invalidLines: number[] = [];
  private validMultibyte = 0;
  private carry: Buffer = Buffer.alloc(0);

  add(buf: Buffer, lineAtStart: number): void {
    const joined = this.carry.length > 0 ? Buffer.concat([this.carry, buf]) : buf;
    const cut = utf8Boundary(joined);
    const whole = joined.subarray(0, cut);
    // The carried bytes belong to the line before this chunk's first line break.
    if (isUtf8(whole)) {
      if (this.validMultibyte === 0 && !isAscii(whole)) this.validMultibyte += 1;
    } else {
      this.walk(whole, lineAtStart);
    }
    this.carry = Buffer.from(joined.subarray(cut));
  }

  end(line: number): void {
    if (this.carry.length > 0 && !isUtf8(this.carry)) this.walk(this.carry, line);
  }

  isUtf8(): boolean {
    return this.invalid === 0 || (this.validMultibyte > 0 && this.invalid <= this.validMultibyte);
  }

  private walk(buf: Buffer, lineAtStart: number): void {
    let line = lineAtStart;
    for (let i = 0; i < buf.length; ) {
      const b = buf[i]!;
      if (b === 10) line += 1;
      if (b < 0x80) {
        i += 1;
        continue;
      }
      const need = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
      if (need > 0 && i + need <= buf.length && isUtf8(buf.subarray(i, i + need))) {
        this.validMultibyte += 1;
        i += need;
        continue;
      }
      this.invalid += 1;
      if (this.invalidLines.length < INVALID_LINES_SHOWN && this.invalidLines[this.invalidLines.length - 1] !== line) this.invalidLines.push(line);
      i += 1;
    }
  }
}

/** The run's warning for a UTF-8 file read with some bytes replaced, or undefined. */
export function describeInvalidUtf8(inputPath: string, info: InputInfo): string | undefined {
  const bad = info.invalidUtf8;
  if (!bad) return undefined;
  return `input ${inputPath} is UTF-8 but ${bad.bytes} byte(s) are not (line(s) ${bad.lines.join(', ')}${bad.lines.length >= INVALID_LINES_SHOWN ? ', …' : ''}): read as UTF-8 with those bytes shown as \uFFFD; check the names on those lines, or save the file as "CSV UTF-8"`;
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

type WorkerAnswer = { ok: true; info: InputInfo } | { ok: false; kind: string | null; message: string };

/**
 * `inspectInput` on a worker thread, started now and awaited later. If the thread cannot be
 * started (or dies), the inspection runs here instead: the answer is the same either way.
 */
export function inspectInBackground(inputPath: string, onFallback?: (why: unknown) => void, inlineBytes = INLINE_INSPECT_BYTES): Promise<InputInfo> {
  // A thread costs ~0.3 s of CPU to start (its own Node environment): more than the whole pass
  // over a file of a few MB takes here, between the module loads it overlaps anyway.
  if (inspectsInline(inputPath, inlineBytes)) {
    const inline = inspectInput(inputPath);
    inline.catch(() => undefined);
    return inline;
  }
  const answer = new Promise<InputInfo>((resolve, reject) => {
    let settled = false;
    const fallBack = (why: unknown) => {
      if (settled) return;
      onFallback?.(why);
      settled = true;
      inspectInput(inputPath).then(resolve, reject);
    };
    let worker: Worker;
    try {
      worker = import.meta.url.endsWith('.ts')
        ? sourceWorker(inputPath)
        : new Worker(new URL('./inspect-worker.js', import.meta.url), { workerData: { inputPath } });
    } catch (error) {
      fallBack(error);
      return;
    }
    // The thread stays referenced: until the answer is awaited nothing else need keep the
    // process alive. A command that fails first waits for the pass to end (or bin.ts's timer).
    worker.once('message', (message: WorkerAnswer) => {
      if (settled) return;
      settled = true;
      if (message.ok) resolve(message.info);
      else reject(message.kind === 'input' ? new InputError(message.message) : new Error(message.message));
    });
    worker.once('error', fallBack);
    worker.once('exit', (code) => fallBack(new Error(`inspection thread exited with code ${code}`)));
  });
  // Awaited only once the command has loaded: until then a rejection is not "unhandled".
  answer.catch(() => undefined);
  return answer;
}

/**
 * Inputs up to this size are inspected on the main thread: the pass over 4 MiB (about 60,000 CSV
 * rows) costs ~15 ms of CPU, a worker thread's start ~300 ms (bench: a 30,000-row run's CPU).
 */
export const INLINE_INSPECT_BYTES = 4 * 1024 * 1024;

/** Whether `inputPath` is a regular file of at most `inlineBytes`, to inspect inline; anything else (missing, a pipe) is left to the pass's own errors. */
export function inspectsInline(inputPath: string, inlineBytes = INLINE_INSPECT_BYTES): boolean {
  try {
    const stat = fs.statSync(inputPath);
    return stat.isFile() && stat.size <= inlineBytes;
  } catch {
    return false;
  }
}

/**
 * Run from source (the tests, `npm run demo`), this module is TypeScript loaded through tsx,
 * whose hooks Node 20 does not carry into a worker: the worker registers them itself first.
 */
function sourceWorker(inputPath: string): Worker {
  const tsx = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./inspect-worker.ts', import.meta.url).href;
  const code = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`;
  return new Worker(code, { eval: true, workerData: { inputPath } });
}
