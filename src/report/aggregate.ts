/**
 * The report's figures, read from the state with a few aggregate queries over the existing
 * tables (runs, run_keys, results): a scan or two of the run's keys, whatever the size of the
 * run, and capped lists. Nothing here writes to the state.
 */
import type Database from 'better-sqlite3';
import { UsageError } from '../errors.js';
import { maskAccountNumber, maskLongDigits } from './escape.js';
import { REPORT_STATUSES, type ActionItem, type CappedList, type ChangedHolder, type ReportStatus, type RunInfo, type TimeBin } from './model.js';

type Db = Database.Database;

/** Most bins of the timeline. */
export const MAX_TIME_BINS = 48;
/** Most distinct reasons listed. */
export const TOP_REASONS = 10;

/** Bin widths the timeline picks from: the smallest that keeps it within MAX_TIME_BINS. */
const BIN_STEPS_MS = [100, 200, 500, 1_000, 2_000, 5_000, 10_000, 30_000, 60_000, 300_000, 600_000, 1_800_000, 3_600_000, 7_200_000, 21_600_000, 43_200_000, 86_400_000, 604_800_000];

export interface RunAggregates {
  run: RunInfo;
  payeeStatuses: Record<ReportStatus, number>;
  changedHolders: CappedList<ChangedHolder>;
  deferred: CappedList<ActionItem>;
  failed: CappedList<ActionItem>;
  unconfirmed: CappedList<ActionItem>;
  /** Requests marked IN_FLIGHT over the run's life, by phase (hybrid rows that went on to penny-drop count one of each). */
  calls: { pl: number; pd: number };
  reused: number;
  timeline: { start: number; binMs: number; bins: TimeBin[] };
  topReasons: Array<{ reason: string; count: number }>;
}

/** `--run N` names a run the state does not hold: a usage error (exit 2). */
export class RunNotFoundError extends UsageError {}

/** The newest run of the state file, or undefined when it has none. */
export function latestRunId(db: Db): number | undefined {
  const row = db.prepare('SELECT max(id) AS id FROM runs').get() as { id: number | null };
  return row.id ?? undefined;
}

/** Every run of the state, newest first (for the error that names them). */
export function listRuns(db: Db): Array<{ id: number; inputName: string; mode: string; createdAt: number }> {
  return db.prepare('SELECT id, input_name AS inputName, mode, created_at AS createdAt FROM runs ORDER BY id DESC LIMIT 20').all() as Array<{ id: number; inputName: string; mode: string; createdAt: number }>;
}

function emptyStatuses(): Record<ReportStatus, number> {
  return Object.fromEntries(REPORT_STATUSES.map((s) => [s, 0])) as Record<ReportStatus, number>;
}

export function chooseBinMs(spanMs: number): number {
  for (const step of BIN_STEPS_MS) if (spanMs / step < MAX_TIME_BINS) return step;
  return Math.ceil(spanMs / MAX_TIME_BINS);
}

