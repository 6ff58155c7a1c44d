/**
 * What the bank run takes and gives back, and the data its stages hand each other
 * (docs/ARCHITECTURE.md, "The bank run").
 */
import type { Client } from '../../api/client.js';
import type { SharedQuota } from '../../limiter/index.js';
import type { BankStore } from '../../state/bank-store.js';
import type { ResultRecord, RunMode } from '../../state/types.js';
import type { ProcessProbe } from '../../state/run-lock.js';
import type { IfscLookup, IfscRegistry } from '../../input/ifsc-registry.js';
import type { InputSummary } from '../../input/payee-file.js';
import type { ColumnOverrides } from '../../input/recognise.js';
import type { InputInfo } from '../../input/inspect.js';
import type { Delimiter } from '../../input/read-csv.js';
import type { RowOutcome, RowStatus } from '../columns.js';
import type { Decision, DecisionPolicy, DecisionReason } from '../../decision/index.js';

export interface BankRunOptions {
  inputPath: string;
  /** `inspectInput(inputPath)` already under way (see inspectInBackground); started here if absent. */
  inspection?: Promise<InputInfo> | undefined;
  outputPath: string;
  /** pl (no deposit), pd (one-rupee deposit) or hybrid (pd only where pl said NOT_VERIFIED). */
  mode: RunMode;
  resume: boolean;
  retryUnconfirmed: boolean;
  /** Take a final result younger than this from the state instead of calling. */
  reuseMs?: number | undefined;
  /** `--max-age`: this run's answers older than this are asked again (nightly re-verification); undefined: never. */
  maxAgeMs?: number | undefined;
  /** Requests per second; undefined = no rate limit. */
  rate?: number | undefined;
  concurrency: number;
  columns: ColumnOverrides;
  /** `--header-row N`: the header is at line N of the input (default: found in the first 20 lines). */
  headerRow?: number | undefined;
  /** `--sheet NAME` of an .xlsx input (default: the first sheet, or the one whose content is a payee list). */
  sheet?: string | undefined;
  /** `--delimiter`: the CSV delimiter (default: sniffed). */
  delimiter?: Delimiter | undefined;
  /** `--explain-columns`: log each column's header meaning and content scores (default: off). */
  explainColumns?: boolean | undefined;
  /** Where a spreadsheet may spool its shared strings (the state file's folder). Default: nothing spooled. */
  spoolDir?: string | undefined;
  maxCalls?: number | undefined;
  /** `--policy FILE`: which verdicts PAY, REVIEW or HOLD (src/decision/policy.ts); default DEFAULT_POLICY. */
  policy?: { source: string; policy: DecisionPolicy } | undefined;
  /** `--fail-on`: exit 4 when every row is final but payees are on HOLD (`hold`), or on HOLD or REVIEW (`review`). Default: never. */
  failOn?: FailOn | undefined;
  maxSpend?: number | undefined;
  pricePl: number;
  pricePd: number;
  dryRun: boolean;
  /** Consecutive service failures that stop the run; default DEFAULT_BREAKER_THRESHOLD (10). */
  breakerThreshold?: number | undefined;
  /** How long a stop waits for calls in flight; default DEFAULT_STOP_GRACE_MS (15 s). */
  stopGraceMs?: number | undefined;
  /** One quota shared through Redis (src/limiter): a Redis URL and the limiter id (a hash of the credential). */
  redis?: SharedQuota | undefined;
  /** How long a penny-drop is remembered per payee, across runs and files (default DEFAULT_DEPOSIT_MEMORY_MS, 90 days). */
  depositMemoryMs?: number | undefined;
  /** How long a run waits to see whether another host's lock is alive (default LOCK_LEASE_MS, 2 minutes). */
  lockLeaseMs?: number | undefined;
  /** Recorded with the run's stats for its report (src/state/run-stats.ts): the command that continues it, and the tool's version. Default: none. */
  recorded?: { resumeCommand?: string | undefined; toolVersion?: string | undefined } | undefined;
}

/** What `--fail-on` turns into exit 4: payees on HOLD, or payees on HOLD or to REVIEW. */
export type FailOn = 'hold' | 'review';

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
}

export interface ProgressSnapshot {
  rowsDone: number;
  /** Estimated from the file's line count until the end is read. */
  rowsTotal: number;
  totalKnown: boolean;
  callsMade: number;
  elapsedMs: number;
  counts: Record<RowStatus, number>;
}

export interface NameMatcher {
  (expected: string, actual: string): { score: number; result: string };
}

