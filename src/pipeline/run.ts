/**
 * The bulk bank run (DESIGN.md §4): CSV in → local checks → rate limiter → concurrency pool →
 * client → SQLite checkpoint → CSV out, streaming and in input order. Everything it touches
 * (client, store, clock, stop signal, logger) is handed in; it never reads the process.
 */
import { setMaxListeners } from 'node:events';
import { createRequire } from 'node:module';
import Bottleneck from 'bottleneck';
import pLimit from 'p-limit';
import type { Client } from '../api/client.js';
import { isVasError, type VasError } from '../api/errors.js';
import type { BankResult } from '../api/schemas.js';
import { describeHolder, type BankStore, type CallMode, type KeyRecord, type NewResult, type ResultRecord, type RunMode } from '../state/bank-store.js';
import { checkRow, maskAccount, maskDigits, unwrapSpreadsheetText } from './checks.js';
import { registryBankName, registryNote, unknownBankReason, type IfscLookup, type IfscRegistry } from '../input/ifsc-registry.js';
import type { ColumnOverrides } from '../input/recognise.js';
import { openPayeeFile, type InputSummary } from '../input/payee-file.js';
import { inspectInput, type InputInfo } from './inspect.js';
import { nextIstMidnight } from './time.js';
import { appendedColumns, checkOutputPath, openCsvOutput, OutputError, outcomeCells, type RowOutcome, type RowStatus } from './write.js';

import { RunLockedError, UsageError } from './errors.js';

export { RunLockedError, UsageError };

/** Consecutive service failures (unavailable, network, timeout, server) that stop the run. Default 10. */
export const DEFAULT_BREAKER_THRESHOLD = 10;
/** Service failures that stop a run in which no call has succeeded yet (a wrong or dead target). */
export const FAIL_FAST_THRESHOLD = 3;
/** How long a stop waits for calls in flight before cancelling them. Default 15 s. */
export const DEFAULT_STOP_GRACE_MS = 15_000;
/** Rows read ahead of the oldest unwritten row; bounds memory whatever the file size. */
export const READ_AHEAD_ROWS = 4_096;
/** …and their bytes, so that a file of huge fields cannot fill memory either. */
export const READ_AHEAD_BYTES = 16 * 1024 * 1024;
export const PROGRESS_INTERVAL_MS = 1_000;
/** Share of --rate actually used, leaving room for timing jitter against the quota. */
export const RATE_HEADROOM = 0.975;
/** The reader gives the event loop a turn after this many rows. */
export const READER_YIELD_ROWS = 256;
/** Most rows handed to the output in one write. */
export const WRITE_BATCH_ROWS = 512;
/** Longer than any payee name (banks keep 35–140 characters): not matched, NO_MATCH. */
export const MAX_NAME_CHARS = 1_000;

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
  /** Requests per second; undefined = no rate limit. */
  rate?: number | undefined;
  concurrency: number;
  columns: ColumnOverrides;
  /** `--header-row N`: the header is at line N of the input (default: found in the first 20 lines). */
  headerRow?: number | undefined;
  /** `--sheet NAME` of an .xlsx input (default: the first sheet). */
  sheet?: string | undefined;
  maxCalls?: number | undefined;
  maxSpend?: number | undefined;
  pricePl: number;
  pricePd: number;
  dryRun: boolean;
  breakerThreshold?: number | undefined;
  stopGraceMs?: number | undefined;
  /** Bottleneck clustered mode: a Redis URL and the limiter id shared by every run of one credential. */
  redis?: { url: string; limiterId: string } | undefined;
}

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
  /** Aborted on SIGINT/SIGTERM: stop dispatching, wait for calls in flight, checkpoint. */
  stopSignal: AbortSignal;
  log: Logger;
  pid: number;
  isAlive: (pid: number) => boolean;
  matchNames?: NameMatcher | undefined;
  /** [input] The shipped IFSC registry: unknown bank codes are INVALID, bank_name is filled from it. Absent: not consulted. */
  ifscRegistry?: IfscRegistry | undefined;
  onProgress?: ((snapshot: ProgressSnapshot) => void) | undefined;
}

export type StopReason = 'signal' | 'breaker' | 'auth' | 'max-calls' | 'max-spend' | 'fatal';

export interface BankRunSummary {
  runId: number | null;
  resumed: boolean;
  dryRun: boolean;
  /** How the input was read: file, header line, columns taken, output columns renamed (DESIGN.md §4). */
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
  spend: number;
  stopped: StopReason | null;
  message: string | null;
  durationMs: number;
  exitCode: 0 | 1 | 3;
}

interface KeyOutcome {
  status: RowStatus;
  reason: string;
  source: 'api' | 'reuse';
  result: ResultRecord | undefined;
  requestId: string;
}

