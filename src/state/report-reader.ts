/**
 * The state's reader for the run report (docs/ARCHITECTURE.md, "State file"): a few aggregate
 * queries over the run's tables (runs, run_payees, results, run_stats, run_activity) — a scan or
 * two of the run's payees, whatever the size of the run, and capped lists. It reads any schema
 * read-only (an older state's names included) and writes nothing. Values are as the state holds
 * them: the report masks account numbers where it shows them (src/report/aggregate.ts).
 */
import Database from 'better-sqlite3';
import { addAmount, parseAmount } from '../input/amount.js';
import { UsageError } from '../errors.js';
import type { Db, RunRowRecord } from './types.js';

/** SKIPPED: a row that is not a payee (blank, total, note), counted from the run's record; the state keeps no payee for it. */
export type ReportStatus = 'VERIFIED' | 'NOT_VERIFIED' | 'INVALID' | 'DEFERRED' | 'FAILED' | 'UNCONFIRMED' | 'SKIPPED' | 'PENDING' | 'IN_FLIGHT';

export const REPORT_STATUSES: readonly ReportStatus[] = ['VERIFIED', 'NOT_VERIFIED', 'INVALID', 'DEFERRED', 'FAILED', 'UNCONFIRMED', 'SKIPPED', 'PENDING', 'IN_FLIGHT'];

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
  /** The file's line of that row (what people are shown); null when the state does not record it (a run before schema 7, or a row not yet written out). */
  line: number | null;
  /** As the state holds it: the report masks it to the last four digits. */
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
  /** Calls and spend of the whole run, every invocation; null when the state does not record them (before schema 8). */
  run: { calls: { pl: number; pd: number }; spend: number } | null;
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


/** Most bins of the timeline. */
export const MAX_TIME_BINS = 48;
/** Most distinct reasons listed. */
export const TOP_REASONS = 10;

/** Bin widths the timeline picks from: the smallest that keeps it within MAX_TIME_BINS (the state's activity buckets are seconds). */
const BIN_STEPS_MS = [1_000, 2_000, 5_000, 10_000, 30_000, 60_000, 300_000, 600_000, 1_800_000, 3_600_000, 7_200_000, 21_600_000, 43_200_000, 86_400_000, 604_800_000];

