/**
 * What a finished run left, for re-emitting it by a copy of its output (src/pipeline/bank-run/
 * reemit.ts): its record, the oldest answer it carries, when anyone last reviewed a payee, and its
 * output's decision counts (run_stats.decisions) for the summary.
 */
import type { Db } from './types.js';

/** The run's record of its last invocation, as a re-emit reads it. */
export interface FinishedRecord {
  status: string;
  finishedAt: number | null;
  exitCode: number | null;
  stopped: string | null;
  outputPath: string | null;
  /** JSON of the output's identity (src/input/unchanged.ts FileIdentity), mtimeNs as a string. */
  outputFile: string | null;
  emitKey: string | null;
  /** JSON: the output's rows by decision and reason, and amounts (null for a run of an older version). */
  decisions: string | null;
  rows: number;
  statuses: string | null;
  nameMatch: string | null;
  sources: string | null;
  avoided: string | null;
}

export class FinishedRuns {
  private readonly stmt;

  constructor(db: Db) {
    this.stmt = {
      record: db.prepare(
        `SELECT r.status, s.finished_at AS finishedAt, s.exit_code AS exitCode, s.stopped, s.output_path AS outputPath,
           s.output_file AS outputFile, s.emit_key AS emitKey, s.decisions, s.rows_out AS rows, s.statuses, s.name_match AS nameMatch,
           s.sources, s.avoided
         FROM runs r JOIN run_stats s ON s.run_id = r.id WHERE r.id = ?`,
      ),
      oldest: db.prepare(
        `SELECT min(res.verified_at) AS oldest, count(*) AS answered FROM run_payees p JOIN results res ON res.id = p.result_id
         WHERE p.run_id = ? AND p.status = 'DONE'`,
      ),
      lastReview: db.prepare(`SELECT max(at) FROM reviews`).pluck(),
    };
  }

  record(runId: number): FinishedRecord | undefined {
    return this.stmt.record.get(runId) as FinishedRecord | undefined;
  }

  /** The oldest answer the run's payees carry, and how many payees have one. */
  answers(runId: number): { oldest: number | null; answered: number } {
    return this.stmt.oldest.get(runId) as { oldest: number | null; answered: number };
  }

  /** When anyone last reviewed any payee (an acceptance or a rejection), or null. */
  lastReviewAt(): number | null {
    return (this.stmt.lastReview.get() as number | null) ?? null;
  }
}
