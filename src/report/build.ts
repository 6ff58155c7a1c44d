/**
 * Puts the report together: the state's aggregates, and what the run recorded of its last
 * invocation (row-level counts, name verdicts, spend, calls avoided, retries, exit code) — or,
 * when given, a summary the caller holds. Pure.
 */
import type { RunAggregates } from './aggregate.js';
import { shellCommand } from '../shell-quote.js';
import type { DecisionsSinceRun } from './standing.js';
import { REPORT_STATUSES, type AtRiskRow, type CappedList, type RecordedRun, type ReportStatus, type RunReport } from './model.js';

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
  /** The IFSC registry; default: the one the run recorded. */
  registry?: string | null | undefined;
  /** The command that continues the run; default: the one the run recorded, else built from its input, mode and `stateArg`. */
  resumeCommand?: string | undefined;
  /** The --state the run used, for the default resume command. */
  stateArg?: string | undefined;
  /** A summary of the run's last invocation; default: what the run recorded in the state. */
  summary?: RunSummaryLike | undefined;
  /** Client retries by cause, and their times; default: what the run recorded in the state. */
  retries?: { byCause: Record<string, number>; times: readonly number[] } | undefined;
  /** Prices per call, to estimate spend when the run recorded none. */
  prices?: { pl: number; pd: number } | undefined;
  /** Why the run's own enriched file was not read (it was replaced by a later run's), when it was not. */
  outputNote?: string | undefined;
  /** VERIFIED rows whose name does not match, read from the enriched CSV of a run that kept no decisions in the state. */
  atRisk?: CappedList<AtRiskRow> | undefined;
  /** Rows by name verdict, read from the run's enriched CSV (the run's own counts win). */
  nameMatch?: Record<string, number> | undefined;
  /** The decisions changed since the run (reviews, newer answers), when the page shows them as they stand now; default: as the run wrote them. */
  since?: DecisionsSinceRun | undefined;
}

/** What is known of the run's last invocation: its summary, or its record in the state. */
interface Known extends Omit<RunSummaryLike, 'exitCode' | 'durationMs'> {
  exitCode: number | null;
  durationMs: number | null;
  /** The invocation recorded its end (a killed run did not). */
  ended: boolean;
  finishedAt: number | null;
}

function fromRecord(r: RecordedRun): Known {
  return {
    resumed: r.resumed, rows: r.rows, statuses: r.statuses, nameMatch: r.nameMatch, calls: r.calls, avoided: r.avoided, spend: r.spend,
    // A run that recorded no end was killed (or still runs): shown like a stop, from what its last commit held.
    stopped: r.finishedAt === null ? 'unrecorded' : r.stopped,
    message: r.finishedAt === null ? 'the run recorded no end: it was killed, or is still running' : r.message,
    durationMs: r.durationMs, exitCode: r.exitCode, ended: r.finishedAt !== null, finishedAt: r.finishedAt,
  };
}

function knownOf(agg: RunAggregates, summary: RunSummaryLike | undefined): Known | undefined {
  if (summary) return { ...summary, ended: true, finishedAt: null };
  return agg.recorded ? fromRecord(agg.recorded) : undefined;
}

/**
 * Counts by status: rows of the file when the invocation ran to its end (every row written out);
 * otherwise payees from the state, which has every answer checkpointed before a stop.
 */
function statusCounts(agg: RunAggregates, known: Known | undefined): { unit: 'rows' | 'payees'; statuses: Record<ReportStatus, number> } {
  const statuses = Object.fromEntries(REPORT_STATUSES.map((s) => [s, 0])) as Record<ReportStatus, number>;
  if (!known || known.stopped !== null) return { unit: 'payees', statuses: Object.assign(statuses, agg.payeeStatuses) };
  for (const s of REPORT_STATUSES) statuses[s] = known.statuses[s] ?? 0;
  // Rows the run never reached (stopped early) are in no status of the summary.
  statuses.PENDING = agg.payeeStatuses.PENDING + agg.payeeStatuses.IN_FLIGHT;
  return { unit: 'rows', statuses };
}

function isFinished(agg: RunAggregates, known: Known | undefined): boolean {
  const p = agg.payeeStatuses;
  const stoppedEarly = known ? known.stopped !== null : false;
  return agg.run.totalRows !== null && !stoppedEarly && p.PENDING + p.IN_FLIGHT + p.DEFERRED + p.FAILED + p.UNCONFIRMED === 0;
}

