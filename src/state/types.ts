/**
 * The bank run's domain types as the state file keeps them (docs/ARCHITECTURE.md, "Glossary").
 * Types only: every other module of state/ and pipeline/ names these.
 */
import type Database from 'better-sqlite3';
import type { VerifyMode } from '../api/client.js';

/** An open state file. */
export type Db = Database.Database;

/** How one call verifies: `pl` penny-less (no deposit) or `pd` penny-drop (a one-rupee deposit). */
export type { VerifyMode };

/** A run's mode: a verification mode, or `hybrid` (pd only where pl said NOT_VERIFIED). */
export type RunMode = VerifyMode | 'hybrid';

/** Where a payee stands in a run (docs/ARCHITECTURE.md, "Life of a row"). */
export type PayeeStatus = 'PENDING' | 'IN_FLIGHT' | 'DONE' | 'DEFERRED' | 'FAILED' | 'UNCONFIRMED';

/** The verdict of a final result. */
export type FinalStatus = 'VERIFIED' | 'NOT_VERIFIED' | 'INVALID';

export interface RunRecord {
  id: number;
  fingerprint: string;
  mode: RunMode;
  status: 'open' | 'complete';
  totalRows: number | null;
  createdAt: number;
}

/** One payee (an account+IFSC pair) of a run, named by the data row where it first appears. */
export interface PayeeRecord {
  /** `account|ifsc`: the payee's identity within a run. */
  payee: string;
  account: string;
  ifsc: string;
  /** 1-based data row of the input where the payee first appears. */
  firstRow: number;
  status: PayeeStatus;
  /** The mode of the call IN_FLIGHT or last made. */
  mode: VerifyMode | null;
  source: 'api' | 'reuse' | null;
  reason: string | null;
  resultId: number | null;
  requestId: string | null;
  dueAt: number | null;
  attempts: number;
  /** The answer (result_id's row), when it was read together with the payee. */
  result?: ResultRecord | undefined;
}

/** A final answer for an account+IFSC, kept across runs (for reuse and change detection). */
export interface ResultRecord {
  id: number;
  account: string;
  ifsc: string;
  mode: VerifyMode;
  status: FinalStatus;
  reason: string | null;
  beneficiaryName: string | null;
  transactionRemark: string | null;
  bankName: string | null;
  bankBranch: string | null;
  bankCity: string | null;
  bankDistrict: string | null;
  bankState: string | null;
  bankMicr: string | null;
  bankIso3166: string | null;
  bankSwift: string | null;
  bankImps: boolean | null;
  bankNeft: boolean | null;
  bankRtgs: boolean | null;
  bankUpi: boolean | null;
  requestId: string | null;
  verifiedAt: number;
  changedSince: string | null;
}

export type NewResult = Omit<ResultRecord, 'id' | 'changedSince'>;

/** Who holds the run lock of a state file. */
export interface LockHolder {
  pid: number;
  host: string;
  startedAt: number;
}

/** What became of a penny-drop request: in flight, answered, unconfirmed (its answer lost), failed (the service said no rupee moved) or not sent. */
export type DepositStatus = 'IN_FLIGHT' | 'ANSWERED' | 'UNCONFIRMED' | 'FAILED' | 'NOT_SENT';

/** A penny-drop to a payee, from the deposit history (any run, any input file). */
export interface DepositRecord {
  id: number;
  status: 'IN_FLIGHT' | 'ANSWERED' | 'UNCONFIRMED';
  resultId: number | null;
  /** The run that sent it; null for one recorded by an older version. */
  runId: number | null;
  sentAt: number;
  /** The answer, when it was answered. */
  result: ResultRecord | undefined;
}

/** A request about to leave, asking for its payee. */
export interface ClaimRequest {
  runId: number;
  firstRow: number;
  account: string;
  ifsc: string;
  mode: VerifyMode;
  /** Whether the run's payee row exists (else it is inserted by the claim). */
  stored: boolean;
  /** For a penny-drop: deposits sent since this time count (the deposit memory). */
  depositSince?: number | undefined;
  /** --retry-unconfirmed: a deposit in flight or unconfirmed does not stop this one. */
  retryUnconfirmed: boolean;
}

/**
 * The claim's answer: the request may leave (with its deposit's id for a penny-drop); or the
 * payee already has a deposit; or its row is not ours to send (another process changed it);
 * or this invocation no longer holds the run lock.
 */
export type Claim =
  | { kind: 'claimed'; depositId: number | null }
  | { kind: 'deposited'; deposit: DepositRecord }
  | { kind: 'taken' }
  | { kind: 'lock-lost'; holder: LockHolder | undefined };

/** A payee row's decision as the run wrote it (table run_rows; docs/ARCHITECTURE.md, "Decisions"). */
export interface RunRowRecord {
  runId: number;
  /** The data row (1-based). */
  row: number;
  /** The file's line. */
  line: number;
  /** Its payee; null when the row failed its local checks. */
  account: string | null;
  ifsc: string | null;
  /** The payee name in the file, or null without a name column. */
  name: string | null;
  /** The amount cell, or null without an amount column. */
  amount: string | null;
  status: string;
  reasonCode: string;
  nameMatch: string | null;
  nameScore: number | null;
  decision: string;
  decisionReason: string;
}

/** What a person said of a payee (table reviews). */
export interface ReviewRecord {
  id: number;
  account: string;
  ifsc: string;
  /** The bank's holder name the reviewer decided on. */
  holder: string;
  verdict: 'ACCEPTED' | 'REJECTED';
  reviewer: string;
  note: string | null;
  runId: number | null;
  row: number | null;
  at: number;
  /** The different reviewers the acceptance was given under (review --approvals, the run's policy); 1 when not recorded. */
  approvals?: number | undefined;
}
