/**
 * Group commit: writes go into one open transaction that is committed as a group (all writes of
 * one event-loop turn together, or every GROUP_COMMIT_MS when nobody waits). `flush()` resolves
 * once everything written so far is on disk, which is how an IN_FLIGHT mark is committed before
 * its request leaves.
 */
import type { Db } from './types.js';

/** Longest a write waits for its commit when nobody awaits it. */
export const GROUP_COMMIT_MS = 50;
/**
 * About the least time between two commits that someone awaits (claims before their requests
 * leave). A commit costs what it writes, and every commit writes the pages it touched again — the
 * tail pages of each table, the run's counters. With --rate the limiter spaces requests evenly, one
 * or two per event-loop turn, and a commit per turn was 10,717 commits for 30,000 rows at 1,500/s
 * (1 s answers; COMMIT was 13% of the busy main thread), 3,397 with this spacing. Waiting up to
 * this long gathers the claims of a few turns into one; a request leaves at most this much later,
 * which an answer of hundreds of milliseconds does not notice.
 */
export const CLAIM_COMMIT_SPACING_MS = 5;

export class GroupCommit {
  private readonly db: Db;
  private open = false;
  /** Counts the transactions opened: `transactionNumber` names the one open now. */
  private opened = 0;
  private commitTimer: NodeJS.Timeout | undefined;
  /** The awaited commit is scheduled (at the end of this turn, or at the spacing's end). */
  private flushScheduled = false;
  private flushTimer: NodeJS.Timeout | undefined;
  /** When the last commit ended (performance.now()). */
  private lastCommitAt = Number.NEGATIVE_INFINITY;
  /** A commit that failed in the background (disk full, I/O error): every later write reports it. */
  private failure: unknown;
  /** The commit at the end of this turn, which every IN_FLIGHT mark of the turn awaits. */
  private pending: { promise: Promise<void>; resolve: () => void; reject: (error: unknown) => void } | undefined;
  /** Writes counters kept in memory (run-stats.ts) into the group just before it commits. */
  private readonly beforeCommit: (() => void) | undefined;

  private readonly spacingMs: number;
  private readonly groupMs: number;

  /** `timing`: CLAIM_COMMIT_SPACING_MS and GROUP_COMMIT_MS unless given (tests). */
  constructor(db: Db, beforeCommit?: () => void, timing: { spacingMs?: number; groupMs?: number } = {}) {
    this.db = db;
    this.beforeCommit = beforeCommit;
    this.spacingMs = timing.spacingMs ?? CLAIM_COMMIT_SPACING_MS;
    this.groupMs = timing.groupMs ?? GROUP_COMMIT_MS;
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
    this.commitTimer ??= setTimeout(() => this.commitAndNotify(), this.groupMs);
  }

  /** Cancels the scheduled commits and hands over whoever waits for one: the caller commits now. */
  private takeWaiters(): typeof this.pending {
    if (this.commitTimer) clearTimeout(this.commitTimer);
    this.commitTimer = undefined;
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    this.flushScheduled = false;
    const pending = this.pending;
    this.pending = undefined;
    return pending;
  }

  private commitAndNotify(): void {
    const pending = this.takeWaiters();
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
    // together with every other write made in it — or, when the last commit was less than
    // CLAIM_COMMIT_SPACING_MS ago, once that much time has passed, with the writes of the turns between.
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      const wait = this.lastCommitAt + this.spacingMs - performance.now();
      if (wait >= 1) this.flushTimer = setTimeout(() => this.commitAndNotify(), wait);
      else setImmediate(() => this.commitAndNotify());
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
        this.lastCommitAt = performance.now();
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
    // A claim still waiting for its commit gets it now (its timer is gone).
    const pending = this.takeWaiters();
    try {
      this.flushSync();
    } catch (error) {
      pending?.reject(error);
      throw error;
    }
    pending?.resolve();
  }
}