function notesFor(known: Known | undefined, nameMatch: Record<string, number> | null, options: BuildOptions, retriesKnown: boolean, decided: boolean): string[] {
  const notes: string[] = [];
  if (!known) {
    notes.push(
      'This run was made by a version that kept no run record: counts are of payees (distinct account + IFSC); rows that failed the local checks and duplicate rows are not stored in the state, and neither are calls avoided, retries or the exit code of the run.',
    );
  }
  if (options.outputNote) notes.push(options.outputNote);
  else if (!decided && (nameMatch === null || options.atRisk === undefined)) {
    notes.push('This run kept no decisions in the state: its verified rows whose name does not match are read from its enriched CSV, which was not found (give it with --csv).');
  }
  if (!retriesKnown) notes.push('Retries over time are not recorded for this run.');
  return notes;
}

function defaultResumeCommand(agg: RunAggregates, options: BuildOptions): string {
  const output = agg.recorded?.outputName ?? "<the run's output>";
  return shellCommand(['vas-verify', 'bank', agg.run.inputName, '-o', output, '--mode', agg.run.mode, '--resume', ...(options.stateArg ? ['--state', options.stateArg] : [])]);
}

function invocationOf(known: Known | undefined): RunReport['invocation'] {
  if (!known) return null;
  return { resumed: known.resumed, durationMs: known.durationMs, exitCode: known.exitCode, stopped: known.stopped, message: known.message, finishedAt: known.finishedAt };
}

export function buildReport(agg: RunAggregates, options: BuildOptions): RunReport {
  const known = knownOf(agg, options.summary);
  const { unit, statuses } = statusCounts(agg, known);
  const calls = known ? { ...known.calls } : agg.calls;
  const amount = known ? known.spend : options.prices ? calls.pl * options.prices.pl + calls.pd * options.prices.pd : null;
  const nameMatch = known && Object.keys(known.nameMatch).length > 0 ? known.nameMatch : options.nameMatch ?? agg.decisions?.nameMatch ?? (known ? known.nameMatch : null);
  const retries = options.retries ? { ...options.retries.byCause } : agg.recorded && !options.summary ? { ...agg.recorded.retries } : null;
  const retryBins = options.retries
    ? binTimes(options.retries.times, agg.timeline.start, agg.timeline.binMs, agg.timeline.bins.length)
    : agg.activity?.map((b) => b.retries) ?? null;
  return {
    generatedAt: options.generatedAt,
    toolVersion: options.toolVersion,
    runToolVersion: agg.recorded?.toolVersion ?? null,
    registry: options.registry ?? agg.recorded?.registry ?? null,
    run: agg.run,
    invocation: invocationOf(known),
    outputName: agg.recorded?.outputName ?? null,
    finished: isFinished(agg, known),
    resumeCommand: options.resumeCommand ?? agg.recorded?.resumeCommand ?? defaultResumeCommand(agg, options),
    statusUnit: unit,
    statuses,
    payeeStatuses: agg.payeeStatuses,
    nameMatch,
    atRisk: agg.decisions ? null : options.atRisk ?? null,
    decisions: agg.decisions,
    since: agg.decisions ? options.since ?? null : null,
    changedHolders: agg.changedHolders,
    action: { deferred: agg.deferred, failed: agg.failed, unconfirmed: agg.unconfirmed, notReached: agg.payeeStatuses.PENDING + agg.payeeStatuses.IN_FLIGHT },
    spend: { calls, amount, run: wholeRun(agg), avoided: known ? { ...known.avoided } : null, reused: agg.reused },
    retries,
    retryBins,
    activity: agg.activity,
    timeline: { binMs: agg.timeline.binMs, bins: agg.timeline.bins },
    topReasons: agg.topReasons,
    notes: [...notesFor(known, nameMatch, options, retryBins !== null, agg.decisions !== null), ...(options.since?.notApplied ? [options.since.notApplied] : [])],
  };
}

/** Calls and spend of every invocation of the run, where the state records them. */
function wholeRun(agg: RunAggregates): RunReport['spend']['run'] {
  const r = agg.recorded;
  return r?.run ? { calls: { ...r.run.calls }, amount: r.run.spend, invocations: r.invocations } : null;
}

function binTimes(times: readonly number[], start: number, binMs: number, count: number): number[] {
  const bins = new Array<number>(count).fill(0);
  for (const t of times) {
    const i = Math.max(0, Math.min(count - 1, Math.floor((t - start) / binMs)));
    bins[i]! += 1;
  }
  return bins;
}
