/**
 * One reviewer's session over one run (docs/ARCHITECTURE.md, "Decisions"): pages of the rows the
 * run left at REVIEW or HOLD, and the reviewer's acceptances and rejections, each recorded by
 * record.ts (the reviews row and its audit entry in one transaction). An acceptance is refused
 * where it could not pay (no payee, an account not verified, no holder name) and where this
 * reviewer already accepted the holder for this payee name: `approvals: 2` needs two different
 * people (compared case-insensitively, NFKC: src/decision/identity.ts).
 */
import { approvalsNeeded, payeeNameKey, sameReviewer, type DecisionPolicy } from '../decision/index.js';
import type { IfscRegistry } from '../input/ifsc-registry.js';
import { ReviewReader, REVIEWED_DECISIONS, type PayeeEvidence, type ReviewFilter } from '../state/review-reader.js';
import { newerAnswerAgainst } from '../release/decisions.js';
import { Reviews, standingOf, type PayeeStanding } from '../state/reviews.js';
import { RunRecords } from '../state/run-record.js';
import type { Db, RunRowRecord } from '../state/types.js';
import { recordPersonDecision } from './record.js';
import { acceptProblem, newestReview, seenStamp, standingView, toReviewRow, type ReviewRow, type StandingView } from './rows.js';

/** Rows on one page of the list. */
export const PAGE_ROWS = 200;
/** Most rows one decision may name (a selection). */
export const MAX_ROWS_PER_DECISION = 1_000;
/** Longest note kept, in characters. */
export const MAX_NOTE_CHARS = 1_000;

export type Verdict = 'ACCEPTED' | 'REJECTED';

/** What became of one row of a decision. */
export interface RowAnswer {
  row: number;
  ok: boolean;
  /** Why it was refused (ok false). */
  message?: string | undefined;
  /** The payee's first row: every row of the payee with the same payee name (`nameKey`) on the page shows the new standing. */
  payee?: number | undefined;
  /** The row's payee name as compared (src/decision/identity.ts payeeNameKey): an acceptance is for one payee name. */
  nameKey?: string | undefined;
  standing?: StandingView | undefined;
  /** The payee's newest review once this decision is recorded (ReviewRow.reviewed): the page's rows of the payee show it from now on. */
  reviewed?: number | undefined;
}

/** A row a decision names, with what the page showed of it (ReviewRow.seen and ReviewRow.reviewed). */
export interface DecideRow {
  row: number;
  seen: string;
  reviewed: number;
}

export interface ReviewSessionOptions {
  db: Db;
  runId: number;
  policy: DecisionPolicy;
  reviewer: string;
  registry: IfscRegistry;
  /** The tool (and so the matcher) and the IFSC registry the reviewer's evidence came from, kept in each audit entry. */
  versions: { tool: string; registry: string };
  now: () => number;
}

export class ReviewSession {
  readonly reader: ReviewReader;
  private readonly reviews: Reviews;
  /** Decisions recorded by this session. */
  recorded = 0;
  private readonly records: RunRecords;

  constructor(private readonly options: ReviewSessionOptions) {
    this.reader = new ReviewReader(options.db);
    this.reviews = new Reviews(options.db);
    this.records = new RunRecords(options.db);
  }

  /** What a newer answer in the state says against this run's for the payee (the release holds it), or null. */
  private newer(account: string, ifsc: string): string | null {
    return newerAnswerAgainst(this.records, this.options.runId, account, ifsc);
  }

  get policy(): DecisionPolicy {
    return this.options.policy;
  }

  get reviewer(): string {
    return this.options.reviewer;
  }

  /** One page of the list: rows after `after` (or before `before`), at most PAGE_ROWS. */
  page(filter: ReviewFilter, at: { after: number } | { before: number }, limit = PAGE_ROWS): ReviewRow[] {
    const { runId, policy, registry } = this.options;
    return this.reader.page(runId, filter, limit, at).map((row) => toReviewRow(row, this.reader, (a, i) => this.reviews.ofPayee(a, i), { runId, policy, registry, newerAnswer: (a, i) => this.newer(a, i) }));
  }

