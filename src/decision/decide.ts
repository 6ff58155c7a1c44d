/**
 * A row's decision (docs/ARCHITECTURE.md, "Decisions"): from its status, its name verdict,
 * whether its holder changed and what a reviewer said, under a policy. Pure: the bank run, the
 * review page and the release all ask this one function, so they cannot disagree.
 */
import type { NameMatchResult } from '../match/verdict.js';
import type { Decision, DecisionReason, PayeeCheck } from './codes.js';
import { distinctReviewers } from './identity.js';
import type { DecisionPolicy } from './policy.js';

/** A row's verify_status, as the output writes it. */
export type VerifyStatus = 'VERIFIED' | 'NOT_VERIFIED' | 'INVALID' | 'DEFERRED' | 'FAILED' | 'UNCONFIRMED' | 'SKIPPED';

/**
 * What reviewers said of a payee: `ACCEPTED` for the holder the row has now and the payee name the
 * row has in the file (an acceptance is for one exact holder name and one payee name), by these
 * reviewers (one person once, however the name is typed: src/decision/identity.ts); `REJECTED`:
 * held until someone accepts it; `NAME_CHANGED`: this holder was accepted on another payee name,
 * which does not hold for this row (it gets its own decision, `PAYEE_NAME_CHANGED` unless PAY).
 */
export interface ReviewStanding {
  verdict: 'ACCEPTED' | 'REJECTED' | 'NAME_CHANGED';
  reviewers: readonly string[];
  /** The different reviewers the acceptances were given under (review --approvals 2): never fewer than the policy's. */
  approvals?: number | undefined;
}

export interface DecisionInput {
  status: VerifyStatus;
  /** The name verdict; undefined when nothing was compared (no name column, an empty name, no holder). */
  nameMatch: NameMatchResult | undefined;
  /** The holder or the status differs from an earlier check of the payee (`changed_since`). */
  holderChanged: boolean;
  review?: ReviewStanding | undefined;
}

export interface RowDecision {
  /** Empty for a row that is not a payee. */
  decision: Decision | '';
  reason: DecisionReason;
  /** Empty for a row that is not a payee. */
  payeeCheck: PayeeCheck | '';
}

const NOT_A_PAYEE: RowDecision = Object.freeze({ decision: '', reason: 'NOT_A_PAYEE', payeeCheck: '' });

/** The decision for one row. */
export function decide(input: DecisionInput, policy: DecisionPolicy): RowDecision {
  if (input.status === 'SKIPPED') return NOT_A_PAYEE;
  const payeeCheck = payeeCheckOf(input);
  const held = (reason: DecisionReason): RowDecision => ({ decision: 'HOLD', reason, payeeCheck });
  if (input.review?.verdict === 'REJECTED') return held('REVIEW_REJECTED');
  if (input.status === 'INVALID') return held('ACCOUNT_INVALID');
  if (input.status === 'NOT_VERIFIED') return held('ACCOUNT_NOT_VERIFIED');
  if (input.status !== 'VERIFIED') return held('NOT_FINAL');
  // A person who saw this exact holder for this payee name and accepted it outranks the matcher and the change signal.
  if (input.review?.verdict === 'ACCEPTED') {
    const enough = distinctReviewers(input.review.reviewers).length >= approvalsNeeded(policy, input.review);
    return { decision: enough ? 'PAY' : 'REVIEW', reason: enough ? 'REVIEW_ACCEPTED' : 'AWAITING_APPROVAL', payeeCheck };
  }
  if (input.holderChanged) return { decision: policy.holderChanged, reason: 'HOLDER_CHANGED', payeeCheck };
  const own = input.nameMatch === undefined
    ? { decision: policy.noNameToCheck, reason: 'NO_NAME_TO_CHECK' as DecisionReason }
    : { decision: policy.nameMatch[input.nameMatch], reason: nameReason(input.nameMatch) };
  // Accepted on another payee name: the row's own decision, saying why the acceptance does not hold.
  if (input.review?.verdict === 'NAME_CHANGED' && own.decision !== 'PAY') return { decision: own.decision, reason: 'PAYEE_NAME_CHANGED', payeeCheck };
  return { ...own, payeeCheck };
}

/** Different reviewers an acceptance needs: the policy's, or more when an acceptance was given where more were asked for. */
export function approvalsNeeded(policy: Pick<DecisionPolicy, 'approvals'>, review: Pick<ReviewStanding, 'approvals'> | undefined): number {
  return Math.max(policy.approvals, review?.approvals ?? 1);
}

function nameReason(verdict: NameMatchResult): DecisionReason {
  if (verdict === 'DIRECT_MATCH' || verdict === 'GOOD_PARTIAL_MATCH') return 'NAME_MATCH';
  return verdict === 'MODERATE_PARTIAL_MATCH' ? 'NAME_CLOSE' : 'NAME_MISMATCH';
}

/** The payee-check schemes' outcome: only a verified account with a name compared can match. */
export function payeeCheckOf(input: Pick<DecisionInput, 'status' | 'nameMatch'>): PayeeCheck {
  if (input.status !== 'VERIFIED' || input.nameMatch === undefined) return 'NOT_POSSIBLE';
  if (input.nameMatch === 'DIRECT_MATCH') return 'MATCH';
  if (input.nameMatch === 'GOOD_PARTIAL_MATCH' || input.nameMatch === 'MODERATE_PARTIAL_MATCH') return 'CLOSE_MATCH';
  return 'NO_MATCH';
}
