/**
 * Stage 5 of the bank run (docs/ARCHITECTURE.md, "The bank run"): the counts of what the run did,
 * kept as rows leave and calls are made, and the exit code they come to at the end.
 */
import { DEFAULT_POLICY, type RowDecision } from '../../decision/index.js';
import { addAmount } from '../../input/amount.js';
import { EXIT_CODES } from '../../errors.js';
import type { InputSummary } from '../../input/payee-file.js';
import type { RowOutcome, RowStatus } from '../columns.js';
import type { BankRunOptions, BankRunSummary, FailOn, StopReason } from './types.js';

export const STATUSES: readonly RowStatus[] = ['VERIFIED', 'NOT_VERIFIED', 'INVALID', 'DEFERRED', 'FAILED', 'UNCONFIRMED', 'SKIPPED'];

export function emptyCounts(): Record<RowStatus, number> {
  return Object.fromEntries(STATUSES.map((s) => [s, 0])) as Record<RowStatus, number>;
}

/** The summary of a run that has not started: every count zero. `input`: how prepare read the file (openInput's `summary`). */
export function createSummary(options: BankRunOptions, input?: InputSummary): BankRunSummary {
  return {
    runId: null,
    resumed: false,
    dryRun: options.dryRun,
    input: input ?? { file: options.inputPath, headerLine: 0, columns: { account: '', ifsc: '', name: null }, renamed: {} },
    output: options.dryRun ? null : options.outputPath,
    mode: options.mode,
    rows: 0,
    statuses: emptyCounts(),
    sources: { api: 0, reuse: 0, duplicate: 0, local: 0 },
    nameMatch: {},
    calls: { pl: 0, pd: 0 },
    wouldCall: { pl: 0, pd: 0 },
    avoided: { local: 0, duplicate: 0, reuse: 0, deferral: 0, hybrid: 0 },
    unconfirmedOnResume: 0,
    reverify: { maxAgeMs: options.maxAgeMs ?? null, rechecked: 0, reused: 0, oldestAnswerAt: null },
    run: { invocations: 1, calls: { pl: 0, pd: 0 }, spend: 0 },
    spend: 0,
    stopped: null,
    message: null,
    durationMs: 0,
    decisions: { PAY: 0, REVIEW: 0, HOLD: 0 },
    decisionReasons: {},
    decisionReasonsBy: { PAY: {}, REVIEW: {}, HOLD: {} },
    amounts: null,
    policy: { source: options.policy?.source ?? 'default', ...(options.policy?.policy ?? DEFAULT_POLICY) },
    exitCode: 0,
  };
}

/** Whether every row the run wrote is final (no DEFERRED, FAILED or UNCONFIRMED). */
export function allFinal(summary: BankRunSummary): boolean {
  const s = summary.statuses;
  return s.DEFERRED + s.FAILED + s.UNCONFIRMED === 0;
}

/**
 * The exit code: 1 when the run stopped on a broken service, an auth failure, an untrusted TLS certificate or a fault of its
 * own; 3 when it stopped otherwise (signal, budget) or left rows not final; 0 when every row is final.
 */
export function exitCodeOf(stopped: StopReason | null, complete: boolean, dryRun: boolean): 0 | 1 | 3 {
  if (stopped === 'breaker' || stopped === 'auth' || stopped === 'tls' || stopped === 'fatal' || stopped === 'lock-lost' || stopped === 'input-changed') return EXIT_CODES.fatal;
  if (stopped) return EXIT_CODES.incomplete;
  return complete || dryRun ? EXIT_CODES.ok : EXIT_CODES.incomplete;
}

/**
 * Exit 4 instead of 0 (`--fail-on`): every row is final, but payees need a person: on HOLD
 * (`hold`), or on HOLD or to REVIEW (`review`). A run that is not final keeps its own code.
 */
export function attentionExitCode(exitCode: 0 | 1 | 3, decisions: BankRunSummary['decisions'], failOn: FailOn | undefined): 0 | 1 | 3 | 4 {
  if (exitCode !== EXIT_CODES.ok || failOn === undefined) return exitCode;
  const waiting = failOn === 'hold' ? decisions.HOLD : decisions.HOLD + decisions.REVIEW;
  return waiting > 0 ? EXIT_CODES.attention : exitCode;
}

/** Fills in how the run ended. */
export function closeSummary(summary: BankRunSummary, end: { stopped: StopReason | null; message: string | null; durationMs: number; complete: boolean; failOn?: FailOn | undefined }): BankRunSummary {
  summary.stopped = end.stopped;
  summary.message = end.message;
  summary.durationMs = end.durationMs;
  summary.exitCode = attentionExitCode(exitCodeOf(end.stopped, end.complete, summary.dryRun), summary.decisions, end.failOn);
  const earlier = summary.run;
  summary.run = {
    invocations: earlier.invocations,
    calls: { pl: earlier.calls.pl + summary.calls.pl, pd: earlier.calls.pd + summary.calls.pd },
    spend: earlier.spend + summary.spend,
  };
  return summary;
}

/** Counts a row's decision, and its amount where the file has an amount column (`amount` null: none). */
export function countDecision(summary: BankRunSummary, decision: RowDecision, amount: string | null): void {
  summary.decisionReasons[decision.reason] = (summary.decisionReasons[decision.reason] ?? 0) + 1;
  if (decision.decision === '') return;
  summary.decisions[decision.decision] += 1;
  const by = summary.decisionReasonsBy[decision.decision];
  by[decision.reason] = (by[decision.reason] ?? 0) + 1;
  if (amount === null) return;
  summary.amounts ??= { PAY: 0, REVIEW: 0, HOLD: 0, unreadable: 0 };
  addAmount(summary.amounts, decision.decision, amount);
}

/** Counts a row that leaves. */
export function countRow(summary: BankRunSummary, outcome: RowOutcome): void {
  summary.rows += 1;
  const answeredAt = outcome.result?.verifiedAt;
  if (answeredAt !== undefined && (summary.reverify.oldestAnswerAt === null || answeredAt < summary.reverify.oldestAnswerAt)) {
    summary.reverify.oldestAnswerAt = answeredAt;
  }
  summary.statuses[outcome.status] += 1;
  if (outcome.source) summary.sources[outcome.source] = (summary.sources[outcome.source] ?? 0) + 1;
}

export function countNameMatch(summary: BankRunSummary, result: string): void {
  summary.nameMatch[result] = (summary.nameMatch[result] ?? 0) + 1;
}
