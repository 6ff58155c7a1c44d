/**
 * The one place where an error becomes an exit code and a line on stderr (docs/ARCHITECTURE.md,
 * "Exit codes"). Decided by class and kind, never by an error's name: every error the tool means
 * to raise is an AppError carrying its exit code; anything else is a bug, reported as one.
 */
import { isVasError } from '../api/errors.js';
import { EXIT_CODES, isAppError, type ExitCode } from '../errors.js';

export const EXIT = EXIT_CODES;

/** Set to show the stack trace of an unexpected error. */
export const DEBUG_ENV = 'VAS_DEBUG';

export interface ErrorSink {
  error(message: string): void;
}

/** The exit code a process ends with when `error` reaches the CLI's entry. */
export function exitCodeFor(error: unknown): ExitCode {
  return isAppError(error) ? error.exitCode : EXIT_CODES.fatal;
}

/** The line for people: an API error names its status and request id; ours say what to do. */
export function describeError(error: unknown): string {
  if (isVasError(error)) return error.describe();
  if (isAppError(error)) return error.message;
  return internalErrorMessage(error);
}

export function internalErrorMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return `internal error (this is a bug, please report it): ${message}`;
}

/** Reports `error` on the sink and returns the exit code; a stack trace only with VAS_DEBUG set. */
export function reportError(error: unknown, log: ErrorSink, env: Readonly<Record<string, string | undefined>>): ExitCode {
  log.error(describeError(error));
  if (!isAppError(error) && env[DEBUG_ENV] && error instanceof Error) log.error(error.stack ?? '');
  return exitCodeFor(error);
}
