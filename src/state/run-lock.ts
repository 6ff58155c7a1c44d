/**
 * The run lock: one row of the state file naming the invocation that runs on it (docs/ARCHITECTURE.md,
 * "State file"). A second run on the same state is refused, naming the holder:
 * - on this host, a holder whose process is alive is never taken over, whatever its heartbeat
 *   says (a run paused by Ctrl-Z, a frozen VM or a closed laptop lid is still the holder); one
 *   whose process is gone (or whose pid now names another process, or the host rebooted) is;
 * - on another host, the holder's heartbeat is a counter, not a time: it is gone only when the
 *   counter has not moved for LOCK_LEASE_MS as measured on the judge's own clock. Two hosts'
 *   clocks are never compared, so a clock 90 s off takes nothing over.
 * Each invocation has a random token; every request's IN_FLIGHT mark checks, in its own
 * transaction, that the token still holds the lock (`holds()`), and the heartbeat finds out
 * when it does not: a run that lost its lock stops dispatching at once.
 */
import { isAlive } from '../process-alive.js';
import { formatIst } from '../ist.js';
import fs from 'node:fs';
import os from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Db } from './types.js';
import type { GroupCommit } from './group-commit.js';
import type { LockHolder } from './types.js';

/** How often a run tells the lock it is still alive. */
export const LOCK_HEARTBEAT_MS = 15_000;
/** A holder on another host whose heartbeat has not moved for this long, on the judge's clock, is gone. */
export const LOCK_LEASE_MS = 120_000;
/** How often a run that waits on another host's lease looks at its heartbeat again. */
export const LEASE_POLL_MS = 1_000;

/** The run lock's row. Rows written by versions before schema 6 have no token, beat, boot id or process start. */
export interface HeldLock extends LockHolder {
  heartbeatAt: number;
  token: string | null;
  beat: number;
  bootId: string | null;
  procStart: string | null;
  /** The holder's PID namespace (schema 11; null before, or off Linux). */
  pidNs: string | null;
}
export const LOCK_QUERY = `SELECT pid, host, started_at AS startedAt, heartbeat_at AS heartbeatAt, token, beat,
  boot_id AS bootId, proc_start AS procStart, pid_ns AS pidNs FROM run_lock WHERE id = 1`;
/** The columns every schema's run_lock has (for a state file older than schema 6). */
export const LOCK_QUERY_V1 = `SELECT pid, host, started_at AS startedAt, heartbeat_at AS heartbeatAt, NULL AS token, 0 AS beat,
  NULL AS bootId, NULL AS procStart, NULL AS pidNs FROM run_lock WHERE id = 1`;

/** Who this invocation is: its pid, host, a random token, and what tells its pid from a reused one. */
export interface LockIdentity {
  pid: number;
  host: string;
  token: string;
  bootId: string | null;
  procStart: string | null;
  pidNs: string | null;
}

/** How a process of this host is looked at: alive, and when it started (null where unknown). */
export interface ProcessProbe {
  isAlive(pid: number): boolean;
  startOf(pid: number): string | null;
  bootId(): string | null;
  /** This process's PID namespace ("pid:[4026531836]"); null where unknown. */
  pidNamespace(): string | null;
}

export { isAlive };

/** When process `pid` started, in clock ticks since boot (Linux's /proc/PID/stat field 22); null elsewhere. */
export function processStart(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'latin1');
    // The command name (field 2) is in parentheses and may hold spaces: count from after it.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null;
  } catch {
    return null;
  }
}

/** This boot's id (Linux); a lock written under another boot belongs to a process that is gone. */
export function bootId(): string | null {
  try {
    return fs.readFileSync('/proc/sys/kernel/random/boot_id', 'latin1').trim() || null;
  } catch {
    return null;
  }
}

/** This process's PID namespace (Linux): pids of another namespace (a container's) cannot be looked at from here. */
export function pidNamespace(): string | null {
  try {
    return fs.readlinkSync('/proc/self/ns/pid') || null;
  } catch {
    return null;
  }
}

export const SYSTEM_PROBE: ProcessProbe = { isAlive, startOf: processStart, bootId, pidNamespace };

/** A new invocation's identity. */
export function lockIdentity(pid: number, probe: ProcessProbe = SYSTEM_PROBE, host = os.hostname()): LockIdentity {
  return { pid, host, token: randomBytes(12).toString('hex'), bootId: probe.bootId(), procStart: probe.startOf(pid), pidNs: probe.pidNamespace() };
}

/**
 * What a lock row means to `me`: free (nobody, or a holder that is gone), mine, held by a live
 * process of this host, or held on another host (alive only if its heartbeat moves: `watch`).
 */
export type LockVerdict = 'free' | 'mine' | 'live' | 'watch';

