/**
 * Checkpoint of bank runs. Writes go into one open transaction that is committed as a group
 * (all writes of one event-loop turn together); `flush()` resolves once everything written so
 * far is on disk, which is how an IN_FLIGHT mark is committed before its request leaves.
 */
import os from 'node:os';
import type { Db } from './db.js';

export type KeyStatus = 'PENDING' | 'IN_FLIGHT' | 'DONE' | 'DEFERRED' | 'FAILED' | 'UNCONFIRMED';
export type CallMode = 'pl' | 'pd';
export type RunMode = CallMode | 'hybrid';
export type FinalStatus = 'VERIFIED' | 'NOT_VERIFIED' | 'INVALID';

export interface RunRecord {
  id: number;
  fingerprint: string;
  mode: RunMode;
  status: 'open' | 'complete';
  totalRows: number | null;
  createdAt: number;
}

export interface KeyRecord {
  key: string;
  account: string;
  ifsc: string;
  firstIdx: number;
  status: KeyStatus;
  phase: CallMode | null;
  source: 'api' | 'reuse' | null;
  reason: string | null;
  resultId: number | null;
  requestId: string | null;
  dueAt: number | null;
  attempts: number;
  /** The answer (result_id's row), when it was read together with the key. */
  result?: ResultRecord | undefined;
}

export interface ResultRecord {
  id: number;
  account: string;
  ifsc: string;
  mode: CallMode;
  status: FinalStatus;
  reason: string | null;
  beneficiaryName: string | null;
  transactionRemark: string | null;
  bankName: string | null;
  bankBranch: string | null;
  bankCity: string | null;
  bankDistrict: string | null;
  bankState: string | null;
  bankMicr: string | null;
  bankIso3166: string | null;
  bankSwift: string | null;
  bankImps: boolean | null;
  bankNeft: boolean | null;
  bankRtgs: boolean | null;
  bankUpi: boolean | null;
  requestId: string | null;
  verifiedAt: number;
  changedSince: string | null;
}

export type NewResult = Omit<ResultRecord, 'id' | 'changedSince'>;

export interface LockHolder {
  pid: number;
  host: string;
  startedAt: number;
}

/** Longest a write waits for its commit when nobody awaits it. */
export const GROUP_COMMIT_MS = 50;

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

const RESULT_COLUMNS = `id, account, ifsc, mode, status, reason, beneficiary_name AS beneficiaryName,
  transaction_remark AS transactionRemark, bank_name AS bankName, bank_branch AS bankBranch,
  bank_city AS bankCity, bank_district AS bankDistrict, bank_state AS bankState, bank_micr AS bankMicr,
  bank_iso3166 AS bankIso3166, bank_swift AS bankSwift, bank_imps AS bankImps, bank_neft AS bankNeft,
  bank_rtgs AS bankRtgs, bank_upi AS bankUpi, request_id AS requestId, verified_at AS verifiedAt,
  changed_since AS changedSince`;

const KEY_COLUMNS = `account || '|' || ifsc AS key, account, ifsc, first_idx AS firstIdx, status, phase, source, reason,
  result_id AS resultId, request_id AS requestId, due_at AS dueAt, attempts`;

/** keysFrom's columns: a key of the run, then its answer's (all NULL when it has none). */
const KEY_AND_RESULT_COLUMNS = `k.first_idx, k.account, k.ifsc, k.status, k.phase, k.source, k.reason, k.result_id, k.request_id,
  k.due_at, k.attempts, r.id, r.mode, r.status, r.reason, r.beneficiary_name, r.transaction_remark, r.bank_name,
  r.bank_branch, r.bank_city, r.bank_district, r.bank_state, r.bank_micr, r.bank_iso3166, r.bank_swift, r.bank_imps,
  r.bank_neft, r.bank_rtgs, r.bank_upi, r.request_id, r.verified_at, r.changed_since`;

