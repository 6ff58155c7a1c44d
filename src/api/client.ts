/**
 * The typed client for the four operations (docs/ARCHITECTURE.md, "The remote interface"), over undici `request()` on a
 * keep-alive Agent. It is the only retry layer: callers get either a parsed result or one
 * VasError after the policy has given up.
 */
import { setTimeout as sleepFor } from 'node:timers/promises';
import { Agent, request, type Dispatcher } from 'undici';
import { classifyResponse, classifyTransportError, requestIdOf } from './classify.js';
import { AnswerTooLargeError, postJson } from './exchange.js';
import { VasError } from './errors.js';
import { decideRetry, DEFAULT_RETRY_POLICY, type RetryPolicy, type RetryReason } from './retry.js';
import { createOAuthTokenSource, createStaticTokenSource, type Token, type TokenSource } from './auth.js';
import {
  API_PREFIX,
  BankResultSchema,
  DEFAULT_TOKEN_PATH,
  DocFetchResultSchema,
  DocInitResultSchema,
  OPS,
  successEnvelope,
  type BankResult,
  type DocFetchResult,
  type DocInitRequest,
  type DocInitResult,
  type OpName,
} from './schemas.js';
import type { z } from 'zod';

/** Default size of the connection pool per origin. */
export const DEFAULT_CONNECTIONS = 64;
/** Below the 5 s idle timeout common in proxies and Node servers, so we never reuse a socket the server is closing. */
export const DEFAULT_KEEP_ALIVE_MS = 4_000;
/** Longest wait for response headers; the slow test account answers after 3 s. */
export const DEFAULT_HEADERS_TIMEOUT_MS = 30_000;
/** Longest silence while reading a response body. */
export const DEFAULT_BODY_TIMEOUT_MS = 30_000;
/** Largest document download accepted. */
export const DEFAULT_MAX_DOWNLOAD_BYTES = 20 * 1024 * 1024;

export interface ClientOptions {
  /** Base URL of the API, e.g. https://api.example.com (required). */
  baseUrl: string;
  /** Static bearer token. Either this or clientId+clientSecret. */
  token?: string | undefined;
  /** OAuth client credentials. */
  clientId?: string | undefined;
  clientSecret?: string | undefined;
  /** Token endpoint; default `{baseUrl}/oauth/v1/token`. */
  tokenUrl?: string | undefined;
  /** Connections per origin; default 64. */
  connections?: number | undefined;
  /** Keep-alive idle timeout in ms; default 4000. */
  keepAliveTimeoutMs?: number | undefined;
  /** Per-request wait for headers in ms; default 30000. */
  headersTimeoutMs?: number | undefined;
  /** Per-request body silence limit in ms; default 30000. */
  bodyTimeoutMs?: number | undefined;
  /** Overrides of the retry policy; default DEFAULT_RETRY_POLICY. */
  retry?: Partial<RetryPolicy> | undefined;
  /** Uniform [0,1) random source for jitter; default Math.random. */
  random?: (() => number) | undefined;
  /** Clock in ms; default Date.now. */
  now?: (() => number) | undefined;
  /** Called before each retry sleep (for counting retries by cause). */
  onRetry?: ((event: RetryEvent) => void) | undefined;
}

export interface RetryEvent {
  op: OpName;
  attempt: number;
  error: VasError;
  delayMs: number;
  reason: RetryReason;
}

export interface CallOptions {
  signal?: AbortSignal | undefined;
  /**
   * Awaited before every retry (after its backoff): a retry is a request against the same
   * quota, so a caller's rate limiter gets to space it. Default: none.
   */
  beforeRetry?: (() => Promise<unknown>) | undefined;
}

export interface CallResult<T> {
  result: T;
  requestId: string | undefined;
  attempts: number;
}

export type VerifyMode = 'pl' | 'pd';

export interface BankVerifyInput {
  accountNumber: string;
  ifsc: string;
  mode: VerifyMode;
}

export interface Client {
  readonly baseUrl: string;
  verifyBankAccount(input: BankVerifyInput, options?: CallOptions): Promise<CallResult<BankResult>>;
  docInit(input: DocInitRequest, options?: CallOptions): Promise<CallResult<DocInitResult>>;
  docFetchStatus(sessionId: string, options?: CallOptions): Promise<CallResult<DocFetchResult>>;
  /** Downloads a document URL. The bearer token goes only to the API's own origin. */
  download(url: string, options?: CallOptions & { maxBytes?: number }): Promise<Buffer>;
  close(): Promise<void>;
}

const BANK_ENVELOPE = successEnvelope(BankResultSchema);
const INIT_ENVELOPE = successEnvelope(DocInitResultSchema);
const FETCH_ENVELOPE = successEnvelope(DocFetchResultSchema);

