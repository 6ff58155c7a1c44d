/**
 * `vas-verify release` (docs/ARCHITECTURE.md, "Decisions"): the payout file for the bank — the
 * run's input in its own layout with only the payees whose decision is PAY (a reviewer's
 * acceptance included) — and, with `exceptions`, the others with their decisions. A run that is
 * not final, or an input that changed since the run, is refused. The release is written to a
 * temporary file, recorded in the audit trail (run, policy, approvals relied on), then renamed in.
 */
import { parseAmount } from '../input/amount.js';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { UsageError } from '../errors.js';
import { isOfficeOpenXml, readsAsSpreadsheet } from '../input/spreadsheet.js';
import { distinctReviewers } from '../decision/identity.js';
import { AuditTrail } from '../state/audit.js';
import type { Db } from '../state/types.js';
import { isXlsxPath } from '../input/payee-file.js';
import { isTotalRow } from '../input/row-kind.js';
import { writeCsvRelease } from './csv-release.js';
import { openExceptions, type ExceptionsFile } from './exceptions.js';
import { runOf } from './run.js';
import { openRunInput, type RunInput, type WalkedRow } from './walk.js';
import { writeXlsxRelease } from './xlsx-release.js';

export { currentDecision, recordedPolicyOf, RunDecisions, type DecidedRow } from './decisions.js';
export { openRunInput, type RunInput, type WalkedRow } from './walk.js';
export { runOf } from './run.js';

export interface ReleaseOptions {
  db: Db;
  statePath: string;
  /** Default: the newest run of the state. */
  runId?: number | undefined;
  outputPath: string;
  exceptionsPath?: string | undefined;
  /** The run's input when it is no longer where the run read it. Default: where the run read it. */
  inputPath?: string | undefined;
  /** `--approvals 2`: different reviewers a payee paid on acceptance needs, when the run's policy asks fewer. */
  approvals?: 1 | 2 | undefined;
  /** Where a spreadsheet may spool its shared strings (the state file's folder). */
  spoolDir?: string | undefined;
  /** Who released (the OS user): the audit entry's `by`, as a review's is its reviewer. */
  by?: string | undefined;
  now: () => number;
}

/** What a release wrote and relied on (for the command's lines and the audit entry). */
export interface ReleaseSummary {
  runId: number;
  input: string;
  policy: string;
  /** Different reviewers a payee paid on acceptance needs (the policy's, or --approvals). */
  approvalsNeeded: number;
  /** Payee rows by decision now. */
  decisions: { PAY: number; REVIEW: number; HOLD: number };
  /**
   * Payee rows left out while they await another reviewer (AWAITING_APPROVAL), and the most
   * approvals any of their acceptances was given under (it may be more than the policy's).
   */
  awaiting: { rows: number[]; approvals: number };
  /** Payees paid on reviewers' acceptances: review ids and reviewers. */
  approvals: { row: number; reviews: number[]; reviewers: string[] }[];
  reviewers: string[];
  /** Rows that are not payees (blank, totals, notes), kept as they are. */
  notPayees: number;
  sha256: string;
  /** The release's entry in the audit trail: its number and hash (the chain's head once written). */
  audit: { seq: number; hash: string };
  /**
   * What a person should look at before uploading (the payout is written all the same): paid rows
   * whose amount is not a positive number, an account paid on more than one row, and the run's
   * earlier releases (uploading both pays twice).
   */
  warnings: {
    oddAmounts: { line: number; amount: string }[];
    repeatedAccounts: { lines: number[]; account: string }[];
    releasedBefore: { seq: number; at: number; sha256: string }[];
    /**
     * Total and subtotal rows copied into a payout that leaves payees out: their sums (an amount,
     * a count, a hash total of the account numbers) count rows that are no longer there, and a
     * bank's bulk upload that checks them refuses the file, or one that does not pays what the
     * rows say while the total says otherwise. Their format is the bank's, so they are named, not
     * recomputed.
     */
    staleTotals: number[];
  };
}

/** Paid rows per payee, for the repeated-account warning. */
type PaidLines = Map<string, { account: string; lines: number[] }>;

/** A paid row's amount and payee, for the warnings. */
function notePaid(summary: ReleaseSummary, paid: PaidLines, row: { line: number; account: string | null; ifsc: string | null; amount: string | null }): void {
  if (row.amount !== null) {
    const amount = parseAmount(row.amount);
    if (amount === undefined || !(amount > 0)) summary.warnings.oddAmounts.push({ line: row.line, amount: row.amount });
  }
  if (row.account === null) return;
  const key = `${row.account}|${row.ifsc ?? ''}`;
  const seen = paid.get(key) ?? { account: row.account, lines: [] };
  seen.lines.push(row.line);
  paid.set(key, seen);
}