export function judgeLock(held: HeldLock | undefined, me: LockIdentity, probe: ProcessProbe): LockVerdict {
  if (!held) return 'free';
  if (held.token !== null && held.token === me.token) return 'mine';
  if (held.host !== me.host) return 'watch';
  if (held.bootId !== null && me.bootId !== null && held.bootId !== me.bootId) return 'free';
  // Another PID namespace of this host (a container with the host's name): its pid means nothing
  // here (pid 1 is its own init, or no process at all): alive only if its heartbeat moves.
  if (held.pidNs !== null && me.pidNs !== null && held.pidNs !== me.pidNs) return 'watch';
  if (!probe.isAlive(held.pid)) return 'free';
  // The pid is alive: the holder's own process, unless the pid was reused by another one.
  if (held.procStart !== null) {
    const start = probe.startOf(held.pid);
    if (start !== null && start !== held.procStart) return 'free';
  }
  return 'live';
}

/** Whether another host's heartbeat moved between two looks (a holder of an older version moves its time). */
export function heartbeatMoved(before: HeldLock, after: HeldLock | undefined): boolean {
  return !after || after.token !== before.token || after.pid !== before.pid || after.host !== before.host
    || after.beat !== before.beat || after.heartbeatAt !== before.heartbeatAt;
}

export function describeHolder(holder: LockHolder): string {
  return `another vas-verify run (pid ${holder.pid} on ${holder.host}, started ${formatIst(holder.startedAt)})`;
}

export type LockAttempt = { ok: true } | { ok: false; holder: LockHolder } | { ok: false; watch: HeldLock };

/** The lock of one state file; its writes join the store's group commit. */
export class RunLock {
  private readonly db: Db;
  private readonly commits: GroupCommit;
  private readonly now: () => number;
  private readonly stmt;
  private me: LockIdentity | undefined;
  /** The group-commit transaction in which `holds()` last found the lock ours. */
  private verifiedIn = -1;

  constructor(db: Db, commits: GroupCommit, now: () => number) {
    this.db = db;
    this.commits = commits;
    this.now = now;
    this.stmt = {
      get: db.prepare(LOCK_QUERY),
      token: db.prepare(`SELECT token FROM run_lock WHERE id = 1`).pluck(),
      put: db.prepare(
        `INSERT OR REPLACE INTO run_lock (id, pid, host, started_at, heartbeat_at, token, beat, boot_id, proc_start, pid_ns) VALUES (1, ?, ?, ?, ?, ?, 0, ?, ?, ?)`,
      ),
      heartbeat: db.prepare(`UPDATE run_lock SET heartbeat_at = ?, beat = beat + 1 WHERE id = 1 AND token = ?`),
      drop: db.prepare(`DELETE FROM run_lock WHERE id = 1 AND token = ?`),
    };
  }

  /** The lock's row as it is now. */
  read(): HeldLock | undefined {
    return this.stmt.get.get() as HeldLock | undefined;
  }

  /**
   * Takes the run lock when it is free, or names the live holder, or (another host) returns the
   * row to watch. `takeOver`: the row a watch found still, which may be replaced if it has not changed.
   */
  acquire(me: LockIdentity, probe: ProcessProbe, takeOver?: HeldLock): LockAttempt {
    this.commits.flushSync();
    return this.db.transaction((): LockAttempt => {
      const held = this.read();
      const verdict = judgeLock(held, me, probe);
      if (verdict === 'live') return { ok: false, holder: held! };
      if (verdict === 'watch' && (!takeOver || heartbeatMoved(takeOver, held))) return { ok: false, watch: held! };
      const now = this.now();
      this.stmt.put.run(me.pid, me.host, now, now, me.token, me.bootId, me.procStart, me.pidNs);
      this.me = me;
      this.verifiedIn = -1;
      return { ok: true };
    }).immediate();
  }

  /**
   * Whether this invocation still holds the lock, asked inside the transaction that marks a
   * request IN_FLIGHT (checked once per group-commit transaction: no other process can write
   * while it is open). False when another run took it over.
   */
  holds(): boolean {
    if (!this.me) return false;
    const txn = this.commits.transactionNumber;
    if (this.verifiedIn === txn && txn >= 0) return true;
    const ok = this.stmt.token.get() === this.me.token;
    if (ok && this.commits.inTransaction) this.verifiedIn = txn;
    return ok;
  }

  /** Moves the heartbeat; false when the lock is no longer ours. */
  heartbeat(): boolean {
    if (!this.me) return false;
    this.commits.begin();
    return this.stmt.heartbeat.run(this.now(), this.me.token).changes === 1;
  }

  release(): void {
    if (!this.me) return;
    this.commits.begin();
    this.stmt.drop.run(this.me.token);
    this.commits.flushSync();
    this.me = undefined;
  }

  /** The token of this invocation while it holds the lock. */
  get token(): string | null {
    return this.me?.token ?? null;
  }
}

/**
 * The live holder of an older state file that a migration must wait for (schema < 6 has no token
 * or beat): on this host a live pid; on another host a heartbeat younger than the lease by our clock.
 */
export function olderRunHolder(held: HeldLock | undefined, me: { pid: number; host: string }, now: number, probe: Pick<ProcessProbe, 'isAlive'>): LockHolder | undefined {
  if (!held || (held.pid === me.pid && held.host === me.host)) return undefined;
  const alive = held.host === me.host ? probe.isAlive(held.pid) : now - held.heartbeatAt <= LOCK_LEASE_MS;
  return alive ? { pid: held.pid, host: held.host, startedAt: held.startedAt } : undefined;
}
