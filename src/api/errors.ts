/**
 * Errors are values with a kind (docs/ARCHITECTURE.md, "Errors"). One class, created only through the factories
 * below, so every error carries the same fields and the request id is never lost.
 */
import { redact } from '../redact.js';
import { AppError, EXIT_CODES, type ApiErrorKind, type ExitCode } from '../errors.js';

/** The API's error kinds, as the error family names them. */
export type ErrorKind = ApiErrorKind;

/** Finer cause inside a kind, for decisions the kind alone cannot make. */
export type ErrorCode =
  | 'invalid-account'
  | 'invalid-ifsc'
  | 'ifsc-length'
  | 'invalid-request'
  | 'bad-body'
  | 'rejected'
  | 'daily-limit'
  | 'rate-limit'
  | 'not-found'
  | 'refused'
  | 'dns'
  | 'reset'
  /** The server's TLS certificate failed verification (untrusted issuer, expired, another host's): no retry helps. */
  | 'tls-certificate'
  | 'aborted'
  | 'headers-timeout'
  | 'body-timeout'
  | 'bad-json'
  | 'schema'
  | 'token-rejected'
  | 'credentials-rejected'
  /** The total deadline of a request or download passed (an answer trickled, or too slow). */
  | 'deadline'
  /** A document URL on a host outside --docs-allow-host. */
  | 'host-not-allowed';

export interface VasErrorInit {
  kind: ErrorKind;
  message: string;
  code?: ErrorCode | undefined;
  retryable?: boolean | undefined;
  /** The request may have been processed by the server even though no answer came back. */
  ambiguous?: boolean | undefined;
  status?: number | undefined;
  requestId?: string | undefined;
  /** Milliseconds the server asked us to wait (Retry-After). */
  retryAfterMs?: number | undefined;
  /** The raw response text when no known error shape fitted (trimmed, bounded). */
  raw?: string | undefined;
  cause?: unknown;
}

/** What a factory of one kind takes: everything but the kind. */
export type ApiErrorInit = Omit<VasErrorInit, 'kind'>;

export class VasError extends AppError {
  override readonly name = 'VasError';
  readonly kind: ErrorKind;
  readonly code: ErrorCode | undefined;
  readonly retryable: boolean;
  readonly ambiguous: boolean;
  readonly status: number | undefined;
  readonly requestId: string | undefined;
  readonly retryAfterMs: number | undefined;
  readonly raw: string | undefined;

  /** Only through the factories below, so every error is made the same way. */
  private constructor(init: VasErrorInit) {
    // Redacted where it is created (the message by AppError, the raw excerpt here): both go to CSV
    // cells, the state file, summaries and logs, and an upstream may have echoed a token into them.
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.code = init.code;
    this.retryable = init.retryable ?? false;
    this.ambiguous = init.ambiguous ?? false;
    this.status = init.status;
    this.requestId = init.requestId;
    this.retryAfterMs = init.retryAfterMs;
    this.raw = init.raw === undefined ? undefined : redact(init.raw);
  }

  /** An error of a kind decided at run time (a status or a message mapped to a kind). */
  static of(init: VasErrorInit): VasError {
    return new VasError(init);
  }

  /** The credentials or the token were refused. */
  static auth(init: ApiErrorInit): VasError {
    return new VasError({ kind: 'auth', ...init });
  }

  /** The quota was exceeded (429). */
  static quota(init: ApiErrorInit): VasError {
    return new VasError({ kind: 'quota', ...init });
  }

  /** The service said it is not available (503), or the token endpoint failed. */
  static unavailable(init: ApiErrorInit): VasError {
    return new VasError({ kind: 'unavailable', ...init });
  }

  /** The server failed (500). */
  static server(init: ApiErrorInit): VasError {
    return new VasError({ kind: 'server', ...init });
  }

  /** The request was refused as invalid (or could not be made: a bad base URL). */
  static invalidInput(init: ApiErrorInit): VasError {
    return new VasError({ kind: 'invalid-input', ...init });
  }

  /** A document-locker session expired or is unknown. */
  static sessionExpired(init: ApiErrorInit): VasError {
    return new VasError({ kind: 'session-expired', ...init });
  }

  /** The connection failed, was reset or was cancelled. */
  static network(init: ApiErrorInit): VasError {
    return new VasError({ kind: 'network', ...init });
  }

  /** No answer in time. */
  static timeout(init: ApiErrorInit): VasError {
    return new VasError({ kind: 'timeout', ...init });
  }

  /** An answer that is not what the interface says (bad JSON, a schema failure, an unexpected shape). */
  static protocol(init: ApiErrorInit): VasError {
    return new VasError({ kind: 'protocol', ...init });
  }

  /** Input the API refused before any answer (no HTTP status) is a usage error; the rest are fatal. */
  override get exitCode(): ExitCode {
    return this.kind === 'invalid-input' && this.status === undefined ? EXIT_CODES.usage : EXIT_CODES.fatal;
  }

  /** A copy with fields replaced (errors are immutable values). */
  with(patch: Partial<VasErrorInit>): VasError {
    return new VasError({
      kind: this.kind,
      message: this.message,
      code: this.code,
      retryable: this.retryable,
      ambiguous: this.ambiguous,
      status: this.status,
      requestId: this.requestId,
      retryAfterMs: this.retryAfterMs,
      raw: this.raw,
      cause: this.cause,
      ...patch,
    });
  }

  /** One line for people: the message, the status and the request id support will ask for. */
  describe(): string {
    const parts = [this.message];
    if (this.status !== undefined) parts.push(`HTTP ${this.status}`);
    if (this.requestId) parts.push(`request id ${this.requestId}`);
    return parts.length > 1 ? `${parts[0]} (${parts.slice(1).join(', ')})` : parts[0]!;
  }
}

export function isVasError(value: unknown): value is VasError {
  return value instanceof VasError;
}

/** Daily-limit answers are neither retried nor final: the row waits for the next day. */
export function isDailyLimit(error: unknown): boolean {
  return isVasError(error) && error.code === 'daily-limit';
}
