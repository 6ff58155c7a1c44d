/**
 * Bearer tokens: a static token, or OAuth 2.0 client credentials with a cached token that is
 * refreshed shortly before expiry. Concurrent callers share one fetch and one refresh.
 */
import type { Dispatcher } from 'undici';
import { VasError } from './errors.js';
import { AnswerTooLargeError, bodyText, exchangeBytes } from './exchange.js';
import { registerSecret } from '../redact.js';
import { TokenResponseSchema } from './schemas.js';
import { classifyTransportError, describeSchemaError, requestIdOf } from './classify.js';

export interface Token {
  readonly value: string;
  /** Increases with every token fetched; tells a stale 401 from one after a fresh token. */
  readonly generation: number;
}

export interface TokenSource {
  /** Whether a 401 can be cured by fetching a new token. */
  readonly refreshable: boolean;
  get(signal?: AbortSignal): Promise<Token>;
  /** The server refused `failed`: fetch a new token unless another caller already did. */
  refresh(failed: Token, signal?: AbortSignal): Promise<Token>;
}

/** Largest token endpoint answer read: a token answer is a few hundred bytes. */
export const MAX_TOKEN_ANSWER_BYTES = 64 * 1024;

export function createStaticTokenSource(token: string): TokenSource {
  registerSecret(token);
  const value: Token = { value: token, generation: 0 };
  return {
    refreshable: false,
    get: () => Promise.resolve(value),
    refresh: () => Promise.resolve(value),
  };
}

export interface ClientCredentials {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
}

/** A token is used until this close to its expiry: at most 30 s, at most a tenth of its life. */
export function refreshMarginMs(ttlMs: number): number {
  return Math.min(30_000, ttlMs / 10);
}

export function createOAuthTokenSource(
  credentials: ClientCredentials,
  options: { dispatcher: Dispatcher; now: () => number; timeoutMs: number; deadlineMs?: number | undefined },
): TokenSource {
  registerSecret(credentials.clientSecret);
  const target = new URL(credentials.tokenUrl);
  let current: (Token & { refreshAt: number }) | undefined;
  let inflight: Promise<Token> | undefined;
  let generation = 0;

  async function fetchToken(signal?: AbortSignal): Promise<Token> {
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: credentials.clientId,
      client_secret: credentials.clientSecret,
    });
    const exchange = await exchangeBytes(options.dispatcher, {
      origin: target.origin,
      path: `${target.pathname}${target.search}`,
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form.toString(),
      signal,
      maxBytes: MAX_TOKEN_ANSWER_BYTES,
      maxErrorBytes: MAX_TOKEN_ANSWER_BYTES,
      deadlineMs: options.deadlineMs,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
    if (!exchange.ok) {
      if (exchange.error instanceof AnswerTooLargeError) {
        throw new VasError({ kind: 'protocol', message: `the token endpoint's ${exchange.error.message}`, status: exchange.status, requestId: exchange.headers && requestIdOf(exchange.headers) });
      }
      // Fetching a token moves no money: any transport failure is plainly retryable.
      throw classifyTransportError(exchange.error, 'the token endpoint', signal?.aborted ?? false).with({ ambiguous: false });
    }
    const status = exchange.status;
    const requestId = requestIdOf(exchange.headers);
    const text = bodyText(exchange.body);
    if (status === 400 || status === 401 || status === 403) {
      throw new VasError({
        kind: 'auth',
        code: 'credentials-rejected',
        message: 'the token endpoint rejected the client credentials: check VAS_CLIENT_ID and VAS_CLIENT_SECRET',
        status,
        requestId,
      });
    }
    if (status !== 200) {
      throw new VasError({
        kind: status >= 500 ? 'unavailable' : 'protocol',
        message: `the token endpoint answered HTTP ${status}`,
        retryable: status >= 500 || status === 429,
        status,
        requestId,
      });
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (cause) {
      throw new VasError({ kind: 'protocol', code: 'bad-json', message: 'the token endpoint did not answer JSON', status, requestId, cause });
    }
    const parsed = TokenResponseSchema.safeParse(json);
    if (!parsed.success) {
      throw new VasError({
        kind: 'protocol',
        code: 'schema',
        message: describeSchemaError(parsed.error, 'token response'),
        status,
        requestId,
      });
    }
    // A secret from the moment it is known: an upstream that echoes the Authorization header
    // must not get it into any error text.
    registerSecret(parsed.data.access_token);
    const ttlMs = parsed.data.expires_in * 1000;
    generation += 1;
    current = {
      value: parsed.data.access_token,
      generation,
      refreshAt: options.now() + ttlMs - refreshMarginMs(ttlMs),
    };
    return current;
  }

  function shared(signal?: AbortSignal): Promise<Token> {
    inflight ??= fetchToken(signal).finally(() => {
      inflight = undefined;
    });
    return inflight;
  }

  return {
    refreshable: true,
    get(signal) {
      if (current && options.now() < current.refreshAt) return Promise.resolve(current);
      return shared(signal);
    },
    refresh(failed, signal) {
      if (current && current.generation > failed.generation) return Promise.resolve(current);
      return shared(signal);
    },
  };
}