export interface RunAggregates {
  run: RunInfo;
  payeeStatuses: Record<ReportStatus, number>;
  changedHolders: CappedList<ChangedHolder>;
  deferred: CappedList<ActionItem>;
  failed: CappedList<ActionItem>;
  unconfirmed: CappedList<ActionItem>;
  /** Requests marked IN_FLIGHT over the run's life, by mode (hybrid rows that went on to penny-drop count one of each). */
  calls: { pl: number; pd: number };
  reused: number;
  timeline: { start: number; binMs: number; bins: TimeBin[] };
  /** Calls, retries and upstream errors per timeline bin, from the run's stats; null for a run of an older version. */
  activity: ActivityBin[] | null;
  /** What the run recorded of its last invocation; null for a run of an older version. */
  recorded: RecordedRun | null;
  /** Each payee row's decision (run_rows); null when the state has none for the run (a run before schema 7). */
  decisions: RunDecisions | null;
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

type RunRow = { id: number; fingerprint: string; mode: RunInfo['mode']; inputName: string; status: 'open' | 'complete'; totalRows: number | null; createdAt: number; updatedAt: number };
type PayeeGroup = { payeeStatus: string; resultStatus: string | null; source: string | null; mode: string | null; n: number; attempts: number; changed: number; firstAt: number; lastAt: number };
type ActionStatus = 'DEFERRED' | 'FAILED' | 'UNCONFIRMED';

/**
 * Reads every aggregate of run `runId`; lists are capped at `listCap` entries. `now`: the rows
 * decided otherwise since the run (readDecisions); default none, every decision as the run wrote it.
 */
export function readRunAggregates(db: Db, runId: number, listCap: number, now?: ReadonlyMap<number, DecisionNow>): RunAggregates {
  const runRow = readRunRow(db, runId);
  const groups = readPayeeGroups(db, runId);
  const tally = tallyPayeeGroups(groups, runRow.mode);
  const recorded = readRecordedRun(db, runId);
  const lastAt = Math.max(runRow.createdAt, tally.lastAt, recorded?.updatedAt ?? 0);
  const run = toRunInfo(runRow, lastAt);
  const timeline = readTimeline(db, runId, run);
  return {
    run,
    payeeStatuses: tally.payeeStatuses,
    changedHolders: readChangedHolders(db, runId, listCap, tally.changed),
    deferred: readActionList(db, runId, 'DEFERRED', listCap, tally.payeeStatuses.DEFERRED),
    failed: readActionList(db, runId, 'FAILED', listCap, tally.payeeStatuses.FAILED),
    unconfirmed: readActionList(db, runId, 'UNCONFIRMED', listCap, tally.payeeStatuses.UNCONFIRMED),
    calls: tally.calls,
    reused: tally.reused,
    timeline,
    activity: recorded ? readActivity(db, runId, timeline) : null,
    recorded,
    decisions: readDecisions(db, runId, listCap, now),
    topReasons: readTopReasons(db, runId),
  };
}

function readRunRow(db: Db, runId: number): RunRow {
  const row = db
    .prepare(
      `SELECT id, fingerprint, mode, input_name AS inputName, status, total_rows AS totalRows, created_at AS createdAt, updated_at AS updatedAt
       FROM runs WHERE id = ?`,
    )
    .get(runId) as RunRow | undefined;
  if (row) return row;
  const runs = listRuns(db).map((r) => r.id);
  throw new RunNotFoundError(`run ${runId} is not in this state file${runs.length ? ` (runs: ${runs.join(', ')})` : ' (it has no runs)'}`);
}

function toRunInfo(row: RunRow, lastAt: number): RunInfo {
  return {
    runId: row.id,
    inputName: row.inputName,
    fingerprint: row.fingerprint,
    mode: row.mode,
    stateStatus: row.status,
    startedAt: row.createdAt,
    updatedAt: Math.max(row.updatedAt, lastAt),
    totalRows: row.totalRows,
  };
}

/** One scan of the run's payees: counts by outcome, calls, reuse, changed holders and the time span. */
function readPayeeGroups(db: Db, runId: number): PayeeGroup[] {
  const t = payeeTable(db);
  return db
    .prepare(
      `SELECT k.status AS payeeStatus, r.status AS resultStatus, k.source AS source, k.${t.mode} AS mode,
              count(*) AS n, sum(k.attempts) AS attempts,
              sum(r.changed_since IS NOT NULL AND k.source = 'api') AS changed,
              min(CASE WHEN k.status = 'DONE' THEN r.verified_at ELSE k.updated_at END) AS firstAt,
              max(CASE WHEN k.status = 'DONE' AND k.source = 'api' THEN r.verified_at ELSE k.updated_at END) AS lastAt
       FROM ${t.payees} k LEFT JOIN results r ON r.id = k.result_id
       WHERE k.run_id = ?
       GROUP BY 1, 2, 3, 4`,
    )
    .all(runId) as PayeeGroup[];
}

/** The payee groups summed: payees by status, calls by mode over the run's life, reuse, changed holders, the last write. */
export function tallyPayeeGroups(groups: readonly PayeeGroup[], mode: RunInfo['mode']) {
  const payeeStatuses = emptyStatuses();
  const calls = { pl: 0, pd: 0 };
  let reused = 0;
  let changed = 0;
  let lastAt = 0;
  for (const g of groups) {
    const status = (g.payeeStatus === 'DONE' ? g.resultStatus ?? 'INVALID' : g.payeeStatus) as ReportStatus;
    payeeStatuses[status] += g.n;
    if (g.source === 'reuse') reused += g.n;
    changed += g.changed;
    lastAt = Math.max(lastAt, g.lastAt);
    if (g.mode === 'pd') {
      // A hybrid row reaches penny-drop after its penny-less call said NOT_VERIFIED.
      const plFirst = mode === 'hybrid' ? g.n : 0;
      calls.pl += plFirst;
      calls.pd += g.attempts - plFirst;
    } else if (g.mode === 'pl') {
      calls.pl += g.attempts;
    }
  }
  return { payeeStatuses, calls, reused, changed, lastAt };
}

/** Outcomes over time: answers, failures, unconfirmed and deferred payees per bin. */
function readTimeline(db: Db, runId: number, run: RunInfo): RunAggregates['timeline'] {
  const t = payeeTable(db);
  const start = run.startedAt;
  const binMs = chooseBinMs(Math.max(1, run.updatedAt - start + 1));
  const binRows = db
    .prepare(
      `SELECT max(0, CAST(((CASE WHEN k.status = 'DONE' THEN r.verified_at ELSE k.updated_at END) - ?) / ? AS INTEGER)) AS b,
              k.status AS status, count(*) AS n
       FROM ${t.payees} k LEFT JOIN results r ON r.id = k.result_id
       WHERE k.run_id = ? AND (k.status IN ('FAILED', 'UNCONFIRMED', 'DEFERRED') OR (k.status = 'DONE' AND k.source = 'api'))
       GROUP BY 1, 2 ORDER BY 1`,
    )
    .all(start, binMs, runId) as Array<{ b: number; status: string; n: number }>;
  const binCount = Math.max(1, Math.min(MAX_TIME_BINS * 4, Math.floor((run.updatedAt - start) / binMs) + 1));
  const bins: TimeBin[] = Array.from({ length: binCount }, (_, i) => ({ start: start + i * binMs, answered: 0, failed: 0, unconfirmed: 0, deferred: 0 }));
  const field: Record<string, 'answered' | 'failed' | 'unconfirmed' | 'deferred'> = { DONE: 'answered', FAILED: 'failed', UNCONFIRMED: 'unconfirmed', DEFERRED: 'deferred' };
  for (const row of binRows) {
    const key = field[row.status];
    if (key) bins[Math.min(row.b, bins.length - 1)]![key] += row.n;
  }
  return { start, binMs, bins };
}

/**
 * The payees' table and its columns by their names in this state: schema 6 renamed run_keys,
 * first_idx and phase (a state file of an older version is read as it is, read-only).
 */
function payeeTable(db: Db): { payees: string; firstRow: string; mode: string } {
  return hasTable(db, 'run_payees') ? { payees: 'run_payees', firstRow: 'first_row', mode: 'mode' } : { payees: 'run_keys', firstRow: 'first_idx', mode: 'phase' };
}

/**
 * The file's line of a payee's first row, for a query over the payees `k`: from run_rows (schema
 * 7) where the row was written out; NULL before (the page then shows the data row).
 */
function lineOf(db: Db, firstRow: string): { column: string; join: string } {
  return hasTable(db, 'run_rows')
    ? { column: 'rr.line', join: `LEFT JOIN run_rows rr ON rr.run_id = k.run_id AND rr.row = k.${firstRow}` }
    : { column: 'NULL', join: '' };
}

function hasTable(db: Db, table: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) !== undefined;
}

