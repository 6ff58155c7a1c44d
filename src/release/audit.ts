/**
 * The audit trail as `vas-verify audit` prints it (docs/ARCHITECTURE.md, "Decisions"): each entry
 * with account numbers masked to their last four digits, as JSON lines or CSV, and the chain
 * checked from its first entry (src/state/audit.ts): the first entry that does not hold is named.
 */
import { encodeCsv } from '../output/csv.js';
import { maskAccount, maskDigits } from '../pipeline/checks.js';
import { neutralise } from '../pipeline/columns.js';
import { AuditTrail, type AuditEntry } from '../state/audit.js';
import { auditConsistencyProblem } from '../state/audit-consistency.js';
import type { Db } from '../state/types.js';

export type AuditFormat = 'json' | 'csv';

/**
 * The CSV's columns: `who` is the reviewer (the OS user for a release, `vas-verify` for an automatic decision), `decision`
 * what was decided (PAY, REVIEW, HOLD; a review's ACCEPTED or REJECTED); `entry` the whole entry.
 */
export const AUDIT_CSV_COLUMNS = ['seq', 'at', 'run_id', 'kind', 'who', 'decision', 'reason', 'row', 'account', 'ifsc', 'holder', 'note', 'entry', 'hash'] as const;

/** An entry's fields with every account number masked (keys named `account` wholly, digit runs in any text). */
export function maskEntry(value: unknown, key = ''): unknown {
  if (typeof value === 'string') return key === 'account' ? maskAccount(value) : maskDigits(value);
  if (Array.isArray(value)) return value.map((v) => maskEntry(v));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskEntry(v, k)]));
  return value;
}

function printable(entry: AuditEntry): { seq: number; at: string; runId: number | null; kind: string; entry: Record<string, unknown>; hash: string } {
  return { seq: entry.seq, at: new Date(entry.at).toISOString(), runId: entry.runId, kind: entry.kind, entry: maskEntry(entry.entry) as Record<string, unknown>, hash: entry.hash };
}

/** One entry as the format prints it (a JSON line, or a CSV record with its line break). */
export function formatEntry(entry: AuditEntry, format: AuditFormat): string {
  const p = printable(entry);
  if (format === 'json') return `${JSON.stringify(p)}\n`;
  const text = (...keys: string[]) => {
    const v = keys.map((k) => p.entry[k]).find((x) => typeof x === 'string' || typeof x === 'number');
    return v === undefined ? '' : neutralise(String(v));
  };
  return encodeCsv([[
    String(p.seq), p.at, p.runId === null ? '' : String(p.runId), p.kind, text('reviewer', 'by'), text('verdict', 'decision'), text('reason'), text('row'),
    text('account'), text('ifsc'), text('holder'), text('note'), neutralise(JSON.stringify(p.entry)), p.hash,
  ]]);
}

export interface AuditCheck {
  /** Entries checked (the whole chain). */
  entries: number;
  /** Entries printed (those of the run asked for, or all). */
  printed: number;
  /** The first break of the chain, or undefined when it holds. */
  problem: string | undefined;
  lastHash: string | undefined;
}

/** Reads and checks the whole chain; hands each entry of `runId` (or every entry) to `print`. */
export function checkAuditTrail(trail: AuditTrail, runId: number | undefined, print: (entry: AuditEntry) => void): AuditCheck {
  const check: AuditCheck = { entries: 0, printed: 0, problem: undefined, lastHash: undefined };
  for (const { entry, problem } of trail.entries()) {
    check.entries += 1;
    check.lastHash = entry.hash;
    check.problem ??= problem;
    if (runId === undefined || entry.runId === runId) {
      check.printed += 1;
      print(entry);
    }
  }
  return check;
}

/**
 * What makes the state's decisions untrustworthy, or undefined: the hash chain broken, or the
 * reviews and the run's decisions (`runId`'s; every run's when undefined) disagreeing with it
 * (src/state/audit-consistency.ts). The release writes no payout on such a state.
 */
export function trailProblem(db: Db, runId: number | undefined): string | undefined {
  return checkAuditTrail(new AuditTrail(db), undefined, () => {}).problem ?? auditConsistencyProblem(db, runId);
}
