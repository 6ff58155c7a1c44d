/**
 * Group commit: writes go into one open transaction that is committed as a group (all writes of
 * one event-loop turn together, or every GROUP_COMMIT_MS when nobody waits). `flush()` resolves
 * once everything written so far is on disk, which is how an IN_FLIGHT mark is committed before
 * its request leaves.
 */
import type { Db } from './types.js';

/** Longest a write waits for its commit when nobody awaits it. */
export const GROUP_COMMIT_MS = 50;

export class GroupCommit {
  private readonly db: Db;
  private open = false;
  /** Counts the transactions opened: `transactionNumber` names the one open now. */
  private opened = 0;
  private commitTimer: NodeJS.Timeout | undefined;
  private immediateScheduled = false;
  /** A commit that failed in the background (disk full, I/O error): every later write reports it. */
  private failure: unknown;
  /** The commit at the end of this turn, which every IN_FLIGHT mark of the turn awaits. */
  private pending: { promise: Promise<void>; resolve: () => void; reject: (error: unknown) => void } | undefined;
  /** Writes counters kept in memory (run-stats.ts) into the group just before it commits. */
  private readonly beforeCommit: (() => void) | undefined;

  constructor(db: Db, beforeCommit?: () => void) {
    this.db = db;
    this.beforeCommit = beforeCommit;
  }

  /** Called before every write: opens the group's transaction if none is open. */
  begin(): void {
    if (this.failure !== undefined) throw this.failure;
    if (!this.open) {
      this.db.exec('BEGIN IMMEDIATE');
      this.open = true;
      this.opened += 1;
    }
    // Writes nobody waits for (answers, statuses) are committed in groups every few ms; a
    // COMMIT per event-loop turn was the largest single cost of a run.
    this.commitTimer ??= setTimeout(() => this.commitAndNotify(), GROUP_COMMIT_MS);
  }

  private commitAndNotify(): void {
    if (this.commitTimer) clearTimeout(this.commitTimer);
    this.commitTimer = undefined;
    this.immediateScheduled = false;
    const pending = this.pending;
    this.pending = undefined;
    try {
      this.flushSync();
      pending?.resolve();
    } catch (error) {
      this.failure = error;
      pending?.reject(error);
    }
  }

  /** Resolves once every write made so far is committed. */
  flush(): Promise<void> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    if (!this.open) return Promise.resolve();
    // Someone waits (an IN_FLIGHT mark before its request): commit at the end of this turn,
    // together with every other write made in it.
    if (!this.immediateScheduled) {
      this.immediateScheduled = true;
      setImmediate(() => this.commitAndNotify());
    }
    if (!this.pending) {
      let resolve!: () => void;
      let reject!: (error: unknown) => void;
      const promise = new Promise<void>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      this.pending = { promise, resolve, reject };
    }
    return this.pending.promise;
  }

  flushSync(): void {
    if (this.open) {
      this.open = false;
      try {
        this.beforeCommit?.();
        this.db.exec('COMMIT');
      } catch (error) {
        // A failed COMMIT leaves the transaction open in SQLite: roll it back so the file stays consistent.
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        throw error;
      }
    }
  }

  /** Whether a group's transaction is open (begin() was called and nothing has committed it yet). */
  get inTransaction(): boolean {
    return this.open;
  }

  /** The open transaction's number, or -1 when none is open. */
  get transactionNumber(): number {
    return this.open ? this.opened : -1;
  }

  close(): void {
    if (this.commitTimer) clearTimeout(this.commitTimer);
    this.commitTimer = undefined;
    this.flushSync();
  }
}