interface KeyTask {
  key: string;
  /** The data row where the payee first appears: how the state names it. */
  idx: number;
  /** Whether the state has its row yet: a new payee's row is written with its first IN_FLIGHT mark. */
  stored: boolean;
  account: string;
  ifsc: string;
  outcome: KeyOutcome | undefined;
}

interface Slot {
  line: number;
  fields: string[];
  /** Characters held, for the read-ahead bound. */
  size: number;
  outcome: RowOutcome | undefined;
  task: KeyTask | undefined;
  duplicate: boolean;
  /** [input] What the IFSC registry says of the row's IFSC. */
  ifsc?: IfscLookup | undefined;
}

const STATUSES: readonly RowStatus[] = ['VERIFIED', 'NOT_VERIFIED', 'INVALID', 'DEFERRED', 'FAILED', 'UNCONFIRMED'];

function emptyCounts(): Record<RowStatus, number> {
  return Object.fromEntries(STATUSES.map((s) => [s, 0])) as Record<RowStatus, number>;
}

export function toNewResult(account: string, ifsc: string, mode: CallMode, api: BankResult, requestId: string | undefined, at: number): NewResult {
  const d = api.ifscDetails;
  return {
    account,
    ifsc,
    mode,
    status: api.verificationStatus,
    reason: api.verificationStatus === 'NOT_VERIFIED' ? api.transactionRemark ?? 'not verified by the bank' : null,
    beneficiaryName: api.beneficiaryName,
    transactionRemark: api.transactionRemark,
    bankName: d?.name ?? null,
    bankBranch: d?.branch ?? null,
    bankCity: d?.city ?? null,
    bankDistrict: d?.district ?? null,
    bankState: d?.state ?? null,
    bankMicr: d?.micr ?? null,
    bankIso3166: d?.iso3166 ?? null,
    bankSwift: d?.swift ?? null,
    bankImps: d?.imps ?? null,
    bankNeft: d?.neft ?? null,
    bankRtgs: d?.rtgs ?? null,
    bankUpi: d?.upi ?? null,
    requestId: requestId ?? null,
    verifiedAt: at,
  };
}

function invalidResult(account: string, ifsc: string, mode: CallMode, error: VasError, at: number): NewResult {
  return {
    account, ifsc, mode, status: 'INVALID', reason: error.message, beneficiaryName: null, transactionRemark: null,
    bankName: null, bankBranch: null, bankCity: null, bankDistrict: null, bankState: null, bankMicr: null,
    bankIso3166: null, bankSwift: null, bankImps: null, bankNeft: null, bankRtgs: null, bankUpi: null,
    requestId: error.requestId ?? null, verifiedAt: at,
  };
}

function outcomeOfRecord(store: BankStore, record: KeyRecord): KeyOutcome | undefined {
  switch (record.status) {
    case 'DONE': {
      const result = record.result ?? (record.resultId === null ? undefined : store.getResult(record.resultId));
      if (!result) return undefined;
      return { status: result.status, reason: result.reason ?? '', source: record.source ?? 'api', result, requestId: record.requestId ?? result.requestId ?? '' };
    }
    case 'DEFERRED':
    case 'FAILED':
    case 'UNCONFIRMED':
      return { status: record.status, reason: record.reason ?? '', source: 'api', result: undefined, requestId: record.requestId ?? '' };
    default:
      return undefined;
  }
}

/** Minimal deferred promise, used to wake the reader and the final wait. */
function signalEvent(): { wait(): Promise<void>; fire(): void } {
  let resolve: (() => void) | undefined;
  let promise: Promise<void> | undefined;
  return {
    wait() {
      promise ??= new Promise<void>((r) => (resolve = r));
      return promise;
    },
    fire() {
      const r = resolve;
      promise = undefined;
      resolve = undefined;
      r?.();
    },
  };
}

