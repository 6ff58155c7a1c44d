/**
 * Opening the state file: mode 0600, WAL, our application id, schema migrations. A file that
 * is not ours, or is newer than this tool, is refused with a clear message before anything
 * is written to it.
 */
import fs from 'node:fs';
import os from 'node:os';
import Database from 'better-sqlite3';
import { RunLockedError, StateFileError } from '../errors.js';
import { describeHolder, isAlive, olderRunHolder, LOCK_QUERY_V1, type HeldLock } from './run-lock.js';
import { MIGRATIONS } from './migrations.js';
import { quickCheckProblem, sidecarProblem } from './integrity.js';
import { isSymlinkOpenError, O_NOFOLLOW, symlinkProblem } from '../safe-path.js';
import type { Db } from './types.js';

/** "VASV": tells our state files from any other SQLite database. */
export const APPLICATION_ID = 0x56415356;
export const SCHEMA_VERSION = MIGRATIONS.length;

export type { Db };

/**
 * Pages of WAL between automatic checkpoints (4096 × 4 KiB = 16 MiB). A checkpoint runs in the
 * commit that crosses this, on the run's one thread: at 64 MiB it held the event loop 50–60 ms
 * every 2–3 s of a 1,500/s run, longer than the rate limiter's 30 ms margin, and each stall sent
 * its requests bunched (429s: 44–100 of 30,000 vs 6–20 at 16 MiB, 0.95 vs 0.96 × R). CPU per row
 * is the same at both (and at SQLite's default of 1000 pages, whose fsyncs once cost more).
 */
export const WAL_CHECKPOINT_PAGES = 4_096;
/** The WAL is truncated back to at most this after a checkpoint. */
export const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;


export interface OpenOptions {
  /** fsync every commit (used when penny-drop intents are written). Default false. */
  durable?: boolean;
  readonly?: boolean;
}

