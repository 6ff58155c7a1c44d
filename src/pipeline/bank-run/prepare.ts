/**
 * Stage 1 of the bank run (docs/ARCHITECTURE.md, "The bank run"): everything that can be wrong
 * with the input is found before any call, then the run is chosen — continue an unfinished one,
 * re-emit a finished one, or start one — under the state file's run lock.
 */
import { RunLockedError, UsageError } from '../../errors.js';
import { formatIst } from '../../ist.js';
import { openPayeeFile, type InputSummary } from '../../input/payee-file.js';
import type { ColumnMap } from '../../input/recognise.js';
import type { InputRow } from '../../input/payee-file.js';
import type { CsvFormat } from '../../input/read-csv.js';
import { describeInvalidUtf8 } from '../../input/inspect.js';
import type { BankStore } from '../../state/bank-store.js';
import { STATE_WATCH_MS } from '../../state/state-file-watch.js';
import { describeHolder, heartbeatMoved, lockIdentity, LEASE_POLL_MS, LOCK_HEARTBEAT_MS, LOCK_LEASE_MS, SYSTEM_PROBE, type HeldLock, type LockAttempt, type LockIdentity, type ProcessProbe } from '../../state/run-lock.js';
import { inspectInput, type InputInfo } from '../../input/inspect.js';
import { fileIdentity, type FileIdentity } from '../../input/unchanged.js';
import { appendedColumns } from '../columns.js';
import type { BankRunDeps, BankRunOptions, BankRunSummary } from './types.js';
import type { RunInputRecord } from '../../state/run-record.js';
import { shellCommand } from '../../shell-quote.js';

export interface OpenedInput {
  info: InputInfo;
  header: string[];
  columns: ColumnMap;
  /** The columns the output appends to the header (`vas_<name>` where the input has the name). */
  appended: string[];
  /** Records above the header, copied above the output's header unchanged. */
  preamble: string[][];
  /** Lines for the run log: which column was taken for what and why, and the renamed output columns. */
  reasons: string[];
  /** How the input was read, for the summary's `input`. */
  summary: InputSummary;
  /** The data rows, after the header (rows that are not payees carry `notPayee`). */
  records: AsyncIterator<InputRow>;
  /** The file's identity before its rows were read: compared after the last (src/input/unchanged.ts). */
  identity: FileIdentity | undefined;
  /** A CSV input's delimiter, BOM and line endings, kept by the output. */
  format: CsvFormat | undefined;
  /** Warnings for the run log (invalid UTF-8 bytes replaced). */
  warnings: string[];
  close(): void;
}

/**
 * Opens the input (CSV or .xlsx) and recognises its header and columns (src/input/): the columns
 * are found, or the run stops here (exit 2). Output columns the input already has are written as
 * `vas_<name>`; the lines above the header are kept for the output.
 */
export async function openInput(options: BankRunOptions): Promise<OpenedInput> {
  const identity = fileIdentity(options.inputPath);
  const info = await (options.inspection ?? inspectInput(options.inputPath));
  const file = await openPayeeFile(options.inputPath, info.encoding, {
    columns: options.columns, headerRow: options.headerRow, sheet: options.sheet, delimiter: options.delimiter, explainColumns: options.explainColumns,
    spoolDir: options.spoolDir,
  });
  const invalid = describeInvalidUtf8(options.inputPath, info);
  const { header, columns } = file;
  const appended = file.appendedNames(appendedColumns(columns.name >= 0));
  const reasons = [...file.reasons];
  for (const [from, to] of Object.entries(file.summary.renamed)) {
    reasons.push(`output column ${from} is written as ${to}: the input already has a column ${from}`);
  }
  return {
    info, header, columns, appended, preamble: file.preamble, reasons, summary: file.summary, records: file.records, identity,
    format: file.format, warnings: invalid === undefined ? [] : [invalid], close: () => file.close(),
  };
}

export interface ChosenRun {
  /** null only for a dry run of an input never run. */
  runId: number | null;
  /** Lets go of the run lock (idempotent). */
  release(): void;
}

/**
 * Takes the run lock (not for a dry run) and chooses the run: an unfinished run of this input
 * and mode is continued (--resume) or refused; a finished one is re-emitted with --resume;
 * otherwise a new run starts. Records the choice in `summary`. `onLost` is told when the
 * heartbeat finds that another run has taken the lock ('lock-lost'), or the state file was deleted
 * or replaced under the run ('fatal').
 */