export async function runBank(options: BankRunOptions, deps: BankRunDeps): Promise<BankRunSummary> {
  const { store, now, log } = deps;
  const started = now();
  const breakerThreshold = options.breakerThreshold ?? DEFAULT_BREAKER_THRESHOLD;
  const stopGraceMs = options.stopGraceMs ?? DEFAULT_STOP_GRACE_MS;

  // ---- everything that can be wrong with the input is found before any call ----
  if (!options.dryRun) checkOutputPath(options.outputPath);
  const info = await (options.inspection ?? inspectInput(options.inputPath));
  // ---- [input] the file as people have it: header line, columns, renames (src/input/) ----
  const file = await openPayeeFile(options.inputPath, info.encoding, { columns: options.columns, headerRow: options.headerRow, sheet: options.sheet });
  const reader = file;
  const records = file.records;
  const { header, columns } = file;
  for (const line of file.reasons) log.info(line);
  const hasName = columns.name >= 0;
  const appended = file.appendedNames(appendedColumns(hasName));
  for (const [from, to] of Object.entries(file.summary.renamed)) {
    log.info(`output column ${from} is written as ${to}: the input already has a column ${from}`);
  }
  // ---- [/input] ----

  let limiter: Bottleneck | undefined;
  try {
    limiter = createLimiter(options);
  } catch (error) {
    reader.close();
    throw error;
  }

  const summary: BankRunSummary = {
    runId: null,
    resumed: false,
    dryRun: options.dryRun,
    input: file.summary,
    output: options.dryRun ? null : options.outputPath,
    mode: options.mode,
    rows: 0,
    statuses: emptyCounts(),
    sources: { api: 0, reuse: 0, duplicate: 0, local: 0 },
    nameMatch: {},
    calls: { pl: 0, pd: 0 },
    wouldCall: { pl: 0, pd: 0 },
    avoided: { local: 0, duplicate: 0, reuse: 0, deferral: 0, hybrid: 0 },
    unconfirmedOnResume: 0,
    spend: 0,
    stopped: null,
    message: null,
    durationMs: 0,
    exitCode: 0,
  };

  // ---- which run: continue, re-emit, or start ----
  let lockHeld = false;
  if (!options.dryRun) {
    const lock = store.acquireLock(deps.pid, deps.isAlive);
    if (!lock.ok) {
      reader.close();
      throw new RunLockedError(
        `${describeHolder(lock.holder)} is using this state file: wait for it to finish or use another --state`,
      );
    }
    lockHeld = true;
  }
  const heartbeat = lockHeld ? setInterval(() => store.heartbeat(deps.pid), 15_000) : undefined;
  heartbeat?.unref();

  const previous = store.latestRun(info.fingerprint, options.mode);
  let runId: number | null = null;
  const deferredAccounts = new Map<string, number>();
  try {
    // A dry run changes nothing, so it may look at an unfinished run as a resume would.
    if (previous?.status === 'open' && !options.resume && !options.dryRun) {
      throw new UsageError(
        `an unfinished ${options.mode} run of this input exists (started ${new Date(previous.createdAt).toISOString()}): add --resume to continue it`,
      );
    }
    if (previous && (previous.status === 'open' || options.resume)) {
      runId = previous.id;
      summary.resumed = true;
      if (!options.dryRun) {
        const recovered = store.recoverInFlight(previous.id, options.retryUnconfirmed);
        summary.unconfirmedOnResume = recovered.unconfirmed;
        if (recovered.unconfirmed > 0) {
          log.warn(`${recovered.unconfirmed} penny-drop request(s) were in flight when the last run stopped: marked UNCONFIRMED (never re-sent without --retry-unconfirmed)`);
        }
      }
    } else if (!options.dryRun) {
      runId = store.createRun(info.fingerprint, options.mode, options.inputPath).id;
    }
    summary.runId = runId;
    if (!options.dryRun) await store.flush();
  } catch (error) {
    reader.close();
    if (heartbeat) clearInterval(heartbeat);
    if (lockHeld) store.releaseLock(deps.pid);
    throw error;
  }

  // ---- the machinery ----
  const output = options.dryRun ? undefined : openCsvOutput(options.outputPath, [...header, ...appended], deps.isAlive, file.preamble);
  const limit = pLimit(Math.max(1, options.concurrency));
  const callAbort = new AbortController();
  // Every call in flight listens to this one signal.
  setMaxListeners(0, callAbort.signal);
  let stopping: StopReason | null = null;
  let stopMessage: string | null = null;
  let consecutiveFailures = 0;
  let successes = 0;
  let outstanding = 0;
  const idle = signalEvent();
  const space = signalEvent();
  const dryRunKeys = options.dryRun ? new Set<string>() : undefined;

  const stop = (reason: StopReason, message: string | null) => {
    if (stopping) return;
    stopping = reason;
    stopMessage = message;
    space.fire();
    if (reason === 'signal') {
      const timer = setTimeout(() => callAbort.abort(), stopGraceMs);
      timer.unref();
    } else {
      // A broken service or fatal answer: calls still in flight finish or fail on their own.
    }
  };
  const onStopSignal = () => stop('signal', 'stopped by signal');
  if (deps.stopSignal.aborted) onStopSignal();
  deps.stopSignal.addEventListener('abort', onStopSignal, { once: true });

  const budgetExceeded = (phase: CallMode = options.mode === 'pd' ? 'pd' : 'pl'): StopReason | null => {
    const made = summary.calls.pl + summary.calls.pd;
    if (options.maxCalls !== undefined && made >= options.maxCalls) return 'max-calls';
    if (options.maxSpend !== undefined) {
      const next = phase === 'pd' ? options.pricePd : options.pricePl;
      if (summary.spend + next > options.maxSpend + 1e-9) return 'max-spend';
    }
    return null;
  };

  const resolveTask = (task: KeyTask, outcome: KeyOutcome) => {
    task.outcome = outcome;
    tasks.delete(task.key);
  };

  /** Gives a new payee its row in the state (most get it with their IN_FLIGHT mark instead). */
  const ensureStored = (task: KeyTask) => {
    if (task.stored || runId === null || options.dryRun) return;
    store.insertKey(runId, task.account, task.ifsc, task.idx);
    task.stored = true;
  };

  const deferTask = (task: KeyTask, dueAt: number, called: boolean) => {
    const reason = deferralReason(dueAt);
    ensureStored(task);
    if (runId !== null && !options.dryRun) store.markStatus(runId, task.idx, 'DEFERRED', reason, null, dueAt);
    if (!called) summary.avoided.deferral += 1;
    resolveTask(task, { status: 'DEFERRED', reason, source: 'api', result: undefined, requestId: '' });
  };

  const tasks = new Map<string, KeyTask>();

  async function execute(task: KeyTask): Promise<void> {
    if (stopping) {
      return;
    }
    const dueAt = deferredAccounts.get(task.account);
    if (dueAt !== undefined && dueAt > now()) {
      deferTask(task, dueAt, false);
      return;
    }
    const over = budgetExceeded();
    if (over) {
      stop(over, over === 'max-calls' ? `--max-calls ${options.maxCalls} reached` : `--max-spend ${options.maxSpend} reached`);
      return;
    }
    if (!deps.client || runId === null) throw new Error('runBank: no client for a real run');
    let phase: CallMode = options.mode === 'pd' ? 'pd' : 'pl';
    for (;;) {
      // Counted before the first await, so concurrent workers never overshoot a budget.
      summary.calls[phase] += 1;
      summary.spend += phase === 'pd' ? options.pricePd : options.pricePl;
      if (task.stored) {
        store.markInFlight(runId, task.idx, phase);
      } else {
        store.insertInFlight(runId, task.account, task.ifsc, task.idx, phase);
        task.stored = true;
      }
      await store.flush();
      if (stopping && stopping !== 'max-calls' && stopping !== 'max-spend') {
        // Stopped while the mark was being committed: nothing was sent, so nothing is in doubt.
        // (A budget stop lets the calls already counted within the budget go.)
        summary.calls[phase] -= 1;
        summary.spend -= phase === 'pd' ? options.pricePd : options.pricePl;
        store.markStatus(runId, task.idx, 'PENDING', null, null);
        return;
      }
      if (sendSpacingMs > 0) await sendGate();
      let answer;
      try {
        answer = await deps.client.verifyBankAccount(
          { accountNumber: task.account, ifsc: task.ifsc, mode: phase },
          { signal: callAbort.signal, beforeRetry: spaceRetry },
        );
      } catch (error) {
        handleFailure(task, phase, error);
        return;
      }
      consecutiveFailures = 0;
      successes += 1;
      const at = now();
      if (options.mode === 'hybrid' && phase === 'pl' && answer.result.verificationStatus === 'NOT_VERIFIED') {
        store.insertResult(toNewResult(task.account, task.ifsc, 'pl', answer.result, answer.requestId, at));
        if (stopping) {
          store.markStatus(runId, task.idx, 'PENDING', null, null);
          return;
        }
        phase = 'pd';
        const overAgain = budgetExceeded('pd');
        if (overAgain) {
          store.markStatus(runId, task.idx, 'PENDING', null, null);
          stop(overAgain, overAgain === 'max-calls' ? `--max-calls ${options.maxCalls} reached` : `--max-spend ${options.maxSpend} reached`);
          return;
        }
        continue;
      }
      if (options.mode === 'hybrid' && phase === 'pl') summary.avoided.hybrid += 1;
      const result = store.insertResult(toNewResult(task.account, task.ifsc, phase, answer.result, answer.requestId, at));
      store.markDone(runId, task.idx, 'api', result.id, answer.requestId ?? null);
      resolveTask(task, { status: result.status, reason: result.reason ?? '', source: 'api', result, requestId: answer.requestId ?? '' });
      return;
    }
  }

  /** Counts a failed call of the service; says why the run must stop when the failures say it is down. */
  function breakerTrips(error: VasError): string | undefined {
    consecutiveFailures += 1;
    // Nothing answers at that address (refused, unknown host, 404 for the API path): the client
    // already retried, and every other row would fail the same way.
    const unreachable = error.code === 'refused' || error.code === 'dns' || error.code === 'not-found';
    const neverWorked = successes === 0 && consecutiveFailures >= FAIL_FAST_THRESHOLD;
    if (!unreachable && !neverWorked && consecutiveFailures < breakerThreshold) return undefined;
    return unreachable
      ? `cannot reach the API: ${maskDigits(error.describe())}`
      : `${consecutiveFailures} call(s) in a row failed (last: ${maskDigits(error.describe())}): the service looks down`;
  }

  function handleFailure(task: KeyTask, phase: CallMode, caught: unknown): void {
    if (!isVasError(caught)) throw caught;
    const error = caught;
    const id = runId!;
    const at = now();
    if (error.code === 'daily-limit') {
      const dueAt = nextIstMidnight(at);
      deferredAccounts.set(task.account, dueAt);
      const reason = deferralReason(dueAt);
      store.markStatus(id, task.idx, 'DEFERRED', reason, error.requestId ?? null, dueAt);
      store.deferAccount(id, task.account, reason, dueAt);
      resolveTask(task, { status: 'DEFERRED', reason, source: 'api', result: undefined, requestId: error.requestId ?? '' });
      log.info(`account ${maskAccount(task.account)}: daily limit reached, deferred to the next IST day with its other rows`);
      return;
    }
    if (error.kind === 'invalid-input') {
      consecutiveFailures = 0;
      const result = store.insertResult(invalidResult(task.account, task.ifsc, phase, error, at));
      store.markDone(id, task.idx, 'api', result.id, error.requestId ?? null);
      resolveTask(task, { status: 'INVALID', reason: error.message, source: 'api', result, requestId: error.requestId ?? '' });
      return;
    }
    if (phase === 'pd' && error.ambiguous) {
      const reason = `no readable answer to the penny-drop request (${error.message}): a rupee may have moved; check before re-sending with --resume --retry-unconfirmed`;
      store.markStatus(id, task.idx, 'UNCONFIRMED', maskDigits(reason), error.requestId ?? null);
      resolveTask(task, { status: 'UNCONFIRMED', reason: maskDigits(reason), source: 'api', result: undefined, requestId: error.requestId ?? '' });
      // Still a failed call: a run of them stops the run instead of sending every deposit blind.
      const down = error.code === 'aborted' ? undefined : breakerTrips(error);
      if (down) stop('breaker', down);
      return;
    }
    if (error.code === 'aborted') {
      store.markStatus(id, task.idx, 'PENDING', null, null);
      return;
    }
    if (error.kind === 'auth') {
      store.markStatus(id, task.idx, 'PENDING', null, null);
      stop('auth', error.describe());
      return;
    }
    const serviceFailure = ['unavailable', 'network', 'timeout', 'server', 'quota', 'protocol'].includes(error.kind);
    if (serviceFailure) {
      const down = breakerTrips(error);
      if (down) {
        store.markStatus(id, task.idx, 'PENDING', null, null);
        stop('breaker', down);
        return;
      }
    }
    const reason = maskDigits(error.describe());
    store.markStatus(id, task.idx, 'FAILED', reason, error.requestId ?? null);
    resolveTask(task, { status: 'FAILED', reason, source: 'api', result: undefined, requestId: error.requestId ?? '' });
  }

  // The limiter spaces the start of each row, but its commit takes a variable time before the
  // send; this gate keeps the sends themselves spaced, so commits cannot bunch them.
  const sendSpacingMs = options.rate !== undefined && options.rate > 0 ? 1000 / (options.rate * RATE_HEADROOM) : 0;
  let nextSendAt = 0;
  const sendGate = async () => {
    if (sendSpacingMs === 0) return;
    const t = performance.now();
    const wait = nextSendAt - t;
    nextSendAt = Math.max(t, nextSendAt) + sendSpacingMs;
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  };
  // A retry spends the same quota as a first attempt: it waits its turn in the rate limiter.
  const spaceRetry = limiter
    ? async () => {
        await limiter!.schedule(() => Promise.resolve());
        await sendGate();
      }
    : undefined;

  /** One row's calls, in a concurrency slot (and, with --rate, in its turn). */
  const work = async (task: KeyTask) => {
    try {
      if (limiter && !stopping) await limiter.schedule(execute, task);
      else await execute(task);
    } catch (error) {
      // A bug, or the state file failing under us: stop everything and report it.
      stop('fatal', error instanceof Error ? error.message : String(error));
    } finally {
      outstanding -= 1;
      pump();
      if (outstanding === 0) idle.fire();
    }
  };
  const dispatch = (task: KeyTask) => {
    outstanding += 1;
    void limit(work, task);
  };

  /** Decides what a key needs the first time it is met in this run. */
  const startKey = (record: KeyRecord, stored: boolean): KeyTask => {
    const task: KeyTask = { key: record.key, idx: record.firstIdx, stored, account: record.account, ifsc: record.ifsc, outcome: undefined };
    tasks.set(task.key, task);
    const at = now();
    const known = outcomeOfRecord(store, record);
    if (known && !(record.status === 'DEFERRED' && (record.dueAt ?? 0) <= at) && record.status !== 'FAILED') {
      if (record.status === 'DEFERRED' && record.dueAt !== null) deferredAccounts.set(record.account, record.dueAt);
      resolveTask(task, known);
      return task;
    }
    if ((record.status === 'DEFERRED' || record.status === 'FAILED') && !options.dryRun) {
      store.markStatus(runId!, record.firstIdx, 'PENDING', null, null);
    }
    const dueAt = deferredAccounts.get(record.account);
    if (dueAt !== undefined && dueAt > at) {
      deferTask(task, dueAt, false);
      return task;
    }
    if (options.reuseMs !== undefined) {
      const reusable = store.findReusable(record.account, record.ifsc, options.mode === 'pd' ? 'pd' : 'pl', at - options.reuseMs);
      const fitsHybrid = options.mode !== 'hybrid' || reusable?.mode === 'pd' || reusable?.status !== 'NOT_VERIFIED';
      if (reusable && fitsHybrid) {
        summary.avoided.reuse += 1;
        ensureStored(task);
        if (runId !== null && !options.dryRun) store.markDone(runId, record.firstIdx, 'reuse', reusable.id, reusable.requestId);
        resolveTask(task, { status: reusable.status, reason: reusable.reason ?? '', source: 'reuse', result: reusable, requestId: reusable.requestId ?? '' });
        return task;
      }
    }
    if (options.dryRun) {
      summary.wouldCall[options.mode === 'pd' ? 'pd' : 'pl'] += 1;
      resolveTask(task, { status: 'VERIFIED', reason: 'dry run', source: 'api', result: undefined, requestId: '' });
      return task;
    }
    dispatch(task);
    return task;
  };

  // ---- the writer: rows leave in input order as soon as their key is answered ----
  const slots: Slot[] = [];
  let head = 0;
  let bufferedBytes = 0;
  let pumping = false;
  let writeError: unknown;
  let lastProgress = 0;

  const rowOutcome = (slot: Slot): RowOutcome | undefined => {
    if (slot.outcome) return slot.outcome;
    const key = slot.task?.outcome;
    if (!key) return undefined;
    const outcome: RowOutcome = {
      status: key.status,
      reason: key.reason,
      source: slot.duplicate ? 'duplicate' : key.source,
      result: key.result,
      requestId: key.requestId,
    };
    return outcome;
  };

  /** Counts a row that leaves, and returns its output record. */
  const emit = (slot: Slot, outcome: RowOutcome): string[] | undefined => {
    summary.rows += 1;
    summary.statuses[outcome.status] += 1;
    if (outcome.source) summary.sources[outcome.source] = (summary.sources[outcome.source] ?? 0) + 1;
    if (hasName && deps.matchNames && outcome.result?.beneficiaryName) {
      const expected = slot.fields[columns.name] ?? '';
      if (expected.trim() !== '') {
        // A cell of megabytes is not a name, and the matcher's work grows with its length
        // (a 5 MB run of initials exhausts the heap): it cannot match, say so at no cost.
        const beneficiary = outcome.result.beneficiaryName;
        const match = expected.length > MAX_NAME_CHARS || beneficiary.length > MAX_NAME_CHARS
          ? { score: 0, result: 'NO_MATCH' }
          : deps.matchNames(expected, beneficiary);
        outcome.nameMatch = match;
        summary.nameMatch[match.result] = (summary.nameMatch[match.result] ?? 0) + 1;
      }
    }
    if (!output) return undefined;
    const fields = slot.fields.length === header.length ? slot.fields : padTo(slot.fields, header.length);
    // [input] bank_name from the registry where the API gave none; the registry's note in verify_reason.
    const registry = deps.ifscRegistry ? { bankName: registryBankName(slot.ifsc), note: registryNote(slot.ifsc, deps.ifscRegistry) } : undefined;
    return fields.concat(outcomeCells(outcome, hasName, registry));
  };

  const ready = (slot: Slot) => slot.outcome !== undefined || slot.task?.outcome !== undefined;

  function pump(): void {
    // Called for every row read and every answer: most of the time the oldest row is not ready.
    if (pumping || stopping || head >= slots.length || !ready(slots[head]!)) return;
    pumping = true;
    void (async () => {
      try {
        while (head < slots.length && !stopping) {
          // Every row that is ready goes out in one write.
          const batch: string[][] = [];
          while (head < slots.length && batch.length < WRITE_BATCH_ROWS && !stopping) {
            const slot = slots[head]!;
            const outcome = rowOutcome(slot);
            if (!outcome) break;
            const record = emit(slot, outcome);
            if (record) batch.push(record);
            bufferedBytes -= slot.size;
            slots[head] = undefined as unknown as Slot;
            head += 1;
          }
          if (head > 8192 && head * 2 > slots.length) {
            slots.splice(0, head);
            head = 0;
          }
          if (batch.length === 0) break;
          if (output) await output.writeRows(batch);
        }
      } catch (error) {
        writeError = error;
        stop('fatal', (error as Error).message);
      } finally {
        pumping = false;
        space.fire();
        pump();
      }
    })();
  }

  const progressTimer = deps.onProgress
    ? setInterval(() => reportProgress(false), PROGRESS_INTERVAL_MS)
    : undefined;
  progressTimer?.unref();
  let totalKnown = false;
  let rowsRead = 0;
  function reportProgress(force: boolean) {
    if (!deps.onProgress) return;
    const t = now();
    if (!force && t - lastProgress < PROGRESS_INTERVAL_MS / 2) return;
    lastProgress = t;
    deps.onProgress({
      rowsDone: summary.rows,
      rowsTotal: totalKnown ? rowsRead : Math.max(rowsRead, info.lines - 1),
      totalKnown,
      callsMade: summary.calls.pl + summary.calls.pd,
      elapsedMs: t - started,
      counts: { ...summary.statuses },
    });
  }

  // ---- the reader ----
  // Resuming or re-emitting, most rows are the first of their payee and were stored by an earlier
  // run: their keys and answers are read alongside the file, in its order.
  const storedAt = summary.resumed && runId !== null && !options.dryRun ? storedKeys(store, runId) : undefined;
  let readError: unknown;
  try {
    let idx = 0;
    for (;;) {
      if (stopping) break;
      while ((slots.length - head >= READ_AHEAD_ROWS || bufferedBytes >= READ_AHEAD_BYTES) && !stopping) await space.wait();
      if (stopping) break;
      const next = await records.next();
      if (next.done) break;
      idx += 1;
      rowsRead = idx;
      const { fields, line } = next.value;
      const size = recordSize(fields);
      bufferedBytes += size;
      const slot: Slot = { line, fields, size, outcome: undefined, task: undefined, duplicate: false };
      slots.push(slot);
      if (fields.length !== header.length) {
        slot.outcome = {
          status: 'INVALID',
          reason: `line ${line} has ${fields.length} field(s), the header has ${header.length}: fix the row's quoting or commas`,
          source: 'local',
          result: undefined,
          requestId: '',
        };
        summary.avoided.local += 1;
      } else {
        const check = checkRow(fields[columns.account] ?? '', fields[columns.ifsc] ?? '');
        // [input] the IFSC registry: a bank code that issues no IFSCs is INVALID, with no call.
        const lookup = deps.ifscRegistry?.lookup(unwrapSpreadsheetText(fields[columns.ifsc] ?? '').replace(/\s+/g, ''));
        slot.ifsc = lookup;
        const unknownBank = check.ok && lookup?.status === 'unknown-bank' ? unknownBankReason(lookup, deps.ifscRegistry!) : undefined;
        if (!check.ok || unknownBank !== undefined) {
          slot.outcome = { status: 'INVALID', reason: `line ${line}: ${check.ok ? unknownBank : check.reason}`, source: 'local', result: undefined, requestId: '' };
          summary.avoided.local += 1;
        } else {
          const key = `${check.account}|${check.ifsc}`;
          const live = tasks.get(key);
          if (live) {
            slot.task = live;
            slot.duplicate = true;
            summary.avoided.duplicate += 1;
          } else if (options.dryRun) {
            if (dryRunKeys!.has(key)) {
              slot.outcome = { status: 'VERIFIED', reason: 'dry run', source: 'duplicate', result: undefined, requestId: '' };
              summary.avoided.duplicate += 1;
            } else {
              dryRunKeys!.add(key);
              const record = runId === null ? undefined : store.getKey(runId, check.account, check.ifsc);
              slot.task = startKey(record ?? newKey(check.account, check.ifsc, idx), record !== undefined);
            }
          } else {
            // The first row of a payee an earlier run of this input stored comes from the scan.
            const record = storedAt?.(idx, check.account, check.ifsc) ?? store.getKey(runId!, check.account, check.ifsc);
            if (!record) {
              slot.task = startKey(newKey(check.account, check.ifsc, idx), false);
            } else if (record.firstIdx !== idx) {
              const known = outcomeOfRecord(store, record);
              slot.duplicate = true;
              summary.avoided.duplicate += 1;
              if (known) slot.outcome = { ...known, source: 'duplicate' };
              else slot.task = startKey(record, true);
            } else {
              slot.task = startKey(record, true);
            }
          }
        }
      }
      pump();
      reportProgress(false);
      // Parsed rows resolve as microtasks: without a yield the reader would take thousands of
      // rows before the first request (and every commit) got a turn.
      if (idx % READER_YIELD_ROWS === 0) await new Promise<void>((r) => setImmediate(r));
    }
    totalKnown = !stopping;
  } catch (error) {
    readError = error;
    stop('fatal', (error as Error).message);
  } finally {
    reader.close();
  }

  // ---- wind down ----
  while (outstanding > 0) await idle.wait();
  if (!stopping) {
    pump();
    while (pumping || head < slots.length) {
      if (writeError || stopping) break;
      await new Promise<void>((r) => setImmediate(r));
      pump();
    }
  }
  deps.stopSignal.removeEventListener('abort', onStopSignal);
  if (progressTimer) clearInterval(progressTimer);
  await limiter?.disconnect();

  const finalStatuses = summary.statuses;
  let complete = false;
  try {
    if (stopping || writeError) {
      await output?.discard();
    } else {
      await output?.commit();
      complete = finalStatuses.DEFERRED + finalStatuses.FAILED + finalStatuses.UNCONFIRMED === 0;
    }
    if (runId !== null && !options.dryRun) {
      if (!stopping) store.finishRun(runId, complete, summary.rows);
      await store.flush();
    }
  } finally {
    if (heartbeat) clearInterval(heartbeat);
    if (lockHeld) store.releaseLock(deps.pid);
  }
  reportProgress(true);

  if (readError) throw readError;
  // The output could not be written (a full disk): fatal for this run, but every answered row
  // is checkpointed, so it ends like a breaker stop, with the resume command. Anything else is a bug.
  if (writeError && !(writeError instanceof OutputError)) throw writeError;

  summary.stopped = stopping;
  summary.message = stopMessage;
  summary.durationMs = now() - started;
  if (stopping === 'breaker' || stopping === 'auth' || stopping === 'fatal') summary.exitCode = 1;
  else if (stopping) summary.exitCode = 3;
  else summary.exitCode = complete || options.dryRun ? 0 : 3;
  return summary;
}

