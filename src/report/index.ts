/**
 * The HTML run report (docs/ARCHITECTURE.md, "Layout", src/report/; --report): aggregates from the state — each payee
 * row's decision among them — and the run's own summary when there is one, rendered to one page
 * written mode 0600 (it holds payee names). A run that kept no decisions (before schema 7) is read
 * with its enriched CSV too, for its name verdicts.
 */
import { writePrivateFile } from '../output/private-file.js';
import fs from 'node:fs';
import path from 'node:path';
import { StateFileError } from '../errors.js';
import { fileIdentity } from '../input/unchanged.js';
import { openStateForReading } from '../state/report-reader.js';
import type { Db } from '../state/types.js';
import type { ColumnOverrides } from '../input/recognise.js';
import { readRunAggregates } from './aggregate.js';
import { buildReport, type BuildOptions } from './build.js';
import { DEFAULT_LIST_CAP } from './model.js';
import { scanOutput } from './output-scan.js';
import { renderReport } from './render.js';
import { readStandingNow, withStanding } from './standing.js';
import { toolVersion } from '../version.js';

export { latestRunId, listRuns, readRunAggregates, RunNotFoundError } from './aggregate.js';
export { buildReport, type RunSummaryLike } from './build.js';
export { renderReport, CSP } from './render.js';
export { scanOutput } from './output-scan.js';
export type { RunReport } from './model.js';
import type { RecordedRun } from './model.js';

export interface WriteReportOptions extends Omit<BuildOptions, 'atRisk' | 'nameMatch' | 'toolVersion' | 'generatedAt'> {
  db: Db;
  runId: number;
  reportPath: string;
  /**
   * The run's enriched CSV, read for name verdicts and the verified rows whose name does not match, for a run that kept no
   * decisions in the state (before schema 7); default: the output the run recorded, when it ran to its end.
   */
  csvPath?: string | undefined;
  columns?: ColumnOverrides | undefined;
  listCap?: number | undefined;
  generatedAt: number;
  /**
   * Show each row's decision as it stands now — reviews since the run, and a PAY a newer answer
   * contradicts held, as the release decides them — with the run's decision beside each one that
   * changed (`vas-verify report`). Default false: the decisions as the run wrote them (`bank --report`).
   */
  asReviewed?: boolean | undefined;
}

/**
 * The enriched CSV to read: the one given, else the one the run wrote (a stopped run discards its
 * output), only while it is still that file: a later run writing the same -o replaces it, and its
 * rows are not this run's. `note` says why the run's own file is not read.
 */
function outputToScan(options: WriteReportOptions, recorded: RecordedRun | null): { path?: string; note?: string } {
  if (options.csvPath !== undefined) return { path: options.csvPath };
  if (!recorded || recorded.finishedAt === null || recorded.stopped !== null || recorded.outputPath === null) return {};
  if (recorded.outputFile === undefined) return { path: recorded.outputPath }; // recorded by a version that kept no identity
  const now = fileIdentity(recorded.outputPath);
  const current = now ? JSON.stringify({ ...now, mtimeNs: String(now.mtimeNs) }) : null;
  if (recorded.outputFile !== null && current === recorded.outputFile) return { path: recorded.outputPath };
  return {
    note: `The file this run wrote, ${recorded.outputPath}, ${now ? 'has been replaced since (a later run writing the same -o)' : 'is gone'}: its rows are not this run's, so the verified rows whose name does not match are not listed (give this run's own file with --csv).`,
  };
}

/** Builds the report of run `runId` and writes it; returns its size in bytes. */
export async function writeRunReport(options: WriteReportOptions): Promise<{ bytes: number }> {
  const listCap = options.listCap ?? DEFAULT_LIST_CAP;
  const standing = options.asReviewed ? readStandingNow(options.db, options.runId, listCap) : undefined;
  const read = readRunAggregates(options.db, options.runId, listCap, standing?.now);
  const aggregates = standing && read.decisions ? { ...read, decisions: withStanding(read.decisions, standing) } : read;
  // A run that kept its decisions in the state is reported from the state alone; an older one, from its enriched file too.
  const { path: csvPath, note: outputNote } = aggregates.decisions ? {} : outputToScan(options, aggregates.recorded);
  const scan = csvPath && fs.existsSync(csvPath) ? await scanOutput(csvPath, listCap, options.columns) : undefined;
  const report = buildReport(aggregates, {
    ...options,
    outputNote,
    generatedAt: options.generatedAt,
    toolVersion: toolVersion(),
    atRisk: scan?.atRisk,
    nameMatch: scan?.nameMatch,
    since: standing && aggregates.decisions ? standing.since : undefined,
  });
  const html = renderReport(report);
  writePrivateFile(options.reportPath, html);
  return { bytes: Buffer.byteLength(html) };
}

export { writePrivateFile };

export { toolVersion };

export interface ReportFromStateOptions extends Omit<WriteReportOptions, 'db' | 'runId'> {
  statePath: string;
  /** Default: the newest run of the state. */
  runId?: number | undefined;
}

/**
 * Opens the state read-only (a run may still be writing it: WAL readers do not block it) and
 * writes the report of one run. Returns the run id and the page's size.
 */
export async function writeReportFromState(options: ReportFromStateOptions): Promise<{ runId: number; bytes: number }> {
  const db = openStateForReading(options.statePath, (message) => new ReportStateError(message));
  try {
    const { latestRunId: latest } = await import('./aggregate.js');
    let runId: number | undefined;
    try {
      runId = options.runId ?? latest(db);
    } catch (error) {
      throw new ReportStateError(`${options.statePath} is not a vas-verify state file: ${(error as Error).message}`);
    }
    if (runId === undefined) throw new ReportStateError(`${options.statePath} holds no bank run yet`);
    const { bytes } = await writeRunReport({ ...options, db, runId });
    return { runId, bytes };
  } finally {
    db.close();
  }
}

/** A state file that cannot give a report: a state-file error (exit 2). */
export class ReportStateError extends StateFileError {}