export function openDatabase(path: string, options: OpenOptions = {}): Db {
  if (path !== ':memory:') {
    prepareFile(path);
    // Before SQLite opens it: it would roll a damaged log back without a word (src/state/integrity.ts).
    const lost = sidecarProblem(path);
    if (lost) throw new StateFileError(damagedMessage(path, lost));
  }
  const checked = path !== ':memory:' && checkReadOnly(path);
  let db: Db;
  try {
    db = new Database(path, { fileMustExist: false, readonly: options.readonly ?? false });
  } catch (error) {
    throw new StateFileError(`cannot open state file ${path}: ${(error as Error).message}`);
  }
  try {
    checkOwnership(db, path, true);
    if (!checked) checkIntegrity(db, path);
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${options.durable ? 'FULL' : 'NORMAL'}`);
    db.pragma('busy_timeout = 5000');
    // Checkpoints fsync; SQLite's default (every 1000 pages) made them the largest cost of a
    // run. The WAL may grow to this many pages before one, and is cut back afterwards.
    db.pragma(`wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}`);
    db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
    db.pragma('foreign_keys = ON');
    migrate(db, path);
  } catch (error) {
    db.close();
    if (error instanceof StateFileError || error instanceof RunLockedError) throw error;
    throw new StateFileError(`state file ${path} is not usable: ${describeStateFailure(error)}`);
  }
  if (path !== ':memory:') tightenSidecars(path);
  return db;
}

function prepareFile(path: string): void {
  // Never through a link: it would be created, chmod'ed and opened elsewhere (src/safe-path.ts).
  const linked = symlinkProblem(path, 'state file');
  if (linked) throw new StateFileError(linked);
  try {
    // Create it ourselves so it is 0600 from the first byte: it holds personal data.
    const fd = fs.openSync(path, fs.constants.O_CREAT | fs.constants.O_RDWR | O_NOFOLLOW, 0o600);
    try {
      fs.fchmodSync(fd, 0o600);
    } finally {
      fs.closeSync(fd);
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (isSymlinkOpenError(error)) throw new StateFileError(`state file ${path} is a symbolic link: refusing to follow it (give the real path)`);
    // An existing state that cannot be written is intact: never "damaged", never "start a new one"
    // (a new state forgets the penny-drops already sent).
    if ((code === 'EACCES' || code === 'EPERM' || code === 'EROFS') && fs.existsSync(path) && !fs.statSync(path).isDirectory()) {
      throw new StateFileError(`state file ${path} cannot be opened for writing (${code === 'EROFS' ? 'its file system is read-only' : 'permission denied'}): a run records every answer in it; give this user write access to it and its folder`);
    }
    const why = code === 'ENOENT' ? 'its directory does not exist' : code === 'EACCES' ? 'permission denied' : code === 'EROFS' ? 'its folder is on a read-only file system' : (error as Error).message;
    throw new StateFileError(`cannot create state file ${path}: ${why}`);
  }
}

function tightenSidecars(path: string): void {
  for (const suffix of ['-wal', '-shm']) {
    try {
      fs.chmodSync(path + suffix, 0o600);
    } catch {
      // Not there yet: SQLite creates it with the main file's mode.
    }
  }
}

/**
 * The ownership and integrity checks on a read-only connection first: closing the read-write one
 * after a failed check would checkpoint the log into the damaged file, and a damaged state must
 * be left exactly as it was found, for a restore or a closer look. False when the file could not
 * be opened read-only (a log whose -shm is gone needs a writer to rebuild it): then the read-write
 * connection runs the checks.
 */
function checkReadOnly(path: string): boolean {
  const found = ['-shm', '-wal'].filter((suffix) => fs.existsSync(path + suffix));
  let db: Db;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
  } catch {
    return false;
  }
  try {
    checkOwnership(db, path, false);
    checkIntegrity(db, path);
    return true;
  } catch (error) {
    if (!(error instanceof StateFileError)) return false;
    db.close();
    // SQLite made an empty -wal and -shm to read it: a refused file is left as it was found.
    for (const suffix of ['-shm', '-wal']) if (!found.includes(suffix)) fs.rmSync(path + suffix, { force: true });
    throw error;
  } finally {
    if (db.open) db.close();
  }
}

/** `claim`: give a new, empty file our application id (not on a read-only connection). */
function checkOwnership(db: Db, path: string, claim: boolean): void {
  let appId: number;
  let tables: number;
  try {
    appId = db.pragma('application_id', { simple: true }) as number;
    tables = (db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get() as { n: number }).n;
  } catch (error) {
    if (isBusy(error) || isUnwritable(error)) throw new StateFileError(`state file ${path} is not usable: ${describeStateFailure(error)}`);
    if (hasSqliteHeader(path)) throw new StateFileError(damagedMessage(path, (error as Error).message));
    throw new StateFileError(`${path} is not a vas-verify state file (not an SQLite database): choose another --state path (if it was one, it is damaged: restore it from a backup)`);
  }
  if (appId === APPLICATION_ID) return;
  if (appId === 0 && tables === 0) {
    if (claim) db.pragma(`application_id = ${APPLICATION_ID}`);
    return;
  }
  throw new StateFileError(`${path} is an SQLite database of another program, not a vas-verify state file: choose another --state path`);
}

/** The 16-byte magic every SQLite database starts with: a file that has it but fails is damaged. */
function hasSqliteHeader(path: string): boolean {
  if (path === ':memory:') return false;
  try {
    const fd = fs.openSync(path, 'r');
    try {
      const head = Buffer.alloc(16);
      fs.readSync(fd, head, 0, 16, 0);
      return head.toString('latin1') === 'SQLite format 3\0';
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return false;
  }
}

function migrate(db: Db, path: string): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > SCHEMA_VERSION) {
    throw new StateFileError(
      `state file ${path} was written by a newer vas-verify (schema ${version}, this tool knows ${SCHEMA_VERSION}): upgrade vas-verify`,
    );
  }
  if (version > 0 && version < SCHEMA_VERSION) refuseIfInUse(db, path);
  // Each step reads the version again under the write lock: two runs started at the same
  // instant on a new file both see version 0, and only the first may apply a step.
  let pending = version < SCHEMA_VERSION;
  while (pending) {
    pending = db.transaction((): boolean => {
      const current = db.pragma('user_version', { simple: true }) as number;
      if (current >= SCHEMA_VERSION) return false;
      db.exec(MIGRATIONS[current]!);
      db.pragma(`user_version = ${current + 1}`);
      return current + 1 < SCHEMA_VERSION;
    }).immediate();
  }
}

/**
 * An upgrade rewrites tables under a run of the older version that may still be going (cron
 * started it, a user upgraded meanwhile): its next statement would fail, mid-run, with calls in
 * flight. The upgrade waits until no live run holds the file.
 */
function refuseIfInUse(db: Db, path: string): void {
  const holder = olderRunHolder(db.prepare(LOCK_QUERY_V1).get() as HeldLock | undefined, { pid: process.pid, host: os.hostname() }, Date.now(), { isAlive });
  if (holder) {
    throw new RunLockedError(`${describeHolder(holder)} is using state file ${path}, which this version must upgrade first: wait for it to finish, then run again`);
  }
}

/** The one wording of a damaged state: what is wrong, and the two ways on. */
export function damagedMessage(path: string, why: string): string {
  return `state file ${path} is damaged (${why}): restore it (with its -wal, if any) from a backup, or start a new state with --state NEW.sqlite (a new state does not remember the penny-drops already sent)`;
}

/**
 * SQLite's own check of the file's pages and b-trees, on every open (src/state/integrity.ts).
 * Measured at ~0.1 s per 100 MB of state (README, "A damaged state"): small beside a run, and a
 * file damaged by a crash or a copy is found before anything trusts it.
 */
function checkIntegrity(db: Db, path: string): void {
  let problem: string | undefined;
  try {
    problem = quickCheckProblem(db);
  } catch (error) {
    if (isBusy(error)) throw error;
    problem = (error as Error).message;
  }
  if (problem) throw new StateFileError(damagedMessage(path, problem));
}

function sqliteCode(error: unknown): string | undefined {
  return error instanceof Database.SqliteError ? error.code : undefined;
}

/** SQLite could not write the file or create its -wal and -shm beside it: a permission, not damage. */
function isUnwritable(error: unknown): boolean {
  const code = sqliteCode(error);
  return code !== undefined && /^SQLITE_(READONLY|PERM|CANTOPEN)/.test(code);
}

function isBusy(error: unknown): boolean {
  const code = sqliteCode(error);
  return code !== undefined && /^SQLITE_(BUSY|LOCKED)/.test(code);
}

/**
 * What went wrong with the state file, and what to do, by SQLite's error code: a full disk, a
 * file another process holds locked, a damaged file and a failed read or write each need a
 * different remedy (never "free the space" for a lock).
 */
/** Whether an error is SQLite's own (the state file failing under a run), not a bug of ours. */
export function isStateFailure(error: unknown): error is Error {
  return error instanceof Database.SqliteError;
}

export function stateFailure(error: unknown): { cause: string; remedy: string } {
  const code = sqliteCode(error) ?? '';
  const message = (error as Error | undefined)?.message ?? String(error);
  if (code.startsWith('SQLITE_FULL')) return { cause: 'its disk is full', remedy: 'Free some space' };
  if (isBusy(error)) return { cause: `another process holds it locked: ${message}`, remedy: 'Wait for that process to finish (or find the one that has the file open)' };
  if (code.startsWith('SQLITE_CORRUPT') || code.startsWith('SQLITE_NOTADB')) {
    return { cause: `it is damaged: ${message}`, remedy: 'Restore it (with its -wal, if any) from a backup, or start a new state with --state NEW.sqlite' };
  }
  if (code.startsWith('SQLITE_IOERR')) return { cause: `a read or write of it failed: ${message}`, remedy: 'Check the disk and the file system' };
  if (isUnwritable(error)) {
    return { cause: `it cannot be written: ${message}`, remedy: "Give this user write access to it and to its folder (SQLite keeps its -wal and -shm files beside it)" };
  }
  return { cause: message, remedy: 'Fix the cause' };
}

/** stateFailure as one phrase: "another process holds it locked: …; wait for …". */
export function describeStateFailure(error: unknown): string {
  const { cause, remedy } = stateFailure(error);
  return `${cause}; ${remedy.charAt(0).toLowerCase()}${remedy.slice(1)}`;
}