export async function chooseRun(options: BankRunOptions, deps: BankRunDeps, input: OpenedInput, summary: BankRunSummary, onLost: (reason: 'lock-lost' | 'fatal', message: string) => void): Promise<ChosenRun> {
  let release = () => {};
  try {
    release = await holdLock(options, deps, onLost);
    // A review the audit trail does not back (inserted, edited or deleted by hand) would decide
    // rows; nothing is run on it (src/state/audit-consistency.ts).
    if (!options.dryRun) deps.store.refuseUnbackedReviews('this state file');
    const runId = await selectRun(options, deps, input, summary);
    return { runId, release };
  } catch (error) {
    release();
    throw error;
  }
}

async function holdLock(options: BankRunOptions, deps: BankRunDeps, onLost: (reason: 'lock-lost' | 'fatal', message: string) => void): Promise<() => void> {
  if (options.dryRun) return () => {};
  const { store } = deps;
  const probe: ProcessProbe = deps.lockProbe ?? { ...SYSTEM_PROBE, isAlive: deps.isAlive };
  const me = lockIdentity(deps.pid, probe, deps.host);
  let attempt = store.acquireLock(me, probe);
  if (!attempt.ok && 'watch' in attempt) attempt = await watchLease(options, deps, me, probe, attempt.watch);
  if (!attempt.ok) {
    const holder = 'holder' in attempt ? attempt.holder : attempt.watch;
    throw new RunLockedError(`${describeHolder(holder)} is using this state file: wait for it to finish or use another --state`);
  }
  const heartbeat = setInterval(() => {
    let ours: boolean;
    try {
      ours = store.heartbeat();
    } catch (error) {
      onLost('lock-lost', `the state file's run lock could not be renewed (${(error as Error).message}): the run stopped sending`);
      return;
    }
    if (!ours) {
      const holder = store.readLock();
      onLost('lock-lost', `this run lost the state file's lock to ${holder ? describeHolder(holder) : 'another vas-verify run'}: it stopped sending at once`);
    }
  }, heartbeatMs(options));
  heartbeat.unref();
  // A state file deleted or replaced under the run is its memory of deposits lost (state-file-watch.ts).
  const watch = setInterval(() => {
    const problem = store.stateFileProblem();
    if (problem) {
      clearInterval(watch);
      onLost('fatal', problem);
    }
  }, STATE_WATCH_MS);
  watch.unref();
  let held = true;
  return () => {
    clearInterval(heartbeat);
    clearInterval(watch);
    if (held) store.releaseLock();
    held = false;
  };
}

/** A holder beats eight times per lease (every 15 s with the default 2-minute lease). */
function heartbeatMs(options: BankRunOptions): number {
  return Math.min(LOCK_HEARTBEAT_MS, Math.max(50, (options.lockLeaseMs ?? LOCK_LEASE_MS) / 8));
}

/**
 * The lock is held on another host (or in another PID namespace of this one, whose pids mean
 * nothing here): its holder is alive while its heartbeat counter moves. The
 * counter is watched for the lease on this process's own monotonic clock (never comparing the
 * two hosts' clocks); a holder whose heartbeat stood still that long is taken over.
 */