  /**
   * Records the reviewer's verdict on each row (rows of one payee once); answers for every row.
   * Each row comes with what the page showed of it (ReviewRow.seen and .reviewed): a row answered
   * again since, or whose payee anyone decided since (another reviewer, or this one in another tab
   * or window), is refused, so nobody accepts a holder they did not see or overturns a decision
   * they did not see. The reviews this decision records itself (rows of one payee under two
   * payee names) do not count against its later rows.
   */
  decide(verdict: Verdict, rows: readonly DecideRow[], note: string | null): RowAnswer[] {
    const byPayee = new Map<string, RowAnswer>();
    const made = new Set<number>();
    return rows.map(({ row: n, seen, reviewed }) => {
      const { db, runId } = this.options;
      // The check and the write in one transaction: a bank run or another reviewer's page writes the same state.
      const answer = db.transaction((): RowAnswer => {
        const row = this.reader.row(runId, n);
        if (!row || !(REVIEWED_DECISIONS as readonly string[]).includes(row.decision)) return { row: n, ok: false, message: `row ${n} is not one this run left to review` };
        if (row.account === null || row.ifsc === null) return { row: n, ok: false, message: 'the row failed its local checks: correct it in the file' };
        const evidence = this.reader.evidence(runId, row.account, row.ifsc);
        const newer = this.newer(row.account, row.ifsc);
        if (seen !== seenStamp(row, evidence, newer)) {
          return { row: n, ok: false, message: 'the row changed since this page was drawn (a bank run answered it again): reload the page and look again' };
        }
        if (reviewed !== newestReview(this.reviews.ofPayee(row.account, row.ifsc), made)) {
          return { row: n, ok: false, message: 'the payee changed since this page was drawn (decided by another reviewer, or on another tab or window of this review): reload the page and look again' };
        }
        // Rows of one payee once, for each payee name: an acceptance is for the name it was given on.
        const key = `${row.account}|${row.ifsc}|${payeeNameKey(row.name)}`;
        const done = byPayee.get(key) ?? this.decidePayee(verdict, row, evidence, newer, note, made);
        byPayee.set(key, done);
        return { ...done, row: n };
      }).immediate();
      return answer;
    });
  }

  private decidePayee(verdict: Verdict, row: RunRowRecord, evidence: PayeeEvidence | undefined, newer: string | null, note: string | null, made: Set<number>): RowAnswer {
    const { db, runId, policy, reviewer } = this.options;
    const account = row.account!;
    const ifsc = row.ifsc!;
    const holder = evidence?.beneficiaryName ?? null;
    const problem = db.transaction((): string | null => {
      const refused = refusal(verdict, row, evidence, standingOf(this.reviews.ofPayee(account, ifsc), holder, row.name), reviewer, policy, newer);
      if (refused) return refused;
      const id = recordPersonDecision(
        db,
        {
          account, ifsc, holder: holder ?? '', verdict, reviewer, note, runId, row: row.row, approvals: policy.approvals, via: 'page',
          evidence: {
            status: row.status, nameMatch: row.nameMatch, nameScore: row.nameScore, decision: row.decision, decisionReason: row.decisionReason,
            requestId: evidence?.requestId ?? null, changedSince: evidence?.changedSince ?? null, approvals: policy.approvals, line: row.line,
            ...this.options.versions,
          },
        },
        this.options.now(),
      );
      made.add(id);
      return null;
    }).immediate();
    if (problem === null) this.recorded += 1;
    const reviews = this.reviews.ofPayee(account, ifsc);
    const standing = standingView(row, evidence, reviews, policy, newer);
    return { row: row.row, ok: problem === null, message: problem ?? undefined, payee: evidence?.firstRow, nameKey: payeeNameKey(row.name), standing, reviewed: newestReview(reviews) };
  }
}

/** Why this verdict on the payee is refused, or null (pure). */
export function refusal(
  verdict: Verdict,
  row: RunRowRecord,
  evidence: PayeeEvidence | undefined,
  standing: PayeeStanding | undefined,
  reviewer: string,
  policy: DecisionPolicy,
  newer: string | null = null,
): string | null {
  if (verdict === 'REJECTED') {
    return standing?.verdict === 'REJECTED' ? `already rejected by ${standing.reviewers.join(', ')}` : null;
  }
  const problem = acceptProblem(row, evidence, newer);
  if (problem) return problem;
  if (standing?.verdict !== 'ACCEPTED') return null;
  // One person once, however the name is typed ("asha", "Asha"): src/decision/identity.ts.
  const needed = approvalsNeeded(policy, standing);
  if (standing.reviewers.some((r) => sameReviewer(r, reviewer))) {
    return standing.reviewers.length >= needed
      ? `already accepted by ${standing.reviewers.join(', ')}`
      : `${reviewer} already accepted this holder: a second, different reviewer must approve it`;
  }
  return standing.reviewers.length >= needed ? `already accepted by ${standing.reviewers.join(', ')}` : null;
}
