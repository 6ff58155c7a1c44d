/**
 * `vas-verify review --import FILE [--state S] [--run N] [--reviewer NAME] [--approvals 2]`: the
 * decisions a person made in the enriched file (src/review/import.ts), recorded with the reviewer's
 * name; prints each acceptance and rejection, and where the payee stands now.
 */
import fs from 'node:fs';
import { UsageError } from '../../../errors.js';
import { maskAccount } from '../../../pipeline/checks.js';
import { importReviewedFile, type ImportedDecision } from '../../../review/import.js';
import { stripControl } from '../../../terminal.js';
import { EXIT } from '../../exit.js';
import type { CommandIo } from '../../io.js';
import { openRunState } from '../release/state.js';
import { reviewerName } from './reviewer.js';

export interface ReviewImportFlags {
  /** The edited enriched file (`--import`). */
  file: string;
  state?: string | undefined;
  run?: number | undefined;
  /** Default: the OS user. */
  reviewer?: string | undefined;
  /** Different reviewers a payee needs (default: the run's policy's). */
  approvals?: number | undefined;
}


function describe(d: ImportedDecision, approvals: number): string {
  const what = d.verdict === 'ACCEPTED' ? `accepted holder ${JSON.stringify(stripControl(d.holder))}` : 'rejected';
  const now = d.now === 'PAY' ? 'now PAY' : d.now === 'REVIEW' ? `awaiting ${approvals - d.reviewers.length} more reviewer(s) (approvals ${approvals})` : 'now HOLD';
  const note = d.note ? ` — note: ${stripControl(d.note).slice(0, 200)}` : '';
  return `row ${d.row} (line ${d.line}) ${maskAccount(d.account)} ${d.ifsc}: ${what} by ${d.reviewers.at(-1) ?? ''}; ${now}${note}`;
}

export async function reviewImportCommand(flags: ReviewImportFlags, io: CommandIo): Promise<number> {
  if (flags.approvals !== undefined && flags.approvals !== 1 && flags.approvals !== 2) throw new UsageError('--approvals is 1 or 2');
  if (!fs.existsSync(flags.file)) throw new UsageError(`--import ${flags.file} does not exist: give the enriched file you edited`);
  const reviewer = reviewerName(flags.reviewer, io.env);
  const state = openRunState(flags.state, flags.run, io);
  try {
    const result = await importReviewedFile({
      db: state.db, statePath: state.statePath, runId: flags.run, file: flags.file, reviewer, approvals: flags.approvals as 1 | 2 | undefined, now: io.now,
    });
    for (const d of result.recorded) io.stdout(`${describe(d, result.approvals)}\n`);
    for (const i of result.ignored) io.log.warn(`row ${i.row} (line ${i.line}): ${i.why}`);
    const accepted = result.recorded.filter((d) => d.verdict === 'ACCEPTED').length;
    io.log.info(`review import of ${flags.file} for run ${result.runId} by ${reviewer}: ${accepted} accepted, ${result.recorded.length - accepted} rejected, ${result.ignored.length} not recorded, of ${result.rows} payee row(s)`);
    return EXIT.ok;
  } finally {
    state.db.close();
  }
}
