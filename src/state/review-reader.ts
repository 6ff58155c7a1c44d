/**
 * The review page's reads (docs/ARCHITECTURE.md, "Decisions"): the rows a run left at REVIEW or
 * HOLD (run_rows, by row through its decision index, a page at a time), the evidence of each
 * payee (its result in this run: the bank's holder, changed_since, request id, bank details) and
 * its history (the earlier results of the same account + IFSC), and the policy the run used when
 * the state keeps it (run_stats.policy, migration 8). Values are as the state holds them: the
 * page masks account numbers.
 */
import type { Db, RunRowRecord } from './types.js';
import { PAYEE_KEY } from './payee-key.js';

/** The decisions a person settles on the review page. */
export const REVIEWED_DECISIONS = ['REVIEW', 'HOLD'] as const;
export type ReviewedDecision = (typeof REVIEWED_DECISIONS)[number];

const ROW_COLUMNS = `run_id AS runId, row, line, account, ifsc, name, amount, status,
  reason_code AS reasonCode, name_match AS nameMatch, name_score AS nameScore, decision, decision_reason AS decisionReason`;

/** A payee's answer in this run, as the review page shows it. */
export interface PayeeEvidence {
  /** The payee's first row in the run: its name in the state (and on the page). */
  firstRow: number;
  resultId: number | null;
  resultStatus: string | null;
  beneficiaryName: string | null;
  changedSince: string | null;
  requestId: string | null;
  bankName: string | null;
  bankBranch: string | null;
  bankCity: string | null;
  verifiedAt: number | null;
}

/** An earlier check of the same account + IFSC. */
export interface EarlierResult {
  verifiedAt: number;
  status: string;
  beneficiaryName: string | null;
}

/** Which rows a page lists: `decision` one of REVIEW/HOLD (both when absent), `reason` one decision reason. */
export interface ReviewFilter {
  decision?: ReviewedDecision | undefined;
  reason?: string | undefined;
}

export class ReviewReader {
  private readonly stmt;
  private readonly hasPolicy: boolean;

  constructor(private readonly db: Db) {
    const where = `run_id = ? AND decision = ? AND (? IS NULL OR decision_reason = ?)`;
    this.stmt = {
      // INDEXED BY: without statistics SQLite would walk the primary key and test each row's
      // decision, a scan of the whole run when few rows are left to review.
      after: db.prepare(`SELECT ${ROW_COLUMNS} FROM run_rows INDEXED BY run_rows_by_decision WHERE ${where} AND row > ? ORDER BY row LIMIT ?`),
      before: db.prepare(`SELECT ${ROW_COLUMNS} FROM run_rows INDEXED BY run_rows_by_decision WHERE ${where} AND row < ? ORDER BY row DESC LIMIT ?`),
      row: db.prepare(`SELECT ${ROW_COLUMNS} FROM run_rows WHERE run_id = ? AND row = ?`),
      counts: db.prepare(
        `SELECT decision, decision_reason AS reason, count(*) AS n FROM run_rows WHERE run_id = ? AND decision IN ('REVIEW', 'HOLD') GROUP BY decision, decision_reason ORDER BY decision, decision_reason`,
      ),
      evidence: db.prepare(
        `SELECT p.first_row AS firstRow, r.id AS resultId, r.status AS resultStatus, r.beneficiary_name AS beneficiaryName,
           r.changed_since AS changedSince, coalesce(r.request_id, p.request_id) AS requestId, r.bank_name AS bankName,
           r.bank_branch AS bankBranch, r.bank_city AS bankCity, r.verified_at AS verifiedAt
         FROM run_payees p LEFT JOIN results r ON r.id = p.result_id WHERE p.run_id = ? AND p.account = ? AND p.ifsc = ?`,
      ),
      earlier: db.prepare(
        `SELECT verified_at AS verifiedAt, status, beneficiary_name AS beneficiaryName FROM results
         WHERE ${PAYEE_KEY} AND id < ? ORDER BY verified_at DESC, id DESC LIMIT ?`,
      ),
      run: db.prepare(`SELECT id, input_name AS inputName, status FROM runs WHERE id = ?`),
      latest: db.prepare(`SELECT max(id) FROM runs`).pluck(),
    };
    const statsColumns = db.prepare(`SELECT name FROM pragma_table_info('run_stats')`).pluck().all() as string[];
    this.hasPolicy = statsColumns.includes('policy');
  }

  /** The run, or undefined. */
  run(runId: number): { id: number; inputName: string; status: string } | undefined {
    return this.stmt.run.get(runId) as { id: number; inputName: string; status: string } | undefined;
  }

  /** The newest run of the state, or undefined when it has none. */
  latestRun(): number | undefined {
    return (this.stmt.latest.get() as number | null) ?? undefined;
  }

  /** The policy the run used (JSON), when the state keeps it; null otherwise. */
  policyJson(runId: number): string | null {
    if (!this.hasPolicy) return null;
    return (this.db.prepare(`SELECT policy FROM run_stats WHERE run_id = ?`).pluck().get(runId) as string | null | undefined) ?? null;
  }

  /** Rows left at REVIEW or HOLD, by decision and reason. */
  counts(runId: number): { decision: ReviewedDecision; reason: string; n: number }[] {
    return this.stmt.counts.all(runId) as { decision: ReviewedDecision; reason: string; n: number }[];
  }

  /**
   * Up to `limit` REVIEW/HOLD rows after data row `after` (or, with `before`, the last `limit`
   * rows before it), in file order. Each decision is read through the run_rows_by_decision index
   * and the two merged, so a page costs two short index scans whatever the size of the run.
   */
  page(runId: number, filter: ReviewFilter, limit: number, at: { after: number } | { before: number }): RunRowRecord[] {
    const decisions = filter.decision ? [filter.decision] : REVIEWED_DECISIONS;
    const reason = filter.reason ?? null;
    const forward = 'after' in at;
    const rows = decisions.flatMap((decision) =>
      (forward ? this.stmt.after : this.stmt.before).all(runId, decision, reason, reason, forward ? at.after : at.before, limit) as RunRowRecord[],
    );
    rows.sort((a, b) => a.row - b.row);
    return forward ? rows.slice(0, limit) : rows.slice(-limit);
  }

  /** One row of the run, whatever its decision. */
  row(runId: number, row: number): RunRowRecord | undefined {
    return this.stmt.row.get(runId, row) as RunRowRecord | undefined;
  }

  /** The payee's answer in this run; undefined when the run has no such payee. */
  evidence(runId: number, account: string, ifsc: string): PayeeEvidence | undefined {
    return this.stmt.evidence.get(runId, account, ifsc) as PayeeEvidence | undefined;
  }

  /** The checks of the account + IFSC before result `resultId`, newest first (at most `limit`). */
  earlier(account: string, ifsc: string, resultId: number, limit = 5): EarlierResult[] {
    return this.stmt.earlier.all(account, ifsc, resultId, limit) as EarlierResult[];
  }
}