function tempBeside(file: string): string {
  const target = path.resolve(file);
  return path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.tmp`);
}

function checkPaths(options: ReleaseOptions, input: RunInput): void {
  const inputPath = path.resolve(input.inputPath);
  for (const [flag, file] of [['-o', options.outputPath], ['--exceptions', options.exceptionsPath]] as const) {
    if (file === undefined) continue;
    if (path.resolve(file) === inputPath) throw new UsageError(`${flag} ${file} is the run's input: write the release to another file`);
    if (path.resolve(file) === path.resolve(options.statePath)) throw new UsageError(`${flag} ${file} is the state file: write the release to another file`);
  }
  if (options.exceptionsPath !== undefined && path.resolve(options.exceptionsPath) === path.resolve(options.outputPath)) throw new UsageError('--exceptions and -o name the same file: give two files');
  const xlsx = readsAsSpreadsheet(input.inputPath);
  // A CSV named .xls is released as the CSV it is, under a name of the same kind if wanted.
  const sameKind = path.extname(options.outputPath).toLowerCase() === path.extname(input.inputPath).toLowerCase();
  if (xlsx !== isXlsxPath(options.outputPath) && !sameKind) {
    throw new UsageError(`-o ${options.outputPath}: the release keeps the input's layout, and the input is ${xlsx ? 'a spreadsheet' : 'a CSV'}: name it ${xlsx ? path.extname(input.inputPath) : '.csv'}`);
  }
  if (xlsx && !isOfficeOpenXml(input.inputPath)) throw new UsageError(`the input ${input.inputPath} is not an .xlsx workbook: its layout cannot be written back; save it as .xlsx (or CSV) and run the bank command on that`);
}

/** Each row's part in the release: counts, approvals relied on, and the exceptions written. */
function rowVisitor(summary: ReleaseSummary, exceptions: ExceptionsFile | undefined, paid: PaidLines): (row: WalkedRow) => boolean {
  let reviewers: string[] = [];
  return (row) => {
    const decided = row.decided;
    if (!decided) {
      summary.notPayees += 1;
      if (isTotalRow(row.notPayee)) summary.warnings.staleTotals.push(row.line);
      return true;
    }
    summary.decisions[decided.decision] += 1;
    if (decided.decision === 'PAY' && decided.reason === 'REVIEW_ACCEPTED' && decided.standing) {
      const names = decided.standing.reviewers;
      // One person once, however the name was typed on each review.
      reviewers = distinctReviewers([...reviewers, ...names]);
      summary.approvals.push({ row: decided.row.row, reviews: decided.standing.reviews.map((r) => r.id), reviewers: [...names] });
      summary.reviewers = reviewers;
    }
    if (decided.reason === 'AWAITING_APPROVAL') {
      summary.awaiting.rows.push(decided.row.row);
      summary.awaiting.approvals = Math.max(summary.awaiting.approvals, decided.standing?.approvals ?? 1, summary.approvalsNeeded);
    }
    if (decided.decision === 'PAY') {
      notePaid(summary, paid, decided.row);
      return true;
    }
    exceptions?.write(row);
    return false;
  };
}

function sha256Of(file: string): string {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

/** Writes the release (and the exceptions), records it in the audit trail, and renames it into place. */
export async function releaseRun(options: ReleaseOptions): Promise<ReleaseSummary> {
  const run = runOf(options.db, options.runId, options.statePath, true);
  const input = await openRunInput(options.db, run, options.inputPath, options.spoolDir, options.approvals);
  const temp = tempBeside(options.outputPath);
  let exceptions: ExceptionsFile | undefined;
  try {
    checkPaths(options, input);
    exceptions = options.exceptionsPath === undefined ? undefined : openExceptions(options.exceptionsPath, input.file);
    const summary: ReleaseSummary = {
      runId: run.id, input: input.inputPath, policy: input.policy.source, approvalsNeeded: input.policy.policy.approvals, decisions: { PAY: 0, REVIEW: 0, HOLD: 0 },
      awaiting: { rows: [], approvals: 0 }, approvals: [], reviewers: [], notPayees: 0, sha256: '', audit: { seq: 0, hash: '' },
      warnings: { oddAmounts: [], repeatedAccounts: [], releasedBefore: new AuditTrail(options.db).releasesOf(run.id), staleTotals: [] },
    };
    const paid: PaidLines = new Map();
    const keep = rowVisitor(summary, exceptions, paid);
    fs.rmSync(temp, { force: true });
    if (readsAsSpreadsheet(input.inputPath)) await writeXlsxRelease(input, temp, keep, options.spoolDir);
    else await writeCsvRelease(input, temp, keep);
    await exceptions?.finish();
    for (const { account, lines } of paid.values()) if (lines.length > 1) summary.warnings.repeatedAccounts.push({ lines, account });
    // Totals still add up when every payee is paid.
    if (summary.decisions.REVIEW + summary.decisions.HOLD === 0) summary.warnings.staleTotals = [];
    summary.sha256 = sha256Of(temp);
    summary.audit = recordRelease(options, input, summary);
    fs.renameSync(temp, path.resolve(options.outputPath));
    await exceptions?.commit();
    return summary;
  } catch (error) {
    fs.rmSync(temp, { force: true });
    await exceptions?.discard();
    throw error;
  } finally {
    input.file.close();
  }
}

function recordRelease(options: ReleaseOptions, input: RunInput, summary: ReleaseSummary): { seq: number; hash: string } {
  const audit = new AuditTrail(options.db);
  const at = options.now();
  return options.db.transaction(() => {
    const { seq, hash } = audit.append(at, summary.runId, 'release', {
      by: options.by ?? null, input: input.inputPath, fingerprint: input.run.fingerprint, output: path.resolve(options.outputPath), sha256: summary.sha256,
      exceptions: options.exceptionsPath === undefined ? null : path.resolve(options.exceptionsPath),
      policy: { source: input.policy.source, ...input.policy.policy }, decisions: summary.decisions, notPayees: summary.notPayees,
      approvals: summary.approvals, reviewers: summary.reviewers,
    });
    return { seq, hash };
  }).immediate();
}
