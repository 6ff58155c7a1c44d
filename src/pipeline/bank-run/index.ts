/**
 * The bank run (docs/ARCHITECTURE.md, "The bank run"): CSV in → local checks → rate limiter →
 * concurrency pool → client → SQLite checkpoint → CSV out, streaming and in input order. This
 * module only composes the stages, in the order of a row's life:
 *
 *   prepare (input, columns, run lock, which run) → plan (what each row needs) →
 *   caller (a payee's calls) → ordered writer (rows out in input order) → summary (counts, exit code)
 *
 * Everything it touches (client, store, clock, stop signal, logger) is handed in; it never reads
 * the process.
 */
import { decisionTotals, emitKey, reemitByCopy } from './reemit.js';
import { DecisionAudit } from './decision-audit.js';
import { DEFAULT_POLICY } from '../../decision/index.js';
import path from 'node:path';
import { InputError, OutputError } from '../../errors.js';
import { fileIdentity, inputChange } from '../../input/unchanged.js';
import { nameColumnsOf } from '../../input/recognise.js';
import type { Limiter } from '../../limiter/index.js';
import { checkOutputPath, openOutput, outputFormatOf, outputNameProblem, type OutputSink } from '../../output/sink.js';
import { Caller, createLimiter } from './caller.js';
import { OrderedWriter } from './ordered-writer.js';
import { ApiClock } from './api-clock.js';
import { DEFAULT_DEPOSIT_MEMORY_MS, PayeeLedger } from './ledger.js';
import { LivePayees } from './payees.js';
import { Planner } from './plan.js';
import { chooseRun, openInput, recordedHeaderRow, type ChosenRun, type OpenedInput } from './prepare.js';
import { ProgressReporter } from './progress.js';
import { createRowFinisher } from './row-output.js';
import { DEFAULT_STOP_GRACE_MS, StopControl } from './stop.js';
import { allFinal, closeSummary, createSummary } from './summary.js';
import type { BankRunDeps, BankRunOptions, BankRunSummary } from './types.js';

export type { BankRunDeps, BankRunOptions, BankRunSummary, Logger, NameMatcher, ProgressSnapshot, StopReason } from './types.js';

/** The reader gives the event loop a turn after this many rows. */
export const READER_YIELD_ROWS = 256;

/** The stages of one run, wired together. */
interface Stages {
  input: OpenedInput;
  run: ChosenRun;
  stop: StopControl;
  output: OutputSink | undefined;
  writer: OrderedWriter;
  planner: Planner;
  caller: Caller;
  progress: ProgressReporter;
  limiter: Limiter | undefined;
  /** The automatic decisions' audit entries; none for a dry run. */
  audit: DecisionAudit | undefined;
}

export async function runBank(options: BankRunOptions, deps: BankRunDeps): Promise<BankRunSummary> {
  const started = deps.now();
  // Everything that can be wrong with the input is found before any call.
  if (!options.dryRun) {
    const misnamed = outputNameProblem(options.outputPath, options.inputPath);
    if (misnamed) throw new OutputError(misnamed);
    checkOutputPath(options.outputPath);
  }
  const input = await openInput(options);
  // The one owner of the input and the rate limiter: closed here whatever happens.
  try {
    for (const line of input.reasons) deps.log.info(line);
    for (const line of input.warnings) deps.log.warn(line); // e.g. invalid UTF-8 bytes replaced
    // The rate limiter is set up before any call: an unusable --redis stops here.
    const limiter = await createLimiter(options, deps.stopSignal, (message) => deps.log.warn(message));
    try {
      return await runOpened(options, deps, input, limiter, started);
    } finally {
      await limiter?.close();
    }
  } finally {
    input.close();
  }
}

