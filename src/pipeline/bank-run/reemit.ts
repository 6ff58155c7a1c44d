/**
 * Re-emitting a finished run by copying its output (docs/ARCHITECTURE.md, "The bank run"). A
 * finished run whose output file is still on disk and still its own (the identity the run
 * recorded), made the same way (the emit key: tool version, policy, column flags, the columns as read, output format),
 * with no answer older than --max-age and no review since it was written, would be written again
 * byte for byte: it is copied instead, and the summary is read from what the run recorded.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { DEFAULT_POLICY } from '../../decision/index.js';
import { fileIdentity } from '../../input/unchanged.js';
import type { ColumnMap } from '../../input/recognise.js';
import { copyOutput } from '../../output/sink.js';
import type { FinishedRecord } from '../../state/finished-runs.js';
import type { BankRunDeps, BankRunOptions, BankRunSummary } from './types.js';

/** What else than the answers shapes the output: a run re-emitted with another of these is written afresh. */
export function emitKey(options: BankRunOptions, deps: Pick<BankRunDeps, 'ifscRegistry'>, read: ColumnMap): string {
  const shape = {
    tool: options.recorded?.toolVersion ?? null,
    policy: options.policy?.policy ?? DEFAULT_POLICY,
    columns: options.columns,
    // The columns as this build reads them: a build that now takes a name (or another column) writes afresh.
    read,
    headerRow: options.headerRow ?? null,
    sheet: options.sheet ?? null,
    delimiter: options.delimiter ?? null,
    format: path.extname(options.outputPath).toLowerCase(),
    registry: deps.ifscRegistry ? `${deps.ifscRegistry.source} ${deps.ifscRegistry.published}` : null,
  };
  return createHash('sha256').update(JSON.stringify(shape)).digest('hex');
}

/**
 * Whether the run's recorded output is there to copy: the file to copy, or why it is written
 * afresh (undefined: the run did not finish, or its output was never recorded, which needs no word).
 */
export function copyableOutput(record: FinishedRecord | undefined, key: string, at: number, maxAgeMs: number | undefined, answers: { oldest: number | null }, lastReviewAt: number | null): { from: string } | { why: string | undefined } {
  if (!record || record.status !== 'complete' || record.finishedAt === null || record.stopped !== null) return { why: undefined };
  if ((record.exitCode !== 0 && record.exitCode !== 4) || !record.outputPath || !record.outputFile || !record.decisions) return { why: undefined };
  if (record.emitKey !== key) return { why: 'it would be made another way than when it was written (another version of vas-verify, decision policy, output format, column or sheet flags, or columns read otherwise)' };
  if (maxAgeMs !== undefined && answers.oldest !== null && answers.oldest < at - maxAgeMs) return { why: 'answers older than --max-age are asked again' };
  if (lastReviewAt !== null && lastReviewAt >= record.finishedAt) return { why: 'a reviewer decided since it was written' };
  const now = fileIdentity(record.outputPath);
  const then = JSON.parse(record.outputFile) as { dev: number; ino: number; size: number; mtimeNs: string };
  const same = now !== undefined && now.dev === then.dev && now.ino === then.ino && now.size === then.size && String(now.mtimeNs) === then.mtimeNs;
  return same ? { from: record.outputPath } : { why: `the run's output ${record.outputPath} was changed, moved or removed since it was written` };
}

/**
 * Copies the finished run's output to -o when nothing changed since it was written, and fills the
 * summary from the run's record. Returns false (having done nothing) when the run must be emitted.
 */
export function reemitByCopy(options: BankRunOptions, deps: BankRunDeps, runId: number, summary: BankRunSummary, key: string): boolean {
  const runs = deps.store.finishedRuns;
  const record = runs.record(runId);
  const answers = runs.answers(runId);
  const copyable = copyableOutput(record, key, deps.now(), options.maxAgeMs, answers, runs.lastReviewAt());
  if ('why' in copyable || !record) {
    // A finished run's rows may read otherwise once written afresh (an upgrade that reads a name it did not): say why.
    if ('why' in copyable && copyable.why !== undefined) deps.log.info(`writing the finished run's output afresh, not copying it: ${copyable.why}`);
    return false;
  }
  const from = copyable.from;
  copyOutput(from, options.outputPath, deps.isAlive);
  deps.log.info(`re-emitted by copying the run's output ${from} (nothing changed since it was written)`);
  const json = (text: string | null): Record<string, number> => (text ? (JSON.parse(text) as Record<string, number>) : {});
  summary.rows = record.rows;
  Object.assign(summary.statuses, json(record.statuses));
  Object.assign(summary.sources, json(record.sources));
  summary.nameMatch = json(record.nameMatch);
  const avoided = json(record.avoided);
  summary.avoided.local = avoided.local ?? 0;
  summary.avoided.duplicate = avoided.duplicate ?? 0;
  summary.reverify.reused = answers.answered;
  summary.reverify.oldestAnswerAt = answers.oldest;
  // copyableOutput checked it is there: written at the end of the run the emit key names.
  Object.assign(summary, JSON.parse(record.decisions!) as DecisionTotals);
  return true;
}

type DecisionTotals = Pick<BankRunSummary, 'decisions' | 'decisionReasons' | 'decisionReasonsBy' | 'amounts'>;

/** What the summary counted of the output's decisions (JSON), kept with the run for a re-emit by copy. */
export function decisionTotals(summary: BankRunSummary): string {
  const { decisions, decisionReasons, decisionReasonsBy, amounts } = summary;
  return JSON.stringify({ decisions, decisionReasons, decisionReasonsBy, amounts } satisfies DecisionTotals);
}
