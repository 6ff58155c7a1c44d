/**
 * A workbook's shared strings (the text cells' table) kept compactly: UTF-8 bytes and one
 * offset each, no object per string. The first 8 MiB stay in memory; past that, when a spool
 * folder is given (the state file's folder), the rest goes to a spool file there, mode 0600,
 * removed on close and at process exit, and swept by the next start after a kill -9. Without a
 * spool folder nothing is written anywhere and the table is held in memory up to 64 MiB.
 * Nothing of the payee file is ever written outside the folder given.
 */
import { isAlive } from '../process-alive.js';
import { removeLeftovers } from '../safe-path.js';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { formatBytes, IN_MEMORY_SHARED_STRING_BYTES, limitError, type SheetLimits } from './sheet-limits.js';

/**
 * Bytes of shared strings held in memory before the rest is spooled. The test hook
 * VAS_TEST_SPOOL_AFTER_BYTES only lowers it: the CLI tests spool a few thousand rows, not the
 * 80,000 that 8 MiB takes (about 40 s of CPU each).
 */
const MEMORY_BUDGET = Math.min(8 * 1024 ** 2, Number(process.env.VAS_TEST_SPOOL_AFTER_BYTES) || Infinity);
const WRITE_BUFFER = 1024 ** 2;
/** Recently read spooled strings (IFSCs and names repeat), by index modulo this. */
const CACHE_SLOTS = 4096;
const SPOOL_NAME = /^\.vas-verify-spool-(\d+)-[0-9a-f]+\.tmp$/;

/** Removes the spool files of processes that are gone (a kill -9 leaves its file behind). */
export function sweepSpool(dir: string, isAlive: (pid: number) => boolean = pidAlive): void {
  removeLeftovers(dir, (name) => {
    const match = SPOOL_NAME.exec(name);
    return match ? Number(match[1]) : undefined;
  }, isAlive);
}

function pidAlive(pid: number): boolean {
  return pid === process.pid || isAlive(pid);
}

class SpoolFile {
  readonly path: string;
  readonly fd: number;
  private written = 0;
  private pending = Buffer.allocUnsafe(WRITE_BUFFER);
  private used = 0;
  private readonly onExit = () => this.remove();

  constructor(dir: string) {
    sweepSpool(dir);
    this.path = path.join(dir, `.vas-verify-spool-${process.pid}-${crypto.randomBytes(6).toString('hex')}.tmp`);
    this.fd = fs.openSync(this.path, 'wx+', 0o600);
    process.once('exit', this.onExit);
  }

  append(bytes: Buffer): void {
    if (this.used + bytes.length > this.pending.length) this.flush();
    if (bytes.length > this.pending.length) {
      fs.writeSync(this.fd, bytes, 0, bytes.length, this.written);
      this.written += bytes.length;
      return;
    }
    bytes.copy(this.pending, this.used);
    this.used += bytes.length;
  }

  flush(): void {
    if (this.used === 0) return;
    fs.writeSync(this.fd, this.pending, 0, this.used, this.written);
    this.written += this.used;
    this.used = 0;
  }

  read(position: number, length: number): string {
    const buffer = length <= this.pending.length ? this.pending : Buffer.allocUnsafe(length);
    fs.readSync(this.fd, buffer, 0, length, position);
    return buffer.toString('utf8', 0, length);
  }

  remove(): void {
    process.off('exit', this.onExit);
    try {
      fs.closeSync(this.fd);
    } catch {
      // Already closed.
    }
    fs.rmSync(this.path, { force: true });
  }
}

export class SharedStrings {
  private offsets = new Uint32Array(1024);
  private count = 0;
  private bytes = 0;
  private head = Buffer.allocUnsafe(64 * 1024);
  /** Where the spooled strings start: every string past it is in the spool file. */
  private headEnd = -1;
  private spool: SpoolFile | undefined;
  private readonly cacheKeys = new Int32Array(CACHE_SLOTS).fill(-1);
  private readonly cacheValues: string[] = new Array<string>(CACHE_SLOTS).fill('');

  constructor(
    private readonly file: string,
    private readonly limits: SheetLimits,
    private readonly spoolDir: string | undefined,
  ) {}

  get size(): number {
    return this.count;
  }

  add(text: string): void {
    if (this.count >= this.limits.maxSharedStrings) {
      throw limitError(this.file, `the workbook has more than ${this.limits.maxSharedStrings.toLocaleString('en-US')} shared strings`);
    }
    const encoded = Buffer.from(text, 'utf8');
    const maxBytes = this.spoolDir === undefined ? Math.min(IN_MEMORY_SHARED_STRING_BYTES, this.limits.maxSharedStringBytes) : this.limits.maxSharedStringBytes;
    if (this.bytes + encoded.length > maxBytes) {
      throw limitError(this.file, `the workbook's shared strings exceed ${formatBytes(maxBytes)}`);
    }
    if (this.count + 1 >= this.offsets.length) {
      const grown = new Uint32Array(Math.ceil(this.offsets.length * 1.5));
      grown.set(this.offsets);
      this.offsets = grown;
    }
    this.store(encoded);
    this.count += 1;
    this.bytes += encoded.length;
    this.offsets[this.count] = this.bytes;
  }

  private store(encoded: Buffer): void {
    const inMemory = this.headEnd < 0 && (this.spoolDir === undefined || this.bytes + encoded.length <= MEMORY_BUDGET);
    if (inMemory) {
      if (this.bytes + encoded.length > this.head.length) {
        const grown = Buffer.allocUnsafe(Math.max(this.head.length * 2, this.bytes + encoded.length));
        this.head.copy(grown, 0, 0, this.bytes);
        this.head = grown;
      }
      encoded.copy(this.head, this.bytes);
      return;
    }
    if (!this.spool) {
      this.headEnd = this.bytes;
      this.spool = new SpoolFile(this.spoolDir!);
    }
    this.spool.append(encoded);
  }

  /** Every string is in: the spool's last bytes are written out. */
  finish(): void {
    this.spool?.flush();
    // Growth doubled the index: keep only what is used (4 bytes a string).
    this.offsets = this.offsets.slice(0, this.count + 1);
    const used = this.headEnd < 0 ? this.bytes : this.headEnd;
    if (this.head.length > used) this.head = Buffer.from(this.head.subarray(0, used));
  }

  /** The string at `index`, or '' for an index the table does not have (a damaged cell). */
  get(index: number): string {
    if (!(index >= 0 && index < this.count)) return '';
    const start = this.offsets[index]!;
    const end = this.offsets[index + 1]!;
    if (this.headEnd < 0 || end <= this.headEnd) return this.head.toString('utf8', start, end);
    const slot = index % CACHE_SLOTS;
    if (this.cacheKeys[slot] === index) return this.cacheValues[slot]!;
    const text = this.spool!.read(start - this.headEnd, end - start);
    this.cacheKeys[slot] = index;
    this.cacheValues[slot] = text;
    return text;
  }

  /** Removes the spool file (idempotent). */
  close(): void {
    this.spool?.remove();
    this.head = Buffer.alloc(0);
  }
}
