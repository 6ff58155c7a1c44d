/**
 * Stage 5 of the bank run (docs/ARCHITECTURE.md, "The bank run"): the counts of what the run did,
 * kept as rows leave and calls are made, and the exit code they come to at the end.
 */
import { EXIT_CODES } from '../../errors.js';
import type { InputSummary } from '../../input/payee-file.js';
import type { RowOutcome, RowStatus } from '../columns.js';
import type { BankRunOptions, BankRunSummary, StopReason } from './types.js';

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
    spend: 0,
    stopped: null,
    message: null,
    durationMs: 0,
    exitCode: 0,
  };
}

/** Whether every row the run wrote is final (no DEFERRED, FAILED or UNCONFIRMED). */
export function allFinal(summary: BankRunSummary): boolean {
  const s = summary.statuses;
  return s.DEFERRED + s.FAILED + s.UNCONFIRMED === 0;
}

/**
 * The exit code: 1 when the run stopped on a broken service, an auth failure or a fault of its
 * own; 3 when it stopped otherwise (signal, budget) or left rows not final; 0 when every row is final.
 */
export function exitCodeOf(stopped: StopReason | null, complete: boolean, dryRun: boolean): 0 | 1 | 3 {
  if (stopped === 'breaker' || stopped === 'auth' || stopped === 'fatal' || stopped === 'lock-lost' || stopped === 'input-changed') return EXIT_CODES.fatal;
  if (stopped) return EXIT_CODES.incomplete;
  return complete || dryRun ? EXIT_CODES.ok : EXIT_CODES.incomplete;
}

/** Fills in how the run ended. */
export function closeSummary(summary: BankRunSummary, end: { stopped: StopReason | null; message: string | null; durationMs: number; complete: boolean }): BankRunSummary {
  summary.stopped = end.stopped;
  summary.message = end.message;
  summary.durationMs = end.durationMs;
  summary.exitCode = exitCodeOf(end.stopped, end.complete, summary.dryRun);
  return summary;
}

/** Counts a row that leaves. */
export function countRow(summary: BankRunSummary, outcome: RowOutcome): void {
  summary.rows += 1;
  summary.statuses[outcome.status] += 1;
  if (outcome.source) summary.sources[outcome.source] = (summary.sources[outcome.source] ?? 0) + 1;
}

export function countNameMatch(summary: BankRunSummary, result: string): void {
  summary.nameMatch[result] = (summary.nameMatch[result] ?? 0) + 1;
}