/** Keys read from the state per scan. */
export const STORED_KEYS_CHUNK = 1_024;

/**
 * The run's stored key whose first row is `idx` (for that account and IFSC), read by range scans
 * in file order. Asked for rows in increasing order. A key this run stores later is not seen, nor
 * needed: it belongs to a row already read.
 */
function storedKeys(store: BankStore, runId: number): (idx: number, account: string, ifsc: string) => KeyRecord | undefined {
  let chunk: KeyRecord[] = [];
  let pos = 0;
  let exhausted = false;
  return (idx, account, ifsc) => {
    for (;;) {
      while (pos < chunk.length && chunk[pos]!.firstIdx < idx) pos += 1;
      if (pos < chunk.length) {
        const record = chunk[pos]!;
        return record.firstIdx === idx && record.account === account && record.ifsc === ifsc ? record : undefined;
      }
      if (exhausted) return undefined;
      chunk = store.keysFrom(runId, idx, STORED_KEYS_CHUNK);
      pos = 0;
      exhausted = chunk.length < STORED_KEYS_CHUNK;
    }
  };
}

function newKey(account: string, ifsc: string, firstIdx: number): KeyRecord {
  return { key: `${account}|${ifsc}`, account, ifsc, firstIdx, status: 'PENDING', phase: null, source: null, reason: null, resultId: null, requestId: null, dueAt: null, attempts: 0 };
}

