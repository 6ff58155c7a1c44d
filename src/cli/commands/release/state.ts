/**
 * The state file of a run for the commands that act on a finished run (release, audit, review):
 * it must exist (it is never created here), and --run must be a run id. The file is looked at
 * before SQLite or openDatabase touch it: a missing, empty or foreign file (a CSV given as
 * --state, another program's database) is refused with exit 2 and left exactly as it was — not
 * created, not chmod'ed to 0600, no -wal or -shm made beside it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { StateFileError, UsageError } from '../../../errors.js';
import { APPLICATION_ID, damagedMessage, describeStateFailure, isStateFailure, openDatabase, type Db } from '../../../state/db.js';
import { openStateForReading } from '../../../state/report-reader.js';
import { symlinkProblem } from '../../../safe-path.js';
import { resolveStatePath } from '../../config.js';
import type { CommandIo } from '../../io.js';

export interface RunState {
  db: Db;
  statePath: string;
  /** The state file's folder, where a spreadsheet may spool its shared strings. */
  spoolDir: string;
}

const SQLITE_MAGIC = 'SQLite format 3\0';

function sizeOf(file: string): number | undefined {
  try {
    return fs.statSync(file).size;
  } catch {
    return undefined;
  }
}

/**
 * Refuses (exit 2, one line) a --state that is not an existing vas-verify state (a link is
 * followed: the caller decides whether one may be), reading only
 * its first 100 bytes (SQLite's header: the magic string, and the application id at offset 68,
 * which a state has from its first write). `runs` is what the message calls the state's content.
 */
export function checkExistingState(statePath: string, runs = 'run'): void {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(statePath);
  } catch {
    throw new UsageError(`state file ${statePath} does not exist: give the --state of the ${runs}`);
  }
  if (!stat.isFile()) throw new StateFileError(`state file ${statePath} is not a file: give the --state of the ${runs}`);
  if (stat.size === 0) {
    // A state whose every page is still in its write-ahead log (a run killed before its first
    // checkpoint) is empty on disk: its -wal says so, and openDatabase reads it from there.
    if ((sizeOf(`${statePath}-wal`) ?? 0) > 0) return;
    throw new StateFileError(`state file ${statePath} is empty, not the state of a bank run: give the --state of the ${runs}`);
  }
  const head = Buffer.alloc(100);
  let read: number;
  try {
    const fd = fs.openSync(statePath, 'r');
    try {
      read = fs.readSync(fd, head, 0, head.length, 0);
    } finally {
      fs.closeSync(fd);
    }
  } catch (error) {
    throw new StateFileError(`cannot read state file ${statePath}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  if (read < head.length || head.toString('latin1', 0, 16) !== SQLITE_MAGIC) {
    throw new StateFileError(`${statePath} is not a vas-verify state file (not an SQLite database): give the --state of the ${runs} (if it was one, it is damaged: restore it from a backup)`);
  }
  if (head.readUInt32BE(68) !== APPLICATION_ID) {
    throw new StateFileError(`${statePath} is an SQLite database of another program, not a vas-verify state file: give the --state of the ${runs}`);
  }
}

function checkRunId(run: number | undefined): void {
  if (run !== undefined && !(Number.isInteger(run) && run > 0)) throw new UsageError('--run must be a run id (a whole number ≥ 1)');
}

/** The state of a run, read-write (release and review --import record in it): checked first, then openDatabase's checks. */
export function openRunState(stateFlag: string | undefined, run: number | undefined, io: CommandIo): RunState {
  checkRunId(run);
  const statePath = resolveStatePath(stateFlag, io.env);
  checkExistingState(statePath);
  // Never written through a link (src/safe-path.ts); reading one (audit) is harmless.
  const linked = symlinkProblem(statePath, 'state file');
  if (linked) throw new StateFileError(linked);
  return { db: openDatabase(statePath), statePath, spoolDir: path.dirname(path.resolve(statePath)) };
}

/**
 * The state, read-only (audit: an auditor may be handed a copy, and nothing is written): checked
 * first, then opened by SQLite read-only. SQLite's own failures while reading it (a damaged page,
 * a lock) end with exit 2 and one line, never as an internal error.
 */
export function openStateReadOnly(stateFlag: string | undefined, run: number | undefined, io: CommandIo, runs = 'runs'): { db: Db; statePath: string } {
  checkRunId(run);
  const statePath = resolveStatePath(stateFlag, io.env);
  checkExistingState(statePath, runs);
  return { db: openStateForReading(statePath, (message) => new StateFileError(message)), statePath };
}

/** An SQLite error met while reading a state checked by openStateReadOnly, as the one line a person needs (exit 2). */
export function stateReadError(statePath: string, error: unknown): unknown {
  if (!isStateFailure(error)) return error;
  const code = (error as { code?: string }).code ?? '';
  if (code.startsWith('SQLITE_CORRUPT') || code.startsWith('SQLITE_NOTADB')) return new StateFileError(damagedMessage(statePath, error.message));
  return new StateFileError(`state file ${statePath} is not usable: ${describeStateFailure(error)}`);
}
