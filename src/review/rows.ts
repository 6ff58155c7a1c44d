/**
 * What the review page shows of a row (docs/ARCHITECTURE.md, "Decisions"): the payee name from
 * the file beside the bank's holder with the matcher's reasons, the account masked, the IFSC's
 * bank and branch, the amount, the payee's history, the decision the run wrote and where the
 * payee stands now. The standing is asked of decide() with the reviews of the payee, so the page,
 * the next run and the release cannot disagree.
 */
import { createHash } from 'node:crypto';
import { approvalsNeeded, type DecisionPolicy } from '../decision/index.js';
import { registryBankName, type IfscRegistry } from '../input/ifsc-registry.js';
import { formatIstDate } from '../ist.js';
import { matchNames, NAME_MATCH_RULES, type NameMatchRule } from '../match/index.js';
import { maskAccountNumber, maskLongDigits } from '../report/escape.js';
import { currentDecision } from '../release/decisions.js';
import type { PayeeEvidence, ReviewReader } from '../state/review-reader.js';
import { standingOf, type PayeeStanding } from '../state/reviews.js';
import type { ReviewRecord, RunRowRecord } from '../state/types.js';

/** Longer names are not explained (the bank run does not match them either: NO_MATCH). */
const MAX_EXPLAINED_CHARS = 1_000;

/** Where a payee stands now, in words for the page. */
export interface StandingView {
  decision: string;
  reason: string;
  /** Who accepted (ACCEPTED) or rejected (REJECTED) the holder it has now (NAME_CHANGED: accepted it on another payee name); empty when nobody has. */
  reviewers: string[];
  verdict: 'ACCEPTED' | 'REJECTED' | 'NAME_CHANGED' | null;
  /** Accepted by fewer reviewers than the policy's approvals. */
  awaiting: boolean;
  /** One line: "PAY · REVIEW_ACCEPTED · accepted by asha, ravi". */
  text: string;
  /** The newest reviewer's note, if any. */
  note: string | null;
}

export interface ReviewRow {
  row: number;
  line: number;
  /** The payee's first row (its name in the state); null when the row failed its local checks. */
  payee: number | null;
  name: string | null;
  holder: string | null;
  nameMatch: string | null;
  nameScore: number | null;
  /** The matcher's reasons, in words. */
  why: string[];
  /** The last four digits only. */
  account: string;
  ifsc: string;
  bank: string | null;
  branch: string | null;
  amount: string | null;
  status: string;
  reasonCode: string;
  changedSince: string | null;
  /** Earlier checks of the account + IFSC: "2026-11-20 VERIFIED ANITA DESAI". */
  history: { date: string; status: string; holder: string | null }[];
  requestId: string | null;
  /** The decision the run wrote. */
  decision: string;
  decisionReason: string;
  standing: StandingView;
  /** Why an acceptance is not possible (no payee, not verified, no holder); null when it is. */
  cannotAccept: string | null;
  /** What the page showed of the row's answer (seenStamp): a decision is refused once it no longer holds. */
  seen: string;
  /**
   * The newest review of the row's payee the page showed (its id, 0 for none: newestReview): a
   * decision is refused once anyone decided the payee since, even the same reviewer in another tab.
   */
  reviewed: number;
}

/** The row's payee in the state: its account and IFSC, its evidence in this run. */
export interface RowPayee {
  account: string;
  ifsc: string;
  evidence: PayeeEvidence | undefined;
}

/**
 * Where the payee stands now for the holder it has in this run and the row's payee name (an
 * acceptance is for the name it was given on); `newer`: what a newer answer in the state says
 * against this run's (newerAnswerAgainst), which holds a payee the run or an acceptance would pay.
 */
export function standingView(row: RunRowRecord, evidence: PayeeEvidence | undefined, reviews: readonly ReviewRecord[], policy: DecisionPolicy, newer: string | null = null): StandingView {
  const holder = evidence?.beneficiaryName ?? null;
  const standing: PayeeStanding | undefined = standingOf(reviews, holder, row.name);
  // The same decision the release takes (src/release/decisions.ts): the page and the payout file cannot disagree.
  const decided = currentDecision(row, { changedSince: evidence?.changedSince ?? null }, standing, policy);
  // The release never pays on an answer a newer one contradicts (RunDecisions.decided): nor does the page say it would.
  const heldByNewer = newer !== null && decided.decision === 'PAY';
  const decision = heldByNewer ? { decision: 'HOLD', reason: 'HOLDER_CHANGED' } : decided;
  const reviewers = standing?.reviewers ?? [];
  const awaiting = decision.reason === 'AWAITING_APPROVAL';
  const words = standingWords(standing, decision.reason, policy, heldByNewer ? newer : null);
  const last = standing?.reviews[standing.reviews.length - 1];
  return {
    decision: decision.decision,
    reason: decision.reason,
    reviewers,
    verdict: standing?.verdict ?? null,
    awaiting,
    text: `${decision.decision} · ${decision.reason} · ${words}`,
    note: last?.note ?? null,
  };
}

/**
 * Where a payee stands, in the page's words ("accepted by asha — awaiting a second approval",
 * "rejected by ravi"), for its decision's `reason` now; `newer`: what a newer answer says, when it
 * holds the payee. The run report says it alike (src/report/standing.ts).
 */
