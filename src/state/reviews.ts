/**
 * What people said of payees (table reviews; docs/ARCHITECTURE.md, "Decisions"): an acceptance
 * is for one account + IFSC, one exact holder name and the payee name the file gave at the row it
 * was given on (run_rows' name of the review's run and row); a rejection holds the payee, whatever
 * its holder or name, until someone accepts it. The newest word counts: a payee's standing is read
 * from its reviews since its last rejection. Reviewers are one person however their name is typed
 * (src/decision/identity.ts).
 */
import { distinctReviewers, samePayeeName } from '../decision/identity.js';
import type { Db, ReviewRecord } from './types.js';
import { hasColumn } from './run-record.js';

const COLUMNS = `r.id, r.account, r.ifsc, r.holder, r.verdict, r.reviewer, r.note, r.run_id AS runId, r.row, r.at,
  rr.name AS payeeName, rr.row IS NOT NULL AS payeeKnown`;
/** Schema 10 keeps the approvals an acceptance was given under; an older state read as it is has one. */
const approvalsColumn = (db: Db) => (hasColumn(db, 'reviews', 'approvals') ? 'r.approvals' : '1 AS approvals');

/** A review with the payee name of the row it was given on. */
export interface PayeeReview extends ReviewRecord {
  /** The file's payee name at the reviewed row (null: the file had no name column, or it is not known). */
  payeeName?: string | null;
  /** Whether the reviewed row is in the state (1), so payeeName is the file's; 0 for a review without one. */
  payeeKnown?: number | boolean;
}

/** Where a payee stands for the holder it has now (decide()'s ReviewStanding, with who and when). */
export interface PayeeStanding {
  /**
   * `NAME_CHANGED`: this holder was accepted, but on another payee name than the row's (or on a
   * row whose name the state does not have): the acceptance does not hold for this row.
   */
  verdict: 'ACCEPTED' | 'REJECTED' | 'NAME_CHANGED';
  /** The distinct reviewers of the standing verdict, oldest first. */
  reviewers: string[];
  /** The reviews behind it, oldest first. */
  reviews: PayeeReview[];
  /** The most different reviewers any of those acceptances was given under (1 when none said more). */
  approvals: number;
}

export class Reviews {
  private readonly stmt;

  constructor(db: Db) {
    this.stmt = {
      add: db.prepare(`INSERT INTO reviews (account, ifsc, holder, verdict, reviewer, note, run_id, row, at, approvals) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
      ofPayee: db.prepare(
        `SELECT ${COLUMNS}, ${approvalsColumn(db)} FROM reviews r LEFT JOIN run_rows rr ON rr.run_id = r.run_id AND rr.row = r.row
         WHERE r.account = CAST(? AS TEXT) AND r.ifsc = CAST(? AS TEXT) ORDER BY r.id`,
      ),
      payees: db.prepare(`SELECT DISTINCT account || '|' || ifsc AS payee FROM reviews`).pluck(),
    };
  }

  add(review: Omit<ReviewRecord, 'id'>): number {
    const r = review;
    return Number(this.stmt.add.run(r.account, r.ifsc, r.holder, r.verdict, r.reviewer, r.note, r.runId, r.row, r.at, r.approvals ?? 1).lastInsertRowid);
  }

  /** Every payee (`account|ifsc`) anyone has reviewed: the bank run asks standing() only of these. */
  reviewedPayees(): Set<string> {
    return new Set(this.stmt.payees.all() as string[]);
  }

  /** Every review of a payee, oldest first, each with the payee name of its row. */
  ofPayee(account: string, ifsc: string): PayeeReview[] {
    return this.stmt.ofPayee.all(account, ifsc) as PayeeReview[];
  }

  /**
   * The payee's standing for `holder` (the bank's holder name now) and `name` (the file's payee name
   * at the row being decided; null for none): see standingOf() and forPayeeName().
   */
  standing(account: string, ifsc: string, holder: string | null, name: string | null): PayeeStanding | undefined {
    return forPayeeName(standingOf(this.ofPayee(account, ifsc), holder), name);
  }
}

/**
 * standing()'s rule over a payee's reviews, oldest first (pure): REJECTED when its newest review is
 * a rejection; ACCEPTED by the reviewers who accepted exactly this holder since its last rejection
 * (one person once, however the name is typed); undefined when nobody has (a new holder needs a
 * new look). With `name` (see forPayeeName) the acceptances must also be for that payee name.
 */
export function standingOf(reviews: readonly PayeeReview[], holder: string | null, name?: string | null): PayeeStanding | undefined {
  const last = reviews[reviews.length - 1];
  if (!last) return undefined;
  if (last.verdict === 'REJECTED') return { verdict: 'REJECTED', reviewers: [last.reviewer], reviews: [last], approvals: 1 };
  if (holder === null) return undefined;
  const sinceRejection = reviews.slice(reviews.findLastIndex((r) => r.verdict === 'REJECTED') + 1);
  const accepted = sinceRejection.filter((r) => r.holder === holder);
  if (accepted.length === 0) return undefined;
  const found: PayeeStanding = { verdict: 'ACCEPTED', reviewers: distinctReviewers(accepted.map((r) => r.reviewer)), reviews: accepted, approvals: approvalsOf(accepted) };
  return name === undefined ? found : forPayeeName(found, name);
}

/**
 * A standing for the row whose payee name in the file is `name` (pure): an acceptance holds only
 * for the payee name it was given on (compared forgivingly: case, spacing, punctuation). When no
 * acceptance of this holder was given on this name — another name, or a review whose row the state
 * does not have (its name unknown: it does not count, a person looks again) — the standing is
 * `NAME_CHANGED`, with the acceptances that do not hold. A rejection holds whatever the name.
 */
export function forPayeeName(standing: PayeeStanding | undefined, name: string | null): PayeeStanding | undefined {
  if (standing?.verdict !== 'ACCEPTED') return standing;
  const holds = standing.reviews.filter((r) => Boolean(r.payeeKnown) && samePayeeName(r.payeeName, name));
  if (holds.length === 0) return { verdict: 'NAME_CHANGED', reviewers: standing.reviewers, reviews: standing.reviews, approvals: standing.approvals };
  return { verdict: 'ACCEPTED', reviewers: distinctReviewers(holds.map((r) => r.reviewer)), reviews: holds, approvals: approvalsOf(holds) };
}

/** The most reviewers any of these acceptances was given under: once two were asked for, one never pays. */
function approvalsOf(reviews: readonly PayeeReview[]): number {
  return reviews.reduce((most, r) => Math.max(most, r.approvals ?? 1), 1);
}
