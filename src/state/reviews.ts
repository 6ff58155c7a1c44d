/**
 * What people said of payees (table reviews; docs/ARCHITECTURE.md, "Decisions"): an acceptance
 * is for one account + IFSC and one exact holder name; a rejection holds the payee, whatever its
 * holder, until someone accepts it. The newest word counts: a payee's standing is read from its
 * reviews since its last rejection.
 */
import type { Db, ReviewRecord } from './types.js';
import { PAYEE_KEY } from './payee-key.js';

const COLUMNS = `id, account, ifsc, holder, verdict, reviewer, note, run_id AS runId, row, at`;

/** Where a payee stands for the holder it has now (decide()'s ReviewStanding, with who and when). */
export interface PayeeStanding {
  verdict: 'ACCEPTED' | 'REJECTED';
  /** The distinct reviewers of the standing verdict, oldest first. */
  reviewers: string[];
  /** The reviews behind it, oldest first. */
  reviews: ReviewRecord[];
}

export class Reviews {
  private readonly stmt;

  constructor(db: Db) {
    this.stmt = {
      add: db.prepare(`INSERT INTO reviews (account, ifsc, holder, verdict, reviewer, note, run_id, row, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`),
      ofPayee: db.prepare(`SELECT ${COLUMNS} FROM reviews WHERE ${PAYEE_KEY} ORDER BY id`),
      payees: db.prepare(`SELECT DISTINCT account || '|' || ifsc AS payee FROM reviews`).pluck(),
    };
  }

  add(review: Omit<ReviewRecord, 'id'>): number {
    const r = review;
    return Number(this.stmt.add.run(r.account, r.ifsc, r.holder, r.verdict, r.reviewer, r.note, r.runId, r.row, r.at).lastInsertRowid);
  }

  /** Every payee (`account|ifsc`) anyone has reviewed: the bank run asks standing() only of these. */
  reviewedPayees(): Set<string> {
    return new Set(this.stmt.payees.all() as string[]);
  }

  /** Every review of a payee, oldest first. */
  ofPayee(account: string, ifsc: string): ReviewRecord[] {
    return this.stmt.ofPayee.all(account, ifsc) as ReviewRecord[];
  }

  /**
   * The payee's standing for `holder` (the bank's holder name now): REJECTED when its newest review
   * is a rejection; ACCEPTED by the reviewers who accepted exactly this holder since its last
   * rejection; undefined when nobody has (a new holder needs a new look).
   */
  standing(account: string, ifsc: string, holder: string | null): PayeeStanding | undefined {
    return standingOf(this.ofPayee(account, ifsc), holder);
  }
}

/** standing()'s rule over a payee's reviews, oldest first (pure). */
export function standingOf(reviews: readonly ReviewRecord[], holder: string | null): PayeeStanding | undefined {
  const last = reviews[reviews.length - 1];
  if (!last) return undefined;
  if (last.verdict === 'REJECTED') return { verdict: 'REJECTED', reviewers: [last.reviewer], reviews: [last] };
  if (holder === null) return undefined;
  const sinceRejection = reviews.slice(reviews.findLastIndex((r) => r.verdict === 'REJECTED') + 1);
  const accepted = sinceRejection.filter((r) => r.holder === holder);
  if (accepted.length === 0) return undefined;
  return { verdict: 'ACCEPTED', reviewers: [...new Set(accepted.map((r) => r.reviewer))], reviews: accepted };
}