/** Reads every aggregate of run `runId`; lists are capped at `listCap` entries. */
export function readRunAggregates(db: Db, runId: number, listCap: number): RunAggregates {
  const runRow = db
    .prepare(
      `SELECT id, fingerprint, mode, input_name AS inputName, status, total_rows AS totalRows, created_at AS createdAt, updated_at AS updatedAt
       FROM runs WHERE id = ?`,
    )
    .get(runId) as
    | { id: number; fingerprint: string; mode: RunInfo['mode']; inputName: string; status: 'open' | 'complete'; totalRows: number | null; createdAt: number; updatedAt: number }
    | undefined;
  if (!runRow) {
    const runs = listRuns(db).map((r) => r.id);
    throw new RunNotFoundError(`run ${runId} is not in this state file${runs.length ? ` (runs: ${runs.join(', ')})` : ' (it has no runs)'}`);
  }

  // One scan of the run's keys: counts by outcome, calls, reuse, changed holders and the time span.
  const groups = db
    .prepare(
      `SELECT k.status AS keyStatus, r.status AS resultStatus, k.source AS source, k.phase AS phase,
              count(*) AS n, sum(k.attempts) AS attempts,
              sum(r.changed_since IS NOT NULL AND k.source = 'api') AS changed,
              min(CASE WHEN k.status = 'DONE' THEN r.verified_at ELSE k.updated_at END) AS firstAt,
              max(CASE WHEN k.status = 'DONE' AND k.source = 'api' THEN r.verified_at ELSE k.updated_at END) AS lastAt
       FROM run_keys k LEFT JOIN results r ON r.id = k.result_id
       WHERE k.run_id = ?
       GROUP BY 1, 2, 3, 4`,
    )
    .all(runId) as Array<{ keyStatus: string; resultStatus: string | null; source: string | null; phase: string | null; n: number; attempts: number; changed: number; firstAt: number; lastAt: number }>;

  const payeeStatuses = emptyStatuses();
  const calls = { pl: 0, pd: 0 };
  let reused = 0;
  let changedTotal = 0;
  let lastAt = runRow.createdAt;
  for (const g of groups) {
    const status = (g.keyStatus === 'DONE' ? g.resultStatus ?? 'INVALID' : g.keyStatus) as ReportStatus;
    payeeStatuses[status] += g.n;
    if (g.source === 'reuse') reused += g.n;
    changedTotal += g.changed;
    lastAt = Math.max(lastAt, g.lastAt);
    if (g.phase === 'pd') {
      // A hybrid row reaches penny-drop after its penny-less call said NOT_VERIFIED.
      const plFirst = runRow.mode === 'hybrid' ? g.n : 0;
      calls.pl += plFirst;
      calls.pd += g.attempts - plFirst;
    } else if (g.phase === 'pl') {
      calls.pl += g.attempts;
    }
  }
  const run: RunInfo = {
    runId: runRow.id,
    inputName: runRow.inputName,
    fingerprint: runRow.fingerprint,
    mode: runRow.mode,
    stateStatus: runRow.status,
    startedAt: runRow.createdAt,
    updatedAt: Math.max(runRow.updatedAt, lastAt),
    totalRows: runRow.totalRows,
  };

  // ---- what happened over time ----
  const start = runRow.createdAt;
  const binMs = chooseBinMs(Math.max(1, run.updatedAt - start + 1));
  const binRows = db
    .prepare(
      `SELECT max(0, CAST(((CASE WHEN k.status = 'DONE' THEN r.verified_at ELSE k.updated_at END) - ?) / ? AS INTEGER)) AS b,
              k.status AS status, count(*) AS n
       FROM run_keys k LEFT JOIN results r ON r.id = k.result_id
       WHERE k.run_id = ? AND (k.status IN ('FAILED', 'UNCONFIRMED', 'DEFERRED') OR (k.status = 'DONE' AND k.source = 'api'))
       GROUP BY 1, 2 ORDER BY 1`,
    )
    .all(start, binMs, runId) as Array<{ b: number; status: string; n: number }>;
  const binCount = Math.max(1, Math.min(MAX_TIME_BINS * 4, Math.floor((run.updatedAt - start) / binMs) + 1));
  const bins: TimeBin[] = Array.from({ length: binCount }, (_, i) => ({ start: start + i * binMs, answered: 0, failed: 0, unconfirmed: 0, deferred: 0 }));
  for (const row of binRows) {
    const bin = bins[Math.min(row.b, bins.length - 1)]!;
    if (row.status === 'DONE') bin.answered += row.n;
    else if (row.status === 'FAILED') bin.failed += row.n;
    else if (row.status === 'UNCONFIRMED') bin.unconfirmed += row.n;
    else if (row.status === 'DEFERRED') bin.deferred += row.n;
  }

  // ---- the reasons people see in verify_reason, without the request id that makes each unique ----
  const reasons = db
    .prepare(
      `SELECT CASE WHEN instr(reason, ' (') > 0 THEN substr(reason, 1, instr(reason, ' (') - 1) ELSE reason END AS reason, count(*) AS count
       FROM (SELECT CASE WHEN k.status = 'DONE' THEN r.reason ELSE k.reason END AS reason
             FROM run_keys k LEFT JOIN results r ON r.id = k.result_id WHERE k.run_id = ?)
       WHERE reason IS NOT NULL AND reason <> ''
       GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT ?`,
    )
    .all(runId, TOP_REASONS) as Array<{ reason: string; count: number }>;
  const topReasons = reasons.map((r) => ({ reason: maskLongDigits(r.reason), count: r.count }));

  // ---- the lists ----
  const actionQuery = db.prepare(
    `SELECT first_idx AS row, account, ifsc, status, reason, due_at AS dueAt, request_id AS requestId, updated_at AS updatedAt
     FROM run_keys WHERE run_id = ? AND status = ? ORDER BY first_idx LIMIT ?`,
  );
  const actionList = (status: 'DEFERRED' | 'FAILED' | 'UNCONFIRMED'): CappedList<ActionItem> => {
    const items = (actionQuery.all(runId, status, listCap) as ActionItem[]).map((item) => ({
      ...item,
      account: maskAccountNumber(item.account),
      reason: maskLongDigits(item.reason ?? ''),
    }));
    return { items, total: payeeStatuses[status] };
  };

  const changedRows = db
    .prepare(
      `SELECT k.first_idx AS row, k.account, k.ifsc, r.status AS afterStatus, r.beneficiary_name AS afterName,
              r.verified_at AS afterAt, r.changed_since AS description,
              p.status AS beforeStatus, p.beneficiary_name AS beforeName, p.verified_at AS beforeAt
       FROM run_keys k JOIN results r ON r.id = k.result_id
       LEFT JOIN results p ON p.id = (
         SELECT q.id FROM results q
         WHERE q.account = r.account AND q.ifsc = r.ifsc AND q.id < r.id AND q.status IN ('VERIFIED', 'NOT_VERIFIED')
         ORDER BY q.verified_at DESC, q.id DESC LIMIT 1)
       WHERE k.run_id = ? AND k.source = 'api' AND r.changed_since IS NOT NULL
       ORDER BY k.first_idx LIMIT ?`,
    )
    .all(runId, listCap) as ChangedHolder[];
  const changedHolders = {
    items: changedRows.map((c) => ({ ...c, account: maskAccountNumber(c.account), description: maskLongDigits(c.description) })),
    total: changedTotal,
  };

  return {
    run,
    payeeStatuses,
    changedHolders,
    deferred: actionList('DEFERRED'),
    failed: actionList('FAILED'),
    unconfirmed: actionList('UNCONFIRMED'),
    calls,
    reused,
    timeline: { start, binMs, bins },
    topReasons,
  };
}
