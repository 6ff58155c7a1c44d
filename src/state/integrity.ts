/**
 * Is a state file whole? Checked every time it is opened (src/state/db.ts), before a run trusts
 * what it remembers: a damaged state that opened silently would forget penny-drops already sent
 * and send them again. Three checks, in the order they can be made:
 *
 * - the sidecars: SQLite deletes a state's `-shm` before its `-wal` when it closes, and creates
 *   the `-wal` first when it opens, so a `-shm` without a `-wal` means the write-ahead log was
 *   deleted, and with it every write since the last checkpoint;
 * - the write-ahead log: SQLite silently ignores a log whose header is damaged, and every frame
 *   from the first bad one on, so garbage there would roll the state back without a word. The
 *   header and the frames are verified as SQLite's documented WAL format says (magic, checksums,
 *   salts). A bad frame at the very end of the log is what a kill between two writes leaves (a
 *   transaction never committed): not damage. Frames of the current log after a bad one, or
 *   frames that belong to no log, are;
 * - the database itself: `PRAGMA quick_check`, SQLite's b-tree and page check without the index
 *   cross-check (README, "A damaged state": ~0.1 s per 100 MB of state).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { Db } from './types.js';

const WAL_HEADER_BYTES = 32;
const FRAME_HEADER_BYTES = 24;
const WAL_MAGIC_LE = 0x377f0682;
const WAL_MAGIC_BE = 0x377f0683;
const WAL_VERSION = 3007000;
/** A frame whose salt-1 is this far behind the log's is from an earlier round of the log (SQLite adds 1 at each restart). */
const STALE_SALT_ROUNDS = 1 << 16;

const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * SQLite's WAL checksum: pairs of 32-bit words, in the byte order the magic names. Read as a
 * Uint32Array when that order is the host's (a 64 MiB log in ~0.1 s instead of ~1 s).
 */
function walChecksum(data: Buffer, bigEndian: boolean, s0: number, s1: number): [number, number] {
  let a = s0;
  let b = s1;
  if (bigEndian !== LITTLE_ENDIAN_HOST && data.byteOffset % 4 === 0) {
    const words = new Uint32Array(data.buffer, data.byteOffset, data.length >>> 2);
    for (let i = 0; i + 1 < words.length; i += 2) {
      a = (a + words[i]! + b) >>> 0;
      b = (b + words[i + 1]! + a) >>> 0;
    }
    return [a, b];
  }
  for (let i = 0; i + 8 <= data.length; i += 8) {
    const x0 = bigEndian ? data.readUInt32BE(i) : data.readUInt32LE(i);
    const x1 = bigEndian ? data.readUInt32BE(i + 4) : data.readUInt32LE(i + 4);
    a = (a + x0 + b) >>> 0;
    b = (b + x1 + a) >>> 0;
  }
  return [a, b];
}

interface WalHeader {
  bigEndian: boolean;
  pageSize: number;
  salt1: number;
  salt2: number;
  checksum: [number, number];
}

function readWalHeader(head: Buffer): WalHeader | string {
  const magic = head.readUInt32BE(0);
  if (magic !== WAL_MAGIC_LE && magic !== WAL_MAGIC_BE) return 'its write-ahead log does not start like one';
  const bigEndian = magic === WAL_MAGIC_BE;
  const pageSize = head.readUInt32BE(8);
  const validSize = pageSize >= 512 && pageSize <= 65536 && (pageSize & (pageSize - 1)) === 0;
  if (head.readUInt32BE(4) !== WAL_VERSION || !validSize) return 'the header of its write-ahead log is damaged';
  const checksum = walChecksum(head.subarray(0, 24), bigEndian, 0, 0);
  if (checksum[0] !== head.readUInt32BE(24) || checksum[1] !== head.readUInt32BE(28)) return 'the header of its write-ahead log is damaged (checksum)';
  return { bigEndian, pageSize, salt1: head.readUInt32BE(16), salt2: head.readUInt32BE(20), checksum };
}

/** What a frame after the end of the log's valid chain is. */
function classifyTail(frameHead: Buffer, header: WalHeader): 'current' | 'stale' | 'foreign' {
  const salt1 = frameHead.readUInt32BE(8);
  if (salt1 === header.salt1 && frameHead.readUInt32BE(12) === header.salt2) return 'current';
  const behind = (header.salt1 - salt1) >>> 0;
  return behind > 0 && behind < STALE_SALT_ROUNDS && frameHead.readUInt32BE(0) !== 0 ? 'stale' : 'foreign';
}

/** Reads of a log that another process keeps rewriting before it is left to SQLite. */
const LIVE_LOG_ATTEMPTS = 3;

/**
 * Why the write-ahead log at `walPath` is damaged; undefined when it is whole (or absent, or
 * empty). A log in use by another process (`docs listen`, a run) may be restarted or appended to
 * while it is read. After a checkpoint SQLite restarts the log in place: new frames overwrite the
 * old ones from the start, the file's size and header staying the same, so a read can take one
 * frame as it was and the next ones as rewritten, which looks like a damaged frame before valid
 * ones. A problem therefore counts only when the whole log reads the same just before and just
 * after it is found again. One that keeps changing is live, and then SQLite reads it through the
 * other process's index, not by recovering it from the file: not ours to judge.
 */
