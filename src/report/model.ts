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

/** Calls, retries and upstream errors in one bin of the timeline (from the run's per-second stats). */
export interface ActivityBin {
  start: number;
  calls: number;
  retries: number;
  /** 429 answers. */
  throttled: number;
  /** 5xx answers. */
  serverErrors: number;
  timeouts: number;
}

/** What a run recorded in the state of its last invocation (src/state/run-stats.ts). */
export interface RecordedRun {
  invocations: number;
  startedAt: number;
  updatedAt: number;
  /** Null while it runs, or when it was killed before it could record its end. */
  finishedAt: number | null;
  exitCode: number | null;
  stopped: string | null;
  message: string | null;
  resumed: boolean;
  durationMs: number | null;
  calls: { pl: number; pd: number };
  spend: number;
  /** Rows written out. */
  rows: number;
  statuses: Record<string, number>;
  nameMatch: Record<string, number>;
  avoided: Record<string, number>;
  retries: Record<string, number>;
  outputName: string | null;
  outputPath: string | null;
  /** The identity of the file the run wrote (JSON), null when it wrote none; undefined for a run of a version that did not record it. */
  outputFile?: string | null | undefined;
  resumeCommand: string | null;
  toolVersion: string | null;
  registry: string | null;
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
  /** Calls, retries and upstream errors over time (same bins as `timeline`); null when not recorded. */
  activity: ActivityBin[] | null;
  timeline: { binMs: number; bins: TimeBin[] };
  topReasons: Array<{ reason: string; count: number }>;
  /** What the page could not show, and why (the state does not record it). */
  notes: string[];
}
