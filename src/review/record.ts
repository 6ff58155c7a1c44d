/**
 * A person's decision on a payee (docs/ARCHITECTURE.md, "Decisions"): kept in the reviews table
 * and the audit trail in one transaction, whether it came from the review page or from an
 * edited spreadsheet (`review --import`). The one writer of reviews.
 */
import { AuditTrail } from '../state/audit.js';
import { Reviews } from '../state/reviews.js';
import type { Db, ReviewRecord } from '../state/types.js';

/** A person's decision: a review (src/state/types.ts) and where it was made, with the evidence the reviewer saw. */
export interface PersonDecision extends Omit<ReviewRecord, 'id' | 'at'> {
  /** Where it was made: `page` or `import`. */
  via: 'page' | 'import';
  /** The evidence the reviewer saw (name verdict, decision reason, request id, matcher version, …), kept in the audit entry. */
  evidence?: Record<string, unknown> | undefined;
}

/** Records one decision of a person; returns the review's id. */
export function recordPersonDecision(db: Db, decision: PersonDecision, at: number): number {
  const reviews = new Reviews(db);
  const audit = new AuditTrail(db);
  const { via, evidence, ...review } = decision;
  const record: Omit<ReviewRecord, 'id'> = { ...review, at };
  return db.transaction(() => {
    const id = reviews.add(record);
    audit.append(at, decision.runId, 'review', {
      review: id, account: decision.account, ifsc: decision.ifsc, holder: decision.holder, verdict: decision.verdict,
      reviewer: decision.reviewer, note: decision.note, row: decision.row, via, evidence: evidence ?? {},
    });
    return id;
  }).immediate();
}
