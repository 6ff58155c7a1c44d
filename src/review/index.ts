/**
 * Review (docs/ARCHITECTURE.md, "Decisions"; `vas-verify review`): a person settles the rows a
 * run left at REVIEW or HOLD on a local page. This module opens the state and the run the page
 * is for, with the policy the run used (run_stats.policy where the state keeps it, else the
 * default) and the approvals asked for; server.ts serves the page, session.ts records decisions.
 */
import { refuseUnbackedReviews } from '../state/audit-consistency.js';
import fs from 'node:fs';
import { recordedPolicy, withApprovals, type DecisionPolicy } from '../decision/index.js';
import { StateFileError, UsageError } from '../errors.js';
import { ifscRegistry } from '../input/ifsc-registry.js';
import { openDatabase } from '../state/db.js';
import { toolVersion } from '../version.js';
import { ReviewReader } from '../state/review-reader.js';
import type { Db } from '../state/types.js';
import { ReviewSession } from './session.js';

export { startReviewServer, type ReviewServer, type ReviewServerOptions } from './server.js';
export { ReviewSession, PAGE_ROWS, type RowAnswer, type Verdict } from './session.js';

export interface OpenReviewOptions {
  statePath: string;
  /** Default: the newest run of the state. */
  runId?: number | undefined;
  reviewer: string;
  /** Overrides the policy's approvals. */
  approvals?: 1 | 2 | undefined;
  now: () => number;
}

export interface OpenedReview {
  db: Db;
  session: ReviewSession;
  runId: number;
  inputName: string;
  policy: DecisionPolicy;
  /** Where the policy came from, for the terminal. */
  policySource: string;
  /** Rows left at REVIEW and at HOLD. */
  toReview: { REVIEW: number; HOLD: number };
  close(): void;
}

/** Opens the state file and the run to review; a missing state, run or decision is a UsageError naming what to do. */
export function openReview(options: OpenReviewOptions): OpenedReview {
  if (!fs.existsSync(options.statePath)) throw new UsageError(`state file ${options.statePath} does not exist: give the --state of the run`);
  const db = openDatabase(options.statePath);
  try {
    // A review the audit trail does not back would show a payee as accepted, and count toward another's approvals.
    refuseUnbackedReviews(db, options.statePath);
    const reader = new ReviewReader(db);
    const runId = options.runId ?? reader.latestRun();
    if (runId === undefined) throw new UsageError(`state file ${options.statePath} has no run: run vas-verify bank first`);
    const run = reader.run(runId);
    if (!run) throw new UsageError(`state file ${options.statePath} has no run ${runId}: leave out --run for the newest`);
    const counts = reader.counts(runId);
    const { policy, source } = runPolicy(reader.policyJson(runId), options.approvals);
    const toReview = { REVIEW: 0, HOLD: 0 };
    for (const c of counts) toReview[c.decision] += c.n;
    const registry = ifscRegistry();
    const versions = { tool: toolVersion(), registry: `${registry.source} ${registry.published}` };
    const session = new ReviewSession({ db, runId, policy, reviewer: options.reviewer, registry, versions, now: options.now });
    return { db, session, runId, inputName: run.inputName, policy, policySource: source, toReview, close: () => db.close() };
  } catch (error) {
    db.close();
    throw error;
  }
}

/** The run's policy (as the state keeps it, src/decision/policy.ts recordedPolicy), with the approvals asked for (never fewer). */
export function runPolicy(json: string | null, approvals: 1 | 2 | undefined): { policy: DecisionPolicy; source: string } {
  const recorded = recordedPolicy(json);
  if (!recorded.ok) throw new StateFileError(`the run recorded a policy this version cannot read (${recorded.problem}): run the bank command again`);
  return { policy: withApprovals(recorded.policy, approvals), source: recorded.source };
}
