/**
 * `vas-verify release -o FILE [--state S] [--run N] [--exceptions FILE]`: the payout file for the
 * bank (src/release/): the run's input in its own layout with only the payees to PAY.
 */
import { UsageError } from '../../../errors.js';
import { checkOutputPath } from '../../../output/sink.js';
import { trailProblem } from '../../../release/audit.js';
import { RunRecords } from '../../../state/run-record.js';
import { releaseRun, type ReleaseSummary } from '../../../release/index.js';
import { reviewerName } from '../review/reviewer.js';
import { resolveStatePath } from '../../config.js';
import { checkReleaseFiles } from '../../distinct-files.js';
import { formatIst } from '../../../ist.js';
import { EXIT } from '../../exit.js';
import type { CommandIo } from '../../io.js';
import type { ReleaseFlags } from './options.js';
import { openRunState } from './state.js';
import { stripControl } from '../../../terminal.js';
import { maskAccount } from '../../../pipeline/checks.js';

function describe(summary: ReleaseSummary, flags: ReleaseFlags): string[] {
  const { PAY, REVIEW, HOLD } = summary.decisions;
  const lines = [
    `release of run ${summary.runId} (${summary.input}): ${PAY} payee(s) to pay in ${flags.output}; left out: ${HOLD} on HOLD, ${REVIEW} to REVIEW${flags.exceptions !== undefined ? ` (in ${flags.exceptions})` : ''}`,
    `policy: ${summary.policy}; approvals needed: ${summary.approvalsNeeded}${awaitingWords(summary)}`,
  ];
  if (summary.approvals.length > 0) {
    lines.push(`paid on reviewers' acceptances: ${summary.approvals.length} payee(s), by ${summary.reviewers.join(', ')} (rows ${summary.approvals.map((a) => a.row).join(', ')})`);
  } else lines.push('paid on reviewers\' acceptances: none');
  lines.push(`sha256 of the release: ${summary.sha256}; recorded in the audit trail as entry ${summary.audit.seq} (hash ${summary.audit.hash})`);
  return lines;
}

/**
 * The payees left out until another reviewer accepts them: an acceptance given under
 * `--approvals 2` needs a second reviewer whatever the policy the release runs under.
 */
function awaitingWords(summary: ReleaseSummary): string {
  const { rows, approvals } = summary.awaiting;
  if (rows.length === 0) return '';
  const more = approvals > summary.approvalsNeeded ? `, accepted under approvals ${approvals}` : '';
  return `; ${rows.length} payee row(s) left out awaiting another reviewer${more} (rows ${lineList(rows)}): a different reviewer accepts them with vas-verify review, then release again`;
}

/** At most this many lines are named in one warning. */
const WARN_LINES = 10;

function lineList(lines: readonly number[]): string {
  return lines.length <= WARN_LINES ? lines.join(', ') : `${lines.slice(0, WARN_LINES).join(', ')} and ${lines.length - WARN_LINES} more`;
}

/** What to look at before uploading the payout (release/index.ts ReleaseSummary.warnings). */
function releaseWarnings(summary: ReleaseSummary): string[] {
  const { oddAmounts, repeatedAccounts, releasedBefore, staleTotals } = summary.warnings;
  const lines: string[] = [];
  for (const before of releasedBefore) {
    lines.push(`run ${summary.runId} was released before (${formatIst(before.at)}, audit entry ${before.seq}, sha256 ${before.sha256.slice(0, 12)}…): upload one of the payouts, not both`);
  }
  if (oddAmounts.length > 0) {
    lines.push(`${oddAmounts.length} paid row(s) with an amount that is not a positive number: line(s) ${lineList(oddAmounts.map((a) => a.line))} (${oddAmounts.slice(0, 3).map((a) => JSON.stringify(stripControl(a.amount))).join(', ')}): check them before uploading`);
  }
  for (const repeated of repeatedAccounts.slice(0, WARN_LINES)) {
    lines.push(`account ${maskAccount(repeated.account)} is paid on ${repeated.lines.length} rows (lines ${lineList(repeated.lines)}): check it is not one payment twice`);
  }
  if (repeatedAccounts.length > WARN_LINES) lines.push(`… and ${repeatedAccounts.length - WARN_LINES} more account(s) paid on more than one row`);
  if (staleTotals.length > 0) {
    const left = summary.decisions.REVIEW + summary.decisions.HOLD;
    lines.push(`${staleTotals.length} total row(s) copied as they were (line(s) ${lineList(staleTotals)}) while ${left} payee row(s) are left out: their totals no longer match the payout; correct them in your bank's format before uploading`);
  }
  return lines;
}

export async function releaseCommand(flags: ReleaseFlags, io: CommandIo): Promise<number> {
  if (flags.approvals !== undefined && flags.approvals !== 1 && flags.approvals !== 2) throw new UsageError('--approvals is 1 or 2');
  // Every file distinct, the state's -wal and -shm included, before anything is opened or written.
  checkReleaseFiles({ output: flags.output, exceptions: flags.exceptions, input: flags.input, statePath: resolveStatePath(flags.state, io.env), stateFlag: flags.state !== undefined });
  checkOutputPath(flags.output, '-o');
  if (flags.exceptions !== undefined) checkOutputPath(flags.exceptions, '--exceptions');
  const state = openRunState(flags.state, flags.run, io);
  try {
    // The run released (the newest when --run is not given): its decisions are hashed again, not every run's.
    const problem = trailProblem(state.db, flags.run ?? new RunRecords(state.db).latestRunId());
    if (problem !== undefined) {
      io.log.error(`release refused, nothing written: the audit trail of ${state.statePath} is broken: ${problem}; run vas-verify audit, keep this file as evidence and restore the state from a backup`);
      return EXIT.fatal;
    }
    const summary = await releaseRun({
      db: state.db, statePath: state.statePath, runId: flags.run, outputPath: flags.output, exceptionsPath: flags.exceptions,
      inputPath: flags.input, approvals: flags.approvals as 1 | 2 | undefined, spoolDir: state.spoolDir, by: releaser(io.env), now: io.now,
    });
    for (const line of describe(summary, flags)) io.log.info(line);
    for (const line of releaseWarnings(summary)) io.log.warn(line);
    io.stdout(`${flags.output}\n`);
    return EXIT.ok;
  } finally {
    state.db.close();
  }
}

/** Who releases, for the audit trail: the OS user, as a review names its reviewer by default; a release is never refused for want of one. */
function releaser(env: Readonly<Record<string, string | undefined>>): string | undefined {
  try {
    return reviewerName(undefined, env);
  } catch {
    return undefined;
  }
}
