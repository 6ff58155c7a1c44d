/**
 * Each payee row's decision now (docs/ARCHITECTURE.md, "Decisions"): as the run wrote it
 * (run_rows), decided again with decide() under the run's policy for a payee someone has
 * reviewed since — an acceptance of the holder the run got pays it, a rejection holds it.
 */
import { decide, recordedPolicy, type Decision, type DecisionPolicy, type DecisionReason, type VerifyStatus } from '../decision/index.js';
import { StateFileError } from '../errors.js';
import type { NameMatchResult } from '../match/verdict.js';
import { contradiction, holderChangedIn, NEWER_ANSWER } from '../state/changes.js';
import { Reviews, type PayeeStanding } from '../state/reviews.js';
import { RunRecords, type PayeeHolder } from '../state/run-record.js';
import { RunRows } from '../state/run-rows.js';
import type { Db, ResultRecord, RunRowRecord } from '../state/types.js';

/** A payee row with its decision now, and the reviews it rests on. */
export interface DecidedRow {
  row: RunRowRecord;
  decision: Decision;
  reason: DecisionReason;
  /** The bank's holder name the run got (null: none, or not looked up: a row paid as the run decided). */
  holder: string | null;
  /** What changed since an earlier check of the payee (`changed_since`), when the holder was looked up. */
  changedSince: string | null;
  /** The reviews behind an acceptance or a rejection (empty when none counted). */
  standing: PayeeStanding | undefined;
}

/** The decision of a run's row given its holder and where its payee stands (pure). */
export function currentDecision(row: RunRowRecord, holder: Pick<PayeeHolder, 'changedSince'> | undefined, standing: PayeeStanding | undefined, policy: DecisionPolicy): { decision: Decision; reason: DecisionReason } {
  const decided = decide(
    {
      status: row.status as VerifyStatus,
      nameMatch: (row.nameMatch ?? undefined) as NameMatchResult | undefined,
      holderChanged: holderChangedIn(holder?.changedSince),
      review: standing,
    },
    policy,
  );
  return { decision: decided.decision === '' ? 'HOLD' : decided.decision, reason: decided.reason };
}

/** The policy the run recorded (src/decision/policy.ts recordedPolicy); one this version cannot read stops the release. */
export function recordedPolicyOf(text: string | null, runId: number): { policy: DecisionPolicy; source: string } {
  const recorded = recordedPolicy(text);
  if (!recorded.ok) throw new StateFileError(`run ${runId} recorded a policy this version cannot read (${recorded.problem}): run the bank command again`);
  return { policy: recorded.policy, source: recorded.source };
}

/**
 * What a newer answer in the state (a later run of this file or of another) says against the
 * answer run `runId` decided the payee on — `changed_since` words ending "(a newer answer than
 * this run's)" — or null when none contradicts it. Such a payee is never paid on the run's answer.
 * `own`: the run's answer for the payee, when the caller has already read it.
 */
export function newerAnswerAgainst(records: RunRecords, runId: number, account: string, ifsc: string, own = records.holder(runId, account, ifsc)): string | null {
  if (!own) return null;
  const change = contradiction({ id: own.resultId, mode: own.mode, status: own.status as ResultRecord['status'], beneficiaryName: own.holder, verifiedAt: own.verifiedAt }, records.newestAnswer(account, ifsc));
  return change === null ? null : `${change} ${NEWER_ANSWER} this run's)`;
}

/** Rows read from the state per query. */
const PAGE_ROWS = 1_000;

/** The run's payee rows in file order, each with its decision now. */
export class RunDecisions {
  private readonly records: RunRecords;
  private readonly rows: RunRows;
  private readonly reviews: Reviews;
  private readonly reviewed: Set<string>;
  /** Answers were stored after the run's: only then can one contradict it (no lookup per row otherwise). */
  private readonly laterAnswers: boolean;
  private page = new Map<number, RunRowRecord>();
  private next = 1;

  constructor(
    db: Db,
    private readonly runId: number,
    private readonly policy: DecisionPolicy,
  ) {
    this.records = new RunRecords(db);
    this.rows = new RunRows(db);
    this.reviews = new Reviews(db);
    this.reviewed = this.reviews.reviewedPayees();
    this.laterAnswers = this.records.hasLaterAnswers(runId);
  }

  /** Payee row `row` (1-based, asked in order), or undefined when the run recorded none. */
  at(row: number): DecidedRow | undefined {
    if (!this.page.has(row) && row >= this.next) {
      const rows = this.rows.page(this.runId, row, PAGE_ROWS);
      this.page = new Map(rows.map((r) => [r.row, r]));
      this.next = (rows[rows.length - 1]?.row ?? row) + 1;
    }
    const found = this.page.get(row);
    return found ? this.decided(found) : undefined;
  }

  /**
   * One row's decision now: the run's, or its reviews', and never PAY when a newer answer in the
   * state (a later run of this or another file) names another holder or another status than the
   * answer the run decided on — releasing last week's run must not pay an account whose holder
   * changed since.
   */
  decided(row: RunRowRecord): DecidedRow {
    const decided = this.decidedByRun(row);
    if (!this.laterAnswers || decided.decision !== 'PAY' || row.account === null || row.ifsc === null) return decided;
    const own = this.records.holder(this.runId, row.account, row.ifsc);
    const newer = newerAnswerAgainst(this.records, this.runId, row.account, row.ifsc, own);
    if (!own || newer === null) return decided;
    return { row, decision: 'HOLD', reason: 'HOLDER_CHANGED', holder: own.holder, changedSince: newer, standing: undefined };
  }

  /** The row's decision as the run and the reviews since make it. */
  private decidedByRun(row: RunRowRecord): DecidedRow {
    const stored = { decision: row.decision as Decision, reason: row.decisionReason as DecisionReason };
    const none = { holder: null, changedSince: null, standing: undefined };
    if (row.account === null || row.ifsc === null) return { row, ...stored, ...none };
    const reviewed = this.reviewed.has(`${row.account}|${row.ifsc}`);
    // A payee paid as the run decided needs no more (its holder is shown only for the rows left out).
    if (!reviewed && stored.decision === 'PAY') return { row, ...stored, ...none };
    const holder = this.records.holder(this.runId, row.account, row.ifsc);
    const answer = { holder: holder?.holder ?? null, changedSince: holder?.changedSince ?? null };
    if (!reviewed) return { row, ...stored, ...answer, standing: undefined };
    const standing = this.reviews.standing(row.account, row.ifsc, holder?.holder ?? null, row.name);
    return { row, ...currentDecision(row, holder, standing, this.policy), ...answer, standing };
  }
}
