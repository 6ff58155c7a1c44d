/**
 * A zip read through its central directory (the index at its end), the way a spreadsheet's
 * parts are found: any part can be read in any order, straight from the file, so nothing is
 * copied to a temporary file whatever order the parts were stored in (Excel stores the shared
 * strings after the sheets). Each part is inflated as a stream within the bounds of
 * sheet-limits.ts: its declared size, a compression ratio no real sheet has, and the workbook's
 * total. Also gives a part's raw (still compressed) bytes, for copying it into another zip.
 */
import fs from 'node:fs';
import zlib from 'node:zlib';
import { pipeline } from 'node:stream';
import { InputError } from '../errors.js';
import { damagedError, formatBytes, limitError, type SheetLimits } from './sheet-limits.js';

export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated. */
  method: number;
  flags: number;
  crc32: number;
  compressedSize: number;
  size: number;
  localHeaderOffset: number;
}

const EOCD = 0x06054b50;
const EOCD64_LOCATOR = 0x07064b50;
const EOCD64 = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
/** A workbook's index is small; one this large is not a workbook's. */
const MAX_CENTRAL_BYTES = 16 * 1024 ** 2;
const MAX_ENTRIES = 100_000;
/** A part smaller than this inflates as it likes: small XML parts may compress more than the ratio allows. */
const RATIO_FLOOR_BYTES = 1024 ** 2;

export class ZipFile {
  /** Inflated bytes handed out so far, every part together. */
  private inflated = 0;
  /** Parts being read from the file now, and whether close() was asked. */
  private reading = 0;
  private closing = false;

  private constructor(
    readonly file: string,
    private readonly fd: number,
    readonly entries: ReadonlyMap<string, ZipEntry>,
    private readonly limits: SheetLimits,
  ) {}

  static open(file: string, limits: SheetLimits): ZipFile {
    let fd: number;
    try {
      fd = fs.openSync(file, 'r');
    } catch (error) {
      throw damagedError(file, (error as Error).message);
    }
    try {
      return new ZipFile(file, fd, readCentralDirectory(file, fd), limits);
    } catch (error) {
      fs.closeSync(fd);
      throw error;
    }
  }

  /** The entry of this name, matched exactly or, failing that, ignoring case (writers differ). */
  find(name: string): ZipEntry | undefined {
    const exact = this.entries.get(name);
    if (exact) return exact;
    const lower = name.toLowerCase();
    for (const [key, entry] of this.entries) if (key.toLowerCase() === lower) return entry;
    return undefined;
  }

  /** Where an entry's compressed bytes start (after its local header). */
  dataOffset(entry: ZipEntry): number {
    const head = Buffer.alloc(30);
    if (fs.readSync(this.fd, head, 0, 30, entry.localHeaderOffset) !== 30 || head.readUInt32LE(0) !== LOCAL) {
      throw damagedError(this.file, `the part ${entry.name} is not where the zip's index says`);
    }
    return entry.localHeaderOffset + 30 + head.readUInt16LE(26) + head.readUInt16LE(28);
  }

  /** The entry's raw stored bytes (compressed as they are), in chunks. */
  async *raw(entry: ZipEntry): AsyncGenerator<Buffer> {
    if (entry.compressedSize === 0 || this.closing) return;
    const start = this.dataOffset(entry);
    this.reading += 1;
    try {
      yield* fs.createReadStream('', { fd: this.fd, autoClose: false, start, end: start + entry.compressedSize - 1 });
    } finally {
      this.reading -= 1;
      if (this.closing && this.reading === 0) this.closeNow();
    }
  }

  /** The entry's inflated bytes, in chunks; a bound crossed or a damaged stream throws an InputError. */
  async *inflate(entry: ZipEntry): AsyncGenerator<Buffer> {
    if (entry.flags & 1) throw limitError(this.file, `the part ${entry.name} is encrypted`, 'save the workbook without a password, or as "CSV UTF-8"');
    if (entry.method !== 0 && entry.method !== 8) throw damagedError(this.file, `the part ${entry.name} uses compression method ${entry.method}`);
    const allowed = Math.max(RATIO_FLOOR_BYTES, entry.compressedSize * this.limits.maxInflateRatio);
    let out = 0;
    const source = this.raw(entry);
    if (entry.method === 0) {
      for await (const chunk of source) {
        out += chunk.length;
        this.count(entry, chunk.length, out, allowed);
        yield chunk;
      }
      return;
    }
    const inflater = zlib.createInflateRaw();
    const flow = pipeline(source, inflater, () => undefined);
    try {
      for await (const chunk of inflater as AsyncIterable<Buffer>) {
        out += chunk.length;
        this.count(entry, chunk.length, out, allowed);
        yield chunk;
      }
    } catch (error) {
      if (error instanceof InputError) throw error;
      throw damagedError(this.file, `the part ${entry.name} does not inflate (${(error as Error).message})`);
    } finally {
      flow.destroy();
    }
    if (out !== entry.size) throw damagedError(this.file, `the part ${entry.name} inflates to ${out} bytes, its index says ${entry.size}`);
  }

