/**
 * The run report as data: what the page shows, built from the state's aggregates (aggregate.ts)
 * and, when the report is written at the end of a run, from the summary that run returned.
 * Pure data, no I/O: render.ts turns it into the page.
 */

export type ReportStatus = 'VERIFIED' | 'NOT_VERIFIED' | 'INVALID' | 'DEFERRED' | 'FAILED' | 'UNCONFIRMED' | 'PENDING' | 'IN_FLIGHT';

export const REPORT_STATUSES: readonly ReportStatus[] = ['VERIFIED', 'NOT_VERIFIED', 'INVALID', 'DEFERRED', 'FAILED', 'UNCONFIRMED', 'PENDING', 'IN_FLIGHT'];

export const NAME_VERDICTS = ['DIRECT_MATCH', 'GOOD_PARTIAL_MATCH', 'MODERATE_PARTIAL_MATCH', 'POOR_PARTIAL_MATCH', 'NO_MATCH'] as const;

/** Most entries of a list the page shows; the rest are counted and named by a CSV filter. Default 50. */
export const DEFAULT_LIST_CAP = 50;

/** A list shown on the page, capped: `total` counts every entry, `items` the first few. */
export interface CappedList<T> {
  items: T[];
  total: number;
}

export interface RunInfo {
  runId: number;
  inputName: string;
  fingerprint: string;
  mode: 'pl' | 'pd' | 'hybrid';
  /** 'complete': every row final. 'open': unfinished, or some rows wait for a later --resume. */
  stateStatus: 'open' | 'complete';
  startedAt: number;
  /** Last write of the run to the state. */
  updatedAt: number;
  /** Rows of the input, once a run has read it to the end; null before. */
  totalRows: number | null;
}

/** One payee (account+IFSC) of the run, as the state has it. */
export interface PayeeRef {
  /** Data row (1 = the first row under the header) where the payee first appears. */
  row: number;
  /** Masked to the last four digits. */
  account: string;
  ifsc: string;
}

export interface ActionItem extends PayeeRef {
  status: 'DEFERRED' | 'FAILED' | 'UNCONFIRMED';
  reason: string;
  /** DEFERRED: when the row may be tried again. */
  dueAt: number | null;
  requestId: string | null;
  updatedAt: number;
}

export interface ChangedHolder extends PayeeRef {
  /** The earlier check: its date, status and beneficiary name. */
  beforeAt: number | null;
  beforeStatus: string | null;
  beforeName: string | null;
  afterAt: number;
  afterStatus: string;
  afterName: string | null;
  /** The state's own description (changed_since). */
  description: string;
}

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

export interface TimeBin {
  /** Start of the bin (ms since the epoch). */
  start: number;
  /** Answers stored (VERIFIED, NOT_VERIFIED, INVALID from the API). */
  answered: number;
  failed: number;
  unconfirmed: number;
  deferred: number;
}

export interface RunReport {
  generatedAt: number;
  toolVersion: string;
  /** The IFSC registry the local checks used, with its date; null when the build records none. */
  registry: string | null;
  run: RunInfo;
  /** The outcome of this invocation, when the report is written by the run itself. */
  invocation: {
    resumed: boolean;
    durationMs: number;
    exitCode: number;
    stopped: string | null;
    message: string | null;
  } | null;
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
  /** VERIFIED rows whose name verdict is POOR_PARTIAL_MATCH or NO_MATCH; null when not known. */
  atRisk: CappedList<AtRiskRow> | null;
  changedHolders: CappedList<ChangedHolder>;
  action: {
    deferred: CappedList<ActionItem>;
    failed: CappedList<ActionItem>;
    unconfirmed: CappedList<ActionItem>;
    /** Payees never answered because the run stopped (PENDING or IN_FLIGHT). */
    notReached: number;
  };
  spend: {
    calls: { pl: number; pd: number };
    /** Estimated spend, when the prices are known. */
    amount: number | null;
    /** Calls not made, by reason; null when not known (rebuilt from the state). */
    avoided: Record<string, number> | null;
    /** Payees answered from an earlier result (--reuse). */
    reused: number;
  };
  /** Client retries by cause (status or error code); null when not known. */
  retries: Record<string, number> | null;
  /** Retries over time (same bins as `timeline`); null when not recorded. */
  retryBins: number[] | null;
  timeline: { binMs: number; bins: TimeBin[] };
  topReasons: Array<{ reason: string; count: number }>;
  /** What the page could not show, and why (the state does not record it). */
  notes: string[];
}
