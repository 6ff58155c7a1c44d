/**
 * Puts the report together: the state's aggregates, plus — when the run itself writes the
 * report — what that run returned (row-level counts, name verdicts, spend, retries). Pure.
 */
import type { RunAggregates } from './aggregate.js';
import { REPORT_STATUSES, type AtRiskRow, type CappedList, type ReportStatus, type RunReport } from './model.js';

/** The parts of the run's summary (BankRunSummary) the report reads: typed here so the report does not depend on the pipeline's shape. */
export interface RunSummaryLike {
  resumed: boolean;
  rows: number;
  statuses: Record<string, number>;
  nameMatch: Record<string, number>;
  calls: { pl: number; pd: number };
  avoided: Record<string, number>;
  spend: number;
  stopped: string | null;
  message: string | null;
  durationMs: number;
  exitCode: number;
}

export interface BuildOptions {
  generatedAt: number;
  toolVersion: string;
  registry: string | null;
  /** The command that continues the run; default: built from the run's input, mode and `stateArg`. */
  resumeCommand?: string | undefined;
  /** The --state the run used, for the default resume command. */
  stateArg?: string | undefined;
  /** The run's own summary, when it writes the report at its end. */
  summary?: RunSummaryLike | undefined;
  /** Client retries by cause, and their times, as the run counted them. */
  retries?: { byCause: Record<string, number>; times: readonly number[] } | undefined;
  /** Prices per call, to estimate spend when the run's summary is not there. */
  prices?: { pl: number; pd: number } | undefined;
  /** Rows paid at risk, read from the run's enriched CSV. */
  atRisk?: CappedList<AtRiskRow> | undefined;
  /** Rows by name verdict, read from the run's enriched CSV (the summary's counts win). */
  nameMatch?: Record<string, number> | undefined;
}

export function buildReport(agg: RunAggregates, options: BuildOptions): RunReport {
  const { summary } = options;
  const statuses = Object.fromEntries(REPORT_STATUSES.map((s) => [s, 0])) as Record<ReportStatus, number>;
  // A stopped run's summary counts only the rows it wrote out in order before the stop; the
  // state has every answer it checkpointed, so a stopped run is shown by payee.
  const byRow = summary !== undefined && summary.stopped === null;
  if (summary && byRow) {
    for (const s of REPORT_STATUSES) statuses[s] = summary.statuses[s] ?? 0;
    // Rows the run never reached (stopped early) are in no status of the summary.
    statuses.PENDING = agg.payeeStatuses.PENDING + agg.payeeStatuses.IN_FLIGHT;
  } else {
    Object.assign(statuses, agg.payeeStatuses);
  }
  const notReached = agg.payeeStatuses.PENDING + agg.payeeStatuses.IN_FLIGHT;
  const stoppedEarly = summary ? summary.stopped !== null : false;
  const readWholeInput = agg.run.totalRows !== null && !stoppedEarly;
  const finished =
    readWholeInput &&
    notReached === 0 &&
    agg.payeeStatuses.DEFERRED + agg.payeeStatuses.FAILED + agg.payeeStatuses.UNCONFIRMED === 0;

  const calls = summary ? { ...summary.calls } : agg.calls;
  const amount = summary ? summary.spend : options.prices ? calls.pl * options.prices.pl + calls.pd * options.prices.pd : null;

  const notes: string[] = [];
  if (!summary) {
    notes.push(
      'Rebuilt from the state file: counts are of payees (distinct account + IFSC); rows that failed the local checks and duplicate rows are not stored in the state, and neither are calls avoided, retries or the exit code of the run.',
    );
  }
  const nameMatch = summary && Object.keys(summary.nameMatch).length > 0 ? summary.nameMatch : options.nameMatch ?? (summary ? summary.nameMatch : null);
  if (nameMatch === null || options.atRisk === undefined) {
    notes.push('Name-match verdicts are computed when the output is written and are not kept in the state; give the run\'s enriched CSV (--csv) to list the rows paid at risk.');
  }
  const retryBins = options.retries ? binTimes(options.retries.times, agg.timeline.start, agg.timeline.binMs, agg.timeline.bins.length) : null;
  if (!options.retries) notes.push('Retries are counted by the run in memory; the state does not record them (a per-call log table would be needed to show them later).');

  return {
    generatedAt: options.generatedAt,
    toolVersion: options.toolVersion,
    registry: options.registry,
    run: agg.run,
    invocation: summary
      ? { resumed: summary.resumed, durationMs: summary.durationMs, exitCode: summary.exitCode, stopped: summary.stopped, message: summary.message }
      : null,
    finished,
    resumeCommand:
      options.resumeCommand ??
      `vas-verify bank ${agg.run.inputName} -o <the run's output> --mode ${agg.run.mode} --resume${options.stateArg ? ` --state ${options.stateArg}` : ''}`,
    statusUnit: byRow ? 'rows' : 'payees',
    statuses,
    payeeStatuses: agg.payeeStatuses,
    nameMatch,
    atRisk: options.atRisk ?? null,
    changedHolders: agg.changedHolders,
    action: { deferred: agg.deferred, failed: agg.failed, unconfirmed: agg.unconfirmed, notReached },
    spend: { calls, amount, avoided: summary ? { ...summary.avoided } : null, reused: agg.reused },
    retries: options.retries ? { ...options.retries.byCause } : null,
    retryBins,
    timeline: { binMs: agg.timeline.binMs, bins: agg.timeline.bins },
    topReasons: agg.topReasons,
    notes,
  };
}

function binTimes(times: readonly number[], start: number, binMs: number, count: number): number[] {
  const bins = new Array<number>(count).fill(0);
  for (const t of times) {
    const i = Math.max(0, Math.min(count - 1, Math.floor((t - start) / binMs)));
    bins[i]! += 1;
  }
  return bins;
}
