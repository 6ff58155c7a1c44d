/**
 * One HTTP exchange and its whole, bounded answer, on undici's dispatcher interface (the
 * onRequestStart / onResponseStart / onResponseData / onResponseEnd / onResponseError handler of
 * undici 7+, driven through its DispatchController).
 *
 * `request()` wraps every answer in a Readable stream, an AsyncResource and a promise chain: about
 * 17 µs of CPU per call, a third of the client's cost, to read a body of a few hundred bytes. Here
 * the body's chunks are collected as they come. Every body read by this program goes through here,
 * so every one is bounded the same way (README, Security):
 * - size: a body larger than `maxBytes` is aborted (AnswerTooLargeError); with `maxErrorBytes`, an
 *   error body is cut there and the connection dropped, keeping the excerpt (the status says enough);
 * - time: the dispatcher's idle timeouts (headers, body silence) and, beside them, a total
 *   `deadlineMs` from dispatch to the last byte (DeadlineError), so an answer trickled one byte a
 *   second cannot hold a call forever.
 */
import type { Dispatcher } from 'undici';
import type { RawResponse } from './classify.js';
import { AppError } from '../errors.js';

/** Largest answer read to an API call: a verification answer is well under 2 KB. */
export const MAX_ANSWER_BYTES = 1024 * 1024;

/** Largest error body read (any non-2xx answer): every error shape fits, and only an excerpt is kept. */
export const MAX_ERROR_BYTES = 64 * 1024;

/** The headers the classifier reads (request id, content type, Retry-After and the Date it is relative to), lower-case. */
const WANTED = ['x-request-id', 'content-type', 'retry-after', 'date'] as const;

export type Exchange =
  | ({ ok: true; /** The error body was longer than its cap and cut. */ truncated?: boolean } & RawResponse)
  /** A failure below HTTP; `status` and `headers` are set when it came after the headers. */
  | { ok: false; error: unknown; status: number | undefined; headers: RawResponse['headers'] | undefined };

export type BinaryExchange =
  | { ok: true; status: number; headers: RawResponse['headers']; body: Buffer; truncated: boolean }
  | { ok: false; error: unknown; status: number | undefined; headers: RawResponse['headers'] | undefined };

/** A body over its cap. Inside the client it becomes a VasError; should one escape, it is fatal (exit 1). */
export class AnswerTooLargeError extends AppError {
  override readonly name = 'AnswerTooLargeError';
  readonly kind = 'protocol';
  readonly code = 'VAS_ANSWER_TOO_LARGE';
  constructor(readonly maxBytes: number) {
    super(`answer larger than ${maxBytes} bytes`);
  }
}

/** The total deadline of one exchange passed before its answer was complete. */
export class DeadlineError extends AppError {
  override readonly name = 'DeadlineError';
  readonly kind = 'timeout';
  readonly code = 'VAS_DEADLINE';
  constructor(readonly deadlineMs: number) {
    super(`no complete answer within the ${formatMs(deadlineMs)} deadline`);
  }
}

