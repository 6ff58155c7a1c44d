/**
 * The retry policy (docs/ARCHITECTURE.md, "The remote interface") as one pure function. It asks its questions in a fixed order
 * and is the only place that decides whether a call is sent again (one layer, never stacked).
 */
import type { VasError } from './errors.js';

export interface RetryPolicy {
  /** Attempts in all, the first included. Default 5. */
  maxAttempts: number;
  /** Base of the exponential backoff in ms. Default 250. */
  baseMs: number;
  /** Cap of one backoff sleep in ms. Default 8000. */
  capMs: number;
  /** A 500 waits between these two (the interface asks for 1–5 s). Defaults 1000 and 5000. */
  serverErrorMinMs: number;
  serverErrorMaxMs: number;
  /** A Retry-After longer than this is not waited for: the call fails instead. Default 60000. */
  maxRetryAfterMs: number;
  /**
   * 429 answers that do not use up an attempt: the service said "later", not "no", and nothing
   * was processed. Default 0 (every 429 is an attempt); bulk runs raise it so that a quota
   * below --rate slows a run down instead of failing its rows.
   */
  maxQuotaWaits: number;
  /**
   * Attempts in all when nothing answers at the address (connection refused, unknown host):
   * that is an outage for the run's circuit breaker to see soon, not a flake. Default 5.
   */
  maxUnreachableAttempts: number;
}

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({
  maxAttempts: 5,
  baseMs: 250,
  capMs: 8000,
  serverErrorMinMs: 1000,
  serverErrorMaxMs: 5000,
  maxRetryAfterMs: 60_000,
  maxQuotaWaits: 0,
  maxUnreachableAttempts: 5,
});

export type RetryReason =
  | 'attempts-exhausted'
  | 'not-retryable'
  | 'ambiguous-penny-drop'
  | 'retry-after-too-long'
  | 'retry-after'
  | 'server-error'
  | 'backoff';

export interface RetryDecision {
  retry: boolean;
  delayMs: number;
  reason: RetryReason;
}

export interface RetryInput {
  error: VasError;
  /** Attempts already made (1 after the first failure). */
  attempt: number;
  /** Of those, 429s that do not count against maxAttempts (at most policy.maxQuotaWaits). Default 0. */
  quotaWaits?: number;
  /** A penny-drop call moves money: an ambiguous failure must never be sent again. */
  pennyDrop: boolean;
  policy?: Readonly<RetryPolicy>;
  /** Uniform [0, 1). */
  random: () => number;
}

export function decideRetry(input: RetryInput): RetryDecision {
  const { error, attempt, pennyDrop, random } = input;
  const policy = input.policy ?? DEFAULT_RETRY_POLICY;
  const no = (reason: RetryReason): RetryDecision => ({ retry: false, delayMs: 0, reason });

  if (error.ambiguous && pennyDrop) return no('ambiguous-penny-drop');
  if (!error.retryable) return no('not-retryable');
  const unreachable = error.code === 'refused' || error.code === 'dns';
  const counted = attempt - Math.min(input.quotaWaits ?? 0, policy.maxQuotaWaits);
  if (counted >= (unreachable ? Math.min(policy.maxAttempts, policy.maxUnreachableAttempts) : policy.maxAttempts)) {
    return no('attempts-exhausted');
  }

  if (error.retryAfterMs !== undefined) {
    if (error.retryAfterMs > policy.maxRetryAfterMs) return no('retry-after-too-long');
    // A little jitter on top keeps many workers from waking at the same instant.
    const jitter = Math.floor(random() * Math.min(250, policy.baseMs));
    return { retry: true, delayMs: error.retryAfterMs + jitter, reason: 'retry-after' };
  }
  if (error.status === 500) {
    const span = policy.serverErrorMaxMs - policy.serverErrorMinMs;
    return { retry: true, delayMs: Math.round(policy.serverErrorMinMs + random() * span), reason: 'server-error' };
  }
  // Full jitter: sleep = random(0, min(cap, base * 2^n)), n = retries so far.
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** (attempt - 1));
  return { retry: true, delayMs: Math.floor(random() * ceiling), reason: 'backoff' };
}