export interface BankRunDeps {
  /** Not needed for a dry run. */
  client: Client | undefined;
  store: BankStore;
  now: () => number;
  /** Aborted on SIGINT/SIGTERM/SIGHUP: stop dispatching, wait for calls in flight, checkpoint. */
  stopSignal: AbortSignal;
  log: Logger;
  pid: number;
  isAlive: (pid: number) => boolean;
  /** How processes of this host are looked at for the run lock (default: /proc, kill 0); tests give another host or clock here. */
  lockProbe?: ProcessProbe | undefined;
  /** This host's name for the run lock (default os.hostname()). */
  host?: string | undefined;
  matchNames?: NameMatcher | undefined;
  /** The shipped IFSC registry: unknown bank codes are INVALID, bank_name is filled from it. Absent: not consulted. */
  ifscRegistry?: IfscRegistry | undefined;
  onProgress?: ((snapshot: ProgressSnapshot) => void) | undefined;
}

/**
 * Why a run stopped dispatching. `tls`: the API's TLS certificate failed verification;
 * `lock-lost`: another run took the state file's lock; `input-changed`: the input changed while
 * it was read (all three exit 1).
 */
export type StopReason = 'signal' | 'breaker' | 'auth' | 'tls' | 'max-calls' | 'max-spend' | 'fatal' | 'lock-lost' | 'input-changed';

export interface BankRunSummary {
  runId: number | null;
  resumed: boolean;
  dryRun: boolean;
  /** How the input was read: file, header line, columns taken, output columns renamed (src/input/payee-file.ts). */
  input: InputSummary;
  output: string | null;
  mode: RunMode;
  rows: number;
  statuses: Record<RowStatus, number>;
  sources: Record<string, number>;
  nameMatch: Record<string, number>;
  calls: { pl: number; pd: number };
  /** Calls a dry run would make. */
  wouldCall: { pl: number; pd: number };
  avoided: { local: number; duplicate: number; reuse: number; deferral: number; hybrid: number };
  unconfirmedOnResume: number;
  /**
   * Nightly re-verification (--max-age): the run's earlier answers asked again because they were
   * older than `maxAgeMs`, and those re-emitted as they were; `oldestAnswerAt`: the oldest answer
   * the output carries (ISO), for the warning when a whole run is re-emitted from old answers.
   */
  reverify: { maxAgeMs: number | null; rechecked: number; reused: number; oldestAnswerAt: number | null };
  /** The whole run, every invocation (this one's are `calls` and `spend`). */
  run: { invocations: number; calls: { pl: number; pd: number }; spend: number };
  spend: number;
  stopped: StopReason | null;
  message: string | null;
  durationMs: number;
  /** Payee rows by decision (SKIPPED rows have none); all zero for a dry run, which decides nothing. */
  decisions: Record<Decision, number>;
  /** Rows by decision_reason. */
  decisionReasons: Partial<Record<DecisionReason, number>>;
  /** Rows by decision, then decision_reason (what the cron notice lists under HOLD and REVIEW). */
  decisionReasonsBy: Record<Decision, Partial<Record<DecisionReason, number>>>;
  /** Where the file has an amount column: the amounts by decision (rupees), and the cells that were not amounts. */
  amounts: { PAY: number; REVIEW: number; HOLD: number; unreadable: number } | null;
  /** The decision policy the run used, and where it came from (`default` or the --policy file). */
  policy: { source: string } & DecisionPolicy;
  exitCode: 0 | 1 | 3 | 4;
}

/** What a payee's calls (or the state) came to; every row of the payee takes it. */
export interface PayeeOutcome {
  status: RowStatus;
  reason: string;
  source: 'api' | 'reuse';
  result: ResultRecord | undefined;
  requestId: string;
}

/** A payee met in this run whose outcome is not known yet, or has just become known. */
export interface PayeeTask {
  /** `account|ifsc`. */
  payee: string;
  /** The data row where the payee first appears: how the state names it. */
  firstRow: number;
  /** Whether the state has its row yet: a new payee's row is written with its first IN_FLIGHT mark. */
  stored: boolean;
  account: string;
  ifsc: string;
  outcome: PayeeOutcome | undefined;
  /** The deposit history's row of this payee's penny-drop in flight (the ledger settles it). */
  depositId?: number | null | undefined;
}

/** One data row between reading and writing. */
export interface Slot {
  line: number;
  /** The data row (1-based, as the state counts payees' rows); 0 for a row that is not a payee. */
  row: number;
  /** Its payee, once its local checks passed. */
  payee?: { account: string; ifsc: string } | undefined;
  fields: string[];
  /** The fields the checks and the name match read, where a merged cell filled a payee cell (src/input/merged-cells.ts); else `fields`. */
  read?: string[] | undefined;
  /** Characters held, for the read-ahead bound. */
  size: number;
  /** Known without its payee (a local check failed, or the state had it). */
  outcome: RowOutcome | undefined;
  /** The payee whose outcome the row waits for. */
  task: PayeeTask | undefined;
  /** Not the payee's first row in the file. */
  duplicate: boolean;
  /** What the IFSC registry says of the row's IFSC (when a registry is consulted). */
  ifsc?: IfscLookup | undefined;
}
