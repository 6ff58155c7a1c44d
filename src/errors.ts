/**
 * One error family (docs/ARCHITECTURE.md, "Errors"). Every error the tool raises on purpose is an
 * AppError: it has a `kind`, the process `exitCode` it ends with when nothing handles it, and
 * its `cause` passed on. The CLI maps errors to exit codes in one place (src/cli/exit.ts) from
 * these fields alone; anything that is not an AppError is a bug.
 *
 * The API's errors (VasError, src/api/errors.ts) belong to the family too: their kinds are the
 * first group below.
 */
import { redact } from './redact.js';

/** Process exit codes: 0 every row final · 1 fatal · 2 usage or input error · 3 some rows not final. */
export const EXIT_CODES = { ok: 0, fatal: 1, usage: 2, incomplete: 3, attention: 4 } as const;
export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];

/** Kinds of the API's errors (VasError's ErrorKind in src/api/errors.ts). */
export type ApiErrorKind =
  | 'auth'
  | 'quota'
  | 'unavailable'
  | 'server'
  | 'invalid-input'
  | 'session-expired'
  | 'network'
  | 'timeout'
  | 'protocol';

/** Kinds of the tool's own errors. */
export type ToolErrorKind =
  /** The invocation is wrong (flags, paths, an unfinished run without --resume). */
  | 'usage'
  /** The input file cannot be read as a payee list (missing, no header, ambiguous columns). */
  | 'input'
  /** The output cannot be written where asked. */
  | 'output'
  /** The state file cannot be opened or is not ours. */
  | 'state-file'
  /** Another live run holds the state file. */
  | 'run-locked'
  /** The rate limiter cannot go on: the shared one's Redis stopped answering, or it was closed. */
  | 'rate-limiter';

export type AppErrorKind = ApiErrorKind | ToolErrorKind;

export abstract class AppError extends Error {
  abstract readonly kind: AppErrorKind;

  /** Every message is redacted: a secret that reached an error text never leaves it. */
  constructor(message: string, options?: ErrorOptions) {
    super(redact(message), options);
  }

  /** The exit code of a process this error ends. Fatal unless a subclass says otherwise. */
  get exitCode(): ExitCode {
    return EXIT_CODES.fatal;
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}

/** Fix the invocation: a flag, a path, a missing --resume. Exit 2. */
export class UsageError extends AppError {
  override readonly name = 'UsageError';
  readonly kind = 'usage';
  override get exitCode(): ExitCode {
    return EXIT_CODES.usage;
  }
}

/** The input file cannot be used as a payee list. Exit 2. */
export class InputError extends AppError {
  override readonly name: string = 'InputError';
  readonly kind = 'input';
  override get exitCode(): ExitCode {
    return EXIT_CODES.usage;
  }
}

/** The account, IFSC or name column cannot be found, or is ambiguous: an input error naming the flag. */
export class ColumnError extends InputError {
  override readonly name = 'ColumnError';
  /** Each column's header meaning and content scores, for `--explain-columns` (src/input/recognise.ts). */
  explain?: readonly string[];
}

/** The output cannot be written (a missing directory, a full disk). Exit 2 when found before any call; mid-run the bank run stops on it (fatal, exit 1, the resume command named). */
export class OutputError extends AppError {
  override readonly name = 'OutputError';
  readonly kind = 'output';
  override get exitCode(): ExitCode {
    return EXIT_CODES.usage;
  }
}

/** The state file cannot be opened, is damaged, newer than this tool, or another program's. Exit 2. */
export class StateFileError extends AppError {
  override readonly name = 'StateFileError';
  readonly kind = 'state-file';
  override get exitCode(): ExitCode {
    return EXIT_CODES.usage;
  }
}

/** The state's decisions disagree with its audit trail (a review inserted, edited or deleted by hand): nothing is decided on it. Exit 1. */
export class AuditMismatchError extends AppError {
  override readonly name = 'AuditMismatchError';
  readonly kind = 'state-file';
}

/** Another run holds the state file: not a usage error, the run simply cannot go ahead now. Exit 1. */
export class RunLockedError extends AppError {
  override readonly name = 'RunLockedError';
  readonly kind = 'run-locked';
}
