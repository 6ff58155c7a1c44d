/**
 * Each payee row's decision as the run wrote it (table run_rows; docs/ARCHITECTURE.md,
 * "Decisions"): what the review page lists and the release copies. Writes join the bank store's
 * group commit (bank-store.ts calls begin() first); reads are for review, release and report.
 */
import type { Db, RunRowRecord } from './types.js';

const COLUMNS = `run_id AS runId, row, line, account, ifsc, name, amount, status,
  reason_code AS reasonCode, name_match AS nameMatch, name_score AS nameScore, decision, decision_reason AS decisionReason`;

export class RunRows {
  private readonly stmt;

  constructor(db: Db) {
    this.stmt = {
      save: db.prepare(
        `INSERT OR REPLACE INTO run_rows (run_id, row, line, account, ifsc, name, amount, status, reason_code, name_match, name_score, decision, decision_reason)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      from: db.prepare(`SELECT ${COLUMNS} FROM run_rows WHERE run_id = ? AND row >= ? ORDER BY row LIMIT ?`),
      byDecision: db.prepare(`SELECT ${COLUMNS} FROM run_rows WHERE run_id = ? AND decision = ? AND row >= ? ORDER BY row LIMIT ?`),
      get: db.prepare(`SELECT ${COLUMNS} FROM run_rows WHERE run_id = ? AND row = ?`),
      decisionOf: db.prepare(`SELECT decision, decision_reason AS reason FROM run_rows WHERE run_id = ? AND row = ?`),
      counts: db.prepare(`SELECT decision, decision_reason AS reason, count(*) AS n FROM run_rows WHERE run_id = ? GROUP BY decision, decision_reason`),
    };
  }

  save(r: RunRowRecord): void {
    this.stmt.save.run(r.runId, r.row, r.line, r.account, r.ifsc, r.name, r.amount, r.status, r.reasonCode, r.nameMatch, r.nameScore, r.decision, r.decisionReason);
  }

  /** Up to `limit` rows of the run from data row `fromRow` on, in file order; only those with `decision` when given. */
  page(runId: number, fromRow: number, limit: number, decision?: string): RunRowRecord[] {
    const rows = decision === undefined ? this.stmt.from.all(runId, fromRow, limit) : this.stmt.byDecision.all(runId, decision, fromRow, limit);
    return rows as RunRowRecord[];
  }

  /** The row's decision as last written, if it was. */
  decisionOf(runId: number, row: number): { decision: string; reason: string } | undefined {
    return this.stmt.decisionOf.get(runId, row) as { decision: string; reason: string } | undefined;
  }

  get(runId: number, row: number): RunRowRecord | undefined {
    return this.stmt.get.get(runId, row) as RunRowRecord | undefined;
  }

  /** Rows of the run by decision and reason. */
  counts(runId: number): { decision: string; reason: string; n: number }[] {
    return this.stmt.counts.all(runId) as { decision: string; reason: string; n: number }[];
  }
}