type RecordedRow = {
  invocations: number; startedAt: number; updatedAt: number; finishedAt: number | null; exitCode: number | null; stopped: string | null;
  message: string | null; resumed: number; durationMs: number | null; callsPl: number; callsPd: number; spend: number; rows: number;
  statuses: string | null; nameMatch: string | null; avoided: string | null; retries: string | null; outputName: string | null;
  outputPath: string | null; resumeCommand: string | null; toolVersion: string | null; registry: string | null; outputFile?: string | null;
  runCallsPl?: number | null; runCallsPd?: number | null; runSpend?: number | null;
};

/** Columns of run_stats added by later schemas, read where this state has them (an older state is read as it is). */
function laterRunStatsColumns(db: Db): string {
  const columns = new Set((db.prepare('PRAGMA table_info(run_stats)').all() as Array<{ name: string }>).map((c) => c.name));
  const later: Array<[string, string]> = [['output_file', 'outputFile'], ['run_calls_pl', 'runCallsPl'], ['run_calls_pd', 'runCallsPd'], ['run_spend', 'runSpend']];
  return later.filter(([column]) => columns.has(column)).map(([column, as]) => `, ${column} AS ${as}`).join('');
}

/** What the run recorded of its last invocation (run_stats); undefined when it recorded nothing. */
export function readRecordedRun(db: Db, runId: number): RecordedRun | null {
  if (!hasTable(db, 'run_stats')) return null;
  const row = db
    .prepare(
      `SELECT invocations, started_at AS startedAt, updated_at AS updatedAt, finished_at AS finishedAt, exit_code AS exitCode, stopped,
              message, resumed, duration_ms AS durationMs, calls_pl AS callsPl, calls_pd AS callsPd, spend, rows_out AS rows, statuses,
              name_match AS nameMatch, avoided, retries, output_name AS outputName, output_path AS outputPath,
              resume_command AS resumeCommand, tool_version AS toolVersion, registry${laterRunStatsColumns(db)}
       FROM run_stats WHERE run_id = ?`,
    )
    .get(runId) as RecordedRow | undefined;
  if (!row) return null;
  const json = (text: string | null): Record<string, number> => (text ? (JSON.parse(text) as Record<string, number>) : {});
  const { runCallsPl, runCallsPd, runSpend, ...rest } = row;
  const whole = runCallsPl === undefined || runCallsPl === null ? null : { calls: { pl: runCallsPl, pd: runCallsPd ?? 0 }, spend: runSpend ?? 0 };
  return {
    ...rest,
    resumed: row.resumed !== 0,
    calls: { pl: row.callsPl, pd: row.callsPd },
    run: whole,
    statuses: json(row.statuses),
    nameMatch: json(row.nameMatch),
    avoided: json(row.avoided),
    retries: json(row.retries),
  };
}