async function runOpened(options: BankRunOptions, deps: BankRunDeps, input: OpenedInput, limiter: Limiter | undefined, started: number): Promise<BankRunSummary> {
  const summary = createSummary(options, input.summary);
  const stop = new StopControl(options.stopGraceMs ?? DEFAULT_STOP_GRACE_MS);
  const run = await chooseRun(options, deps, input, summary, (reason, message) => stop.stop(reason, message));
  const key = emitKey(options, deps, input.columns);
  if (run.runId !== null && summary.resumed && !options.dryRun) {
    let copied: boolean;
    try {
      copied = reemitByCopy(options, deps, run.runId, summary, key);
    } catch (error) {
      run.release();
      throw error;
    }
    if (copied) return finishCopied(options, deps, run, summary, started, key, input);
  }
  if (run.runId !== null && !options.dryRun) startRunStats(options, deps, run.runId, summary, started, key, input);
  const stages = assemble(options, deps, { input, run, stop, limiter, summary, started });
  const following = stages.stop.follow(deps.stopSignal);
  const readError = await readRows(stages);
  await stages.caller.settled();
  await stages.writer.drain();
  if (!readError) await checkInputUnchanged(options, stages);
  following.detach();
  stages.progress.stopTimer();
  await limiter?.close(); // idempotent: the calls have settled, a shared limiter lets go of Redis now
  await finishRun(options, deps, stages, summary, started);
  stages.progress.report(true);

  if (readError) throw readError;
  // The output could not be written (a full disk): fatal for this run, but every answered row
  // is checkpointed, so it ends like a breaker stop, with the resume command. Anything else is a bug.
  const { writeError } = stages.writer;
  if (writeError && !(writeError instanceof OutputError)) throw writeError;
  return summary;
}

/**
 * An input that changed while it was read (tonight's export landing mid-run) fails the run: its
 * output mixes two files, so it is discarded and the run is left unfinished (exit 1).
 */
async function checkInputUnchanged(options: BankRunOptions, { input, stop }: Stages): Promise<void> {
  if (options.dryRun || stop.reason) return;
  const change = await inputChange(options.inputPath, input.identity, input.info.fingerprint);
  if (change === undefined) return;
  stop.stop('input-changed', `the input ${options.inputPath} changed while it was read (${change}): its output is discarded and nothing is recorded as done for the new file; run again once the file is complete`);
}

/** A run re-emitted by a copy of its output: its invocation recorded, the summary closed, the lock let go. */
async function finishCopied(options: BankRunOptions, deps: BankRunDeps, run: ChosenRun, summary: BankRunSummary, started: number, key: string, input: OpenedInput): Promise<BankRunSummary> {
  const runId = run.runId!;
  try {
    startRunStats(options, deps, runId, summary, started, key, input);
    const end = deps.now();
    closeSummary(summary, { stopped: null, message: null, durationMs: end - started, complete: true, failOn: options.failOn });
    const written = fileIdentity(options.outputPath);
    const outputFile = written ? JSON.stringify({ ...written, mtimeNs: String(written.mtimeNs) }) : null;
    deps.store.audit(runId, 'run', { by: 'vas-verify', reemitted: 'copy', exitCode: summary.exitCode, decisions: summary.decisions, output: path.resolve(options.outputPath) });
    deps.store.endRunStats({ finishedAt: end, exitCode: summary.exitCode, stopped: null, message: null, durationMs: summary.durationMs, outputFile, decisions: decisionTotals(summary) });
    await deps.store.flush();
  } finally {
    run.release();
  }
  return summary;
}

/** The run's stats in the state (calls, retries, upstream errors over time, how it ends), for its report. */
function startRunStats(options: BankRunOptions, deps: BankRunDeps, runId: number, summary: BankRunSummary, started: number, key: string, input: OpenedInput): void {
  const registry = deps.ifscRegistry ? `${deps.ifscRegistry.source}, published ${deps.ifscRegistry.published}` : null;
  const earlier = deps.store.startRunStats({
    runId, startedAt: started, resumed: summary.resumed, outputName: options.outputPath, outputPath: path.resolve(options.outputPath),
    resumeCommand: options.recorded?.resumeCommand ?? null, toolVersion: options.recorded?.toolVersion ?? null, registry,
    policy: JSON.stringify(options.policy?.policy ?? DEFAULT_POLICY), emitKey: key, totals: () => summary,
  });
  // The whole run's counts: the earlier invocations', to which this one's are added at its end (closeSummary).
  summary.run = earlier;
  // How the input is read, so that `vas-verify release` reads it alike (src/release/).
  const read = summary.input;
  deps.store.recordRunInput(runId, {
    path: path.resolve(options.inputPath), sheet: read.sheet, headerRow: recordedHeaderRow(read), delimiter: options.delimiter, columns: options.columns,
    payeeColumns: { account: input.columns.account, ifsc: input.columns.ifsc, header: input.header },
  });
}

