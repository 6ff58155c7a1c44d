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
import path from 'node:path';
import { OutputError } from '../../errors.js';
import type { Limiter } from '../../limiter/index.js';
import { checkOutputPath, openCsvOutput, type CsvOutput } from '../write.js';
import { Caller, createLimiter } from './caller.js';
import { OrderedWriter } from './ordered-writer.js';
import { LivePayees } from './payees.js';
import { Planner } from './plan.js';
import { chooseRun, openInput, type ChosenRun, type OpenedInput } from './prepare.js';
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
  output: CsvOutput | undefined;
  writer: OrderedWriter;
  planner: Planner;
  caller: Caller;
  progress: ProgressReporter;
  limiter: Limiter | undefined;
}

export async function runBank(options: BankRunOptions, deps: BankRunDeps): Promise<BankRunSummary> {
  const started = deps.now();
  // Everything that can be wrong with the input is found before any call.
  if (!options.dryRun) checkOutputPath(options.outputPath);
  const input = await openInput(options);
  for (const line of input.reasons) deps.log.info(line);
  // ---- limiter (src/limiter): set up before any call; an unusable --redis stops here ----
  let limiter: Limiter | undefined;
  try {
    limiter = await createLimiter(options, deps.stopSignal);
  } catch (error) {
    input.close();
    throw error;
  }
  // ---- end limiter ----
  const summary = createSummary(options, input.summary);
  let run: ChosenRun;
  try {
    run = await chooseRun(options, deps, input, summary);
  } catch (error) {
    await limiter?.close(); // limiter: a locked state file or a failed run choice lets go of it
    throw error;
  }
  if (run.runId !== null && !options.dryRun) startRunStats(options, deps, run.runId, summary, started);
  const stages = assemble(options, deps, input, run, limiter, summary, started);
  const following = stages.stop.follow(deps.stopSignal);
  const readError = await readRows(stages);
  await stages.caller.settled();
  await stages.writer.drain();
  following.detach();
  stages.progress.stopTimer();
  await limiter?.close(); // limiter
  await finishRun(options, deps, stages, summary, started);
  stages.progress.report(true);

  if (readError) throw readError;
  // The output could not be written (a full disk): fatal for this run, but every answered row
  // is checkpointed, so it ends like a breaker stop, with the resume command. Anything else is a bug.
  const { writeError } = stages.writer;
  if (writeError && !(writeError instanceof OutputError)) throw writeError;
  return summary;
}

/** The run's stats in the state (calls, retries, upstream errors over time, how it ends), for its report. */
function startRunStats(options: BankRunOptions, deps: BankRunDeps, runId: number, summary: BankRunSummary, started: number): void {
  const registry = deps.ifscRegistry ? `${deps.ifscRegistry.source}, published ${deps.ifscRegistry.published}` : null;
  deps.store.startRunStats({
    runId, startedAt: started, resumed: summary.resumed, outputName: options.outputPath, outputPath: path.resolve(options.outputPath),
    resumeCommand: options.recorded?.resumeCommand ?? null, toolVersion: options.recorded?.toolVersion ?? null, registry, totals: () => summary,
  });
}

function assemble(options: BankRunOptions, deps: BankRunDeps, input: OpenedInput, run: ChosenRun, limiter: Limiter | undefined, summary: BankRunSummary, started: number): Stages {
  const { store, now } = deps;
  const { header, columns } = input;
  const stop = new StopControl(options.stopGraceMs ?? DEFAULT_STOP_GRACE_MS);
  // [input] an .xlsx output of an .xlsx input keeps its workbook: the other sheets, the sheet's name, cell types.
  const xlsxSource = input.summary.sheet === undefined ? undefined : { file: options.inputPath, sheet: input.summary.sheet, spoolDir: options.spoolDir, textColumns: [columns.account] };
  const output = options.dryRun ? undefined : openCsvOutput(options.outputPath, [...header, ...input.appended], deps.isAlive, input.preamble, xlsxSource);
  const finish = createRowFinisher({ header, nameColumn: columns.name, matchNames: deps.matchNames, ifscRegistry: deps.ifscRegistry, summary, writes: output !== undefined });
  const writer = new OrderedWriter(output, finish, stop);
  // A dry run writes nothing to the state, whichever run it looks at.
  const payees = new LivePayees(store, options.dryRun ? null : run.runId, summary);
  const caller = new Caller({
    options, client: deps.client, store, runId: run.runId, payees, summary, stop, limiter, now, log: deps.log,
    onSettled: () => writer.pump(),
  });
  const planner = new Planner({
    options, store, runId: run.runId, resumed: summary.resumed, header, columns, payees, summary, now, ifscRegistry: deps.ifscRegistry,
    dispatch: (task) => caller.dispatch(task),
  });
  const progress = new ProgressReporter(deps.onProgress, now, started, summary, input.info.lines);
  return { input, run, stop, output, writer, planner, caller, progress, limiter };
}

/** The reader: each row is admitted to the writer, planned, and written as soon as it can be. Returns a read failure. */
async function readRows({ input, stop, writer, planner, progress }: Stages): Promise<unknown> {
  try {
    let row = 0;
    for (;;) {
      if (stop.reason) break;
      await writer.waitForRoom();
      if (stop.reason) break;
      const next = await input.records.next();
      if (next.done) break;
      row += 1;
      progress.rowsRead = row;
      planner.plan(writer.admit(next.value.fields, next.value.line), row);
      writer.pump();
      progress.report(false);
      // Parsed rows resolve as microtasks: without a yield the reader would take thousands of
      // rows before the first request (and every commit) got a turn.
      if (row % READER_YIELD_ROWS === 0) await new Promise<void>((r) => setImmediate(r));
    }
    progress.totalKnown = !stop.reason;
    return undefined;
  } catch (error) {
    stop.stop('fatal', (error as Error).message);
    return error;
  } finally {
    input.close();
  }
}

/** Renames the output into place (or discards it), closes the summary, records how the run ended, and lets go of the lock. */
async function finishRun(options: BankRunOptions, deps: BankRunDeps, stages: Stages, summary: BankRunSummary, started: number): Promise<void> {
  const { store } = deps;
  const { stop, output, writer, run } = stages;
  let complete = false;
  try {
    if (stop.reason || writer.writeError) {
      await output?.discard();
    } else {
      await output?.commit();
      complete = allFinal(summary);
    }
    const end = deps.now();
    closeSummary(summary, { stopped: stop.reason, message: stop.message, durationMs: end - started, complete });
    if (run.runId !== null && !options.dryRun) {
      if (!stop.reason) store.finishRun(run.runId, complete, summary.rows);
      store.endRunStats({ finishedAt: end, exitCode: summary.exitCode, stopped: summary.stopped, message: summary.message, durationMs: summary.durationMs });
      await store.flush();
    }
  } finally {
    run.release();
  }
}