export function standingWords(standing: PayeeStanding | undefined, reason: string, policy: DecisionPolicy, newer: string | null): string {
  const reviewers = standing?.reviewers ?? [];
  if (newer !== null) return `changed since ${maskLongDigits(newer)}`;
  if (standing?.verdict === 'REJECTED') return `rejected by ${reviewers.join(', ')}`;
  if (standing?.verdict === 'NAME_CHANGED') return `accepted by ${reviewers.join(', ')} for another payee name: the name in the file changed since, not accepted for this one`;
  if (standing?.verdict === 'ACCEPTED') {
    const missing = approvalsNeeded(policy, standing) - reviewers.length;
    return `accepted by ${reviewers.join(', ')}${reason === 'AWAITING_APPROVAL' ? ` — awaiting ${missing === 1 ? 'a second approval' : `${missing} more approvals`}` : ''}`;
  }
  return 'not reviewed yet';
}

/** Why the row's payee cannot be accepted, or null when it can (`newer`: see standingView). */
export function acceptProblem(row: RunRowRecord, evidence: PayeeEvidence | undefined, newer: string | null = null): string | null {
  if (row.account === null || row.ifsc === null || !evidence) return 'the row failed its local checks: correct it in the file';
  if (row.status !== 'VERIFIED') return `the account is ${row.status}: only a verified account can be accepted`;
  if (!evidence.beneficiaryName) return 'the bank gave no holder name: there is nothing to accept';
  if (newer !== null) return 'a newer answer than this run\'s names another holder or status: review the run that got it';
  return null;
}

/**
 * A stamp of what a person decides on (pure): the row's status, name verdict and decision, and
 * its payee's result (which answer, the holder, what changed). The page sends it back with a
 * decision; a bank run that answered the row again since the page was drawn changes it, and the
 * decision is refused rather than given on a holder nobody saw. Reviews are compared apart
 * (ReviewRow.reviewed), so that a page that decided a payee can move on without a reload.
 */
export function seenStamp(row: RunRowRecord, evidence: PayeeEvidence | undefined, newer: string | null = null): string {
  const shown = [row.status, row.nameMatch, row.decision, row.decisionReason, evidence?.resultId ?? null, evidence?.beneficiaryName ?? null, evidence?.changedSince ?? null, newer];
  return createHash('sha256').update(JSON.stringify(shown)).digest('base64url').slice(0, 22);
}

/** The newest of a payee's reviews not in `besides` (those the decision being checked recorded itself), or 0. */
export function newestReview(reviews: readonly ReviewRecord[], besides: ReadonlySet<number> = new Set()): number {
  return reviews.reduce((newest, r) => (besides.has(r.id) ? newest : Math.max(newest, r.id)), 0);
}

/** The matcher's reasons for the two names, in words. */
export function explainNames(name: string | null, holder: string | null): string[] {
  if (!name || !holder || name.trim() === '') return [];
  if (name.length > MAX_EXPLAINED_CHARS || holder.length > MAX_EXPLAINED_CHARS) return ['a name longer than any payee name: not matched'];
  return matchNames(name, holder, { explain: true }).rules.map((rule) => NAME_MATCH_RULES[rule as NameMatchRule] ?? rule);
}

/** The page's row: the run's row, its payee's evidence and reviews, under the policy. */
export function toReviewRow(
  row: RunRowRecord,
  reader: ReviewReader,
  reviewsOf: (account: string, ifsc: string) => ReviewRecord[],
  context: { runId: number; policy: DecisionPolicy; registry: IfscRegistry; newerAnswer: (account: string, ifsc: string) => string | null },
): ReviewRow {
  const evidence = row.account !== null && row.ifsc !== null ? reader.evidence(context.runId, row.account, row.ifsc) : undefined;
  const reviews = row.account !== null && row.ifsc !== null ? reviewsOf(row.account, row.ifsc) : [];
  const holder = evidence?.beneficiaryName ?? null;
  const history = evidence?.resultId != null && row.account !== null && row.ifsc !== null ? reader.earlier(row.account, row.ifsc, evidence.resultId) : [];
  const ifsc = row.ifsc ?? '';
  const newer = row.account !== null && row.ifsc !== null ? context.newerAnswer(row.account, row.ifsc) : null;
  const changed = newer ?? evidence?.changedSince ?? null;
  return {
    row: row.row,
    line: row.line,
    payee: evidence?.firstRow ?? null,
    name: row.name,
    holder,
    nameMatch: row.nameMatch,
    nameScore: row.nameScore,
    why: explainNames(row.name, holder),
    account: row.account === null ? '' : maskAccountNumber(row.account),
    ifsc,
    bank: evidence?.bankName ?? (ifsc === '' ? null : registryBankName(context.registry.lookup(ifsc))),
    branch: [evidence?.bankBranch, evidence?.bankCity].filter((part) => part).join(', ') || null,
    amount: row.amount,
    status: row.status,
    reasonCode: row.reasonCode,
    changedSince: changed ? maskLongDigits(changed) : null,
    history: history.map((h) => ({ date: formatIstDate(h.verifiedAt), status: h.status, holder: h.beneficiaryName })),
    requestId: evidence?.requestId ?? null,
    decision: row.decision,
    decisionReason: row.decisionReason,
    standing: standingView(row, evidence, reviews, context.policy, newer),
    cannotAccept: acceptProblem(row, evidence, newer),
    seen: seenStamp(row, evidence, newer),
    reviewed: newestReview(reviews),
  };
}