function deferralReason(dueAt: number): string {
  return `daily transaction limit reached for this account: deferred until ${new Date(dueAt).toISOString()} (next midnight IST); re-run with --resume then`;
}

function recordSize(fields: readonly string[]): number {
  let size = 64;
  for (const field of fields) size += field.length;
  return size;
}

function padTo(fields: string[], length: number): string[] {
  if (fields.length > length) return fields.slice(0, length);
  return [...fields, ...new Array<string>(length - fields.length).fill('')];
}

function createLimiter(options: BankRunOptions): Bottleneck | undefined {
  if (options.rate === undefined || options.rate <= 0) return undefined;
  // Requests are spaced 2.5% wider than --rate asks: a quota counted over a sliding second
  // otherwise sees the odd 201st request whenever either side's event loop bunches two.
  const minTime = 1000 / (options.rate * RATE_HEADROOM);
  if (options.redis) {
    // Clustered mode: every run of one credential shares one quota through Redis. Bottleneck
    // loads ioredis itself; it is optional, so say how to get it rather than fail obscurely.
    try {
      createRequire(import.meta.url).resolve('ioredis');
    } catch {
      throw new UsageError('--redis needs the ioredis package: npm install ioredis');
    }
    return new Bottleneck({
      id: options.redis.limiterId,
      datastore: 'ioredis',
      clearDatastore: false,
      clientOptions: options.redis.url,
      minTime,
      reservoir: null,
    } as Bottleneck.ConstructorOptions);
  }
  return new Bottleneck({ minTime });
}

