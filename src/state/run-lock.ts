/**
 * The run lock: one row of the state file naming the process that runs on it, with a heartbeat.
 * A second run on the same state while one is alive is refused, naming the holder; a holder whose
 * heartbeat is stale, or whose pid is gone on this host, is taken over.
 */
import os from 'node:os';
import type { Db } from './types.js';
import type { GroupCommit } from './group-commit.js';
import type { LockHolder } from './types.js';

/** A lock whose heartbeat is older than this belongs to a process that is gone. */
export const LOCK_STALE_MS = 60_000;

/** The run lock's row, as LOCK_QUERY reads it. */
export type HeldLock = LockHolder & { heartbeatAt: number };
export const LOCK_QUERY = `SELECT pid, host, started_at AS startedAt, heartbeat_at AS heartbeatAt FROM run_lock WHERE id = 1`;

/**
 * Who holds the run lock, if that is another process still at work: not this process, its
 * heartbeat not stale, and (on this host) its pid still alive.
 */
export function liveHolder(held: HeldLock | undefined, me: { pid: number; host: string }, now: number, isAlive: (pid: number) => boolean): LockHolder | undefined {
  if (!held || (held.pid === me.pid && held.host === me.host)) return undefined;
  if (now - held.heartbeatAt > LOCK_STALE_MS || (held.host === me.host && !isAlive(held.pid))) return undefined;
  return { pid: held.pid, host: held.host, startedAt: held.startedAt };
}

export function describeHolder(holder: LockHolder): string {
  return `another vas-verify run (pid ${holder.pid} on ${holder.host}, started ${new Date(holder.startedAt).toISOString()})`;
}

/** Whether a process of this host still exists (one of another user's counts). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export type LockAttempt = { ok: true } | { ok: false; holder: LockHolder };

/** The lock of one state file; its writes join the store's group commit. */
export class RunLock {
  private readonly db: Db;
  private readonly commits: GroupCommit;
  private readonly now: () => number;
  private readonly stmt;

  constructor(db: Db, commits: GroupCommit, now: () => number) {
    this.db = db;
    this.commits = commits;
    this.now = now;
    this.stmt = {
      get: db.prepare(LOCK_QUERY),
      put: db.prepare(`INSERT OR REPLACE INTO run_lock (id, pid, host, started_at, heartbeat_at) VALUES (1, ?, ?, ?, ?)`),
      heartbeat: db.prepare(`UPDATE run_lock SET heartbeat_at = ? WHERE id = 1 AND pid = ? AND host = ?`),
      drop: db.prepare(`DELETE FROM run_lock WHERE id = 1 AND pid = ? AND host = ?`),
    };
  }

  /** Takes the run lock, or names who holds it. A holder that is gone is taken over. */
  acquire(pid: number, isAlive: (pid: number) => boolean): LockAttempt {
    this.commits.flushSync();
    const host = os.hostname();
    return this.db.transaction((): LockAttempt => {
      const now = this.now();
      const holder = liveHolder(this.stmt.get.get() as HeldLock | undefined, { pid, host }, now, isAlive);
      if (holder) return { ok: false, holder };
      this.stmt.put.run(pid, host, now, now);
      return { ok: true };
    }).immediate();
  }

  heartbeat(pid: number): void {
    this.commits.begin();
    this.stmt.heartbeat.run(this.now(), pid, os.hostname());
  }

  release(pid: number): void {
    this.commits.begin();
    this.stmt.drop.run(pid, os.hostname());
    this.commits.flushSync();
  }
}
