/**
 * The final summary for people (stderr) and for scripts (--summary FILE.json), and the cron
 * notice: the last line of a run says how many payees are on HOLD and to REVIEW.
 */
import type { BankRunSummary } from '../pipeline/bank-run/index.js';
import { formatIst } from '../ist.js';
import { formatDurationShort } from '../pipeline/time.js';
import { shellCommand } from '../shell-quote.js';
import { formatDuration } from './progress.js';

export interface SummaryExtras {
  retries: Record<string, number>;
  stateFile: string;
  /** Prices of a penny-less and a penny-drop call (--price-pl, --price-pd): a dry run's estimate. */
  prices?: { pl: number; pd: number } | undefined;
}

export function summaryJson(summary: BankRunSummary, extras: SummaryExtras): Record<string, unknown> {
  const { reverify } = summary;
  return {
    ...summary,
    reverify: { ...reverify, oldestAnswerAt: reverify.oldestAnswerAt === null ? null : new Date(reverify.oldestAnswerAt).toISOString() },
    callsMade: summary.calls.pl + summary.calls.pd,
    callsAvoided: Object.values(summary.avoided).reduce((a, b) => a + b, 0),
    ...(summary.dryRun ? { wouldSpend: wouldSpend(summary, extras) } : {}),
    retries: extras.retries,
    stateFile: extras.stateFile,
  };
}

const count = (n: number): string => n.toLocaleString('en-IN');
const rupees = (n: number): string => `₹ ${n.toLocaleString('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

function wouldSpend(summary: BankRunSummary, extras: SummaryExtras): number {
  const prices = extras.prices ?? { pl: 0, pd: 0 };
  return summary.wouldCall.pl * prices.pl + summary.wouldCall.pd * prices.pd;
}

export function formatSummary(summary: BankRunSummary, extras: SummaryExtras): string {
  if (summary.dryRun) return formatDryRun(summary, extras);
  const lines: string[] = [];
  const statuses = Object.entries(summary.statuses)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${s} ${count(n)}`)
    .join(', ');
  const verb = summary.resumed ? 'resumed run of' : 'run of';
  if (summary.stopped) {
    lines.push(`${verb} ${summary.input.file} (${summary.mode}) stopped after ${formatDuration(summary.durationMs)}: ${count(summary.rows)} rows had been written in file order (the output is not kept; every answer is checkpointed and the resume uses it)`);
  } else {
    lines.push(`${verb} ${summary.input.file} (${summary.mode}): ${count(summary.rows)} rows in ${formatDuration(summary.durationMs)}${statuses ? ` — ${statuses}` : ''}`);
  }
  lines.push(`calls made: ${count(summary.calls.pl)} penny-less, ${count(summary.calls.pd)} penny-drop; estimated spend ${summary.spend.toFixed(2)}`);
  const run = summary.run;
  if (run.invocations > 1) {
    lines.push(`the whole run (${run.invocations} invocations): ${count(run.calls.pl)} penny-less, ${count(run.calls.pd)} penny-drop calls; estimated spend ${run.spend.toFixed(2)}`);
  }
  const a = summary.avoided;
  lines.push(`calls avoided: ${count(a.local)} local checks, ${count(a.duplicate)} duplicates, ${count(a.reuse)} reused, ${count(a.deferral)} deferred, ${count(a.hybrid)} by hybrid`);
  const r = summary.reverify;
  if (r.rechecked + r.reused > 0) {
    const age = r.maxAgeMs === null ? 'no --max-age' : `--max-age ${formatDurationShort(r.maxAgeMs)}`;
    lines.push(`earlier answers: ${count(r.rechecked)} re-checked (older than ${age}), ${count(r.reused)} re-emitted as they were`);
  }
  const retries = Object.entries(extras.retries);
  if (retries.length > 0) lines.push(`retries: ${retries.map(([k, n]) => `${k} ${n}`).join(', ')}`);
  const matches = Object.entries(summary.nameMatch);
  if (matches.length > 0) lines.push(`name match: ${matches.map(([k, n]) => `${k} ${count(n)}`).join(', ')}`);
  const d = summary.decisions;
  if (d.PAY + d.REVIEW + d.HOLD > 0 && !summary.stopped) lines.push(`decision: PAY ${count(d.PAY)}, REVIEW ${count(d.REVIEW)}, HOLD ${count(d.HOLD)}${amountsText(summary)}`);
  if (summary.output && !summary.stopped) lines.push(`output: ${summary.output}`);
  return lines.join('\n');
}