type RawResult = Omit<ResultRecord, 'bankImps' | 'bankNeft' | 'bankRtgs' | 'bankUpi'> & {
  bankImps: number | null;
  bankNeft: number | null;
  bankRtgs: number | null;
  bankUpi: number | null;
};

function toBool(value: number | null): boolean | null {
  return value === null ? null : value !== 0;
}
function fromBool(value: boolean | null): number | null {
  return value === null ? null : value ? 1 : 0;
}
function toResult(raw: RawResult | undefined): ResultRecord | undefined {
  if (!raw) return undefined;
  return { ...raw, bankImps: toBool(raw.bankImps), bankNeft: toBool(raw.bankNeft), bankRtgs: toBool(raw.bankRtgs), bankUpi: toBool(raw.bankUpi) };
}

export class BankStore {
  private readonly db: Db;
  private readonly now: () => number;
  private inTransaction = false;
  private commitTimer: NodeJS.Timeout | undefined;
  private immediateScheduled = false;
  /** A commit that failed in the background (disk full, I/O error): every later write reports it. */
  private failure: unknown;
  /** The commit at the end of this turn, which every IN_FLIGHT mark of the turn awaits. */
  private pending: { promise: Promise<void>; resolve: () => void; reject: (error: unknown) => void } | undefined;
  private readonly stmt;

