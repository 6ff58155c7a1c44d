/**
 * Paths the tool writes to (the state file, the output CSV, a summary, downloaded documents) are
 * never followed through a symbolic link (README, Security): a link planted where the tool writes
 * would otherwise make it create, chmod or fill a file elsewhere (a dangling link creates its
 * target). Checked with lstat before anything is touched, and files are opened with O_NOFOLLOW so
 * a link swapped in after the check fails the open instead of being followed.
 */
import fs from 'node:fs';

/** The refusal, worded for people; undefined when `file` is not a symbolic link (or does not exist). */
export function symlinkProblem(file: string, what: string): string | undefined {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(file);
  } catch {
    return undefined;
  }
  return stat.isSymbolicLink() ? `${what} ${file} is a symbolic link: refusing to follow it (give the real path)` : undefined;
}

/** O_NOFOLLOW where the platform has it (0 elsewhere: then only the lstat check guards). */
export const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;

/** Whether an open failed because the last component is a symbolic link (O_NOFOLLOW). */
export function isSymlinkOpenError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ELOOP' || code === 'EMLINK';
}
