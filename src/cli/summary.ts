/** The final summary for people (stderr) and for scripts (--summary FILE.json). */
import type { BankRunSummary } from '../pipeline/bank-run/index.js';
import { formatDuration } from './progress.js';

export interface SummaryExtras {
  retries: Record<string, number>;
  stateFile: string;
}

export function summaryJson(summary: BankRunSummary, extras: SummaryExtras): Record<string, unknown> {
  return {
    ...summary,
    callsMade: summary.calls.pl + summary.calls.pd,
    callsAvoided: Object.values(summary.avoided).reduce((a, b) => a + b, 0),
    retries: extras.retries,
    stateFile: extras.stateFile,
  };
}

export function formatSummary(summary: BankRunSummary, extras: SummaryExtras): string {
  const lines: string[] = [];
  const statuses = Object.entries(summary.statuses)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${s} ${n}`)
    .join(', ');
  const verb = summary.dryRun ? 'dry run of' : summary.resumed ? 'resumed run of' : 'run of';
  lines.push(`${verb} ${summary.input.file} (${summary.mode}): ${summary.rows} rows in ${formatDuration(summary.durationMs)}${statuses ? ` — ${statuses}` : ''}`);
  if (summary.dryRun) {
    lines.push(`would call: ${summary.wouldCall.pl} penny-less, ${summary.wouldCall.pd} penny-drop (at most; hybrid adds penny-drop calls for NOT_VERIFIED rows)`);
  }
  lines.push(`calls made: ${summary.calls.pl} penny-less, ${summary.calls.pd} penny-drop; estimated spend ${summary.spend.toFixed(2)}`);
  const a = summary.avoided;
  lines.push(`calls avoided: ${a.local} local checks, ${a.duplicate} duplicates, ${a.reuse} reused, ${a.deferral} deferred, ${a.hybrid} by hybrid`);
  const retries = Object.entries(extras.retries);
  if (retries.length > 0) lines.push(`retries: ${retries.map(([k, n]) => `${k} ${n}`).join(', ')}`);
  const matches = Object.entries(summary.nameMatch);
  if (matches.length > 0) lines.push(`name match: ${matches.map(([k, n]) => `${k} ${n}`).join(', ')}`);
  if (summary.output && !summary.stopped) lines.push(`output: ${summary.output}`);
  return lines.join('\n');
}
