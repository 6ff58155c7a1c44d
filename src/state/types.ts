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