/** What runBank has set up before the stages are assembled. */
interface Prepared {
  input: OpenedInput;
  run: ChosenRun;
  stop: StopControl;
  limiter: Limiter | undefined;
  summary: BankRunSummary;
  started: number;
}

function assemble(options: BankRunOptions, deps: BankRunDeps, { input, run, stop, limiter, summary, started }: Prepared): Stages {
  const { store, now } = deps;
  const { header, columns } = input;
  // An .xlsx output of an .xlsx input keeps its workbook: the other sheets, the sheet's name, cell types.
  const xlsxSource = input.summary.sheet === undefined ? undefined : { file: options.inputPath, sheet: input.summary.sheet, spoolDir: options.spoolDir, textColumns: columns.confirm === undefined ? [columns.account] : [columns.account, columns.confirm], columns: { input: header.length, tool: input.appended.length } };
  const audit = options.dryRun || run.runId === null ? undefined : new DecisionAudit(store, run.runId);
  const output = options.dryRun ? undefined : openOutput(options.outputPath, [...header, ...input.appended], deps.isAlive, input.preamble, { format: input.format, xlsxSource });
  const finish = createRowFinisher({
    header, nameColumns: nameColumnsOf(columns), amountColumn: columns.amount ?? -1, matchNames: deps.matchNames, ifscRegistry: deps.ifscRegistry, summary, writes: output !== undefined,
    // A workbook written from a workbook keeps a cell right of the header (a CSV output stays rectangular).
    keepsCellsBeside: xlsxSource !== undefined && outputFormatOf(options.outputPath) === 'xlsx',
    // A dry run verifies nothing, so it decides nothing.
    policy: options.dryRun ? undefined : (options.policy?.policy ?? DEFAULT_POLICY),
    recorder: audit === undefined || run.runId === null ? undefined : { store, runId: run.runId, reviewed: store.reviewedPayees(), audit, fresh: !summary.resumed },
  });
  const writer = new OrderedWriter(output, finish, stop, {
    inFlight: options.concurrency, rate: options.rate,
    // A failed commit is kept by the group commit and fails the next write (the run stops there).
    finished: options.dryRun ? undefined : () => void store.flush().catch(() => {}),
  });
  // A dry run writes nothing to the state, whichever run it looks at.
  const payees = new LivePayees();
  const clock = new ApiClock(now);
  const ledger = new PayeeLedger({
    store, runId: run.runId, dryRun: options.dryRun, payees, summary, now, clock,
    depositMemoryMs: options.depositMemoryMs ?? DEFAULT_DEPOSIT_MEMORY_MS, retryUnconfirmed: options.retryUnconfirmed,
  });
  const caller = new Caller({
    options, client: deps.client, ledger, stats: store, payees, summary, stop, limiter, now, clock, log: deps.log,
    onSettled: () => writer.pump(),
  });
  const planner = new Planner({
    options, store, runId: run.runId, resumed: summary.resumed, header, columns, payees, ledger, summary, now, ifscRegistry: deps.ifscRegistry,
    cellsPositioned: input.summary.sheet !== undefined,
    dispatch: (task) => caller.dispatch(task),
  });
  const progress = new ProgressReporter(deps.onProgress, now, started, summary, input.info.lines);
  return { input, run, stop, output, writer, planner, caller, progress, limiter, audit };
}

