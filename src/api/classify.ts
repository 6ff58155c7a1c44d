/**
 * Pure mapping of what came back (a status and a body, or a transport failure) to either a
 * parsed value or a VasError. No I/O here, so every row of the interface's error table is a
 * table test.
 */
import type { z } from 'zod';
import { VasError, type ErrorCode, type ErrorKind } from './errors.js';
import {
  DAILY_LIMIT_PATTERN,
  EnvelopeErrorSchema,
  ErrorIn200Schema,
  MESSAGES,
  ProxyErrorSchema,
} from './schemas.js';
import { parseRetryAfter } from './retry-after.js';
import { excerpt } from '../redact.js';

export interface RawResponse {
  status: number;
  /** Lower-case header names as undici gives them. */
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

function headerValue(headers: RawResponse['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The answer's x-request-id, as support asks for it: one line of at most 200 characters with every
 * known secret redacted. It is written to the output, the state and the report, and a gateway that
 * echoes request headers may put the Authorization header in it.
 */
export function requestIdOf(headers: RawResponse['headers']): string | undefined {
  const value = headerValue(headers, 'x-request-id');
  return value === undefined ? undefined : excerpt(value);
}

/** The last Date header read and its time: consecutive answers mostly carry the same second. */
let lastDate: { text: string; ms: number | undefined } = { text: '', ms: undefined };

/** When the server says it answered (its Date header, ms since the epoch), or undefined. */
export function serverTimeOf(headers: RawResponse['headers']): number | undefined {
  const text = headerValue(headers, 'date');
  if (text === undefined) return undefined;
  if (text !== lastDate.text) {
    const ms = Date.parse(text);
    lastDate = { text, ms: Number.isFinite(ms) ? ms : undefined };
  }
  return lastDate.ms;
}

/** An upstream body as error text: a short one-line excerpt, every known secret redacted. */
function boundedText(text: string): string {
  return excerpt(text);
}

function tryJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/** The message inside any of the error shapes the interface uses, if one fits. */
export function errorMessageOf(value: unknown): string | undefined {
  const proxy = ProxyErrorSchema.safeParse(value);
  if (proxy.success) return proxy.data.errorMessage;
  const envelope = EnvelopeErrorSchema.safeParse(value);
  if (envelope.success) return envelope.data.message;
  return undefined;
}

/** Maps the message of a 200-with-error or a 400 to its kind and code. */
function codeForMessage(message: string): { kind: ErrorKind; code: ErrorCode } {
  const m = message.trim().toLowerCase();
  if (DAILY_LIMIT_PATTERN.test(message)) return { kind: 'quota', code: 'daily-limit' };
  if (m === MESSAGES.invalidAccount.toLowerCase()) return { kind: 'invalid-input', code: 'invalid-account' };
  if (m === MESSAGES.invalidIfsc.toLowerCase()) return { kind: 'invalid-input', code: 'invalid-ifsc' };
  if (m === MESSAGES.ifscLength.toLowerCase()) return { kind: 'invalid-input', code: 'ifsc-length' };
  if (m === MESSAGES.invalidRequest.toLowerCase()) return { kind: 'invalid-input', code: 'invalid-request' };
  if (m === MESSAGES.badBody.toLowerCase()) return { kind: 'invalid-input', code: 'bad-body' };
  if (m === MESSAGES.sessionExpired.toLowerCase()) return { kind: 'session-expired', code: 'rejected' };
  return { kind: 'invalid-input', code: 'rejected' };
}

/**
 * What an HTTP status means when the body says nothing more precise. 429, 500 and 503 are the
 * service's own refusals (the interface asks for their retry); any other 5xx comes from something
 * in between (a 502 or 504 gateway, a CDN's 52x) that may have passed the request on and lost the
 * answer: ambiguous, so a penny-drop is not sent again (a timeout at the gateway is a timeout).
 */
function errorForStatus(status: number): { kind: ErrorKind; retryable: boolean; code?: ErrorCode; ambiguous?: boolean } {
  if (status === 401 || status === 403) return { kind: 'auth', retryable: false };
  if (status === 429) return { kind: 'quota', retryable: true, code: 'rate-limit' };
  if (status === 404) return { kind: 'protocol', retryable: false, code: 'not-found' };
  if (status === 500) return { kind: 'server', retryable: true };
  if (status === 503) return { kind: 'unavailable', retryable: true };
  if (status === 502 || status === 504) return { kind: 'unavailable', retryable: true, ambiguous: true };
  if (status > 500) return { kind: 'server', retryable: true, ambiguous: true };
  return { kind: 'invalid-input', retryable: false };
}

/** Formats the first zod issue as "field a.b.c: what was wrong". */
export function describeSchemaError(error: z.ZodError, what: string): string {
  const issue = error.issues[0];
  if (!issue) return `${what} does not match the expected shape`;
  const path = issue.path.length > 0 ? issue.path.join('.') : '(root)';
  return `${what} field "${path}" is invalid: ${issue.message}`;
}

type Classified<T> = { ok: true; value: T; requestId: string | undefined } | { ok: false; error: VasError };

export interface ClassifyOptions {
  /**
   * Whether error messages may quote the body; default true. False for answers that may hold
   * personal data (a document-locker answer: names, dates of birth), which must not reach logs;
   * the body is still kept in the error's `raw`.
   */
  quoteBody?: boolean | undefined;
}

/** The body as error text: an excerpt, or only its size when it may hold personal data. */
function bodyForMessage(text: string, quote: boolean): string {
  if (text === '') return '';
  if (quote) return boundedText(text);
  return `${Buffer.byteLength(text)} bytes, not quoted (the answer may hold personal data)`;
}

/**
 * Classifies a complete response of an API operation: the success body parsed by `schema`
 * (which describes the `body` inside the success envelope), or a VasError.
 */
export function classifyResponse<T>(
  response: RawResponse,
  envelopeSchema: z.ZodType<{ body: T }>,
  nowMs: number,
  options: ClassifyOptions = {},
): Classified<T> {
  const requestId = requestIdOf(response.headers);
  const parsed = tryJson(response.text);
  const quote = options.quoteBody ?? true;
  if (response.status === 200) return classify200(response, parsed, envelopeSchema, requestId, quote);
  return { ok: false, error: errorOfStatus(response, parsed, requestId, nowMs, quote) };
}

/** A 200: the success body, or the error inside it, or an answer we cannot read. */
function classify200<T>(
  response: RawResponse,
  parsed: ReturnType<typeof tryJson>,
  envelopeSchema: z.ZodType<{ body: T }>,
  requestId: string | undefined,
  quote: boolean,
): Classified<T> {
  const { status, text } = response;
  // A 200 that is not JSON is most often a page of something in between (a proxy's login page)
  // that never passed the request on: not ambiguous, and a run of them trips the breaker.
  if (!parsed.ok) {
    const type = headerValue(response.headers, 'content-type') ?? 'no content type';
    return {
      ok: false,
      error: VasError.protocol({
        code: 'bad-json',
        message: `response is not JSON (${type}): ${bodyForMessage(text, quote) || '(empty body)'}`,
        status,
        requestId,
        raw: boundedText(text),
      }),
    };
  }
  // Look at the discriminating field before asking zod: a failed safeParse builds a whole
  // ZodError, and success bodies are the hot path.
  const shape = parsed.value !== null && typeof parsed.value === 'object' ? (parsed.value as Record<string, unknown>) : {};
  const in200 = 'errorCode' in shape ? ErrorIn200Schema.safeParse(parsed.value) : undefined;
  if (in200?.success) return { ok: false, error: errorOfMessage(in200.data.errorMessage, status, requestId) };
  const envelopeError = shape.ok === false ? EnvelopeErrorSchema.safeParse(parsed.value) : undefined;
  if (envelopeError?.success) return { ok: false, error: errorOfMessage(envelopeError.data.message, status, requestId) };
  const body = envelopeSchema.safeParse(parsed.value);
  // JSON of the wrong shape under a 200 is the service's answer, unreadable to us: the work may
  // be done (a penny-drop may have deposited), as when the connection drops.
  if (!body.success) {
    return {
      ok: false,
      error: VasError.protocol({
        code: 'schema',
        message: describeSchemaError(body.error, 'response'),
        status,
        requestId,
        raw: boundedText(text),
        ambiguous: true,
        cause: body.error,
      }),
    };
  }
  return { ok: true, value: body.data.body, requestId };
}

/** The error a 200 carries in its body, by its message. */
function errorOfMessage(message: string, status: number, requestId: string | undefined): VasError {
  const { kind, code } = codeForMessage(message);
  return VasError.of({ kind, code, message: excerpt(message), status, requestId });
}

/** Any status but 200: what the status means, refined by the message in the body if one fits. */
function errorOfStatus(response: RawResponse, parsed: ReturnType<typeof tryJson>, requestId: string | undefined, nowMs: number, quote: boolean): VasError {
  const { status, text } = response;
  const found = parsed.ok ? errorMessageOf(parsed.value) : undefined;
  const message = found === undefined ? undefined : excerpt(found);
  const base = errorForStatus(status);
  let kind = base.kind;
  let code = base.code;
  if (status === 400 && found !== undefined) ({ kind, code } = codeForMessage(found));
  const retryAfterMs =
    status === 429 || status === 503 ? parseRetryAfter(response.headers['retry-after'], nowMs, serverTimeOf(response.headers)) : undefined;
  const raw = message === undefined ? boundedText(text) : undefined;
  const shown = message === undefined ? bodyForMessage(text, quote) : '';
  const fallback = shown ? shown : `HTTP ${status} with an empty body`;
  return VasError.of({
    kind,
    code,
    retryable: base.retryable,
    ambiguous: base.ambiguous,
    message: status === 404 ? `API endpoint not found (check the base URL): ${message ?? fallback}` : message ?? fallback,
    status,
    requestId,
    retryAfterMs,
    raw,
  });
}

/** Error codes of Node and undici that mean the request never reached the server. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/**
 * Error codes of Node's certificate verification (OpenSSL's X509 verify results and Node's host
 * name check): the server's certificate is not one this machine trusts for that host. Every
 * request would fail alike, and the request never left (the handshake failed before it).
 */
const CERTIFICATE_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_DECRYPT_CERT_SIGNATURE',
  'UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY',
  'CERT_SIGNATURE_FAILURE',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'CERT_REVOKED',
  'CERT_CHAIN_TOO_LONG',
  'INVALID_CA',
  'INVALID_PURPOSE',
  'PATH_LENGTH_EXCEEDED',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERROR_IN_CERT_NOT_BEFORE_FIELD',
  'ERROR_IN_CERT_NOT_AFTER_FIELD',
  'HOSTNAME_MISMATCH',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_TLS_CERT_ALTNAME_FORMAT',
]);

const CERTIFICATE_TIME_CODES = new Set(['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID', 'ERROR_IN_CERT_NOT_BEFORE_FIELD', 'ERROR_IN_CERT_NOT_AFTER_FIELD']);
const CERTIFICATE_NAME_CODES = new Set(['HOSTNAME_MISMATCH', 'ERR_TLS_CERT_ALTNAME_INVALID', 'ERR_TLS_CERT_ALTNAME_FORMAT']);

/** The host of a target that is a URL (never its credentials), or the target as it is. */
function hostOf(target: string): string {
  try {
    return new URL(target).host;
  } catch {
    return target;
  }
}

/** The first error of a chain (error, cause, cause's cause) that carries `code`. */
function errorWithCode(error: unknown, code: string): unknown {
  if (typeof error !== 'object' || error === null) return undefined;
  if ((error as { code?: unknown }).code === code) return error;
  return errorWithCode((error as { cause?: unknown }).cause, code);
}

/**
 * A certificate that failed verification: one line that names the host, what is wrong and what to
 * do. Not retryable (no retry can help) and not ambiguous (nothing was sent). Never the advice to
 * turn verification off (README, Security).
 */
function certificateError(error: unknown, code: string, target: string): VasError {
  const found = errorWithCode(error, code);
  // Node's text, without the hint some versions add after a ';' (a Node flag, not ours to give).
  const detail = (found instanceof Error ? found.message : code).split(';')[0]!.trim() || code;
  const subject = `the TLS certificate of ${hostOf(target)}`;
  const problem = CERTIFICATE_TIME_CODES.has(code)
    ? `is not valid now (${detail}): check this machine's clock; if it is right, the server's certificate must be renewed`
    : CERTIFICATE_NAME_CODES.has(code)
      ? `is not for that host name (${detail}): check the host name in the URL`
      : `is not trusted (${detail}): if a proxy or a private CA signs it, point NODE_EXTRA_CA_CERTS at that CA's certificate file (PEM)`;
  return VasError.network({
    code: 'tls-certificate',
    message: `${subject} ${problem}; TLS verification is never turned off`,
    retryable: false,
    ambiguous: false,
    cause: error,
  });
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  const cause = (error as { cause?: unknown }).cause;
  return cause === undefined ? undefined : errorCode(cause);
}

/**
 * Classifies a failure below HTTP. `sent` says whether the request may have reached the
 * server; anything that might have been processed is ambiguous (a penny-drop is then never
 * sent again). We cannot see whether a reset came before the server read the request, so a
 * reset on an open connection counts as ambiguous: the safe side when money moves.
 */
export function classifyTransportError(error: unknown, target: string, abortedByCaller: boolean): VasError {
  const code = errorCode(error);
  if (abortedByCaller) {
    return VasError.network({
      code: 'aborted',
      message: `request to ${target} was cancelled`,
      retryable: false,
      ambiguous: true,
      cause: error,
    });
  }
  if (code !== undefined && CERTIFICATE_CODES.has(code)) return certificateError(error, code, target);
  if (code !== undefined && NOT_SENT_CODES.has(code)) {
    const what =
      code === 'ECONNREFUSED'
        ? 'connection refused'
        : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
          ? 'host name not found'
          : code === 'UND_ERR_CONNECT_TIMEOUT'
            ? 'connect timed out'
            : 'host unreachable';
    return VasError.network({
      code: code === 'ENOTFOUND' || code === 'EAI_AGAIN' ? 'dns' : 'refused',
      message: `${what}: ${target}`,
      retryable: true,
      ambiguous: false,
      cause: error,
    });
  }
  if (code === 'VAS_DEADLINE') {
    // Like a timeout: a trickled penny-drop answer cut here is ambiguous, never re-sent.
    return VasError.timeout({
      code: 'deadline',
      message: `no complete answer from ${target} in time: ${(error as Error).message} (--deadline)`,
      retryable: true,
      ambiguous: true,
      cause: error,
    });
  }
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || isTimeoutAbort(error)) {
    return VasError.timeout({
      code: code === 'UND_ERR_BODY_TIMEOUT' ? 'body-timeout' : 'headers-timeout',
      message: `no answer from ${target} in time`,
      retryable: true,
      ambiguous: true,
      cause: error,
    });
  }
  const detail = error instanceof Error ? error.message : String(error);
  return VasError.network({
    code: 'reset',
    message: `connection to ${target} failed: ${detail}`,
    retryable: true,
    ambiguous: true,
    cause: error,
  });
}

function isTimeoutAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'TimeoutError' || errorCode(error) === 'ABORT_ERR_TIMEOUT');
}
