/** Decisions (docs/ARCHITECTURE.md, "Decisions"): pure, asked by the bank run, the review page and the release. */
export * from './codes.js';
export { approvalsNeeded, decide, payeeCheckOf, type DecisionInput, type RowDecision, type ReviewStanding, type VerifyStatus } from './decide.js';
export { DEFAULT_POLICY, parsePolicy, recordedPolicy, samePolicy, withApprovals, type DecisionPolicy } from './policy.js';
export { verifyReasonCode } from './reason-code.js';
export { distinctReviewers, payeeNameKey, reviewerKey, samePayeeName, sameReviewer } from './identity.js';

