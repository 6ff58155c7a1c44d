/**
 * The run report as data: what the page shows, built from the state's aggregates (aggregate.ts)
 * and, when the report is written at the end of a run, from the summary that run returned.
 * Pure data, no I/O: render.ts turns it into the page.
 */
import type { DecisionsSinceRun } from './standing.js';
import type { ActionItem, ActivityBin, CappedList, ChangedHolder, RecordedRun, ReportStatus, RunDecisions, RunInfo, TimeBin } from '../state/report-reader.js';
export type { ActionItem, ActivityBin, CappedList, ChangedHolder, DecisionAmounts, DecisionRow, PayeeRef, RecordedRun, ReportStatus, RunDecisions, RunInfo, TimeBin } from '../state/report-reader.js';
export { REPORT_STATUSES } from '../state/report-reader.js';

export const NAME_VERDICTS = ['DIRECT_MATCH', 'GOOD_PARTIAL_MATCH', 'MODERATE_PARTIAL_MATCH', 'POOR_PARTIAL_MATCH', 'NO_MATCH'] as const;

/** Most entries of a list the page shows; the rest are counted and named by a CSV filter. Default 50. */
export const DEFAULT_LIST_CAP = 50;

/** A VERIFIED row whose holder's name does not match, read from the enriched file (a run before decisions were kept). */
export interface AtRiskRow {
  /** Line of the output CSV (= the input line). */
  line: number;
  account: string;
  ifsc: string;
  expectedName: string;
  beneficiaryName: string;
  verdict: string;
  score: string;
}


export interface RunReport {
  generatedAt: number;
  /** The version that wrote the page. */
  toolVersion: string;
  /** The version that ran the run, when it recorded it. */
  runToolVersion: string | null;
  /** The IFSC registry the local checks used, with its date; null when the run recorded none. */
  registry: string | null;
  run: RunInfo;
  /** How the run's last invocation went (its own summary, or what it recorded in the state); null when not known. */
  invocation: {
    resumed: boolean;
    /** Null when the invocation recorded no end (killed, or still running). */
    durationMs: number | null;
    exitCode: number | null;
    stopped: string | null;
    message: string | null;
    finishedAt: number | null;
  } | null;
  /** The enriched CSV the run wrote (-o as given), for the filter commands of capped lists; null when not known. */
  outputName: string | null;
  /** Whether every row is final (no PENDING, IN_FLIGHT, DEFERRED, FAILED, UNCONFIRMED) and the run read its whole input. */
  finished: boolean;
  /** The command that continues the run. */
  resumeCommand: string;
  /**
   * Counts by status. `rows` when the run's own summary is known (every row of the file, INVALID
   * from local checks and duplicates included); otherwise `payees` (distinct account+IFSC the
   * state holds; rows that failed local checks are not stored).
   */
  statusUnit: 'rows' | 'payees';
  statuses: Record<ReportStatus, number>;
  /** Payees by status, always from the state. */
  payeeStatuses: Record<ReportStatus, number>;
  /** Rows by name verdict; null when not known (the state keeps no payee names). */
  nameMatch: Record<string, number> | null;
  /** VERIFIED rows whose name verdict is POOR_PARTIAL_MATCH or NO_MATCH, from the enriched file; null when not known or when `decisions` lists them. */
  atRisk: CappedList<AtRiskRow> | null;
  /** Each payee row's decision, from the state; null for a run before decisions were kept (the page then has no decision lists). */
  decisions: RunDecisions | null;
  /**
   * What changed since the run (reviews, newer answers) when `decisions` are as they stand now
   * (`vas-verify report`); null when they are as the run wrote them (`bank --report`) or there are none.
   */
  since: DecisionsSinceRun | null;
  changedHolders: CappedList<ChangedHolder>;
  action: {
    deferred: CappedList<ActionItem>;
    failed: CappedList<ActionItem>;
    unconfirmed: CappedList<ActionItem>;
    /** Payees never answered because the run stopped (PENDING or IN_FLIGHT). */
    notReached: number;
  };
  spend: {
    /** Calls of the last invocation. */
    calls: { pl: number; pd: number };
    /** Estimated spend of the last invocation, when the prices are known. */
    amount: number | null;
    /** Calls and spend of the whole run (every invocation); null when the state does not record them. */
    run: { calls: { pl: number; pd: number }; amount: number; invocations: number } | null;
    /** Calls not made, by reason; null when not known (rebuilt from the state). */
    avoided: Record<string, number> | null;
    /** Payees answered from an earlier result (--reuse). */
    reused: number;
  };
  /** Client retries by cause (status or error code); null when not known. */
  retries: Record<string, number> | null;
  /** Retries over time (same bins as `timeline`); null when not recorded. */
  retryBins: number[] | null;
  /** Calls, retries and upstream errors over time (same bins as `timeline`); null when not recorded. */
  activity: ActivityBin[] | null;
  timeline: { binMs: number; bins: TimeBin[] };
  topReasons: Array<{ reason: string; count: number }>;
  /** What the page could not show, and why (the state does not record it). */
  notes: string[];
}