/** The run's per-second activity buckets, summed into the timeline's bins. */
function readActivity(db: Db, runId: number, timeline: RunAggregates['timeline']): ActivityBin[] {
  const { start, binMs, bins } = timeline;
  const rows = db
    .prepare(
      `SELECT max(0, CAST((second * 1000 - ?) / ? AS INTEGER)) AS b, sum(calls) AS calls, sum(retries) AS retries,
              sum(throttled) AS throttled, sum(server_errors) AS serverErrors, sum(timeouts) AS timeouts
       FROM run_activity WHERE run_id = ? GROUP BY 1 ORDER BY 1`,
    )
    .all(start, binMs, runId) as Array<Omit<ActivityBin, 'start'> & { b: number }>;
  const activity: ActivityBin[] = bins.map((bin) => ({ start: bin.start, calls: 0, retries: 0, throttled: 0, serverErrors: 0, timeouts: 0 }));
  for (const { b, ...counts } of rows) {
    const bin = activity[Math.min(b, activity.length - 1)]!;
    bin.calls += counts.calls;
    bin.retries += counts.retries;
    bin.throttled += counts.throttled;
    bin.serverErrors += counts.serverErrors;
    bin.timeouts += counts.timeouts;
  }
  return activity;
}

/** The reasons people see in verify_reason, without the request id that makes each unique. */
function readTopReasons(db: Db, runId: number): Array<{ reason: string; count: number }> {
  const t = payeeTable(db);
  const reasons = db
    .prepare(
      `SELECT CASE WHEN instr(reason, ' (') > 0 THEN substr(reason, 1, instr(reason, ' (') - 1) ELSE reason END AS reason, count(*) AS count
       FROM (SELECT CASE WHEN k.status = 'DONE' THEN r.reason ELSE k.reason END AS reason
             FROM ${t.payees} k LEFT JOIN results r ON r.id = k.result_id WHERE k.run_id = ?)
       WHERE reason IS NOT NULL AND reason <> ''
       GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT ?`,
    )
    .all(runId, TOP_REASONS) as Array<{ reason: string; count: number }>;
  return reasons;
}

function readActionList(db: Db, runId: number, status: ActionStatus, listCap: number, total: number): CappedList<ActionItem> {
  const t = payeeTable(db);
  const line = lineOf(db, t.firstRow);
  const rows = db
    .prepare(
      `SELECT k.${t.firstRow} AS row, ${line.column} AS line, k.account, k.ifsc, k.status, k.reason, k.due_at AS dueAt,
              k.request_id AS requestId, k.updated_at AS updatedAt
       FROM ${t.payees} k ${line.join} WHERE k.run_id = ? AND k.status = ? ORDER BY k.${t.firstRow} LIMIT ?`,
    )
    .all(runId, status, listCap) as ActionItem[];
  return { items: rows.map((item) => ({ ...item, reason: item.reason ?? '' })), total };
}

