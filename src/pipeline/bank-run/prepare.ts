/**
 * Stage 1 of the bank run (docs/ARCHITECTURE.md, "The bank run"): everything that can be wrong
 * with the input is found before any call, then the run is chosen — continue an unfinished one,
 * re-emit a finished one, or start one — under the state file's run lock.
 */
import { RunLockedError, UsageError } from '../../errors.js';
import { openPayeeFile, type InputSummary } from '../../input/payee-file.js';
import type { ColumnMap } from '../../input/recognise.js';
import type { CsvRecord } from '../../input/read-csv.js';
import type { BankStore } from '../../state/bank-store.js';
import { describeHolder } from '../../state/run-lock.js';
import { inspectInput, type InputInfo } from '../../input/inspect.js';
import { appendedColumns } from '../write.js';
import type { BankRunDeps, BankRunOptions, BankRunSummary } from './types.js';

/** How often a run tells the lock it is still alive. */
export const LOCK_HEARTBEAT_MS = 15_000;

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
  /** The data rows, after the header. */
  records: AsyncIterator<CsvRecord>;
  close(): void;
}

/**
 * Opens the input (CSV or .xlsx) and recognises its header and columns (src/input/): the columns
 * are found, or the run stops here (exit 2). Output columns the input already has are written as
 * `vas_<name>`; the lines above the header are kept for the output.
 */
export async function openInput(options: BankRunOptions): Promise<OpenedInput> {
  const info = await (options.inspection ?? inspectInput(options.inputPath));
  const file = await openPayeeFile(options.inputPath, info.encoding, { columns: options.columns, headerRow: options.headerRow, sheet: options.sheet, spoolDir: options.spoolDir });
  const { header, columns } = file;
  const appended = file.appendedNames(appendedColumns(columns.name >= 0));
  const reasons = [...file.reasons];
  for (const [from, to] of Object.entries(file.summary.renamed)) {
    reasons.push(`output column ${from} is written as ${to}: the input already has a column ${from}`);
  }
  return { info, header, columns, appended, preamble: file.preamble, reasons, summary: file.summary, records: file.records, close: () => file.close() };
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
 * otherwise a new run starts. Records the choice in `summary`.
 */
export async function chooseRun(options: BankRunOptions, deps: BankRunDeps, input: OpenedInput, summary: BankRunSummary): Promise<ChosenRun> {
  const release = holdLock(options, deps, input);
  try {
    const runId = await selectRun(options, deps, input.info, summary);
    return { runId, release };
  } catch (error) {
    input.close();
    release();
    throw error;
  }
}

function holdLock(options: BankRunOptions, deps: BankRunDeps, input: OpenedInput): () => void {
  if (options.dryRun) return () => {};
  const { store, pid } = deps;
  const lock = store.acquireLock(pid, deps.isAlive);
  if (!lock.ok) {
    input.close();
    throw new RunLockedError(`${describeHolder(lock.holder)} is using this state file: wait for it to finish or use another --state`);
  }
  const heartbeat = setInterval(() => store.heartbeat(pid), LOCK_HEARTBEAT_MS);
  heartbeat.unref();
  let held = true;
  return () => {
    clearInterval(heartbeat);
    if (held) store.releaseLock(pid);
    held = false;
  };
}

async function selectRun(options: BankRunOptions, deps: BankRunDeps, info: InputInfo, summary: BankRunSummary): Promise<number | null> {
  const { store, log } = deps;
  const previous = store.latestRun(info.fingerprint, options.mode);
  let runId: number | null = null;
  // A dry run changes nothing, so it may look at an unfinished run as a resume would.
  if (previous?.status === 'open' && !options.resume && !options.dryRun) {
    throw new UsageError(
      `an unfinished ${options.mode} run of this input exists (started ${new Date(previous.createdAt).toISOString()}): add --resume to continue it`,
    );
  }
  if (previous && (previous.status === 'open' || options.resume)) {
    runId = previous.id;
    summary.resumed = true;
    if (!options.dryRun) recover(store, previous.id, options.retryUnconfirmed, summary, log);
  } else if (!options.dryRun) {
    runId = store.createRun(info.fingerprint, options.mode, options.inputPath).id;
  }
  summary.runId = runId;
  if (!options.dryRun) await store.flush();
  return runId;
}

/** A run found with payees IN_FLIGHT was killed: penny-less calls go again, penny-drops become UNCONFIRMED. */
function recover(store: BankStore, runId: number, retryUnconfirmed: boolean, summary: BankRunSummary, log: BankRunDeps['log']): void {
  const recovered = store.recoverInFlight(runId, retryUnconfirmed);
  summary.unconfirmedOnResume = recovered.unconfirmed;
  if (recovered.unconfirmed > 0) {
    log.warn(`${recovered.unconfirmed} penny-drop request(s) were in flight when the last run stopped: marked UNCONFIRMED (never re-sent without --retry-unconfirmed)`);
  }
}
