/**
 * Bearer tokens: a static token, or OAuth 2.0 client credentials with a cached token that is
 * refreshed shortly before expiry. Concurrent callers share one fetch and one refresh.
 */
import type { Dispatcher } from 'undici';
import { VasError } from './errors.js';
import { AnswerTooLargeError, bodyText, exchangeBytes, type BinaryExchange } from './exchange.js';
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

export interface OAuthOptions {
  dispatcher: Dispatcher;
  now: () => number;
  timeoutMs: number;
  deadlineMs?: number | undefined;
}

export function createOAuthTokenSource(credentials: ClientCredentials, options: OAuthOptions): TokenSource {
  return new OAuthTokenSource(credentials, options);
}

/** Client credentials: one cached token, one fetch at a time shared by every caller. */
class OAuthTokenSource implements TokenSource {
  readonly refreshable = true;
  readonly #credentials: ClientCredentials;
  readonly #options: OAuthOptions;
  readonly #target: URL;
  #current: (Token & { refreshAt: number }) | undefined;
  #inflight: Promise<Token> | undefined;
  #generation = 0;

  constructor(credentials: ClientCredentials, options: OAuthOptions) {
    registerSecret(credentials.clientSecret);
    this.#credentials = credentials;
    this.#options = options;
    this.#target = new URL(credentials.tokenUrl);
  }

  get(signal?: AbortSignal): Promise<Token> {
    const current = this.#current;
    if (current && this.#options.now() < current.refreshAt) return Promise.resolve(current);
    return this.#shared(signal);
  }

  refresh(failed: Token, signal?: AbortSignal): Promise<Token> {
    const current = this.#current;
    if (current && current.generation > failed.generation) return Promise.resolve(current);
    return this.#shared(signal);
  }

  #shared(signal?: AbortSignal): Promise<Token> {
    this.#inflight ??= this.#fetchToken(signal).finally(() => {
      this.#inflight = undefined;
    });
    return this.#inflight;
  }

  async #fetchToken(signal?: AbortSignal): Promise<Token> {
    const { clientId, clientSecret } = this.#credentials;
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret });
    const exchange = await exchangeBytes(this.#options.dispatcher, {
      origin: this.#target.origin,
      path: `${this.#target.pathname}${this.#target.search}`,
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form.toString(),
      signal,
      maxBytes: MAX_TOKEN_ANSWER_BYTES,
      maxErrorBytes: MAX_TOKEN_ANSWER_BYTES,
      deadlineMs: this.#options.deadlineMs,
      headersTimeout: this.#options.timeoutMs,
      bodyTimeout: this.#options.timeoutMs,
    });
    if (!exchange.ok) throw tokenTransportError(exchange, this.#target.host, signal);
    const answer = readTokenAnswer(exchange.status, requestIdOf(exchange.headers), bodyText(exchange.body));
    // A secret from the moment it is known: an upstream that echoes the Authorization header
    // must not get it into any error text.
    registerSecret(answer.accessToken);
    this.#generation += 1;
    this.#current = {
      value: answer.accessToken,
      generation: this.#generation,
      refreshAt: tokenRefreshAt(this.#options.now(), answer.expiresInS),
    };
    return this.#current;
  }
}

/** When a token fetched at `nowMs`, valid for `expiresInS` seconds, is replaced: its expiry less the refresh margin. */
function tokenRefreshAt(nowMs: number, expiresInS: number): number {
  const ttlMs = expiresInS * 1000;
  return nowMs + ttlMs - refreshMarginMs(ttlMs);
}

/** A failure of the token request below HTTP, as a VasError. */
function tokenTransportError(exchange: BinaryExchange & { ok: false }, host: string, signal: AbortSignal | undefined): VasError {
  if (exchange.error instanceof AnswerTooLargeError) {
    return VasError.protocol({ message: `the token endpoint's ${exchange.error.message}`, status: exchange.status, requestId: exchange.headers && requestIdOf(exchange.headers) });
  }
  // Fetching a token moves no money: any transport failure is plainly retryable.
  return classifyTransportError(exchange.error, `the token endpoint (${host})`, signal?.aborted ?? false).with({ ambiguous: false });
}

/** The token endpoint's answer read: the token and its lifetime, or the VasError it amounts to (thrown). */
function readTokenAnswer(status: number, requestId: string | undefined, text: string): { accessToken: string; expiresInS: number } {
  if (status === 400 || status === 401 || status === 403) {
    throw VasError.auth({
      code: 'credentials-rejected',
      message: 'the token endpoint rejected the client credentials: check VAS_CLIENT_ID and VAS_CLIENT_SECRET',
      status,
      requestId,
    });
  }
  if (status !== 200) {
    throw VasError.of({
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
    throw VasError.protocol({ code: 'bad-json', message: 'the token endpoint did not answer JSON', status, requestId, cause });
  }
  const parsed = TokenResponseSchema.safeParse(json);
  if (!parsed.success) {
    throw VasError.protocol({
      code: 'schema',
      message: describeSchemaError(parsed.error, 'token response'),
      status,
      requestId,
    });
  }
  return { accessToken: parsed.data.access_token, expiresInS: parsed.data.expires_in };
}
