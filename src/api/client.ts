/**
 * The typed client for the four operations (docs/ARCHITECTURE.md, "The remote interface") and
 * document downloads, over undici's dispatcher on a keep-alive Agent (src/api/exchange.ts: every
 * body bounded in size and time). It is the only retry layer: callers get either a parsed result
 * or one VasError after the policy has given up.
 */
import { setTimeout as sleepFor } from 'node:timers/promises';
import { createRequire } from 'node:module';
import type { Agent as UndiciAgent, Dispatcher } from 'undici';
import { classifyResponse, classifyTransportError, requestIdOf, serverTimeOf } from './classify.js';
import { AnswerTooLargeError, bodyText, DeadlineError, exchangeBytes, MAX_ANSWER_BYTES, MAX_ERROR_BYTES, postJson, type BinaryExchange } from './exchange.js';
import { redact, registerSecret, registerUrlSecrets } from '../redact.js';
import { VERIFIED_TLS } from '../tls.js';
import { checkBankResult } from './names.js';
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

/**
 * undici's Agent alone. The package's index loads fetch, WebSocket, the mocks and the caches as
 * well (~90 ms of CPU at every start of the CLI, which sends through dispatch() only). The class
 * is the one the index exports (undici is pinned by the lockfile; test/client.test.ts runs it).
 */
const Agent = loadAgent();

function loadAgent(): typeof UndiciAgent {
  const require = createRequire(import.meta.url);
  try {
    return require('undici/lib/dispatcher/agent.js') as typeof UndiciAgent;
  } catch {
    // Another undici that moved or hid the file: the package's own export, at its cost.
    return (require('undici') as { Agent: typeof UndiciAgent }).Agent;
  }
}

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
/**
 * Longest total time of one request or one download, from sending to the last byte, beside the
 * idle timeouts: an answer trickled a byte at a time never goes silent for long.
 */
export const DEFAULT_DEADLINE_MS = 120_000;
/** Redirects a document download follows (a document URL often answers with one to its storage). */
export const MAX_DOWNLOAD_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

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
  /** Total time of one request or one download in ms (0: none); default 120000. */
  deadlineMs?: number | undefined;
  /**
   * Hosts (besides the API's own) documents may be downloaded from; default: any host (no token
   * is ever sent to another origin).
   */
  documentHosts?: readonly string[] | undefined;
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
  /** Called before each retry's sleep, like ClientOptions.onRetry, for this call only (a rate limiter hears of 429s). Default: none. */
  onRetry?: ((event: RetryEvent) => void) | undefined;
  /**
   * Called with the Date header (ms since the epoch) of every answer of this call that has one,
   * errors and retried attempts included, as it arrives: a check on this machine's clock. Default: none.
   */
  onServerTime?: ((serverTime: number) => void) | undefined;
}

export interface CallResult<T> {
  result: T;
  requestId: string | undefined;
  attempts: number;
  /** When the server says it answered (its Date header, ms since the epoch): a check on this machine's clock. */
  serverTime?: number | undefined;
}

export type VerifyMode = 'pl' | 'pd';

/** A downloaded document and the origin that served it (after redirects). */
export interface DownloadedDocument {
  bytes: Buffer;
  source: string;
}

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
  /** Downloads a document URL (following up to 5 redirects). The bearer token goes only to the API's own origin. */
  download(url: string, options?: CallOptions & { maxBytes?: number }): Promise<Buffer>;
  /** Like download, and says where the bytes came from after the redirects (scheme, host and port). */
  downloadDocument(url: string, options?: CallOptions & { maxBytes?: number }): Promise<DownloadedDocument>;
  /** Where a document URL points (scheme, host and port, no credentials): for saying where a file came from. */
  documentSource(url: string): string;
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
    throw VasError.invalidInput({ message: `base URL "${text}" is not a URL: use e.g. https://api.example.com` });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw VasError.invalidInput({ message: `base URL "${text}" must start with http:// or https://` });
  }
  return url.toString().replace(/\/+$/, '');
}