/** Payees whose holder or status differs from their previous check, with that check (before) and this one (after). */
function readChangedHolders(db: Db, runId: number, listCap: number, total: number): CappedList<ChangedHolder> {
  const t = payeeTable(db);
  const line = lineOf(db, t.firstRow);
  const rows = db
    .prepare(
      `SELECT k.${t.firstRow} AS row, ${line.column} AS line, k.account, k.ifsc, r.status AS afterStatus, r.beneficiary_name AS afterName,
              r.verified_at AS afterAt, r.changed_since AS description,
              p.status AS beforeStatus, p.beneficiary_name AS beforeName, p.verified_at AS beforeAt
       FROM ${t.payees} k JOIN results r ON r.id = k.result_id ${line.join}
       LEFT JOIN results p ON p.id = (
         SELECT q.id FROM results q
         WHERE q.account = r.account AND q.ifsc = r.ifsc AND q.id < r.id AND q.status IN ('VERIFIED', 'NOT_VERIFIED')
         ORDER BY q.verified_at DESC, q.id DESC LIMIT 1)
       WHERE k.run_id = ? AND k.source = 'api' AND r.changed_since IS NOT NULL
       ORDER BY k.${t.firstRow} LIMIT ?`,
    )
    .all(runId, listCap) as ChangedHolder[];
  return { items: rows, total };
}

// ---- decisions (run_rows, schema 7) ----

/** A payee row's decision (the run's, or now: see DecisionNow), with the file's line, name and amount cell, and the bank's holder and reason from the payee's result. */
export interface DecisionRow extends Omit<RunRowRecord, 'runId'> {
  /** The bank's holder (beneficiary_name), as the bank sent it; null when it named none. */
  holder: string | null;
  /** verify_reason as the bank or the run gave it; null for a row that failed its local checks (the state keeps no text for it). */
  reason: string | null;
  /** The amount cell in rupees; null without one, or when it is not an amount. */
  amountValue: number | null;
  /** The decision the run wrote, when `decision` is another one now (reviews since the run, or a newer answer). */
  ranAs?: { decision: string; reason: string } | undefined;
  /** Why it changed, in words (set by the report, src/report/standing.ts). */
  standing?: string | undefined;
}

/** Amounts by decision (rupees, to the paisa), and the amount cells that are not amounts. */
export interface DecisionAmounts {
  PAY: number;
  REVIEW: number;
  HOLD: number;
  unreadable: number;
}

export interface RunDecisions {
  /** Payee rows by decision. */
  decisions: { PAY: number; REVIEW: number; HOLD: number };
  /** Payee rows by decision_reason. */
  reasons: Record<string, number>;
  /** Null when no row has an amount cell (the file has no amount column). */
  amounts: DecisionAmounts | null;
  /** Payee rows by name verdict. */
  nameMatch: Record<string, number>;
  held: CappedList<DecisionRow>;
  review: CappedList<DecisionRow>;
  /** Rows whose account the bank did not verify, or that are invalid (NOT_VERIFIED, INVALID). */
  notVerified: CappedList<DecisionRow>;
  /** VERIFIED rows whose holder's name is a POOR_PARTIAL_MATCH or NO_MATCH. */
  mismatched: number;
  /** Those of them the policy still pays (a --policy that pays such names). */
  mismatchedPaid: CappedList<DecisionRow>;
}

/**
 * A row whose decision now is not the one the run wrote: `row` as run_rows keeps it (the run's
 * decision), `decision` and `reason` as they are now. The state does not decide: the report asks
 * the release's rule (src/release/decisions.ts) and gives the answer to readDecisions.
 */
export interface DecisionNow {
  row: RunRowRecord;
  decision: 'PAY' | 'REVIEW' | 'HOLD';
  reason: string;
}

const MISMATCH = "rr.status = 'VERIFIED' AND rr.name_match IN ('POOR_PARTIAL_MATCH', 'NO_MATCH')";
const isMismatch = (r: Pick<RunRowRecord, 'status' | 'nameMatch'>) => r.status === 'VERIFIED' && (r.nameMatch === 'POOR_PARTIAL_MATCH' || r.nameMatch === 'NO_MATCH');

type ListRow = Pick<RunRowRecord, 'decision' | 'status' | 'nameMatch'>;

/** The lists of decided rows: their condition on run_rows `rr`, and the same condition on a row (for the decisions now). */
const DECISION_LISTS = {
  held: { where: "rr.decision = 'HOLD'", holds: (r: ListRow) => r.decision === 'HOLD' },
  review: { where: "rr.decision = 'REVIEW'", holds: (r: ListRow) => r.decision === 'REVIEW' },
  notVerified: { where: "rr.status IN ('NOT_VERIFIED', 'INVALID')", holds: (r: ListRow) => r.status === 'NOT_VERIFIED' || r.status === 'INVALID' },
  mismatchedPaid: { where: `${MISMATCH} AND rr.decision = 'PAY'`, holds: (r: ListRow) => isMismatch(r) && r.decision === 'PAY' },
} as const;

