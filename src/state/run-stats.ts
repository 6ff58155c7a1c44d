/**
 * What a run did, kept in the state for its report (docs/ARCHITECTURE.md, "State file"): how its
 * last invocation ended (exit code, calls, spend, calls avoided by reason, retries by cause) in
 * `run_stats`, and per-second buckets of calls, retries and upstream errors in `run_activity`.
 *
 * Counters live in memory and are written inside the group commit's transaction just before it
 * commits (GroupCommit's `beforeCommit`): at most one row update and a bucket or two per commit,
 * never one write per call. A run killed outright keeps what its last commit held.
 */
import type { Db } from './types.js';
import type { RunInputRecord } from './run-record.js';

/** The run's running counts, read at each write (the bank run's summary has this shape). */
export interface RunTotals {
  rows: number;
  statuses: Record<string, number>;
  sources?: Record<string, number> | undefined;
  nameMatch: Record<string, number>;
  calls: { pl: number; pd: number };
  spend: number;
  avoided: Record<string, number>;
}

export interface RunStart {
  runId: number;
  startedAt: number;
  resumed: boolean;
  /** `-o` as given, and resolved. */
  outputName: string | null;
  outputPath: string | null;
  resumeCommand: string | null;
  toolVersion: string | null;
  /** The IFSC registry the run checks against (its source and date). */
  registry: string | null;
  /** The decision policy the run uses (JSON), for review and release; null: the default. */
  policy?: string | null | undefined;
  /** What else than the answers shapes the output (src/pipeline/bank-run/reemit.ts): a finished run made the same way is re-emitted by a copy. */
  emitKey?: string | null | undefined;
  totals: () => RunTotals;
}

/** What the run's earlier invocations did (RunStats.begin's answer): this one's counts are added to it. */
export interface EarlierInvocations {
  /** Invocations of the run, this one included. */
  invocations: number;
  calls: { pl: number; pd: number };
  spend: number;
}

export interface RunEnd {
  finishedAt: number;
  exitCode: number;
  stopped: string | null;
  message: string | null;
  durationMs: number;
  /** The output written, as JSON of its identity (src/input/unchanged.ts FileIdentity); null when none was. */
  outputFile: string | null;
  /** The written output's decision counts and amounts (JSON), for a re-emit by copy; null when none was written. */
  decisions?: string | null | undefined;
}

/** The parts of an API error the counters read (a VasError has them). */
export interface UpstreamError {
  status?: number | undefined;
  code?: string | undefined;
  kind: string;
}

export type ActivityKind = 'throttled' | 'serverErrors' | 'timeouts';

/** Which upstream-error series an error counts in, if any: 429s, 5xx answers, timeouts. */
export function activityKind(error: UpstreamError): ActivityKind | undefined {
  if (error.status === 429 || error.code === 'rate-limit') return 'throttled';
  if (error.status !== undefined && error.status >= 500) return 'serverErrors';
  if (error.kind === 'timeout') return 'timeouts';
  return undefined;
}

/** How a retry's cause is named: the HTTP status, else the error's code, else its kind (as the CLI's --summary names it). */
export function retryCause(error: UpstreamError): string {
  return error.status !== undefined ? String(error.status) : error.code ?? error.kind;
}

interface Bucket {
  calls: number;
  retries: number;
  throttled: number;
  serverErrors: number;
  timeouts: number;
}

/** Fewest milliseconds between two updates of the run's row while it runs. */
export const RUN_ROW_INTERVAL_MS = 1_000;

export class RunStats {
  private readonly now: () => number;
  private readonly stmt;
  private run: RunStart | undefined;
  private buckets = new Map<number, Bucket>();
  private retries: Record<string, number> = {};
  private callsSeen = 0;
  private rowWrittenAt = -Infinity;
  private earlier: EarlierInvocations = { invocations: 1, calls: { pl: 0, pd: 0 }, spend: 0 };

  constructor(db: Db, now: () => number) {
    this.now = now;
    this.stmt = {
      start: db.prepare(
        `INSERT INTO run_stats (run_id, started_at, updated_at, resumed, output_name, output_path, resume_command, tool_version, registry, policy, emit_key)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (run_id) DO UPDATE SET invocations = invocations + 1, started_at = excluded.started_at,
           updated_at = excluded.updated_at, finished_at = NULL, exit_code = NULL, stopped = NULL, message = NULL,
           duration_ms = NULL, resumed = excluded.resumed, calls_pl = 0, calls_pd = 0, spend = 0, rows_out = 0,
           statuses = NULL, name_match = NULL, avoided = NULL, retries = NULL, output_file = NULL, output_name = excluded.output_name,
           output_path = excluded.output_path, resume_command = excluded.resume_command,
           tool_version = excluded.tool_version, registry = excluded.registry, policy = excluded.policy,
           emit_key = excluded.emit_key, sources = NULL`,
      ),
      earlier: db.prepare(`SELECT invocations, run_calls_pl AS pl, run_calls_pd AS pd, run_spend AS spend FROM run_stats WHERE run_id = ?`),
      totals: db.prepare(
        `UPDATE run_stats SET updated_at = ?, calls_pl = ?, calls_pd = ?, spend = ?, rows_out = ?, statuses = ?, name_match = ?,
           avoided = ?, retries = ?, run_calls_pl = ?, run_calls_pd = ?, run_spend = ?, sources = ? WHERE run_id = ?`,
      ),
      end: db.prepare(`UPDATE run_stats SET finished_at = ?, exit_code = ?, stopped = ?, message = ?, duration_ms = ?, output_file = ?, decisions = ? WHERE run_id = ?`),
      bucket: db.prepare(
        `INSERT INTO run_activity (run_id, second, calls, retries, throttled, server_errors, timeouts) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (run_id, second) DO UPDATE SET calls = max(0, calls + excluded.calls), retries = retries + excluded.retries,
           throttled = throttled + excluded.throttled, server_errors = server_errors + excluded.server_errors,
           timeouts = timeouts + excluded.timeouts`,
      ),
      input: db.prepare(`UPDATE run_stats SET input = ? WHERE run_id = ?`),
      recordedInput: db.prepare(`SELECT input FROM run_stats WHERE run_id = ?`).pluck(),
    };
  }

