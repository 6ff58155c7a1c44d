/**
 * The bank run's queries on the state file: runs, the payees of each run, and results (kept
 * across runs for reuse and change detection). Writes join one group commit (group-commit.ts);
 * the run lock is run-lock.ts; the schema is migrations.ts; the types are types.ts.
 */
import type { Db } from './types.js';
import type { RunInputRecord } from './run-record.js';
import { contradiction, describeChange, hasHolder, NEWER_ANSWER, type NewestAnswer, type PreviousResult } from './changes.js';
import { NEWEST_ANSWER_SQL } from './run-record.js';
import { refuseUnbackedReviews } from './audit-consistency.js';
import { DepositHistory } from './deposits.js';
import { PAYEE_KEY } from './payee-key.js';
import { GroupCommit } from './group-commit.js';
import { RunLock, type HeldLock, type LockAttempt, type LockIdentity, type ProcessProbe } from './run-lock.js';
import { RunRows } from './run-rows.js';
import { StateFileWatch } from './state-file-watch.js';
import { AuditTrail, type AuditKind } from './audit.js';
import { FinishedRuns } from './finished-runs.js';
import { Reviews, type PayeeStanding } from './reviews.js';
import { RunStats, type EarlierInvocations, type RunEnd, type RunStart, type UpstreamError } from './run-stats.js';
import type { Claim, ClaimRequest, DepositRecord, DepositStatus, FinalStatus, NewResult, PayeeRecord, PayeeStatus, ResultRecord, RunMode, RunRecord, RunRowRecord, VerifyMode } from './types.js';

const RESULT_COLUMNS = `id, account, ifsc, mode, status, reason, beneficiary_name AS beneficiaryName,
  transaction_remark AS transactionRemark, bank_name AS bankName, bank_branch AS bankBranch,
  bank_city AS bankCity, bank_district AS bankDistrict, bank_state AS bankState, bank_micr AS bankMicr,
  bank_iso3166 AS bankIso3166, bank_swift AS bankSwift, bank_imps AS bankImps, bank_neft AS bankNeft,
  bank_rtgs AS bankRtgs, bank_upi AS bankUpi, request_id AS requestId, verified_at AS verifiedAt,
  changed_since AS changedSince`;

const PAYEE_COLUMNS = `account || '|' || ifsc AS payee, account, ifsc, first_row AS firstRow, status, mode, source, reason,
  result_id AS resultId, request_id AS requestId, due_at AS dueAt, attempts`;