type DecisionGroup = { decision: string; reason: string; status: string; nameMatch: string | null; n: number };
type DecisionList = (typeof DECISION_LISTS)[keyof typeof DECISION_LISTS];

/** The row as it stands now: its decision and reason from `now`, the run's kept in `ranAs`. */
function applyNow<T extends ListRow & { decisionReason: string }>(row: T, now: DecisionNow | undefined): T & { ranAs?: { decision: string; reason: string } } {
  if (!now) return row;
  return { ...row, decision: now.decision, decisionReason: now.reason, ranAs: { decision: row.decision, reason: row.decisionReason } };
}

/**
 * Each payee row's decision: counts by decision, reason and verdict, the amounts, and capped
 * lists; null when the run has none. `now`: the rows whose decision is another one now, by row
 * (the report after reviews); without it, every row as the run wrote it.
 */
export function readDecisions(db: Db, runId: number, listCap: number, now: ReadonlyMap<number, DecisionNow> = new Map()): RunDecisions | null {
  if (!hasTable(db, 'run_rows')) return null;
  const groups = db
    .prepare(
      `SELECT decision, decision_reason AS reason, status, name_match AS nameMatch, count(*) AS n
       FROM run_rows WHERE run_id = ? GROUP BY 1, 2, 3, 4`,
    )
    .all(runId) as DecisionGroup[];
  if (groups.length === 0) return null;
  const decisions = { PAY: 0, REVIEW: 0, HOLD: 0 };
  const reasons: Record<string, number> = {};
  const nameMatch: Record<string, number> = {};
  const totals = { notVerified: 0, mismatched: 0, mismatchedPaid: 0 };
  const count = (decision: string, reason: string, n: number) => {
    if (decision === 'PAY' || decision === 'REVIEW' || decision === 'HOLD') decisions[decision] += n;
    reasons[reason] = (reasons[reason] ?? 0) + n;
    if (reasons[reason] === 0) delete reasons[reason];
  };
  for (const g of groups) {
    count(g.decision, g.reason, g.n);
    if (g.nameMatch) nameMatch[g.nameMatch] = (nameMatch[g.nameMatch] ?? 0) + g.n;
    if (g.status === 'NOT_VERIFIED' || g.status === 'INVALID') totals.notVerified += g.n;
    if (isMismatch(g)) totals.mismatched += g.n;
    if (isMismatch(g) && g.decision === 'PAY') totals.mismatchedPaid += g.n;
  }
  // The rows decided otherwise now move from the run's decision to theirs.
  for (const { row, decision, reason } of now.values()) {
    count(row.decision, row.decisionReason, -1);
    count(decision, reason, 1);
    if (isMismatch(row)) totals.mismatchedPaid += Number(decision === 'PAY') - Number(row.decision === 'PAY');
  }
  const list = (which: keyof typeof DECISION_LISTS, total: number) => readDecisionList(db, runId, DECISION_LISTS[which], listCap, total, now);
  return {
    decisions, reasons, nameMatch, amounts: readAmounts(db, runId, now), mismatched: totals.mismatched,
    held: list('held', decisions.HOLD),
    review: list('review', decisions.REVIEW),
    notVerified: list('notVerified', totals.notVerified),
    mismatchedPaid: list('mismatchedPaid', totals.mismatchedPaid),
  };
}

const DECISION_ROW_SQL = `SELECT rr.row, rr.line, rr.account, rr.ifsc, rr.name, rr.amount, rr.status, rr.reason_code AS reasonCode,
    rr.name_match AS nameMatch, rr.name_score AS nameScore, rr.decision, rr.decision_reason AS decisionReason,
    res.beneficiary_name AS holder, CASE WHEN k.status = 'DONE' THEN res.reason ELSE k.reason END AS reason
  FROM run_rows rr
  LEFT JOIN run_payees k ON k.run_id = rr.run_id AND k.account = rr.account AND k.ifsc = rr.ifsc
  LEFT JOIN results res ON res.id = k.result_id`;

/**
 * The first `listCap` rows on the list (now), in file order, with the bank's holder and reason
 * from the payee's result: the run's rows on it read past the cap by as many as are decided
 * otherwise now (so that the cap is still filled when they leave it), and the rows that join it
 * now read one by one.
 */