  /**
   * Starts counting for a run (a new invocation of it): its row says it has not ended. Call inside
   * a transaction. Returns what the run's earlier invocations did.
   */
  begin(start: RunStart): EarlierInvocations {
    this.run = start;
    this.buckets = new Map();
    this.retries = {};
    this.callsSeen = 0;
    this.rowWrittenAt = -Infinity;
    const s = start;
    const before = this.stmt.earlier.get(s.runId) as { invocations: number; pl: number; pd: number; spend: number } | undefined;
    this.earlier = before
      ? { invocations: before.invocations + 1, calls: { pl: before.pl, pd: before.pd }, spend: before.spend }
      : { invocations: 1, calls: { pl: 0, pd: 0 }, spend: 0 };
    this.stmt.start.run(s.runId, s.startedAt, s.startedAt, s.resumed ? 1 : 0, s.outputName, s.outputPath, s.resumeCommand, s.toolVersion, s.registry, s.policy ?? null, s.emitKey ?? null);
    return this.earlier;
  }

  /** How the run reads its input (run_stats.input, for `vas-verify release`); after begin(), inside a transaction. */
  recordInput(runId: number, input: RunInputRecord): void {
    this.stmt.input.run(JSON.stringify(input), runId);
  }

  /** How the run read its input when it last recorded it; undefined when it never did. */
  recordedInput(runId: number): RunInputRecord | undefined {
    const text = this.stmt.recordedInput.get(runId) as string | null | undefined;
    return typeof text === 'string' ? (JSON.parse(text) as RunInputRecord) : undefined;
  }

  /** A request the client will send again. */
  noteRetry(error: UpstreamError): void {
    if (!this.run) return;
    const cause = retryCause(error);
    this.retries[cause] = (this.retries[cause] ?? 0) + 1;
    const bucket = this.bucketNow();
    bucket.retries += 1;
    this.countError(bucket, error);
  }

  /** A call that failed for good (after its retries). */
  noteFailure(error: UpstreamError): void {
    if (this.run) this.countError(this.bucketNow(), error);
  }

  /** Writes what changed since the last write; inside the group commit's transaction. */
  write(force = false): void {
    const run = this.run;
    if (!run) return;
    const at = this.now();
    const totals = run.totals();
    const calls = totals.calls.pl + totals.calls.pd;
    if (calls !== this.callsSeen) {
      this.bucketNow().calls += calls - this.callsSeen;
      this.callsSeen = calls;
    }
    for (const [second, b] of this.buckets) this.stmt.bucket.run(run.runId, second, b.calls, b.retries, b.throttled, b.serverErrors, b.timeouts);
    this.buckets.clear();
    if (!force && at - this.rowWrittenAt < RUN_ROW_INTERVAL_MS) return;
    this.rowWrittenAt = at;
    this.stmt.totals.run(
      at, totals.calls.pl, totals.calls.pd, totals.spend, totals.rows, JSON.stringify(totals.statuses),
      JSON.stringify(totals.nameMatch), JSON.stringify(totals.avoided), JSON.stringify(this.retries),
      this.earlier.calls.pl + totals.calls.pl, this.earlier.calls.pd + totals.calls.pd, this.earlier.spend + totals.spend,
      JSON.stringify(totals.sources ?? {}), run.runId,
    );
  }

  /** How the invocation ended; inside a transaction. Counting stops. */
  end(end: RunEnd): void {
    const run = this.run;
    if (!run) return;
    this.write(true);
    this.stmt.end.run(end.finishedAt, end.exitCode, end.stopped, end.message, end.durationMs, end.outputFile, end.decisions ?? null, run.runId);
    this.run = undefined;
  }

  get active(): boolean {
    return this.run !== undefined;
  }

  private bucketNow(): Bucket {
    const second = Math.floor(this.now() / 1000);
    let bucket = this.buckets.get(second);
    if (!bucket) {
      bucket = { calls: 0, retries: 0, throttled: 0, serverErrors: 0, timeouts: 0 };
      this.buckets.set(second, bucket);
    }
    return bucket;
  }

  private countError(bucket: Bucket, error: UpstreamError): void {
    const kind = activityKind(error);
    if (kind) bucket[kind] += 1;
  }
}