export function walProblem(walPath: string): string | undefined {
  let fd: number;
  try {
    fd = fs.openSync(walPath, 'r');
  } catch {
    return undefined;
  }
  try {
    // The common case, a whole log, is read once; a problem is read again between two digests.
    if (readLogProblem(fd, snapshot(fd)) === undefined) return undefined;
    for (let attempt = 0; attempt < LIVE_LOG_ATTEMPTS; attempt += 1) {
      const before = contentDigest(fd);
      const problem = readLogProblem(fd, snapshot(fd));
      if (problem === undefined) return undefined;
      if (contentDigest(fd).equals(before)) return problem;
    }
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

/** A digest of the whole log as it is now (its size included), to tell a log written while it was read. */
function contentDigest(fd: number): Buffer {
  const hash = createHash('sha256');
  const chunk = Buffer.alloc(1024 * 1024);
  let size = 0;
  for (let got = fs.readSync(fd, chunk, 0, chunk.length, 0); got > 0; got = fs.readSync(fd, chunk, 0, chunk.length, size)) {
    hash.update(chunk.subarray(0, got));
    size += got;
  }
  hash.update(String(size));
  return hash.digest();
}

/** The log's size and header, to tell a log that changed while it was read. */
function snapshot(fd: number): Buffer {
  const out = Buffer.alloc(8 + WAL_HEADER_BYTES);
  out.writeDoubleBE(fs.fstatSync(fd).size, 0);
  fs.readSync(fd, out, 8, WAL_HEADER_BYTES, 0);
  return out;
}

function readLogProblem(fd: number, snap: Buffer): string | undefined {
  const size = snap.readDoubleBE(0);
  if (size === 0) return undefined;
  if (size < WAL_HEADER_BYTES) return 'its write-ahead log is cut short';
  const header = readWalHeader(snap.subarray(8));
  if (typeof header === 'string') return header;
  return framesProblem(fd, size, header);
}

/** Frames read at a time. */
const FRAMES_PER_READ = 64;

/** Walks the frames: the valid chain, then what follows it (see the module's comment). */
function framesProblem(fd: number, size: number, header: WalHeader): string | undefined {
  const frameBytes = FRAME_HEADER_BYTES + header.pageSize;
  const chunk = Buffer.alloc(frameBytes * FRAMES_PER_READ);
  let sums = header.checksum;
  let chainEnded = false;
  let brokenCurrent = false;
  for (let start = WAL_HEADER_BYTES; start + frameBytes <= size; start += chunk.length) {
    const got = fs.readSync(fd, chunk, 0, Math.min(chunk.length, size - start), start);
    for (let offset = 0; offset + frameBytes <= got; offset += frameBytes) {
      const frame = chunk.subarray(offset, offset + frameBytes);
      const kind = classifyTail(frame, header);
      if (!chainEnded) {
        const afterHead = walChecksum(frame.subarray(0, 8), header.bigEndian, sums[0], sums[1]);
        const next = walChecksum(frame.subarray(FRAME_HEADER_BYTES), header.bigEndian, afterHead[0], afterHead[1]);
        if (kind === 'current' && next[0] === frame.readUInt32BE(16) && next[1] === frame.readUInt32BE(20)) {
          sums = next;
          continue;
        }
        chainEnded = true;
      }
      if (kind === 'foreign') return `its write-ahead log holds a damaged frame at byte ${start + offset}`;
      if (kind === 'current') {
        if (brokenCurrent) return `its write-ahead log is damaged before its last frames (byte ${start + offset - frameBytes})`;
        brokenCurrent = true;
      }
    }
  }
  return undefined;
}

function fileSize(file: string): number | undefined {
  try {
    return fs.statSync(file).size;
  } catch {
    return undefined;
  }
}

/** Why the sidecars of `statePath` say writes were lost; undefined when they do not. */
export function sidecarProblem(statePath: string): string | undefined {
  const wal = fileSize(`${statePath}-wal`);
  if (wal === undefined) {
    return fs.existsSync(`${statePath}-shm`) ? 'its write-ahead log (-wal) was deleted while its -shm was left: the writes since the last checkpoint are gone' : undefined;
  }
  // Our states get their first page before they are put in WAL mode: an empty one with a log was truncated or deleted.
  if (wal > 0 && fileSize(statePath) === 0) return 'it is empty while its write-ahead log (-wal) is not: the file was truncated, or deleted without its -wal and -shm';
  return walProblem(`${statePath}-wal`);
}

/** SQLite's quick_check: its first two problems on one line, or undefined when it says ok. */
export function quickCheckProblem(db: Db): string | undefined {
  const rows = db.pragma('quick_check(2)') as Array<{ quick_check: string }>;
  const problems = rows
    .flatMap((r) => r.quick_check.split('\n'))
    .map((line) => line.trim())
    .filter((line) => line !== '' && line !== 'ok' && !/^\*\*\* in database/.test(line));
  return problems.length === 0 ? undefined : `quick_check: ${problems.slice(0, 2).join('; ')}`;
}
