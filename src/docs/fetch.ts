/**
 * Asking for a session's documents, once or until it completes (`--wait`), with backoff and a
 * deadline. Errors the client raises (expired session, auth, …) pass through unchanged.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '../api/client.js';
import { isVasError, VasError } from '../api/errors.js';
import type { DocFetchResult } from '../api/schemas.js';
import { MAX_TIMER_MS } from '../timers.js';
import { classifyStatus, nextPollDelay, DEFAULT_POLL_POLICY, type PollPolicy } from './poll.js';

/** A request still running at the deadline may finish within this grace. */
const DEADLINE_GRACE_MS = 5_000;

export interface WaitOptions {
  /** Poll until the session completes or fails; false: ask once. */
  wait: boolean;
  /** Longest wait in ms (only with `wait`). */
  timeoutMs: number;
  /** Stops the wait (SIGINT/SIGTERM). */
  signal: AbortSignal;
  now?: () => number;
  random?: () => number;
  policy?: PollPolicy;
  /** Called after each poll that found the session still in progress. */
  onPending?: (status: string, attempt: number, nextDelayMs: number) => void;
}

export type FetchOutcome =
  | { kind: 'completed'; result: DocFetchResult; requestId: string | undefined; polls: number }
  | { kind: 'failed'; result: DocFetchResult; requestId: string | undefined; polls: number }
  | { kind: 'pending'; result: DocFetchResult; requestId: string | undefined; polls: number }
  | { kind: 'timeout'; lastStatus: string | null; polls: number }
  | { kind: 'stopped'; lastStatus: string | null; polls: number };

export async function fetchDocuments(client: Client, sessionId: string, options: WaitOptions): Promise<FetchOutcome> {
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const policy = options.policy ?? DEFAULT_POLL_POLICY;
  const deadline = now() + options.timeoutMs;
  let lastStatus: string | null = null;
  for (let attempt = 1; ; attempt += 1) {
    if (options.signal.aborted) return { kind: 'stopped', lastStatus, polls: attempt - 1 };
    const signal = options.wait
      ? // A --timeout longer than a timer holds is bounded per poll by it instead of failing.
        AbortSignal.any([options.signal, AbortSignal.timeout(Math.min(MAX_TIMER_MS, Math.max(1, deadline - now()) + DEADLINE_GRACE_MS))])
      : options.signal;
    let answer: Awaited<ReturnType<Client['docFetchStatus']>>;
    try {
      answer = await client.docFetchStatus(sessionId, { signal });
    } catch (error) {
      if (isVasError(error) && error.code === 'aborted') {
        return options.signal.aborted ? { kind: 'stopped', lastStatus, polls: attempt } : { kind: 'timeout', lastStatus, polls: attempt };
      }
      throw error;
    }
    const { result, requestId } = answer;
    // An answer about another session is no answer about this one: its documents would be saved
    // and recorded under the id asked for.
    if (result.sessionId !== sessionId) {
      throw VasError.protocol({ message: `the API answered about another session (${JSON.stringify(result.sessionId.slice(0, 80))}) than ${sessionId}: nothing was saved`, requestId });
    }
    lastStatus = result.status;
    const verdict = classifyStatus(result.status);
    if (verdict === 'completed') return { kind: 'completed', result, requestId, polls: attempt };
    if (verdict === 'failed') return { kind: 'failed', result, requestId, polls: attempt };
    if (!options.wait) return { kind: 'pending', result, requestId, polls: attempt };
    const remaining = deadline - now();
    if (remaining <= 0) return { kind: 'timeout', lastStatus, polls: attempt };
    const delay = nextPollDelay(attempt, remaining, random, policy);
    options.onPending?.(result.status, attempt, delay);
    try {
      await sleep(delay, undefined, { signal: options.signal });
    } catch {
      return { kind: 'stopped', lastStatus, polls: attempt };
    }
  }
}