  private count(entry: ZipEntry, bytes: number, out: number, allowed: number): void {
    this.inflated += bytes;
    // A part larger than its index says is damaged or a zip bomb that lies about its size.
    if (out > entry.size) throw damagedError(this.file, `the part ${entry.name} inflates past the ${entry.size} bytes its index says`);
    if (out > allowed) {
      throw limitError(this.file, `the part ${entry.name} inflates to more than ${this.limits.maxInflateRatio}× its compressed size (${formatBytes(entry.compressedSize)}): a zip bomb, not a spreadsheet`, 'nothing was called; ask for the file again, or save it from Excel as "CSV UTF-8"');
    }
    if (this.inflated > this.limits.maxInflatedBytes) {
      throw limitError(this.file, `the workbook inflates to more than ${formatBytes(this.limits.maxInflatedBytes)}`);
    }
  }

  /** Closes the file once no part is being read (a reader still running must not read a reused descriptor). */
  close(): void {
    if (this.closing) return;
    this.closing = true;
    if (this.reading === 0) this.closeNow();
  }

  private closeNow(): void {
    try {
      fs.closeSync(this.fd);
    } catch {
      // Already closed.
    }
  }
}

function readAt(fd: number, length: number, position: number): Buffer {
  const buffer = Buffer.alloc(length);
  const read = fs.readSync(fd, buffer, 0, length, position);
  return buffer.subarray(0, read);
}

/** The end-of-central-directory record: where the index is and how many entries it has. */
function findIndex(file: string, fd: number): { offset: number; size: number; count: number } {
  const fileSize = fs.fstatSync(fd).size;
  const tailLength = Math.min(fileSize, 22 + 0xffff);
  const tail = readAt(fd, tailLength, fileSize - tailLength);
  let at = -1;
  for (let i = tail.length - 22; i >= 0; i -= 1) {
    if (tail.readUInt32LE(i) === EOCD) {
      at = i;
      break;
    }
  }
  if (at < 0) throw damagedError(file, 'it is not a zip (no end of central directory)');
  let count = tail.readUInt16LE(at + 10);
  let size = tail.readUInt32LE(at + 12);
  let offset = tail.readUInt32LE(at + 16);
  if ((count === 0xffff || size === 0xffffffff || offset === 0xffffffff) && at >= 20 && tail.readUInt32LE(at - 20) === EOCD64_LOCATOR) {
    const record = readAt(fd, 56, Number(tail.readBigUInt64LE(at - 20 + 8)));
    if (record.length < 56 || record.readUInt32LE(0) !== EOCD64) throw damagedError(file, 'its zip64 index is missing');
    count = Number(record.readBigUInt64LE(32));
    size = Number(record.readBigUInt64LE(40));
    offset = Number(record.readBigUInt64LE(48));
  }
  if (size > MAX_CENTRAL_BYTES || count > MAX_ENTRIES) throw limitError(file, `its zip index lists ${count} parts in ${formatBytes(size)}, more than a workbook has`);
  if (offset + size > fileSize) throw damagedError(file, 'its zip index points past the end of the file (truncated?)');
  return { offset, size, count };
}

function readCentralDirectory(file: string, fd: number): Map<string, ZipEntry> {
  const index = findIndex(file, fd);
  const cd = readAt(fd, index.size, index.offset);
  const entries = new Map<string, ZipEntry>();
  let at = 0;
  for (let n = 0; n < index.count; n += 1) {
    if (at + 46 > cd.length || cd.readUInt32LE(at) !== CENTRAL) throw damagedError(file, 'its zip index is damaged');
    const nameLength = cd.readUInt16LE(at + 28);
    const extraLength = cd.readUInt16LE(at + 30);
    const commentLength = cd.readUInt16LE(at + 32);
    const flags = cd.readUInt16LE(at + 8);
    const name = cd.toString(flags & 0x800 ? 'utf8' : 'latin1', at + 46, at + 46 + nameLength);
    const entry: ZipEntry = {
      name,
      flags,
      method: cd.readUInt16LE(at + 10),
      crc32: cd.readUInt32LE(at + 16),
      compressedSize: cd.readUInt32LE(at + 20),
      size: cd.readUInt32LE(at + 24),
      localHeaderOffset: cd.readUInt32LE(at + 42),
    };
    applyZip64(entry, cd.subarray(at + 46 + nameLength, at + 46 + nameLength + extraLength));
    entries.set(name, entry);
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** Sizes and offsets past 4 GiB live in the zip64 extra field, in this order, each only when its 32-bit field is full. */
function applyZip64(entry: ZipEntry, extra: Buffer): void {
  for (let at = 0; at + 4 <= extra.length; ) {
    const id = extra.readUInt16LE(at);
    const length = extra.readUInt16LE(at + 2);
    if (id === 0x0001) {
      let p = at + 4;
      const take = (): number => {
        const value = p + 8 <= at + 4 + length ? Number(extra.readBigUInt64LE(p)) : 0;
        p += 8;
        return value;
      };
      if (entry.size === 0xffffffff) entry.size = take();
      if (entry.compressedSize === 0xffffffff) entry.compressedSize = take();
      if (entry.localHeaderOffset === 0xffffffff) entry.localHeaderOffset = take();
      return;
    }
    at += 4 + length;
  }
}