export function normaliseBaseUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new VasError({ kind: 'invalid-input', message: `base URL "${text}" is not a URL: use e.g. https://api.example.com` });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new VasError({ kind: 'invalid-input', message: `base URL "${text}" must start with http:// or https://` });
  }
  return url.toString().replace(/\/+$/, '');
}

export function createClient(options: ClientOptions): Client {
  const baseUrl = normaliseBaseUrl(options.baseUrl);
  const origin = new URL(baseUrl).origin;
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  const headersTimeout = options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS;
  const bodyTimeout = options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
  const keepAlive = options.keepAliveTimeoutMs ?? DEFAULT_KEEP_ALIVE_MS;
  const agent = new Agent({
    connections: options.connections ?? DEFAULT_CONNECTIONS,
    keepAliveTimeout: keepAlive,
    keepAliveMaxTimeout: keepAlive,
    headersTimeout,
    bodyTimeout,
  });
  const tokens = createTokenSource(options, baseUrl, agent, now, headersTimeout);
  let closed = false;
  // The same few strings and headers for every call, built once (and again when the token changes).
  const basePath = new URL(baseUrl).pathname.replace(/\/+$/, '');
  const pathOf = (op: OpName) => `${basePath}${API_PREFIX}${op}`;
  const targetOf = (op: OpName) => `${baseUrl}${API_PREFIX}${op}`;
  let cachedHeaders: { token: string; value: Record<string, string> } | undefined;
  const headersFor = (token: Token) => {
    if (cachedHeaders?.token !== token.value) {
      cachedHeaders = {
        token: token.value,
        value: { authorization: `Bearer ${token.value}`, 'content-type': 'application/json', accept: 'application/json' },
      };
    }
    return cachedHeaders.value;
  };

  async function sendOnce<T>(
    op: OpName,
    payload: unknown,
    envelope: z.ZodType<{ body: T }>,
    token: Token,
    signal: AbortSignal | undefined,
  ): Promise<{ ok: true; value: T; requestId: string | undefined } | { ok: false; error: VasError }> {
    const exchange = await postJson(agent, origin, pathOf(op), headersFor(token), JSON.stringify(payload), signal);
    if (!exchange.ok) {
      const { error: cause, status, headers } = exchange;
      if (cause instanceof AnswerTooLargeError && status !== undefined && headers !== undefined) {
        // An error status means what it says, unread body or not. A 200 that cannot be read is an
        // answer lost: the call may have done its work (a penny-drop may have deposited).
        if (status !== 200) return classifyResponse({ status, headers, text: `(${cause.message}, not read)` }, envelope, now());
        return { ok: false, error: new VasError({ kind: 'protocol', message: `${op}: ${cause.message}`, status, requestId: requestIdOf(headers), ambiguous: true }) };
      }
      const failure = classifyTransportError(cause, targetOf(op), signal?.aborted ?? false);
      return { ok: false, error: status === undefined ? failure : failure.with({ status, requestId: headers && requestIdOf(headers) }) };
    }
    return classifyResponse(exchange, envelope, now());
  }

  async function call<T>(
    op: OpName,
    payload: unknown,
    envelope: z.ZodType<{ body: T }>,
    pennyDrop: boolean,
    signal: AbortSignal | undefined,
    beforeRetry?: (() => Promise<unknown>) | undefined,
  ): Promise<CallResult<T>> {
    if (closed) throw new VasError({ kind: 'network', code: 'aborted', message: 'client is closed' });
    let attempt = 0;
    let quotaWaits = 0;
    let refreshed = false;
    for (;;) {
      attempt += 1;
      let token: Token | undefined;
      let outcome: Awaited<ReturnType<typeof sendOnce<T>>>;
      try {
        token = await tokens.get(signal);
        outcome = await sendOnce(op, payload, envelope, token, signal);
      } catch (error) {
        outcome = { ok: false, error: asVasError(error) };
      }
      if (outcome.ok) return { result: outcome.value, requestId: outcome.requestId, attempts: attempt };

      let error = outcome.error;
      if (error.kind === 'auth' && error.status === 401) {
        if (token && tokens.refreshable && !refreshed) {
          // An expired token: fetch one (shared with every other caller that saw the same 401)
          // and send again. This is not a retry of a failure, so it costs no attempt.
          refreshed = true;
          attempt -= 1;
          try {
            await tokens.refresh(token, signal);
          } catch (refreshError) {
            throw asVasError(refreshError);
          }
          continue;
        }
        error = error.with({
          message: tokens.refreshable
            ? `the API refused a freshly issued token (${error.message}): check the client credentials`
            : `the API refused the token (${error.message}): check VAS_TOKEN`,
        });
      }
      if (error.code === 'rate-limit') quotaWaits += 1;
      const decision = decideRetry({ error, attempt, quotaWaits, pennyDrop, policy, random });
      if (!decision.retry) throw error;
      options.onRetry?.({ op, attempt, error, delayMs: decision.delayMs, reason: decision.reason });
      try {
        await sleepFor(decision.delayMs, undefined, signal ? { signal } : undefined);
        await beforeRetry?.();
      } catch {
        // Cancelled while waiting: the last attempt failed cleanly, so nothing is in doubt.
        throw new VasError({ kind: 'network', code: 'aborted', message: `${op} was cancelled`, ambiguous: false });
      }
    }
  }

  return {
    baseUrl,
    verifyBankAccount(input, callOptions) {
      const op = input.mode === 'pd' ? OPS.pennyDrop : OPS.pennyLess;
      return call(op, { accountNumber: input.accountNumber, ifscNumber: input.ifsc }, BANK_ENVELOPE, input.mode === 'pd', callOptions?.signal, callOptions?.beforeRetry);
    },
    docInit(input, callOptions) {
      return call(OPS.docInit, input, INIT_ENVELOPE, false, callOptions?.signal, callOptions?.beforeRetry);
    },
    docFetchStatus(sessionId, callOptions) {
      return call(OPS.docFetch, { sessionId }, FETCH_ENVELOPE, false, callOptions?.signal, callOptions?.beforeRetry);
    },
    async download(url, callOptions) {
      const maxBytes = callOptions?.maxBytes ?? DEFAULT_MAX_DOWNLOAD_BYTES;
      const target = new URL(url, baseUrl);
      if (target.protocol !== 'https:' && target.protocol !== 'http:') {
        throw new VasError({ kind: 'protocol', message: `document URL has an unsupported scheme: ${target.protocol}` });
      }
      const headers: Record<string, string> = {};
      if (target.origin === origin) headers.authorization = `Bearer ${(await tokens.get(callOptions?.signal)).value}`;
      let attempt = 0;
      for (;;) {
        attempt += 1;
        let error: VasError;
        try {
          const res = await request(target, { method: 'GET', dispatcher: agent, headers, signal: callOptions?.signal ?? null });
          if (res.statusCode === 200) {
            const chunks: Buffer[] = [];
            let size = 0;
            for await (const chunk of res.body) {
              size += (chunk as Buffer).length;
              if (size > maxBytes) {
                res.body.destroy();
                throw new VasError({ kind: 'protocol', message: `document larger than ${maxBytes} bytes: ${target.pathname}` });
              }
              chunks.push(chunk as Buffer);
            }
            return Buffer.concat(chunks);
          }
          const text = await res.body.text();
          const classified = classifyResponse({ status: res.statusCode, headers: res.headers, text }, INIT_ENVELOPE, now());
          error = classified.ok
            ? new VasError({ kind: 'protocol', message: `unexpected answer for ${target.pathname}` })
            : classified.error;
        } catch (caught) {
          if (caught instanceof VasError) throw caught;
          // A GET moves nothing: a failure after sending is safe to repeat.
          error = classifyTransportError(caught, target.origin + target.pathname, callOptions?.signal?.aborted ?? false);
          if (error.code === 'aborted') throw error;
          error = error.with({ ambiguous: false });
        }
        const decision = decideRetry({ error, attempt, pennyDrop: false, policy, random });
        if (!decision.retry) throw error;
        await sleepFor(decision.delayMs, undefined, callOptions?.signal ? { signal: callOptions.signal } : undefined);
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await agent.close();
    },
  };
}

function createTokenSource(
  options: ClientOptions,
  baseUrl: string,
  dispatcher: Dispatcher,
  now: () => number,
  timeoutMs: number,
): TokenSource {
  if (options.clientId && options.clientSecret) {
    return createOAuthTokenSource(
      {
        tokenUrl: options.tokenUrl ?? `${baseUrl}${DEFAULT_TOKEN_PATH}`,
        clientId: options.clientId,
        clientSecret: options.clientSecret,
      },
      { dispatcher, now, timeoutMs },
    );
  }
  if (options.token) return createStaticTokenSource(options.token);
  throw new VasError({
    kind: 'auth',
    message: 'no credentials: set VAS_TOKEN, or VAS_CLIENT_ID and VAS_CLIENT_SECRET',
  });
}

function asVasError(error: unknown): VasError {
  if (error instanceof VasError) return error;
  // Anything else is a bug in this program, not a failure of the service: say so plainly.
  throw error;
}
