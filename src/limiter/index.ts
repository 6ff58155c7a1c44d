/**
 * The rate limiter of the bulk run (README, "The rate"; docs/ARCHITECTURE.md, "Layout"): embedded by default, shared through Redis
 * with `--redis URL`. `createLimiter` is all a run needs; the parts are exported for tests.
 */
import { RateLimiter, type Limiter, type LimiterLostError } from './limiter.js';
import { createRedisSource } from './redis.js';

export { FINISH_SHARE, RateLimiter, createLocalSource, LimiterClosedError, LimiterLostError, LimiterSetupError, type Limiter, type TokenSource, type Turn } from './limiter.js';
export { JITTER_MARGIN_MS, SendLog, START_MARGIN_MS } from './send-log.js';
export { Aimd, BURST_MS, CATCH_UP_MS, QUOTA_EDGE_SHARE, MAX_PAUSE_MS, PERSISTENT_WITHIN_MS, atQuotaEdge, RATE_HEADROOM, SHARED_CATCH_UP_MS, SHARED_HEADROOM, maxInWindow, pausesEveryone, takeTokens, toPace, type Pace } from './pace.js';
export { ASSUMED_LATENCY_MS, CAP_EVIDENCE_ANSWERS, CONCURRENCY_HEADROOM, CONCURRENCY_SPARE, ConcurrencyTarget, DEFAULT_RATE_CONCURRENCY_CAP, LATENCY_WINDOW } from './concurrency.js';
export { checkRedisUrl, maskRedisUrl, REDIS_SETUP_TIMEOUT_MS } from './redis.js';

/** A quota shared between runs through Redis (--redis). */
export interface SharedQuota {
  url: string;
  /** A hash of the credential (never the credential): the key shared by its runs. */
  limiterId: string;
  /** Where the URL came from, as messages name it: `--redis` (the default) or `VAS_REDIS_URL`. */
  given?: string | undefined;
}

export interface LimiterOptions {
  /** Requests per second; undefined = no limiter. */
  rate?: number | undefined;
  /** Share the quota through Redis: the URL and the limiter id (a hash of the credential). */
  redis?: SharedQuota | undefined;
  /** Aborts a Redis setup under way (SIGINT/SIGTERM). */
  signal?: AbortSignal | undefined;
  /** Called once if the shared store is lost mid-run. */
  onLost?: ((error: LimiterLostError) => void) | undefined;
  /** With `redis`: called once when another run shares the quota at another --rate. */
  onOtherRate?: ((otherRate: number) => void) | undefined;
}

/**
 * The limiter for `rate`, or undefined with no rate. With `redis`, connects first (at most
 * REDIS_SETUP_TIMEOUT_MS) and throws LimiterSetupError if it cannot: before any call is made.
 */
export async function createLimiter(options: LimiterOptions): Promise<Limiter | undefined> {
  if (options.rate === undefined) {
    if (options.redis) throw new RangeError('a shared limiter needs a rate');
    return undefined;
  }
  const source = options.redis
    ? await createRedisSource({ ...options.redis, rate: options.rate, onOtherRate: options.onOtherRate, signal: options.signal })
    : undefined;
  return new RateLimiter({ rate: options.rate, source, onLost: options.onLost });
}