/** A dry run verifies nothing: it says what it would call and what that would cost. */
function formatDryRun(summary: BankRunSummary, extras: SummaryExtras): string {
  const w = summary.wouldCall;
  const a = summary.avoided;
  const s = summary.statuses;
  return [
    `dry run of ${summary.input.file} (${summary.mode}): ${count(summary.rows)} rows read in ${formatDuration(summary.durationMs)}; nothing was called`,
    `would call: ${count(w.pl)} penny-less, ${count(w.pd)} penny-drop (at most; hybrid adds penny-drop calls for NOT_VERIFIED rows); estimated cost ${wouldSpend(summary, extras).toFixed(2)}`,
    `would not call: ${count(a.local)} rows failing local checks (INVALID), ${count(a.duplicate)} duplicates, ${count(a.reuse)} answers reused, ${count(s.SKIPPED)} rows that are not payees`,
  ].join('\n');
}

function amountsText(summary: BankRunSummary): string {
  const m = summary.amounts;
  if (!m) return '';
  const unreadable = m.unreadable > 0 ? `; ${count(m.unreadable)} amount cell(s) were not amounts` : '';
  return ` (amounts: ${rupees(m.PAY)} to pay, ${rupees(m.REVIEW)} to review, ${rupees(m.HOLD)} held${unreadable})`;
}

/** What a person must look at, or undefined when nothing: each a line; the last one is the counts (the cron notice). */
export function attentionLines(summary: BankRunSummary, next: { stateFlag: string | undefined; exitCode: number; failOn: string | undefined }): string[] | undefined {
  const d = summary.decisions;
  if (summary.dryRun || summary.stopped || d.HOLD + d.REVIEW === 0) return undefined;
  const byReason = (decision: 'HOLD' | 'REVIEW'): string =>
    Object.entries(summary.decisionReasonsBy[decision]).map(([reason, n]) => `${reason} ${count(n)}`).join(', ');
  const amount = (decision: 'HOLD' | 'REVIEW'): string => (summary.amounts ? `; ${rupees(summary.amounts[decision])}` : '');
  const stateArgs = next.stateFlag === undefined ? [] : ['--state', next.stateFlag];
  const lines = [`${summary.input.file}: ${count(d.PAY + d.REVIEW + d.HOLD)} payees, ${count(d.PAY)} to PAY`];
  if (d.HOLD > 0) lines.push(`  HOLD ${count(d.HOLD)}: ${byReason('HOLD')}${amount('HOLD')}`);
  if (d.REVIEW > 0) lines.push(`  REVIEW ${count(d.REVIEW)}: ${byReason('REVIEW')}${amount('REVIEW')}`);
  lines.push(`  settle them: ${shellCommand(['vas-verify', 'review', ...stateArgs])}; then write the payout file: ${shellCommand(['vas-verify', 'release', '-o', 'payout.csv', ...stateArgs])}`);
  const exit = next.exitCode === 4 ? ` (exit 4: --fail-on ${next.failOn})` : '';
  lines.push(`${count(d.HOLD)} payee(s) on HOLD, ${count(d.REVIEW)} to REVIEW${exit}`);
  return lines;
}

/**
 * A run that called nothing and re-emitted answers older than --max-age (a penny-drop run inside
 * its deposit memory, --max-calls 0): its output is last time's news, and it says so.
 */
export function staleAnswersWarning(summary: BankRunSummary, now: number): string | undefined {
  const { maxAgeMs, oldestAnswerAt } = summary.reverify;
  if (summary.dryRun || maxAgeMs === null || oldestAnswerAt === null) return undefined;
  if (summary.calls.pl + summary.calls.pd > 0 || oldestAnswerAt >= now - maxAgeMs) return undefined;
  return `every answer in this output is re-emitted, the oldest from ${formatIst(oldestAnswerAt)} (older than --max-age ${formatDurationShort(maxAgeMs)}): no payee was asked again (a penny-drop waits for its --deposit-memory); a changed holder would not show`;
}
