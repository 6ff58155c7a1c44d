/**
 * The run's decisions as they stand now (docs/ARCHITECTURE.md, "Decisions"), for `vas-verify
 * report`: a payee reviewed since the run is decided again, and a PAY a newer answer contradicts is
 * held — by the release's own rule (RunDecisions, src/release/decisions.ts), so the page and the
 * payout file cannot disagree. Only the rows that may have changed are asked (a reviewed payee's,
 * a paid one with a later answer); the others stand as the run wrote them. `bank --report`, written
 * before anyone reviewed, shows the run's decisions and does not come here.
 */
import { distinctReviewers } from '../decision/identity.js';
import { RunDecisions, recordedPolicyOf } from '../release/decisions.js';
import { standingWords } from '../review/rows.js';
import { reviewsProblem } from '../state/audit-consistency.js';
import { NEWER_ANSWER } from '../state/changes.js';
import { keepsReviews, readRowsToDecideAgain, type CappedList, type DecisionNow, type RunDecisions as DecisionCounts } from '../state/report-reader.js';
import { RunRecords } from '../state/run-record.js';
import type { Db } from '../state/types.js';
import { maskAccountNumber, maskLongDigits } from './escape.js';

/** A row decided otherwise now than the run decided it. */
export interface ChangedRow {
  row: number;
  line: number;
  name: string | null;
  /** Masked to the last four digits. */
  account: string;
  ifsc: string;
  /** What the run wrote. */
  ranAs: { decision: string; reason: string };
  decision: 'PAY' | 'REVIEW' | 'HOLD';
  reason: string;
  /** A reviewer's word, or a newer answer in the state that contradicts the run's (the release holds such a payee). */
  cause: 'review' | 'newer-answer';
  /** Where the payee stands, in the review page's words ("accepted by asha"). */
  words: string;
  /** The reviewers behind it, and the newest of their reviews' times and notes (none for a newer answer). */
  reviewers: string[];
  at: number | null;
  note: string | null;
}

/** What changed since the run, for the page. */
export interface DecisionsSinceRun {
  /** Rows decided otherwise because of reviews since the run. */
  byReview: number;
  /** PAY rows held because a newer answer contradicts the run's. */
  byNewerAnswer: number;
  /** Every reviewer behind a change, one person once. */
  reviewers: string[];
  /** The oldest and newest review behind a change. */
  firstAt: number | null;
  lastAt: number | null;
  rows: CappedList<ChangedRow>;
  /** Why the decisions are shown as the run wrote them after all (the reviews cannot be trusted, or the policy read), or null. */
  notApplied: string | null;
}

/** The rows whose decision is another one now, and what the page says of them. */
export interface StandingNow {
  now: Map<number, DecisionNow>;
  /** Each changed row's standing in words, by row. */
  words: Map<number, string>;
  since: DecisionsSinceRun;
}

const none = (notApplied: string | null): StandingNow => ({
  now: new Map(),
  words: new Map(),
  since: { byReview: 0, byNewerAnswer: 0, reviewers: [], firstAt: null, lastAt: null, rows: { items: [], total: 0 }, notApplied },
});

/** Each row of run `runId` decided otherwise now than the run did; `listCap` caps the rows listed. */
export function readStandingNow(db: Db, runId: number, listCap: number): StandingNow {
  // A state before schema 7 (read as it is) has neither decisions nor reviews.
  if (!keepsReviews(db)) return none(null);
  const records = new RunRecords(db);
  const run = records.run(runId);
  if (!run) return none(null);
  const candidates = readRowsToDecideAgain(db, runId, records.hasLaterAnswers(runId));
  if (candidates.length === 0) return none(null);
  // The release writes no payout on reviews the audit trail does not back: nor does the page count them.
  const problem = reviewsProblem(db);
  if (problem !== undefined) return none(`The decisions are shown as the run wrote them: the reviews in this state cannot be trusted (${problem}); vas-verify audit says more.`);
  let policy;
  try {
    policy = recordedPolicyOf(run.policy, runId).policy;
  } catch (error) {
    return none(`The decisions are shown as the run wrote them: ${(error as Error).message}.`);
  }
  const decisions = new RunDecisions(db, runId, policy);
  const result = none(null);
  let reviewers: string[] = [];
  for (const row of candidates) {
    const decided = decisions.decided(row);
    if (decided.decision === row.decision && decided.reason === row.decisionReason) continue;
    result.now.set(row.row, { row, decision: decided.decision, reason: decided.reason });
    const newer = decided.changedSince?.endsWith(`${NEWER_ANSWER} this run's)`) === true && decided.standing === undefined ? decided.changedSince : null;
    const reviews = newer === null ? decided.standing?.reviews ?? [] : [];
    const times = reviews.map((r) => r.at);
    const at = times.length > 0 ? Math.max(...times) : null;
    if (newer === null) result.since.byReview += 1;
    else result.since.byNewerAnswer += 1;
    if (newer === null) reviewers = distinctReviewers([...reviewers, ...(decided.standing?.reviewers ?? [])]);
    const words = maskLongDigits(standingWords(newer === null ? decided.standing : undefined, decided.reason, policy, newer));
    result.words.set(row.row, words);
    for (const t of times) {
      result.since.firstAt = Math.min(result.since.firstAt ?? t, t);
      result.since.lastAt = Math.max(result.since.lastAt ?? t, t);
    }
    result.since.rows.total += 1;
    if (result.since.rows.items.length < listCap) {
      result.since.rows.items.push({
        row: row.row, line: row.line, name: row.name, account: maskAccountNumber(row.account ?? ''), ifsc: row.ifsc ?? '',
        ranAs: { decision: row.decision, reason: row.decisionReason }, decision: decided.decision, reason: decided.reason,
        cause: newer === null ? 'review' : 'newer-answer',
        words,
        reviewers: newer === null ? (decided.standing?.reviewers ?? []).map(maskLongDigits) : [],
        // A reviewer's note is free text: an account number typed into it is masked like any other.
        at, note: maskNote(reviews.findLast((r) => r.note !== null)?.note ?? null),
      });
    }
  }
  result.since.reviewers = reviewers.map(maskLongDigits);
  return result;
}

function maskNote(note: string | null): string | null {
  return note === null ? null : maskLongDigits(note);
}

/** The decided rows' lists with each changed row's standing in words. */
export function withStanding(d: DecisionCounts, standing: StandingNow): DecisionCounts {
  const mark = (list: DecisionCounts['held']): DecisionCounts['held'] => ({
    total: list.total,
    items: list.items.map((r) => (r.ranAs ? { ...r, standing: standing.words.get(r.row) } : r)),
  });
  return { ...d, held: mark(d.held), review: mark(d.review), notVerified: mark(d.notVerified), mismatchedPaid: mark(d.mismatchedPaid) };
}
