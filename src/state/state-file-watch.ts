/**
 * The state file stays where the run opened it (docs/ARCHITECTURE.md, "Never paying twice"). A
 * state file deleted while a run writes to it is the run's memory of every deposit: SQLite keeps
 * writing to the unlinked file, the run ends 0, and the next night's run creates an empty state
 * and pays every payee again. The run looks at the path every second: a file that is gone is
 * written back from the connection, which still reads the deleted one (VACUUM INTO a temporary
 * file beside it, mode 0600, linked into place only if the path is still free), and the run stops
 * (exit 1); a path that now names another file is left alone and the run stops too.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Db } from './types.js';

/** How often a run looks at its state file's path. */
export const STATE_WATCH_MS = 1_000;

interface Identity {
  dev: number;
  ino: number;
}

/** The file at `file`; 'gone' when nothing is there; undefined when it cannot be told (EACCES, a network file system's hiccup: not taken for a deletion). */
function identityOf(file: string): Identity | 'gone' | undefined {
  try {
    const stat = fs.statSync(file);
    return { dev: stat.dev, ino: stat.ino };
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'gone' : undefined;
  }
}

export class StateFileWatch {
  private readonly file: string;
  private readonly identity: Identity | 'gone' | undefined;
  private found: string | undefined;
  private deleted = false;

  /** `file`: the path the connection opened (an in-memory database has none to watch). */
  constructor(file: string) {
    this.file = path.resolve(file);
    this.identity = file === ':memory:' ? undefined : identityOf(this.file);
  }

  /** Undefined while the path still names the file the run opened; otherwise what happened, in one line. */
  problem(): string | undefined {
    if (this.found !== undefined || this.identity === undefined || this.identity === 'gone') return this.found;
    const now = identityOf(this.file);
    if (now === undefined || (now !== 'gone' && now.dev === this.identity.dev && now.ino === this.identity.ino)) return undefined;
    this.deleted = now === 'gone';
    this.found = this.deleted
      ? `the state file ${this.file} was deleted (or moved) while this run used it: the run stopped sending, and writes it back from its open copy (every answer and deposit) once its calls in flight are answered; find what deletes it`
      : `the state file ${this.file} was replaced by another file while this run used it: the run stopped sending; its answers are in the file it opened, which is no longer there to find — restore the state file from where it was moved, then resume`;
    return this.found;
  }

  /**
   * Writes a deleted state file back from `db`, the run's connection, once `commit` has committed
   * what it holds: what to tell the user, or undefined when the file was not deleted.
   */
  restore(db: Db, commit: () => void): string | undefined {
    if (this.problem() === undefined || !this.deleted) return undefined;
    commit();
    // The log beside a deleted main file is still this connection's: copied into the database and
    // emptied first, or the written-back file would be read with another database's log.
    try {
      db.pragma('wal_checkpoint(TRUNCATE)');
    } catch {
      // A busy log is copied by the next checkpoint; the copy below reads through it either way.
    }
    const restored = this.writeBack(db);
    return restored === true
      ? `the state file ${this.file} was written back from the run's open copy: resume with it`
      : `the state file ${this.file} could not be written back (${restored}): its memory of deposits is lost with it; before another run, check the bank statement for the payees it had verified`;
  }

  /** Writes the open database to the deleted path: true, or why it could not. */
  private writeBack(db: Db): true | string {
    const temp = path.join(path.dirname(this.file), `.${path.basename(this.file)}.${process.pid}.restore`);
    try {
      fs.rmSync(temp, { force: true });
      // Created empty and private first: VACUUM INTO fills an empty file and keeps its mode.
      fs.closeSync(fs.openSync(temp, fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_WRONLY, 0o600));
      db.prepare('VACUUM INTO ?').run(temp);
      // Into place only if nothing took the path meanwhile (link fails on an existing name).
      fs.linkSync(temp, this.file);
      return true;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    } finally {
      fs.rmSync(temp, { force: true });
    }
  }
}