  constructor(db: Db, now: () => number) {
    this.db = db;
    this.now = now;
    this.stmt = {
      latestRun: db.prepare(
        `SELECT id, fingerprint, mode, status, total_rows AS totalRows, created_at AS createdAt
         FROM runs WHERE fingerprint = ? AND mode = ? ORDER BY id DESC LIMIT 1`,
      ),
      insertRun: db.prepare(
        `INSERT INTO runs (fingerprint, mode, input_name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`,
      ),
      finishRun: db.prepare(`UPDATE runs SET status = ?, total_rows = ?, updated_at = ? WHERE id = ?`),
      getKey: db.prepare(`SELECT ${KEY_COLUMNS} FROM run_keys WHERE run_id = ? AND account = ? AND ifsc = ?`),
      insertKey: db.prepare(
        `INSERT INTO run_keys (run_id, first_idx, account, ifsc, status, updated_at) VALUES (?, ?, ?, ?, 'PENDING', ?)`,
      ),
      insertInFlight: db.prepare(
        `INSERT INTO run_keys (run_id, first_idx, account, ifsc, status, phase, attempts, updated_at) VALUES (?, ?, ?, ?, 'IN_FLIGHT', ?, 1, ?)`,
      ),
      markInFlight: db.prepare(
        `UPDATE run_keys SET status = 'IN_FLIGHT', phase = ?, attempts = attempts + 1, updated_at = ? WHERE run_id = ? AND first_idx = ?`,
      ),
      markDone: db.prepare(
        `UPDATE run_keys SET status = 'DONE', source = ?, result_id = ?, request_id = ?, reason = NULL, due_at = NULL, updated_at = ?
         WHERE run_id = ? AND first_idx = ?`,
      ),
      markOther: db.prepare(
        `UPDATE run_keys SET status = ?, reason = ?, request_id = ?, due_at = ?, updated_at = ? WHERE run_id = ? AND first_idx = ?`,
      ),
      deferAccount: db.prepare(
        `UPDATE run_keys SET status = 'DEFERRED', reason = ?, due_at = ?, updated_at = ?
         WHERE run_id = ? AND account = ? AND status IN ('PENDING', 'FAILED', 'DEFERRED')`,
      ),
      requeueInFlight: db.prepare(
        `UPDATE run_keys SET status = 'PENDING', updated_at = ? WHERE run_id = ? AND status = 'IN_FLIGHT' AND phase = 'pl'`,
      ),
      unconfirmInFlight: db.prepare(
        `UPDATE run_keys SET status = 'UNCONFIRMED',
           reason = 'a penny-drop request was in flight when the run stopped: it may have deposited; check the bank statement or re-run with --retry-unconfirmed',
           updated_at = ?
         WHERE run_id = ? AND status = 'IN_FLIGHT'`,
      ),
      requeueUnconfirmed: db.prepare(
        `UPDATE run_keys SET status = 'PENDING', reason = NULL, updated_at = ? WHERE run_id = ? AND status = 'UNCONFIRMED'`,
      ),
      insertResult: db.prepare(
        `INSERT INTO results (account, ifsc, mode, status, reason, beneficiary_name, transaction_remark, bank_name,
           bank_branch, bank_city, bank_district, bank_state, bank_micr, bank_iso3166, bank_swift, bank_imps, bank_neft,
           bank_rtgs, bank_upi, request_id, verified_at, changed_since)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      getResult: db.prepare(`SELECT ${RESULT_COLUMNS} FROM results WHERE id = ?`),
      keysFrom: db
        .prepare(
          `SELECT ${KEY_AND_RESULT_COLUMNS} FROM run_keys k LEFT JOIN results r ON r.id = k.result_id
           WHERE k.run_id = ? AND k.first_idx >= ? ORDER BY k.first_idx LIMIT ?`,
        )
        .raw(true),
      reusable: db.prepare(
        `SELECT ${RESULT_COLUMNS} FROM results WHERE account = ? AND ifsc = ? AND verified_at >= ?
           AND (mode = ? OR mode = 'pd') ORDER BY verified_at DESC, id DESC LIMIT 1`,
      ),
      previousResult: db.prepare(
        `SELECT status, beneficiary_name AS beneficiaryName, verified_at AS verifiedAt FROM results
         WHERE account = ? AND ifsc = ? AND status IN ('VERIFIED', 'NOT_VERIFIED')
         ORDER BY verified_at DESC, id DESC LIMIT 1`,
      ),
      getLock: db.prepare(LOCK_QUERY),
      putLock: db.prepare(
        `INSERT OR REPLACE INTO run_lock (id, pid, host, started_at, heartbeat_at) VALUES (1, ?, ?, ?, ?)`,
      ),
      heartbeat: db.prepare(`UPDATE run_lock SET heartbeat_at = ? WHERE id = 1 AND pid = ? AND host = ?`),
      dropLock: db.prepare(`DELETE FROM run_lock WHERE id = 1 AND pid = ? AND host = ?`),
    };
  }

  // ---- runs ----

  latestRun(fingerprint: string, mode: RunMode): RunRecord | undefined {
    return this.stmt.latestRun.get(fingerprint, mode) as RunRecord | undefined;
  }

  createRun(fingerprint: string, mode: RunMode, inputName: string): RunRecord {
    this.begin();
    const now = this.now();
    const info = this.stmt.insertRun.run(fingerprint, mode, inputName, now, now);
    return { id: Number(info.lastInsertRowid), fingerprint, mode, status: 'open', totalRows: null, createdAt: now };
  }

  finishRun(runId: number, complete: boolean, totalRows: number): void {
    this.begin();
    this.stmt.finishRun.run(complete ? 'complete' : 'open', totalRows, this.now(), runId);
  }

  /**
   * A run found with keys IN_FLIGHT was killed. A penny-less call is simply sent again; a
   * penny-drop call may have moved a rupee, so it becomes UNCONFIRMED (DESIGN.md §4).
   */
  recoverInFlight(runId: number, retryUnconfirmed: boolean): { requeued: number; unconfirmed: number } {
    this.begin();
    const now = this.now();
    const requeued = this.stmt.requeueInFlight.run(now, runId).changes;
    const unconfirmed = this.stmt.unconfirmInFlight.run(now, runId).changes;
    if (retryUnconfirmed) this.stmt.requeueUnconfirmed.run(now, runId);
    return { requeued, unconfirmed };
  }

  // ---- keys ----

  getKey(runId: number, account: string, ifsc: string): KeyRecord | undefined {
    return this.stmt.getKey.get(runId, account, ifsc) as KeyRecord | undefined;
  }

  /** A payee met for the first time in this run, at data row `firstIdx`; later calls name it by that row. */
  insertKey(runId: number, account: string, ifsc: string, firstIdx: number): void {
    this.begin();
    this.stmt.insertKey.run(runId, firstIdx, account, ifsc, this.now());
  }

  /** A new payee's row, written as its first request is about to leave: insertKey and markInFlight in one. */
  insertInFlight(runId: number, account: string, ifsc: string, firstIdx: number, phase: CallMode): void {
    this.begin();
    this.stmt.insertInFlight.run(runId, firstIdx, account, ifsc, phase, this.now());
  }

  markInFlight(runId: number, firstIdx: number, phase: CallMode): void {
    this.begin();
    this.stmt.markInFlight.run(phase, this.now(), runId, firstIdx);
  }

  markDone(runId: number, firstIdx: number, source: 'api' | 'reuse', resultId: number, requestId: string | null): void {
    this.begin();
    this.stmt.markDone.run(source, resultId, requestId, this.now(), runId, firstIdx);
  }

  markStatus(runId: number, firstIdx: number, status: 'PENDING' | 'FAILED' | 'UNCONFIRMED' | 'DEFERRED', reason: string | null, requestId: string | null, dueAt: number | null = null): void {
    this.begin();
    this.stmt.markOther.run(status, reason, requestId, dueAt, this.now(), runId, firstIdx);
  }

  /** Defers every key of this account in the run that has not been answered. */
  deferAccount(runId: number, account: string, reason: string, dueAt: number): number {
    this.begin();
    return this.stmt.deferAccount.run(reason, dueAt, this.now(), runId, account).changes;
  }

  /**
   * Up to `limit` keys of the run from data row `fromIdx` on, in file order, each with its answer:
   * one range scan instead of a payee lookup and an answer lookup per row.
   */
  keysFrom(runId: number, fromIdx: number, limit: number): KeyRecord[] {
    const rows = this.stmt.keysFrom.all(runId, fromIdx, limit) as unknown[][];
    return rows.map((c) => {
      const account = c[1] as string;
      const ifsc = c[2] as string;
      const result: ResultRecord | undefined = c[11] === null ? undefined : {
        id: c[11] as number, account, ifsc, mode: c[12] as CallMode, status: c[13] as FinalStatus, reason: c[14] as string | null,
        beneficiaryName: c[15] as string | null, transactionRemark: c[16] as string | null, bankName: c[17] as string | null,
        bankBranch: c[18] as string | null, bankCity: c[19] as string | null, bankDistrict: c[20] as string | null,
        bankState: c[21] as string | null, bankMicr: c[22] as string | null, bankIso3166: c[23] as string | null,
        bankSwift: c[24] as string | null, bankImps: toBool(c[25] as number | null), bankNeft: toBool(c[26] as number | null),
        bankRtgs: toBool(c[27] as number | null), bankUpi: toBool(c[28] as number | null), requestId: c[29] as string | null,
        verifiedAt: c[30] as number, changedSince: c[31] as string | null,
      };
      return {
        key: `${account}|${ifsc}`, account, ifsc, firstIdx: c[0] as number, status: c[3] as KeyStatus, phase: c[4] as CallMode | null,
        source: c[5] as 'api' | 'reuse' | null, reason: c[6] as string | null, resultId: c[7] as number | null,
        requestId: c[8] as string | null, dueAt: c[9] as number | null, attempts: c[10] as number, result,
      };
    });
  }

  // ---- results ----

  /** Stores an answer; `result` becomes the returned record (it is not copied). */
  insertResult(result: NewResult): ResultRecord {
    this.begin();
    const previous = this.stmt.previousResult.get(result.account, result.ifsc) as PreviousResult | undefined;
    const changedSince = describeChange(previous, result);
    const r = result;
    const info = this.stmt.insertResult.run(
      r.account, r.ifsc, r.mode, r.status, r.reason, r.beneficiaryName, r.transactionRemark, r.bankName,
      r.bankBranch, r.bankCity, r.bankDistrict, r.bankState, r.bankMicr, r.bankIso3166, r.bankSwift,
      fromBool(r.bankImps), fromBool(r.bankNeft), fromBool(r.bankRtgs), fromBool(r.bankUpi), r.requestId, r.verifiedAt,
      changedSince,
    );
    const record = result as ResultRecord;
    record.id = Number(info.lastInsertRowid);
    record.changedSince = changedSince;
    return record;
  }

  getResult(id: number): ResultRecord | undefined {
    return toResult(this.stmt.getResult.get(id) as RawResult | undefined);
  }

  /** The newest result for this account+IFSC at least as strong as `mode` and not older than `since`. */
  findReusable(account: string, ifsc: string, mode: CallMode, since: number): ResultRecord | undefined {
    return toResult(this.stmt.reusable.get(account, ifsc, since, mode) as RawResult | undefined);
  }

  // ---- lock ----

  /** Takes the run lock, or names who holds it. A holder that is gone is taken over. */
  acquireLock(pid: number, isAlive: (pid: number) => boolean): { ok: true } | { ok: false; holder: LockHolder } {
    this.flushSync();
    const host = os.hostname();
    return this.db.transaction((): { ok: true } | { ok: false; holder: LockHolder } => {
      const now = this.now();
      const holder = liveHolder(this.stmt.getLock.get() as HeldLock | undefined, { pid, host }, now, isAlive);
      if (holder) return { ok: false, holder };
      this.stmt.putLock.run(pid, host, now, now);
      return { ok: true };
    }).immediate();
  }

  heartbeat(pid: number): void {
    this.begin();
    this.stmt.heartbeat.run(this.now(), pid, os.hostname());
  }

  releaseLock(pid: number): void {
    this.begin();
    this.stmt.dropLock.run(pid, os.hostname());
    this.flushSync();
  }

  // ---- group commit ----

  private begin(): void {
    if (this.failure !== undefined) throw this.failure;
    if (!this.inTransaction) {
      this.db.exec('BEGIN IMMEDIATE');
      this.inTransaction = true;
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
    if (!this.inTransaction) return Promise.resolve();
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
    if (this.inTransaction) {
      this.inTransaction = false;
      try {
        this.db.exec('COMMIT');
      } catch (error) {
        // A failed COMMIT leaves the transaction open in SQLite: roll it back so the file stays consistent.
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        throw error;
      }
    }
  }

  close(): void {
    if (this.commitTimer) clearTimeout(this.commitTimer);
    this.commitTimer = undefined;
    this.flushSync();
  }
}

/** What differs from the previous check of the same account+IFSC — a changed holder is a fraud signal. */
type PreviousResult = Pick<ResultRecord, 'status' | 'beneficiaryName' | 'verifiedAt'>;

export function describeChange(previous: PreviousResult | undefined, current: Pick<ResultRecord, 'status' | 'beneficiaryName'>): string | null {
  if (!previous) return null;
  if (current.status !== 'VERIFIED' && current.status !== 'NOT_VERIFIED') return null;
  const changes: string[] = [];
  if (previous.status !== current.status) changes.push(`status ${previous.status} -> ${current.status}`);
  const before = (previous.beneficiaryName ?? '').trim();
  const after = (current.beneficiaryName ?? '').trim();
  if (before.toUpperCase() !== after.toUpperCase() && before !== '' && after !== '') {
    changes.push(`beneficiary name "${before}" -> "${after}"`);
  }
  if (changes.length === 0) return null;
  return `${new Date(previous.verifiedAt).toISOString().slice(0, 10)}: ${changes.join('; ')}`;
}
