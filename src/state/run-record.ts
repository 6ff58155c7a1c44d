/**
 * What the release, the review import and the audit read of a run (docs/ARCHITECTURE.md,
 * "Decisions"): the run's row, the policy and the input it recorded (run_stats, schema 8), its
 * rows that are not final, and each payee's holder as the run got it (run_payees → results).
 */
import type { Db, RunRecord } from './types.js';
import { PAYEE_KEY } from './payee-key.js';
import type { NewestAnswer } from './changes.js';

/** How a run read its input (run_stats.input, written by RunStats.recordInput): the release opens it alike. */
export interface RunInputRecord {
  /** The input, resolved. */
  path: string;
  /** The sheet read (an .xlsx input). */
  sheet?: string | undefined;
  /** The header's line (1-based; for .xlsx its row). */
  headerRow?: number | undefined;
  delimiter?: string | undefined;
  /** The column flags given (--account-col, --ifsc-col, --name-col, --confirm-account-col, --confirm-ifsc-col). */
  columns?: { account?: string | undefined; ifsc?: string | undefined; name?: string | undefined; confirm?: string | undefined; confirmIfsc?: string | undefined } | undefined;
  /**
   * The columns (0-based) each payee's account and IFSC were read from: a resume that would read
   * them from others is refused (its payees would not be the ones the run stored). Absent in runs
   * of older versions.
   */
  payeeColumns?: { account: number; ifsc: number; header: readonly string[] } | undefined;
}

export interface RecordedRunInputs extends RunRecord {
  inputName: string;
  /** The policy the run recorded (JSON text); null: none recorded. */
  policy: string | null;
  /** How the run read its input; null: none recorded (a run of an older version). */
  input: RunInputRecord | null;
}

/** A payee's answer as the run got it: the holder the reviewer sees, and whether it changed. */
export interface PayeeHolder {
  holder: string | null;
  changedSince: string | null;
  requestId: string | null;
  /** The request id the run kept for the payee (its output's verify_request_id). */
  payeeRequestId: string | null;
  /** The answer's own id, status and time (to tell a newer answer from it). */
  resultId: number;
  mode: string;
  status: string;
  verifiedAt: number;
}

export type { NewestAnswer };

/** The newest answer the state holds for a payee from any run (changes.ts contradiction): the release's and the run's lookup. */
export const NEWEST_ANSWER_SQL = `SELECT id, mode, status, beneficiary_name AS beneficiaryName, verified_at AS verifiedAt FROM results
  WHERE ${PAYEE_KEY} AND status IN ('VERIFIED', 'NOT_VERIFIED', 'INVALID') ORDER BY verified_at DESC, id DESC LIMIT 1`;

/** Whether `table` has `column` (a state of an older schema is read as it is, read-only). */
export function hasColumn(db: Db, table: string, column: string): boolean {
  return (db.prepare(`SELECT 1 FROM pragma_table_info(?) WHERE name = ?`).get(table, column) ?? undefined) !== undefined;
}

export class RunRecords {
  private readonly stmt;

  constructor(db: Db) {
    // A state of an older schema read as it is (the audit and the import may read one read-only).
    const policy = hasColumn(db, 'run_stats', 'policy') ? 's.policy' : 'NULL AS policy';
    const recorded = `${policy}, ${hasColumn(db, 'run_stats', 'input') ? 's.input' : 'NULL AS input'}`;
    this.stmt = {
      run: db.prepare(
        `SELECT r.id, r.fingerprint, r.mode, r.status, r.total_rows AS totalRows, r.created_at AS createdAt, r.input_name AS inputName, ${recorded}
         FROM runs r LEFT JOIN run_stats s ON s.run_id = r.id WHERE r.id = ?`,
      ),
      latest: db.prepare(`SELECT max(id) FROM runs`).pluck(),
      ids: db.prepare(`SELECT id FROM runs ORDER BY id DESC LIMIT 20`).pluck(),
      notFinal: db.prepare(
        `SELECT status, count(*) AS n FROM run_rows WHERE run_id = ? AND status IN ('DEFERRED', 'FAILED', 'UNCONFIRMED', 'IN_FLIGHT', 'PENDING') GROUP BY status`,
      ),
      rowCount: db.prepare(`SELECT count(*) FROM run_rows WHERE run_id = ?`).pluck(),
      deferredUntil: db.prepare(`SELECT max(due_at) FROM run_payees WHERE run_id = ? AND status = 'DEFERRED'`).pluck(),
      holder: db.prepare(
        `SELECT r.beneficiary_name AS holder, r.changed_since AS changedSince, r.request_id AS requestId, p.request_id AS payeeRequestId,
           r.id AS resultId, r.mode, r.status, r.verified_at AS verifiedAt
         FROM run_payees p JOIN results r ON r.id = p.result_id WHERE p.run_id = ? AND p.account = ? AND p.ifsc = ?`,
      ),
      laterAnswers: db.prepare(
        `SELECT EXISTS (SELECT 1 FROM run_payees p JOIN results r ON r.account = p.account AND r.ifsc = p.ifsc AND r.id > p.result_id
           WHERE p.run_id = ?)`,
      ).pluck(),
      newest: db.prepare(NEWEST_ANSWER_SQL),
    };
  }

  /** The run, with what it recorded for release; undefined when the state has no such run. */
  run(runId: number): RecordedRunInputs | undefined {
    const row = this.stmt.run.get(runId) as (Omit<RecordedRunInputs, 'input'> & { input: string | null }) | undefined;
    if (!row) return undefined;
    return { ...row, input: row.input === null ? null : (JSON.parse(row.input) as RunInputRecord) };
  }

  /** The newest run of the state, or undefined when it has none. */
  latestRunId(): number | undefined {
    return (this.stmt.latest.get() as number | null) ?? undefined;
  }

  /** The newest runs' ids (for the message naming them). */
  runIds(): number[] {
    return this.stmt.ids.all() as number[];
  }

  /** The run's rows that have no final answer yet, by status. */
  notFinal(runId: number): Record<string, number> {
    const rows = this.stmt.notFinal.all(runId) as { status: string; n: number }[];
    return Object.fromEntries(rows.map((r) => [r.status, r.n]));
  }

  /** When the last of the run's payees deferred by the daily limit is due again (ms), or null. */
  deferredUntil(runId: number): number | null {
    return (this.stmt.deferredUntil.get(runId) as number | null) ?? null;
  }

  /** How many payee rows the run recorded decisions for. */
  rowCount(runId: number): number {
    return this.stmt.rowCount.get(runId) as number;
  }

  /** The payee's answer in this run (its holder), or undefined when it has none. */
  holder(runId: number, account: string, ifsc: string): PayeeHolder | undefined {
    return this.stmt.holder.get(runId, account, ifsc) as PayeeHolder | undefined;
  }

  /**
   * Whether the state holds, for any payee of the run, an answer stored after the one the run kept
   * (results' ids only grow): a later run of another file, or one that ran while this run was
   * stopped and before it was resumed.
   */
  hasLaterAnswers(runId: number): boolean {
    return this.stmt.laterAnswers.get(runId) === 1;
  }

  /** The newest VERIFIED, NOT_VERIFIED or INVALID (the bank's "Invalid Account Number") answer for the payee in the whole state (any run, any file). */
  newestAnswer(account: string, ifsc: string): NewestAnswer | undefined {
    return this.stmt.newest.get(account, ifsc) as NewestAnswer | undefined;
  }
}
