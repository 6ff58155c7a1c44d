/**
 * One POST of a small JSON body and its whole answer, on undici's dispatcher interface.
 *
 * `request()` wraps every answer in a Readable stream, an AsyncResource and a promise chain,
 * and parses every header into an object: about 17 µs of CPU per call, a third of the client's
 * cost, to read a body of a few hundred bytes. Here the body's chunks are collected as they come
 * and only the headers the classifier reads are decoded. Timeouts (headers, body) are the
 * dispatcher's own, as with `request()`; an answer larger than `maxBytes` is cut off.
 */
import type { Dispatcher } from 'undici';
import type { RawResponse } from './classify.js';

/** Largest answer read to an API call: a verification answer is well under 2 KB. */
export const MAX_ANSWER_BYTES = 1024 * 1024;

/** The headers the classifier reads (request id, content type, Retry-After), lower-case. */
const WANTED = new Set(['x-request-id', 'content-type', 'retry-after']);

export type Exchange =
  | ({ ok: true } & RawResponse)
  /** A failure below HTTP; `status` and `headers` are set when it came after the headers. */
  | { ok: false; error: unknown; status: number | undefined; headers: RawResponse['headers'] | undefined };

export class AnswerTooLargeError extends Error {
  constructor(maxBytes: number) {
    super(`answer larger than ${maxBytes} bytes`);
    this.name = 'AnswerTooLargeError';
  }
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

export function postJson(
  dispatcher: Dispatcher,
  origin: string,
  path: string,
  headers: Record<string, string>,
  body: string,
  signal: AbortSignal | undefined,
  maxBytes: number = MAX_ANSWER_BYTES,
): Promise<Exchange> {
  return new Promise<Exchange>((resolve) => {
    let status: number | undefined;
    let answerHeaders: RawResponse['headers'] | undefined;
    let chunks: Buffer[] = [];
    let size = 0;
    let abort: ((reason: unknown) => void) | undefined;
    let cancelled: unknown;
    let settled = false;
    const unwatch = signal ? watch(signal, (reason) => {
      cancelled = reason ?? new Error('aborted');
      abort?.(cancelled);
    }) : undefined;
    const settle = (exchange: Exchange) => {
      if (settled) return;
      settled = true;
      unwatch?.();
      resolve(exchange);
    };
    if (signal?.aborted) {
      settle({ ok: false, error: signal.reason ?? new Error('aborted'), status: undefined, headers: undefined });
      return;
    }
    // undici's own handler interface (the one its core calls without an adapter).
    const handler = {
      onConnect(abortRequest: (reason: unknown) => void) {
        if (cancelled !== undefined) abortRequest(cancelled);
        else abort = abortRequest;
      },
      onHeaders(statusCode: number, raw: Buffer[]) {
        // An informational answer (100 Continue, 103 Early Hints) precedes the real one.
        if (statusCode < 200) return true;
        status = statusCode;
        answerHeaders = pickHeaders(raw);
        return true;
      },
      onData(chunk: Buffer) {
        size += chunk.length;
        if (size > maxBytes) {
          abort?.(new AnswerTooLargeError(maxBytes));
          return false;
        }
        chunks.push(chunk);
        return true;
      },
      onComplete() {
        let body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
        chunks = [];
        // A byte-order mark some gateways put first is not text (request()'s text() dropped it too).
        if (body.length >= 3 && body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) body = body.subarray(3);
        const text = body.toString('utf8');
        settle({ ok: true, status: status!, headers: answerHeaders!, text });
      },
      onError(error: Error) {
        settle({ ok: false, error, status, headers: answerHeaders });
      },
    };
    try {
      dispatcher.dispatch({ origin, path, method: 'POST', headers, body }, handler as unknown as Dispatcher.DispatchHandler);
    } catch (error) {
      // undici reports its failures through onError (a closed agent too); a throw here would be
      // options it refuses, and fails the call like any other error.
      settle({ ok: false, error, status: undefined, headers: undefined });
    }
  });
}

/** The wanted headers of undici's raw [name, value, name, value, …] list. */
function pickHeaders(raw: Buffer[]): RawResponse['headers'] {
  const headers: RawResponse['headers'] = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!;
    // The wanted names are 11 or 12 characters long: most headers are skipped unread.
    if (name.length < 11 || name.length > 12) continue;
    const key = name.toString('latin1').toLowerCase();
    if (!WANTED.has(key)) continue;
    const value = raw[i + 1]!.toString('latin1');
    const existing = headers[key];
    headers[key] = existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return headers;
}