async function watchLease(options: BankRunOptions, deps: BankRunDeps, me: LockIdentity, probe: ProcessProbe, held: HeldLock): Promise<LockAttempt> {
  const leaseMs = options.lockLeaseMs ?? LOCK_LEASE_MS;
  const where = held.host === me.host ? 'another PID namespace of this host (a container)' : 'another host';
  deps.log.info(`${describeHolder(held)} holds this state file's lock from ${where}: waiting up to ${Math.round(leaseMs / 1000)} s to see whether it is still alive`);
  const start = performance.now();
  while (performance.now() - start < leaseMs) {
    if (deps.stopSignal.aborted) return { ok: false, watch: held };
    await sleep(Math.min(LEASE_POLL_MS, leaseMs), deps.stopSignal);
    if (heartbeatMoved(held, deps.store.readLock())) {
      // Alive (its heartbeat moved), let go, or taken by a third run: one more look decides.
      return deps.store.acquireLock(me, probe);
    }
  }
  return deps.store.acquireLock(me, probe, held);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

async function selectRun(options: BankRunOptions, deps: BankRunDeps, input: OpenedInput, summary: BankRunSummary): Promise<number | null> {
  const { store, log } = deps;
  const previous = store.latestRun(input.info.fingerprint, options.mode);
  let runId: number | null = null;
  // A dry run changes nothing, so it may look at an unfinished run as a resume would.
  if (previous?.status === 'open' && !options.resume && !options.dryRun) {
    throw new UsageError(
      `an unfinished ${options.mode} run of this input exists (started ${formatIst(previous.createdAt)}): add --resume to continue it`,
    );
  }
  if (previous && (previous.status === 'open' || options.resume)) {
    checkSamePayeeColumns(previous.id, store.recordedRunInput(previous.id), input);
    runId = previous.id;
    summary.resumed = true;
    if (!options.dryRun) recover(store, previous.id, options.retryUnconfirmed, summary, log);
  } else if (!options.dryRun) {
    runId = store.createRun(input.info.fingerprint, options.mode, options.inputPath).id;
  }
  summary.runId = runId;
  if (!options.dryRun) await store.flush();
  return runId;
}

/** The header's line as a run records it (run_stats.input.headerRow): undefined when none was found. */
export function recordedHeaderRow(read: InputSummary): number | undefined {
  return read.headerLine > 0 ? read.headerLine : undefined;
}

/**
 * A run continues only as it started: its payees (account and IFSC, by their rows) were stored as
 * read from its columns. Read from others — another --account-col, a changed --header-row or
 * --sheet — each row would name another payee than the one stored for it, and the run would stop at
 * the first as if another process held it. Refused before anything changes, naming the flags the
 * run started with.
 */
function checkSamePayeeColumns(runId: number, recorded: RunInputRecord | undefined, input: OpenedInput): void {
  const before = recorded?.payeeColumns;
  const headerRow = recordedHeaderRow(input.summary);
  if (!before || (before.account === input.columns.account && before.ifsc === input.columns.ifsc && recorded.headerRow === headerRow && recorded.sheet === input.summary.sheet)) return;
  const column = (header: readonly string[], index: number) => `column ${index + 1} ${JSON.stringify(header[index] ?? '')}`;
  const reading = (header: readonly string[], account: number, ifsc: number, line: number | undefined, sheet: string | undefined) =>
    `the account from ${column(header, account)} and the IFSC from ${column(header, ifsc)}${line === undefined ? '' : ` under the header at line ${line}`}${sheet === undefined ? '' : ` of sheet ${JSON.stringify(sheet)}`}`;
  // A column the run took by itself that this invocation reads elsewhere (a build that recognises
  // columns differently): named by the header the run read it under, which takes it back.
  const readThen = (flag: string | undefined, then: number, now: number) => flag ?? (then !== now && before.header[then] !== undefined ? before.header[then] : undefined);
  const accountFlag = readThen(recorded.columns?.account, before.account, input.columns.account);
  const ifscFlag = readThen(recorded.columns?.ifsc, before.ifsc, input.columns.ifsc);
  // The flags the printed resume command lacks: those of columns the run took by itself.
  const added = [
    ...(accountFlag !== undefined && recorded.columns?.account === undefined ? ['--account-col', accountFlag] : []),
    ...(ifscFlag !== undefined && recorded.columns?.ifsc === undefined ? ['--ifsc-col', ifscFlag] : []),
  ];
  const flags = [
    ...(accountFlag !== undefined ? ['--account-col', accountFlag] : []),
    ...(ifscFlag !== undefined ? ['--ifsc-col', ifscFlag] : []),
    ...(recorded.sheet !== undefined ? ['--sheet', recorded.sheet] : []),
    ...(recorded.headerRow !== undefined && recorded.headerRow !== headerRow ? ['--header-row', String(recorded.headerRow)] : []),
  ];
  throw new UsageError(
    `run ${runId} of this input read ${reading(before.header, before.account, before.ifsc, recorded.headerRow, recorded.sheet)}; this invocation reads ${reading(input.header, input.columns.account, input.columns.ifsc, headerRow, input.summary.sheet)}. Nothing was called. ${resumeAdvice(flags, added)}`,
  );
}

/**
 * How to resume a run its columns refused: `flags`, those that read them as it did; `added`, those
 * of them the command it printed lacks (columns it took by itself, which this build reads otherwise).
 */
function resumeAdvice(flags: readonly string[], added: readonly string[]): string {
  if (added.length > 0) return `This build reads the columns otherwise than the one that started it; resume it as it started: add ${shellCommand(added)} to the resume command it printed`;
  if (flags.length === 0) return 'Resume it as it started (without column flags), as the resume command it printed does';
  return `Resume it as it started (${shellCommand(flags)}), as the resume command it printed does`;
}

/** A run found with payees IN_FLIGHT was killed: penny-less calls go again, penny-drops become UNCONFIRMED. */
function recover(store: BankStore, runId: number, retryUnconfirmed: boolean, summary: BankRunSummary, log: BankRunDeps['log']): void {
  const recovered = store.recoverInFlight(runId, retryUnconfirmed);
  summary.unconfirmedOnResume = recovered.unconfirmed;
  if (recovered.unconfirmed > 0) {
    log.warn(`${recovered.unconfirmed} penny-drop request(s) were in flight when the last run stopped: marked UNCONFIRMED (never re-sent without --retry-unconfirmed)`);
  }
}