function readDecisionList(db: Db, runId: number, list: DecisionList, listCap: number, total: number, now: ReadonlyMap<number, DecisionNow>): CappedList<DecisionRow> {
  if (total === 0) return { items: [], total };
  const rows = db.prepare(`${DECISION_ROW_SQL} WHERE rr.run_id = ? AND ${list.where} ORDER BY rr.row LIMIT ?`).all(runId, listCap + now.size) as Array<Omit<DecisionRow, 'amountValue'>>;
  const items = rows.map((r) => applyNow(r, now.get(r.row))).filter((r) => list.holds(r));
  const one = db.prepare(`${DECISION_ROW_SQL} WHERE rr.run_id = ? AND rr.row = ?`);
  for (const change of now.values()) {
    if (list.holds(change.row) || !list.holds({ ...change.row, decision: change.decision })) continue;
    const row = one.get(runId, change.row.row) as Omit<DecisionRow, 'amountValue'> | undefined;
    if (row) items.push(applyNow(row, change));
  }
  items.sort((a, b) => a.row - b.row);
  return { items: items.slice(0, listCap).map((r) => ({ ...r, amountValue: r.amount === null ? null : parseAmount(r.amount) ?? null })), total };
}

/** The amount cells summed by decision (now); null when no row has one. */
function readAmounts(db: Db, runId: number, now: ReadonlyMap<number, DecisionNow>): DecisionAmounts | null {
  const cells = db.prepare('SELECT row, decision, amount FROM run_rows WHERE run_id = ? AND amount IS NOT NULL').raw(true).iterate(runId) as Iterable<[number, string, string]>;
  let amounts: DecisionAmounts | null = null;
  for (const [row, decision, cell] of cells) {
    amounts ??= { PAY: 0, REVIEW: 0, HOLD: 0, unreadable: 0 };
    addAmount(amounts, now.get(row)?.decision ?? decision, cell);
  }
  return amounts;
}

/** Whether the state keeps decisions and reviews (schema 7): before, a run's decisions cannot have changed since. */
export function keepsReviews(db: Db): boolean {
  return hasTable(db, 'run_rows') && hasTable(db, 'reviews');
}

/**
 * The run's rows whose decision may be another one now (src/release/decisions.ts decides it):
 * those of a payee anyone has reviewed, and, when `laterAnswers`, the PAY rows of a payee the
 * state holds an answer for stored after the run's (one may contradict it). In file order; none
 * without a reviews table (a state before schema 7).
 */
export function readRowsToDecideAgain(db: Db, runId: number, laterAnswers: boolean): RunRowRecord[] {
  if (!keepsReviews(db)) return [];
  const reviewed = db.prepare('SELECT EXISTS (SELECT 1 FROM reviews)').pluck().get() === 1;
  if (!reviewed && !laterAnswers) return [];
  const conditions = [
    ...(reviewed ? ['EXISTS (SELECT 1 FROM reviews v WHERE v.account = rr.account AND v.ifsc = rr.ifsc)'] : []),
    ...(laterAnswers
      ? [`(rr.decision = 'PAY' AND EXISTS (SELECT 1 FROM run_payees p JOIN results r ON r.account = p.account AND r.ifsc = p.ifsc AND r.id > p.result_id
           WHERE p.run_id = rr.run_id AND p.account = rr.account AND p.ifsc = rr.ifsc))`]
      : []),
  ];
  return db
    .prepare(
      `SELECT rr.run_id AS runId, rr.row, rr.line, rr.account, rr.ifsc, rr.name, rr.amount, rr.status, rr.reason_code AS reasonCode,
              rr.name_match AS nameMatch, rr.name_score AS nameScore, rr.decision, rr.decision_reason AS decisionReason
       FROM run_rows rr WHERE rr.run_id = ? AND rr.account IS NOT NULL AND rr.ifsc IS NOT NULL AND (${conditions.join(' OR ')})
       ORDER BY rr.row`,
    )
    .all(runId) as RunRowRecord[];
}

/**
 * Opens a state file read-only for a report (a run may still be writing it: WAL readers do not
 * block it). Throws `unusable(message)` when it cannot be opened.
 */
export function openStateForReading(statePath: string, unusable: (message: string) => Error): Db {
  let db: Db;
  try {
    db = new Database(statePath, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw unusable(`cannot open state file ${statePath}: ${(error as Error).message}`);
  }
  db.pragma('busy_timeout = 5000');
  return db;
}