/** The reader: each row is admitted to the writer, planned, and written as soon as it can be. Returns a read failure. */
async function readRows({ input, stop, writer, planner, caller, progress }: Stages): Promise<unknown> {
  try {
    let row = 0;
    for (;;) {
      if (stop.reason) break;
      await writer.waitForRoom();
      if (caller.queueFull()) await caller.waitForQueueRoom();
      if (stop.reason) break;
      const next = await input.records.next();
      if (next.done) break;
      // Rows that are not payees keep their place in the output and cost nothing.
      if (next.value.notPayee !== undefined) {
        planner.skip(writer.admit(next.value.fields, next.value.line), next.value.notPayee);
        writer.pump();
        continue;
      }
      row += 1;
      progress.rowsRead = row;
      const slot = writer.admit(next.value.fields, next.value.line, next.value.read);
      slot.row = row;
      planner.plan(slot, row);
      writer.pump();
      progress.report(false);
      // Parsed rows resolve as microtasks: without a yield the reader would take thousands of
      // rows before the first request (and every commit) got a turn.
      if (row % READER_YIELD_ROWS === 0) await new Promise<void>((r) => setImmediate(r));
    }
    progress.totalKnown = !stop.reason;
    if (!stop.reason) caller.inputEnded();
    // A file whose rows are all blank, totals or notes (a failed export longer than the first
    // look at it) must not pass for a run of nothing: cron notices an exit 2.
    if (row === 0 && !stop.reason) {
      const empty = new InputError(`no payee rows in ${input.summary.file}: every row under the header is blank, a total, a repeated header or a note; was the export cut short?`);
      stop.stop('fatal', empty.message);
      return empty;
    }
    return undefined;
  } catch (error) {
    stop.stop('fatal', (error as Error).message);
    return error;
  }
}

/**
 * Finishes the output and renames it into place. A failure (its folder removed, a full disk, a
 * failed rename) stops the run like a failure mid-run: fatal, the run left unfinished, every
 * answer kept in the state, the resume command named. Anything but an OutputError is a bug.
 */
async function commitOutput(output: OutputSink | undefined, stop: StopControl): Promise<void> {
  try {
    await output?.commit();
  } catch (error) {
    if (!(error instanceof OutputError)) throw error;
    stop.stop('fatal', error.message);
  }
}

/** Renames the output into place (or discards it), closes the summary, records how the run ended, and lets go of the lock. */
async function finishRun(options: BankRunOptions, deps: BankRunDeps, stages: Stages, summary: BankRunSummary, started: number): Promise<void> {
  const { store } = deps;
  const { stop, output, writer, run } = stages;
  let complete = false;
  let outputFile: string | null = null;
  try {
    // The last second's deletion of the state file, which the watch has not seen yet.
    const lost = options.dryRun ? undefined : store.stateFileProblem();
    if (lost && !stop.reason) stop.stop('fatal', lost);
    if (stop.reason || writer.writeError) {
      await output?.discard();
    } else {
      await commitOutput(output, stop);
    }
    if (!stop.reason) {
      complete = allFinal(summary);
      // Which file this run wrote: its report reads rows only from that file, not a later run's.
      const written = output ? fileIdentity(options.outputPath) : undefined;
      if (written) outputFile = JSON.stringify({ ...written, mtimeNs: String(written.mtimeNs) });
    }
    const end = deps.now();
    closeSummary(summary, { stopped: stop.reason, message: stop.message, durationMs: end - started, complete, failOn: options.failOn });
    if (run.runId !== null && !options.dryRun) {
      if (!stop.reason) store.finishRun(run.runId, complete, summary.rows);
      stages.audit?.close({
        by: 'vas-verify', exitCode: summary.exitCode, stopped: summary.stopped, decisions: summary.decisions, reasons: summary.decisionReasons,
        policy: summary.policy, toolVersion: options.recorded?.toolVersion ?? null,
        registry: deps.ifscRegistry ? `${deps.ifscRegistry.source}, published ${deps.ifscRegistry.published}` : null,
      });
      store.endRunStats({ finishedAt: end, exitCode: summary.exitCode, stopped: summary.stopped, message: summary.message, durationMs: summary.durationMs, outputFile, decisions: outputFile ? decisionTotals(summary) : null });
      await store.flush();
    }
  } finally {
    run.release();
    // Every call has settled and been recorded: a state file deleted under the run goes back now.
    const restored = options.dryRun ? undefined : store.restoreStateFile();
    if (restored) deps.log.warn(restored);
  }
}