function formatMs(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

export interface ExchangeRequest {
  origin: string;
  path: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string | undefined;
  signal?: AbortSignal | undefined;
  /** Largest 2xx body; larger is aborted with AnswerTooLargeError. Default MAX_ANSWER_BYTES. */
  maxBytes?: number | undefined;
  /** Largest non-2xx body kept as an excerpt, the rest not read; without it an error body over `maxBytes` fails like a success body. */
  maxErrorBytes?: number | undefined;
  /** Total time from dispatch to the last byte, in ms; none when undefined or 0. */
  deadlineMs?: number | undefined;
  /** Idle timeouts of this request, in ms; default the dispatcher's. */
  headersTimeout?: number | undefined;
  bodyTimeout?: number | undefined;
}

/**
 * Every call of one AbortSignal is cancelled by one listener on it, instead of each call adding
 * and removing its own (thousands of calls share the run's signal).
 */
const watchers = new WeakMap<AbortSignal, Set<(reason: unknown) => void>>();

function watch(signal: AbortSignal, cancel: (reason: unknown) => void): () => void {
  let set = watchers.get(signal);
  if (!set) {
    const members = new Set<(reason: unknown) => void>();
    set = members;
    watchers.set(signal, members);
    signal.addEventListener('abort', () => {
      for (const member of [...members]) member(signal.reason);
      members.clear();
    }, { once: true });
  }
  set.add(cancel);
  return () => set.delete(cancel);
}

function asError(reason: unknown): Error {
  return reason instanceof Error ? reason : new Error(reason === undefined ? 'aborted' : String(reason));
}

/** Performs one exchange and collects its body as bytes (documents, token answers, API answers). */
export function exchangeBytes(dispatcher: Dispatcher, req: ExchangeRequest): Promise<BinaryExchange> {
  return new Promise<BinaryExchange>((resolve) => {
    new BodyCollector(resolve, req.maxBytes ?? MAX_ANSWER_BYTES, req.maxErrorBytes).start(dispatcher, req);
  });
}

/**
 * undici's dispatch handler for one exchange: collects the body's chunks within their bounds and
 * settles the exchange once (answer complete, body over its cap, failure, deadline or abort).
 * Its state is in fields, so one exchange allocates one handler and no closure per hook.
 */
class BodyCollector implements Dispatcher.DispatchHandler {
  readonly #resolve: (exchange: BinaryExchange) => void;
  readonly #maxBytes: number;
  readonly #maxErrorBytes: number | undefined;
  #status: number | undefined;
  #headers: RawResponse['headers'] | undefined;
  #chunks: Buffer[] = [];
  #size = 0;
  #controller: Dispatcher.DispatchController | undefined;
  #cancelled: Error | undefined;
  #settled = false;
  #timer: NodeJS.Timeout | undefined;
  #unwatch: (() => void) | undefined;

  constructor(resolve: (exchange: BinaryExchange) => void, maxBytes: number, maxErrorBytes: number | undefined) {
    this.#resolve = resolve;
    this.#maxBytes = maxBytes;
    this.#maxErrorBytes = maxErrorBytes;
  }

  /** Arms the abort signal and the deadline, then dispatches the request. */
  start(dispatcher: Dispatcher, req: ExchangeRequest): void {
    const { signal } = req;
    this.#unwatch = signal ? watch(signal, (reason) => this.#cancel(asError(reason))) : undefined;
    if (signal?.aborted) {
      this.#settle({ ok: false, error: signal.reason ?? new Error('aborted'), status: undefined, headers: undefined });
      return;
    }
    if (req.deadlineMs !== undefined && req.deadlineMs > 0) {
      const deadlineMs = req.deadlineMs;
      this.#timer = setTimeout(() => {
        const error = new DeadlineError(deadlineMs);
        this.#cancel(error);
        // Settle now: the connection is torn down on its own time, the caller is not kept waiting.
        this.#fail(error);
      }, deadlineMs);
    }
    try {
      const options: Dispatcher.DispatchOptions = { origin: req.origin, path: req.path, method: req.method, headers: req.headers, body: req.body ?? null };
      if (req.headersTimeout !== undefined) options.headersTimeout = req.headersTimeout;
      if (req.bodyTimeout !== undefined) options.bodyTimeout = req.bodyTimeout;
      dispatcher.dispatch(options, this);
    } catch (error) {
      // undici reports its failures through onResponseError (a closed agent too); a throw here
      // would be options it refuses, and fails the call like any other error.
      this.#fail(error);
    }
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.#controller = controller;
    if (this.#cancelled !== undefined) controller.abort(this.#cancelled);
  }

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: Record<string, string | string[] | undefined>): void {
    this.#controller = controller;
    // An informational answer (100 Continue, 103 Early Hints) precedes the real one.
    if (statusCode < 200) return;
    this.#status = statusCode;
    this.#headers = pickHeaders(headers);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.#settled) return;
    this.#size += chunk.length;
    const size = this.#size;
    const maxErrorBytes = this.#maxErrorBytes;
    const success = this.#status !== undefined && this.#status < 300;
    if ((success || maxErrorBytes === undefined) && size > this.#maxBytes) {
      const error = new AnswerTooLargeError(this.#maxBytes);
      this.#fail(error);
      controller.abort(error);
      return;
    }
    if (!success && maxErrorBytes !== undefined && size > maxErrorBytes) {
      // An error status means what it says: keep the first bytes as its excerpt, read no more.
      this.#chunks.push(chunk.subarray(0, chunk.length - (size - maxErrorBytes)));
      this.#settle({ ok: true, status: this.#status!, headers: this.#headers!, body: concat(this.#chunks), truncated: true });
      controller.abort(new AnswerTooLargeError(maxErrorBytes));
      return;
    }
    this.#chunks.push(chunk);
  }

  onResponseEnd(): void {
    if (this.#settled) return;
    this.#settle({ ok: true, status: this.#status!, headers: this.#headers ?? {}, body: concat(this.#chunks), truncated: false });
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.#fail(this.#cancelled ?? error);
  }

  #cancel(reason: Error): void {
    if (this.#cancelled !== undefined || this.#settled) return;
    this.#cancelled = reason;
    if (this.#controller && !this.#controller.aborted) this.#controller.abort(reason);
  }

  #settle(exchange: BinaryExchange): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#unwatch?.();
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#chunks = [];
    this.#resolve(exchange);
  }

  #fail(error: unknown): void {
    this.#settle({ ok: false, error, status: this.#status, headers: this.#headers });
  }
}

function concat(chunks: Buffer[]): Buffer {
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}

/** UTF-8 text of a body, without the byte-order mark some gateways put first (request()'s text() dropped it too). */
export function bodyText(body: Buffer): string {
  const start = body.length >= 3 && body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf ? 3 : 0;
  return body.toString('utf8', start);
}

/** One POST of a small JSON body and its whole answer as text. */
export async function postJson(
  dispatcher: Dispatcher,
  origin: string,
  path: string,
  headers: Record<string, string>,
  body: string,
  signal: AbortSignal | undefined,
  maxBytes: number = MAX_ANSWER_BYTES,
  deadlineMs?: number,
  maxErrorBytes?: number,
): Promise<Exchange> {
  const exchange = await exchangeBytes(dispatcher, { origin, path, method: 'POST', headers, body, signal, maxBytes, deadlineMs, maxErrorBytes });
  if (!exchange.ok) return exchange;
  const text = bodyText(exchange.body);
  return exchange.truncated
    ? { ok: true, status: exchange.status, headers: exchange.headers, text, truncated: true }
    : { ok: true, status: exchange.status, headers: exchange.headers, text };
}

/** The wanted headers of undici's parsed header object. */
function pickHeaders(headers: Record<string, string | string[] | undefined>): RawResponse['headers'] {
  const picked: RawResponse['headers'] = {};
  for (const name of WANTED) {
    const value = headers[name];
    if (value !== undefined) picked[name] = value;
  }
  return picked;
}
