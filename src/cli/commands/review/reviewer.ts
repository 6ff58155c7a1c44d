/** Who reviews: the page and the import name their reviewer the same way. */
import os from 'node:os';
import { UsageError } from '../../../errors.js';
import { stripControl } from '../../../terminal.js';

/** Longest reviewer name kept in the reviews and the audit trail. */
export const MAX_REVIEWER_CHARS = 100;

/** `--reviewer NAME`, else the OS user (else $USER or $LOGNAME); a plain name a person can read, never empty. */
export function reviewerName(flag: string | undefined, env: Readonly<Record<string, string | undefined>>): string {
  let name = flag;
  if (name === undefined) {
    try {
      name = os.userInfo().username;
    } catch {
      name = env.USER ?? env.LOGNAME;
    }
  }
  const trimmed = (name ?? '').trim();
  if (trimmed === '') throw new UsageError(flag === undefined ? 'name the reviewer with --reviewer NAME (the OS user has no name here)' : '--reviewer must name the reviewer');
  if (trimmed.length > MAX_REVIEWER_CHARS) throw new UsageError(`--reviewer must be at most ${MAX_REVIEWER_CHARS} characters`);
  if (stripControl(trimmed) !== trimmed) throw new UsageError('--reviewer must be a plain name (no control characters)');
  return trimmed;
}