export function createClient(options: ClientOptions): Client {
  return new ApiClient(options);
}

/** An attempt's outcome, with the answer's Date (ms) when it had headers and one. */
type SendOutcome<T> = ({ ok: true; value: T; requestId: string | undefined } | { ok: false; error: VasError }) & { serverTime?: number | undefined };

/** The Client: its settings, the agent and the token source in fields, built once per client. */
class ApiClient implements Client {
  readonly baseUrl: string;
  readonly #origin: string;
  /** The base URL's path, without a trailing slash: prefixed to every operation's path. */
  readonly #basePath: string;
  readonly #now: () => number;
  readonly #random: () => number;
  readonly #policy: RetryPolicy;
  readonly #deadlineMs: number;
  readonly #documentHosts: ReadonlySet<string> | undefined;
  readonly #onRetry: ((event: RetryEvent) => void) | undefined;
  readonly #agent: UndiciAgent;
  readonly #tokens: TokenSource;
  #closed = false;
  // The same headers for every call, built once (and again when the token changes).
  #cachedHeaders: { token: string; value: Record<string, string> } | undefined;

  constructor(options: ClientOptions) {
    // Known secrets from the start: a password in the base URL, the token, the client secret.
    registerUrlSecrets(options.baseUrl);
    registerUrlSecrets(options.tokenUrl);
    registerSecret(options.token);
    registerSecret(options.clientSecret);
    this.baseUrl = normaliseBaseUrl(options.baseUrl);
    this.#origin = new URL(this.baseUrl).origin;
    this.#now = options.now ?? Date.now;
    this.#random = options.random ?? Math.random;
    this.#policy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    const headersTimeout = options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS;
    const keepAlive = options.keepAliveTimeoutMs ?? DEFAULT_KEEP_ALIVE_MS;
    this.#deadlineMs = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
    this.#documentHosts = options.documentHosts === undefined ? undefined : new Set(options.documentHosts.map((h) => h.toLowerCase()));
    this.#onRetry = options.onRetry;
    this.#agent = new Agent({
      connections: options.connections ?? DEFAULT_CONNECTIONS,
      keepAliveTimeout: keepAlive,
      keepAliveMaxTimeout: keepAlive,
      headersTimeout,
      bodyTimeout: options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS,
      connect: VERIFIED_TLS,
    });
    this.#tokens = createTokenSource(options, this.baseUrl, this.#agent, this.#now, headersTimeout, this.#deadlineMs);
    this.#basePath = new URL(this.baseUrl).pathname.replace(/\/+$/, '');
  }

  verifyBankAccount(input: BankVerifyInput, callOptions?: CallOptions): Promise<CallResult<BankResult>> {
    const op = input.mode === 'pd' ? OPS.pennyDrop : OPS.pennyLess;
    return this.#call(op, { accountNumber: input.accountNumber, ifscNumber: input.ifsc }, BANK_ENVELOPE, input.mode === 'pd', callOptions)
      .then(withCheckedBankResult);
  }

  docInit(input: DocInitRequest, callOptions?: CallOptions): Promise<CallResult<DocInitResult>> {
    return this.#call(OPS.docInit, input, INIT_ENVELOPE, false, { signal: callOptions?.signal, beforeRetry: callOptions?.beforeRetry })
      .then((answer) => withRedacted(answer, 'url'));
  }

  docFetchStatus(sessionId: string, callOptions?: CallOptions): Promise<CallResult<DocFetchResult>> {
    return this.#call(OPS.docFetch, { sessionId }, FETCH_ENVELOPE, false, { signal: callOptions?.signal, beforeRetry: callOptions?.beforeRetry })
      .then((answer) => withRedacted(answer, 'status'));
  }

  documentSource(url: string): string {
    const target = new URL(url, this.baseUrl);
    return `${target.protocol}//${target.host}`;
  }

  async download(url: string, callOptions?: CallOptions & { maxBytes?: number }): Promise<Buffer> {
    return (await this.downloadDocument(url, callOptions)).bytes;
  }

  async downloadDocument(url: string, callOptions?: CallOptions & { maxBytes?: number }): Promise<DownloadedDocument> {
    const maxBytes = callOptions?.maxBytes ?? DEFAULT_MAX_DOWNLOAD_BYTES;
    const signal = callOptions?.signal;
    let target = new URL(url, this.baseUrl);
    let where = '';
    let headers: Record<string, string> = {};
    // Every hop is checked like the first: scheme, --docs-allow-host, and the token only to the API's origin.
    const aim = async (next: URL): Promise<void> => {
      target = next;
      // Shown in errors and reports: never the query (it may hold a signature) nor any userinfo.
      where = `${target.protocol}//${target.host}${target.pathname}`;
      this.#checkDocumentTarget(target, where);
      registerUrlSecrets(target.href);
      headers = target.origin === this.#origin ? { authorization: `Bearer ${(await this.#tokens.get(signal)).value}` } : {};
    };
    await aim(target);
    let attempt = 0;
    let redirects = 0;
    for (;;) {
      attempt += 1;
      const exchange = await exchangeBytes(this.#agent, {
        origin: target.origin,
        path: `${target.pathname}${target.search}`,
        method: 'GET',
        headers,
        signal,
        maxBytes,
        maxErrorBytes: MAX_ERROR_BYTES,
        deadlineMs: this.#deadlineMs,
      });
      if (exchange.ok && exchange.status === 200) return { bytes: exchange.body, source: `${target.protocol}//${target.host}` };
      if (exchange.ok && REDIRECT_STATUSES.has(exchange.status)) {
        const location = exchange.headers['location'];
        if (typeof location === 'string' && location.trim() !== '') {
          redirects += 1;
          if (redirects > MAX_DOWNLOAD_REDIRECTS) throw VasError.protocol({ message: `more than ${MAX_DOWNLOAD_REDIRECTS} redirects: ${where}`, status: exchange.status });
          let next: URL;
          try {
            next = new URL(location.trim(), target);
          } catch {
            throw VasError.protocol({ message: `${where} redirects to something that is not a URL: not followed`, status: exchange.status });
          }
          if (target.protocol === 'https:' && next.protocol === 'http:') {
            throw VasError.protocol({ message: `${where} redirects to plain http (${next.protocol}//${next.host}): not followed`, status: exchange.status });
          }
          await aim(next);
          continue;
        }
      }
      const error = this.#downloadFailure(exchange, target, where, maxBytes, signal);
      const decision = decideRetry({ error, attempt, pennyDrop: false, policy: this.#policy, random: this.#random });
      if (!decision.retry) throw error;
      await sleepFor(decision.delayMs, undefined, signal ? { signal } : undefined);
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#agent.close();
  }

  /** Refuses a document URL of another scheme, or on a host --docs-allow-host does not name. */
  #checkDocumentTarget(target: URL, where: string): void {
    if (target.protocol !== 'https:' && target.protocol !== 'http:') {
      throw VasError.protocol({ message: `document URL has an unsupported scheme: ${target.protocol}` });
    }
    const hosts = this.#documentHosts;
    if (hosts !== undefined && target.origin !== this.#origin && !hosts.has(target.hostname.toLowerCase()) && !hosts.has(target.host.toLowerCase())) {
      throw VasError.protocol({ code: 'host-not-allowed', message: `document host ${target.host} is not in --docs-allow-host: not fetched (${where})` });
    }
  }

  /** What a failed download attempt comes to: an error the retry policy decides on, or a throw when no retry can help. */
  #downloadFailure(exchange: BinaryExchange, target: URL, where: string, maxBytes: number, signal: AbortSignal | undefined): VasError {
    if (exchange.ok) {
      const classified = classifyResponse({ status: exchange.status, headers: exchange.headers, text: bodyText(exchange.body) }, INIT_ENVELOPE, this.#now());
      return classified.ok
        ? VasError.protocol({ message: `unexpected answer for ${target.pathname}`, status: exchange.status })
        : classified.error;
    }
    if (exchange.error instanceof AnswerTooLargeError) {
      throw VasError.protocol({ message: `document larger than ${maxBytes} bytes: ${target.pathname}`, status: exchange.status });
    }
    if (exchange.error instanceof DeadlineError && !signal?.aborted) {
      // A trickled document: another try would trickle the same way.
      throw classifyTransportError(exchange.error, where, false).with({ ambiguous: false, retryable: false });
    }
    // A GET moves nothing: a failure after sending is safe to repeat.
    const error = classifyTransportError(exchange.error, where, signal?.aborted ?? false);
    if (error.code === 'aborted') throw error;
    return error.with({ ambiguous: false });
  }

  #headersFor(token: Token): Record<string, string> {
    if (this.#cachedHeaders?.token !== token.value) {
      this.#cachedHeaders = {
        token: token.value,
        value: { authorization: `Bearer ${token.value}`, 'content-type': 'application/json', accept: 'application/json' },
      };
    }
    return this.#cachedHeaders.value;
  }

  async #sendOnce<T>(op: OpName, payload: unknown, envelope: z.ZodType<{ body: T }>, token: Token, signal: AbortSignal | undefined): Promise<SendOutcome<T>> {
    const path = `${this.#basePath}${API_PREFIX}${op}`;
    const exchange = await postJson(this.#agent, this.#origin, path, this.#headersFor(token), JSON.stringify(payload), signal, MAX_ANSWER_BYTES, this.#deadlineMs, MAX_ERROR_BYTES);
    const outcome = this.#outcomeOf(op, exchange, envelope, signal);
    if (exchange.headers) outcome.serverTime = serverTimeOf(exchange.headers);
    return outcome;
  }

  #outcomeOf<T>(op: OpName, exchange: Awaited<ReturnType<typeof postJson>>, envelope: z.ZodType<{ body: T }>, signal: AbortSignal | undefined): SendOutcome<T> {
    if (!exchange.ok) {
      const { error: cause, status, headers } = exchange;
      if (cause instanceof AnswerTooLargeError && status !== undefined && headers !== undefined) {
        // An error status means what it says, unread body or not (error bodies are cut to an
        // excerpt before this). A 2xx that cannot be read is an answer lost: the call may have
        // done its work (a penny-drop may have deposited).
        if (status < 200 || status >= 300) return classifyResponse({ status, headers, text: `(${cause.message}, not read)` }, envelope, this.#now());
        return { ok: false, error: VasError.protocol({ message: `${op}: ${cause.message}`, status, requestId: requestIdOf(headers), ambiguous: true }) };
      }
      const failure = classifyTransportError(cause, `${this.baseUrl}${API_PREFIX}${op}`, signal?.aborted ?? false);
      return { ok: false, error: status === undefined ? failure : failure.with({ status, requestId: headers && requestIdOf(headers) }) };
    }
    // A document-locker answer holds names and dates of birth: its errors do not quote it.
    return classifyResponse(exchange, envelope, this.#now(), { quoteBody: op !== OPS.docFetch });
  }

  /** One operation with its retries: the parsed result, or the last error once the policy gives up. */
  async #call<T>(
    op: OpName,
    payload: unknown,
    envelope: z.ZodType<{ body: T }>,
    pennyDrop: boolean,
    callOptions: CallOptions = {},
  ): Promise<CallResult<T>> {
    const { signal, beforeRetry, onRetry, onServerTime } = callOptions;
    if (this.#closed) throw VasError.network({ code: 'aborted', message: 'client is closed' });
    let attempt = 0;
    let quotaWaits = 0;
    // A token was refreshed after a 401 and sent again with nothing in between: a 401 now means
    // the fresh token itself is refused. A retried failure (a 429, a 500, a reset, a timeout)
    // clears it, so a token that expires again in a long retry sequence is refreshed again; the
    // retries bound the refreshes.
    let refreshed = false;
    for (;;) {
      attempt += 1;
      let token: Token | undefined;
      let outcome: SendOutcome<T>;
      try {
        token = await this.#tokens.get(signal);
        outcome = await this.#sendOnce(op, payload, envelope, token, signal);
        if (outcome.serverTime !== undefined) onServerTime?.(outcome.serverTime);
      } catch (error) {
        outcome = { ok: false, error: asVasError(error) };
      }
      if (outcome.ok) return { result: outcome.value, requestId: outcome.requestId, attempts: attempt, serverTime: outcome.serverTime };

      let error = outcome.error;
      if (error.kind === 'auth' && error.status === 401) {
        if (token && this.#tokens.refreshable && !refreshed) {
          // An expired token: fetch one (shared with every other caller that saw the same 401)
          // and send again. This is not a retry of a failure, so it costs no attempt.
          refreshed = true;
          attempt -= 1;
          try {
            await this.#tokens.refresh(token, signal);
          } catch (refreshError) {
            throw asVasError(refreshError);
          }
          continue;
        }
        error = tokenRefused(error, this.#tokens.refreshable);
      }
      if (error.code === 'rate-limit') quotaWaits += 1;
      const decision = decideRetry({ error, attempt, quotaWaits, pennyDrop, policy: this.#policy, random: this.#random });
      if (!decision.retry) throw error;
      refreshed = false;
      const event: RetryEvent = { op, attempt, error, delayMs: decision.delayMs, reason: decision.reason };
      this.#onRetry?.(event);
      onRetry?.(event);
      try {
        await sleepFor(decision.delayMs, undefined, signal ? { signal } : undefined);
        await beforeRetry?.();
      } catch {
        // Cancelled while waiting: the last attempt failed cleanly, so nothing is in doubt.
        throw VasError.network({ code: 'aborted', message: `${op} was cancelled`, ambiguous: false });
      }
    }
  }
}

/** A bank answer with its result checked (names.ts); the same object when nothing changed. */
function withCheckedBankResult(answer: CallResult<BankResult>): CallResult<BankResult> {
  const checked = checkBankResult(answer.result);
  return checked === answer.result ? answer : { ...answer, result: checked };
}

/**
 * A document-locker answer with the text the state file keeps (the consent page's URL, the
 * session's status) redacted, as a bank answer's name is (src/api/names.ts): a gateway that echoes
 * request headers into a success answer must not get the token into the state.
 */
function withRedacted<T extends Record<K, string>, K extends string>(answer: CallResult<T>, field: K): CallResult<T> {
  const clean = redact(answer.result[field]);
  return clean === answer.result[field] ? answer : { ...answer, result: { ...answer.result, [field]: clean } };
}

/** A 401 that a new token cannot cure: says which credentials to check. */
function tokenRefused(error: VasError, refreshable: boolean): VasError {
  return error.with({
    message: refreshable
      ? `the API refused a freshly issued token (${error.message}): check the client credentials`
      : `the API refused the token (${error.message}): check VAS_TOKEN`,
  });
}

function createTokenSource(
  options: ClientOptions,
  baseUrl: string,
  dispatcher: Dispatcher,
  now: () => number,
  timeoutMs: number,
  deadlineMs: number,
): TokenSource {
  if (options.clientId && options.clientSecret) {
    return createOAuthTokenSource(
      {
        tokenUrl: options.tokenUrl ?? `${baseUrl}${DEFAULT_TOKEN_PATH}`,
        clientId: options.clientId,
        clientSecret: options.clientSecret,
      },
      { dispatcher, now, timeoutMs, deadlineMs },
    );
  }
  if (options.token) return createStaticTokenSource(options.token);
  throw VasError.auth({
    message: 'no credentials: set VAS_TOKEN, or VAS_CLIENT_ID and VAS_CLIENT_SECRET',
  });
}

function asVasError(error: unknown): VasError {
  if (error instanceof VasError) return error;
  // Anything else is a bug in this program, not a failure of the service: say so plainly.
  throw error;
}
