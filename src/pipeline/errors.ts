/** Errors of the bulk run that the CLI maps to exit codes (kept light: the CLI entry imports them). */

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Another run holds the state file: not a usage error, the run simply cannot go ahead now. */
export class RunLockedError extends Error {
  override readonly name = 'RunLockedError';
}