/** payeesFrom's columns: a payee of the run, then its answer's (all NULL when it has none). */
const PAYEE_AND_RESULT_COLUMNS = `p.first_row, p.account, p.ifsc, p.status, p.mode, p.source, p.reason, p.result_id, p.request_id,
  p.due_at, p.attempts, r.id, r.mode, r.status, r.reason, r.beneficiary_name, r.transaction_remark, r.bank_name,
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

/** The per-payee lookups of earlier answers (reuse, the change since the previous one, the newest). */
function answerLookups(db: Db) {
  return {
    reusable: db.prepare(
      `SELECT ${RESULT_COLUMNS} FROM results WHERE ${PAYEE_KEY} AND verified_at >= ?
         AND (mode = ? OR mode = 'pd') ORDER BY verified_at DESC, id DESC LIMIT 1`,
    ),
    previousResult: db.prepare(
      `SELECT status, beneficiary_name AS beneficiaryName, verified_at AS verifiedAt, changed_since AS changedSince FROM results
       WHERE ${PAYEE_KEY} AND status IN ('VERIFIED', 'NOT_VERIFIED')
       ORDER BY verified_at DESC, id DESC LIMIT 1`,
    ),
    newestAnswer: db.prepare(NEWEST_ANSWER_SQL),
    // The newest earlier answer that named a holder: the one a holder is compared with when the
    // newest did not name one (a NOT_VERIFIED between two holders, hybrid's penny-less answer).
    previousHolder: db.prepare(
      `SELECT status, beneficiary_name AS beneficiaryName, verified_at AS verifiedAt, changed_since AS changedSince FROM results
       WHERE ${PAYEE_KEY} AND status IN ('VERIFIED', 'NOT_VERIFIED') AND trim(coalesce(beneficiary_name, '')) <> ''
       ORDER BY verified_at DESC, id DESC LIMIT 1`,
    ),
  };
}

export class BankStore {
  private readonly now: () => number;
  private readonly commits: GroupCommit;
  private readonly lock: RunLock;
  private readonly stats: RunStats;
  private readonly deposits: DepositHistory;
  private readonly rows: RunRows;
  private readonly reviews: Reviews;
  private readonly auditTrail: AuditTrail;
  /** What finished runs left, for a re-emit by copy (finished-runs.ts). */
  readonly finishedRuns: FinishedRuns;
  private readonly stmt;
  private readonly db: Db;
  private readonly fileWatch: StateFileWatch;

  constructor(db: Db, now: () => number) {
    this.db = db;
    this.fileWatch = new StateFileWatch(db.memory ? ':memory:' : db.name);
    this.now = now;
    this.stats = new RunStats(db, now);
    this.commits = new GroupCommit(db, () => this.stats.write());
    this.lock = new RunLock(db, this.commits, now);
    this.deposits = new DepositHistory(db);
    this.rows = new RunRows(db);
    this.reviews = new Reviews(db);
    this.auditTrail = new AuditTrail(db);
    this.finishedRuns = new FinishedRuns(db);
    this.stmt = {
      latestRun: db.prepare(
        `SELECT id, fingerprint, mode, status, total_rows AS totalRows, created_at AS createdAt
         FROM runs WHERE fingerprint = ? AND mode = ? ORDER BY id DESC LIMIT 1`,
      ),
      insertRun: db.prepare(
        `INSERT INTO runs (fingerprint, mode, input_name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`,
      ),
      finishRun: db.prepare(`UPDATE runs SET status = ?, total_rows = ?, updated_at = ? WHERE id = ?`),
      reopenRun: db.prepare(`UPDATE runs SET status = 'open', updated_at = ? WHERE id = ? AND status = 'complete'`),
      getPayee: db.prepare(`SELECT ${PAYEE_COLUMNS} FROM run_payees WHERE run_id = ? AND account = ? AND ifsc = ?`),
      insertPayee: db.prepare(
        `INSERT INTO run_payees (run_id, first_row, account, ifsc, status, updated_at) VALUES (?, ?, ?, ?, 'PENDING', ?)`,
      ),
      // The claim: a new payee's row inserted IN_FLIGHT, or a stored one that is PENDING (or this
      // invocation's own, for hybrid's second call) set IN_FLIGHT. No row changed: not ours to send.
      claimNew: db.prepare(
        `INSERT INTO run_payees (run_id, first_row, account, ifsc, status, mode, claim, attempts, updated_at) VALUES (?, ?, ?, ?, 'IN_FLIGHT', ?, ?, 1, ?)
         ON CONFLICT DO NOTHING`,
      ),
      claimStored: db.prepare(
        `UPDATE run_payees SET status = 'IN_FLIGHT', mode = ?, claim = ?, attempts = attempts + 1, updated_at = ?
         WHERE run_id = ? AND first_row = ? AND (status = 'PENDING' OR (status = 'IN_FLIGHT' AND claim = ?))`,
      ),
      markDone: db.prepare(
        `UPDATE run_payees SET status = 'DONE', source = ?, result_id = ?, request_id = ?, reason = NULL, due_at = NULL, updated_at = ?
         WHERE run_id = ? AND first_row = ?`,
      ),
      markOther: db.prepare(
        `UPDATE run_payees SET status = ?, reason = ?, request_id = ?, due_at = ?, updated_at = ? WHERE run_id = ? AND first_row = ?`,
      ),
      deferAccount: db.prepare(
        `UPDATE run_payees SET status = 'DEFERRED', reason = ?, due_at = ?, updated_at = ?
         WHERE run_id = ? AND account = ? AND status IN ('PENDING', 'FAILED', 'DEFERRED')`,
      ),
      requeueInFlight: db.prepare(
        `UPDATE run_payees SET status = 'PENDING', updated_at = ? WHERE run_id = ? AND status = 'IN_FLIGHT' AND mode = 'pl'`,
      ),
      unconfirmInFlight: db.prepare(
        `UPDATE run_payees SET status = 'UNCONFIRMED',
           reason = 'a penny-drop request was in flight when the run stopped: it may have deposited; check the bank statement or re-run with --retry-unconfirmed',
           updated_at = ?
         WHERE run_id = ? AND status = 'IN_FLIGHT'`,
      ),
      requeueUnconfirmed: db.prepare(
        `UPDATE run_payees SET status = 'PENDING', reason = NULL, updated_at = ? WHERE run_id = ? AND status = 'UNCONFIRMED'`,
      ),
      insertResult: db.prepare(
        `INSERT INTO results (account, ifsc, mode, status, reason, beneficiary_name, transaction_remark, bank_name,
           bank_branch, bank_city, bank_district, bank_state, bank_micr, bank_iso3166, bank_swift, bank_imps, bank_neft,
           bank_rtgs, bank_upi, request_id, verified_at, changed_since)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      getResult: db.prepare(`SELECT ${RESULT_COLUMNS} FROM results WHERE id = ?`),
      payeesFrom: db
        .prepare(
          `SELECT ${PAYEE_AND_RESULT_COLUMNS} FROM run_payees p LEFT JOIN results r ON r.id = p.result_id
           WHERE p.run_id = ? AND p.first_row >= ? ORDER BY p.first_row LIMIT ?`,
        )
        .raw(true),
      ...answerLookups(db),
    };
  }

  // ---- runs ----

  latestRun(fingerprint: string, mode: RunMode): RunRecord | undefined {
    return this.stmt.latestRun.get(fingerprint, mode) as RunRecord | undefined;
  }

  createRun(fingerprint: string, mode: RunMode, inputName: string): RunRecord {
    this.commits.begin();
    const now = this.now();
    const info = this.stmt.insertRun.run(fingerprint, mode, inputName, now, now);
    return { id: Number(info.lastInsertRowid), fingerprint, mode, status: 'open', totalRows: null, createdAt: now };
  }

  /** A finished run with payees asked again: open until they are answered (finishRun closes it). */
  reopenRun(runId: number): void {
    this.commits.begin();
    this.stmt.reopenRun.run(this.now(), runId);
  }

  finishRun(runId: number, complete: boolean, totalRows: number): void {
    this.commits.begin();
    this.stmt.finishRun.run(complete ? 'complete' : 'open', totalRows, this.now(), runId);
  }

  /**
   * A run found with keys IN_FLIGHT was killed. A penny-less call is simply sent again; a
   * penny-drop call may have moved a rupee, so it becomes UNCONFIRMED (docs/ARCHITECTURE.md, "State file").
   */
  recoverInFlight(runId: number, retryUnconfirmed: boolean): { requeued: number; unconfirmed: number } {
    this.commits.begin();
    const now = this.now();
    const requeued = this.stmt.requeueInFlight.run(now, runId).changes;
    const unconfirmed = this.stmt.unconfirmInFlight.run(now, runId).changes;
    if (retryUnconfirmed) this.stmt.requeueUnconfirmed.run(now, runId);
    return { requeued, unconfirmed };
  }

  // ---- payees of a run ----

  getPayee(runId: number, account: string, ifsc: string): PayeeRecord | undefined {
    return this.stmt.getPayee.get(runId, account, ifsc) as PayeeRecord | undefined;
  }

  /** A payee met for the first time in this run, at data row `firstRow`; later calls name it by that row. */
  insertPayee(runId: number, account: string, ifsc: string, firstRow: number): void {
    this.commits.begin();
    this.stmt.insertPayee.run(runId, firstRow, account, ifsc, this.now());
  }

  /**
   * Claims a payee for a request of `mode` about to leave: in the group's transaction, which
   * no other process can write under, this invocation must still hold the run lock, and the
   * payee's row must be new or PENDING (or this invocation's own IN_FLIGHT, for hybrid's second
   * call). A penny-drop also asks the deposit history first and records its deposit. Nothing is
   * sent unless the answer is `claimed`.
   */
  claim(request: ClaimRequest): Claim {
    this.commits.begin();
    if (!this.lock.holds()) return { kind: 'lock-lost', holder: this.lock.read() };
    const { runId, firstRow, account, ifsc, mode, stored } = request;
    const token = this.lock.token;
    const now = this.now();
    if (mode === 'pd' && request.depositSince !== undefined) {
      const known = this.lastDeposit(account, ifsc, request.depositSince);
      if (known && !(known.status !== 'ANSWERED' && request.retryUnconfirmed)) return { kind: 'deposited', deposit: known };
    }
    const changes = stored
      ? this.stmt.claimStored.run(mode, token, now, runId, firstRow, token).changes
      : this.stmt.claimNew.run(runId, firstRow, account, ifsc, mode, token, now).changes;
    if (changes !== 1) return { kind: 'taken' };
    const depositId = mode === 'pd' ? this.deposits.insert({ account, ifsc, runId, firstRow, claim: token, at: now }) : null;
    return { kind: 'claimed', depositId };
  }

  /** The newest penny-drop to this payee since `since` that was answered, is in flight or went unconfirmed, with its answer. */
  lastDeposit(account: string, ifsc: string, since: number): DepositRecord | undefined {
    const row = this.deposits.last(account, ifsc, since);
    if (!row) return undefined;
    const result = row.resultId === null ? undefined : this.getResult(row.resultId);
    // An answered deposit whose answer is gone is no answer to reuse: still never sent blind.
    return { ...row, status: row.status === 'ANSWERED' && !result ? 'UNCONFIRMED' : row.status, result };
  }

  /**
   * What became of a deposit: answered (with its result), unconfirmed, failed (no rupee moved) or
   * not sent. `shiftMs`: how far this machine's clock is behind the API's (0 when it is not): the
   * deposit is dated that much later, so it is never forgotten early (pipeline/bank-run/api-clock.ts).
   */
  settleDeposit(depositId: number, status: Exclude<DepositStatus, 'IN_FLIGHT'>, resultId: number | null, requestId: string | null, shiftMs = 0): void {
    this.commits.begin();
    this.deposits.settle(depositId, status, resultId, requestId, this.now(), shiftMs);
  }

  markDone(runId: number, firstRow: number, source: 'api' | 'reuse', resultId: number, requestId: string | null): void {
    this.commits.begin();
    this.stmt.markDone.run(source, resultId, requestId, this.now(), runId, firstRow);
  }

  markStatus(runId: number, firstRow: number, status: 'PENDING' | 'FAILED' | 'UNCONFIRMED' | 'DEFERRED', reason: string | null, requestId: string | null, dueAt: number | null = null): void {
    this.commits.begin();
    this.stmt.markOther.run(status, reason, requestId, dueAt, this.now(), runId, firstRow);
  }

  /** Defers every payee of this account in the run that has not been answered. */
  deferAccount(runId: number, account: string, reason: string, dueAt: number): number {
    this.commits.begin();
    return this.stmt.deferAccount.run(reason, dueAt, this.now(), runId, account).changes;
  }

  /**
   * Up to `limit` payees of the run from data row `fromRow` on, in file order, each with its answer:
   * one range scan instead of a payee lookup and an answer lookup per row.
   */
  payeesFrom(runId: number, fromRow: number, limit: number): PayeeRecord[] {
    const rows = this.stmt.payeesFrom.all(runId, fromRow, limit) as unknown[][];
    return rows.map((c) => {
      const account = c[1] as string;
      const ifsc = c[2] as string;
      const result: ResultRecord | undefined = c[11] === null ? undefined : {
        id: c[11] as number, account, ifsc, mode: c[12] as VerifyMode, status: c[13] as FinalStatus, reason: c[14] as string | null,
        beneficiaryName: c[15] as string | null, transactionRemark: c[16] as string | null, bankName: c[17] as string | null,
        bankBranch: c[18] as string | null, bankCity: c[19] as string | null, bankDistrict: c[20] as string | null,
        bankState: c[21] as string | null, bankMicr: c[22] as string | null, bankIso3166: c[23] as string | null,
        bankSwift: c[24] as string | null, bankImps: toBool(c[25] as number | null), bankNeft: toBool(c[26] as number | null),
        bankRtgs: toBool(c[27] as number | null), bankUpi: toBool(c[28] as number | null), requestId: c[29] as string | null,
        verifiedAt: c[30] as number, changedSince: c[31] as string | null,
      };
      return {
        payee: `${account}|${ifsc}`, account, ifsc, firstRow: c[0] as number, status: c[3] as PayeeStatus, mode: c[4] as VerifyMode | null,
        source: c[5] as 'api' | 'reuse' | null, reason: c[6] as string | null, resultId: c[7] as number | null,
        requestId: c[8] as string | null, dueAt: c[9] as number | null, attempts: c[10] as number, result,
      };
    });
  }

  // ---- decisions (run-rows.ts, reviews.ts) ----

  /**
   * A payee row's decision as the run writes it; returns the decision it had before (undefined
   * for a row never decided). `fresh`: the run is new, no row of it was decided before (no lookup).
   */
  saveRow(row: RunRowRecord, fresh = false): { decision: string; reason: string } | undefined {
    this.commits.begin();
    const before = fresh ? undefined : this.rows.decisionOf(row.runId, row.row);
    this.rows.save(row);
    return before;
  }

  /** Appends to the audit trail in the group's transaction (src/state/audit.ts). */
  audit(runId: number | null, kind: AuditKind, entry: Record<string, unknown>): void {
    this.commits.begin();
    this.auditTrail.append(this.now(), runId, kind, entry);
  }

  /** Undefined while the state file is still where the run opened it; else what happened (a deleted one is written back: state-file-watch.ts). */
  stateFileProblem(): string | undefined {
    return this.fileWatch.problem();
  }

  /** Writes a state file deleted under the run back from this connection; what to tell the user, or undefined. */
  restoreStateFile(): string | undefined {
    return this.fileWatch.restore(this.db, () => this.commits.flushSync());
  }

  /** Refuses a state whose reviews disagree with their audit entries (audit-consistency.ts). */
  refuseUnbackedReviews(statePath: string): void {
    refuseUnbackedReviews(this.db, statePath);
  }

  /** Every payee anyone has reviewed (`account|ifsc`). */
  reviewedPayees(): Set<string> {
    return this.reviews.reviewedPayees();
  }

  /** What reviewers said of a payee, for the holder it has now and the payee name of the row being decided. */
  reviewStanding(account: string, ifsc: string, holder: string | null, name: string | null): PayeeStanding | undefined {
    return this.reviews.standing(account, ifsc, holder, name);
  }

  // ---- results ----

  /** Stores an answer; `result` becomes the returned record (it is not copied). */
  insertResult(result: NewResult): ResultRecord {
    this.commits.begin();
    const previous = this.stmt.previousResult.get(result.account, result.ifsc) as PreviousResult | undefined;
    // Looked up only when the newest earlier answer named no holder (most answers name one).
    const named = previous === undefined || hasHolder(previous) ? previous : (this.stmt.previousHolder.get(result.account, result.ifsc) as PreviousResult | undefined);
    const changedSince = describeChange({ newest: previous, named }, result);
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

  /**
   * `result` as a row may be decided on it: when a newer answer in the state (another run, another
   * file, another mode) contradicts it, a copy whose `changed_since` says so (changes.ts
   * contradiction), which holds the row (HOLDER_CHANGED). For an answer taken without a call.
   */
  checkedAgainstNewer(result: ResultRecord): ResultRecord {
    const change = contradiction(result, this.stmt.newestAnswer.get(result.account, result.ifsc) as NewestAnswer | undefined);
    return change === null ? result : { ...result, changedSince: `${change} ${NEWER_ANSWER} this one)` };
  }

  getResult(id: number): ResultRecord | undefined {
    return toResult(this.stmt.getResult.get(id) as RawResult | undefined);
  }

  /** The newest result for this account+IFSC at least as strong as `mode` and not older than `since`. */
  findReusable(account: string, ifsc: string, mode: VerifyMode, since: number): ResultRecord | undefined {
    return toResult(this.stmt.reusable.get(account, ifsc, since, mode) as RawResult | undefined);
  }

  // ---- what the run did, for its report (run-stats.ts) ----

  /** Starts keeping a run's counters (calls, retries, upstream errors over time); they are written with each group commit. */
  startRunStats(start: RunStart): EarlierInvocations {
    this.commits.begin();
    return this.stats.begin(start);
  }

  /** How the run reads its input, kept for `vas-verify release` (run_stats.input); after startRunStats. */
  recordRunInput(runId: number, input: RunInputRecord): void {
    this.commits.begin();
    this.stats.recordInput(runId, input);
  }

  /** How the run read its input when it last recorded it (recordRunInput). */
  recordedRunInput(runId: number): RunInputRecord | undefined {
    return this.stats.recordedInput(runId);
  }

  /** A request the client will send again, and why. */
  noteRetry(error: UpstreamError): void {
    this.stats.noteRetry(error);
  }

  /** A call that failed for good. */
  noteFailure(error: UpstreamError): void {
    this.stats.noteFailure(error);
  }

  /** How this invocation of the run ended. */
  endRunStats(end: RunEnd): void {
    if (!this.stats.active) return;
    this.commits.begin();
    this.stats.end(end);
  }

  // ---- lock (run-lock.ts) ----

  /**
   * Takes the run lock, names its live holder, or returns another host's row to watch
   * (`takeOver`: the row found still after the lease). Once taken, deposits left IN_FLIGHT by
   * any earlier holder are UNCONFIRMED: that process is gone, and its rupee may have moved.
   */
  acquireLock(me: LockIdentity, probe: ProcessProbe, takeOver?: HeldLock): LockAttempt {
    const attempt = this.lock.acquire(me, probe, takeOver);
    if (attempt.ok) {
      this.commits.begin();
      this.deposits.unconfirmOthers(me.token, this.now());
      this.commits.flushSync();
    }
    return attempt;
  }

  /** The lock's row as it is now (who holds it). */
  readLock(): HeldLock | undefined {
    return this.lock.read();
  }

  /** Moves the heartbeat; false when another run has taken the lock. */
  heartbeat(): boolean {
    return this.lock.heartbeat();
  }

  releaseLock(): void {
    this.lock.release();
  }

  // ---- group commit (group-commit.ts) ----

  /** Resolves once every write made so far is committed. */
  flush(): Promise<void> {
    return this.commits.flush();
  }

  flushSync(): void {
    this.commits.flushSync();
  }

  close(): void {
    this.commits.close();
  }
}
