/**
 * The deposit history (docs/ARCHITECTURE.md, "Never paying twice"): one row per penny-drop
 * request, per payee (account + IFSC), whatever the run or the input file that sent it. Its
 * writes join the store's group commit (bank-store.ts calls begin() first).
 */
import type { DepositRecord, DepositStatus } from './types.js';
import type { Db } from './types.js';
import { PAYEE_KEY } from './payee-key.js';

export class DepositHistory {
  private readonly stmt;

  constructor(db: Db) {
    this.stmt = {
      last: db.prepare(
        `SELECT id, status, result_id AS resultId, run_id AS runId, sent_at AS sentAt FROM deposits
         WHERE ${PAYEE_KEY} AND sent_at >= ? AND status IN ('IN_FLIGHT', 'UNCONFIRMED', 'ANSWERED')
         ORDER BY sent_at DESC, id DESC LIMIT 1`,
      ),
      insert: db.prepare(
        `INSERT INTO deposits (account, ifsc, run_id, first_row, claim, status, sent_at, updated_at) VALUES (?, ?, ?, ?, ?, 'IN_FLIGHT', ?, ?)`,
      ),
      settle: db.prepare(`UPDATE deposits SET status = ?, result_id = ?, request_id = ?, updated_at = ?, sent_at = sent_at + ? WHERE id = ?`),
      unconfirmOthers: db.prepare(
        `UPDATE deposits SET status = 'UNCONFIRMED', updated_at = ? WHERE status = 'IN_FLIGHT' AND (claim IS NULL OR claim <> ?)`,
      ),
    };
  }

  /** The newest deposit to this payee since `since` that was answered, is in flight or went unconfirmed (without its answer). */
  last(account: string, ifsc: string, since: number): Omit<DepositRecord, 'result'> | undefined {
    return this.stmt.last.get(account, ifsc, since) as Omit<DepositRecord, 'result'> | undefined;
  }

  /** A penny-drop about to leave; returns its id. */
  insert(deposit: { account: string; ifsc: string; runId: number; firstRow: number; claim: string | null; at: number }): number {
    const d = deposit;
    return Number(this.stmt.insert.run(d.account, d.ifsc, d.runId, d.firstRow, d.claim, d.at, d.at).lastInsertRowid);
  }

  /** What became of a deposit; `shiftMs` (>= 0) dates it later, when the clock that dated it was behind. */
  settle(id: number, status: Exclude<DepositStatus, 'IN_FLIGHT'>, resultId: number | null, requestId: string | null, at: number, shiftMs = 0): void {
    this.stmt.settle.run(status, resultId, requestId, at, shiftMs, id);
  }

  /** Every deposit left in flight by another invocation: that process is gone, its rupee may have moved. */
  unconfirmOthers(claim: string, at: number): void {
    this.stmt.unconfirmOthers.run(at, claim);
  }
}
