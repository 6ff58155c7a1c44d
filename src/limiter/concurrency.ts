/**
 * How many requests a run with `--rate R` keeps in flight (README, "The rate"; docs/ARCHITECTURE.md,
 * "Layout"): Little's law. A run that sends R requests a second, each holding its place for L
 * seconds (its turn granted → its answer handled), has R × L of them in flight on average; with
 * fewer places than that the rate falls short of R whatever the limiter does (a 1 s answer time
 * and 8 places deliver at most 8/s). The target is R × the mean of the last answers' times ×
 * HEADROOM + SPARE, within [1, cap]; the places beyond the need wait for their turn in the limiter,
 * which is what keeps the rate exact. Pure: the caller feeds the answer times and applies the target.
 */

/**
 * The default cap with --rate (a given `--concurrency` is the cap): a 1,500/s quota at 1 s answers
 * needs 1,500 × 1 × 1.25 + 16 = 1,891 in flight; 2,048 covers it, and 1,000/s at up to 1.6 s.
 * Each place is one request and one keep-alive connection at most (the HTTP client's pool opens
 * connections only as requests need them), well within a process's descriptors on Linux and macOS.
 */
export const DEFAULT_RATE_CONCURRENCY_CAP = 2048;
/** Share above R × the mean answer time: bursts of slow answers, the bunching of a busy event loop. */
export const CONCURRENCY_HEADROOM = 1.25;
/** Places added whatever the latency: at a few requests per second, the variance of a handful of answers. */
export const CONCURRENCY_SPARE = 16;
/** Answer times the mean is taken over: recent enough to follow a slowing API within seconds at 100/s. */
export const LATENCY_WINDOW = 256;
/** Before any answer, the answer time assumed: a real API's penny-less answer (hundreds of ms to a second). */
export const ASSUMED_LATENCY_MS = 1000;
/** Answers seen before the target may say the cap limits the rate (one slow first answer is no evidence). */
export const CAP_EVIDENCE_ANSWERS = 32;

export interface ConcurrencyTargetOptions {
  /** Requests per second (--rate). */
  rate: number;
  /** The most in flight (--concurrency, or DEFAULT_RATE_CONCURRENCY_CAP). */
  cap: number;
  window?: number | undefined;
  headroom?: number | undefined;
  spare?: number | undefined;
  assumedLatencyMs?: number | undefined;
}

/** Requests in flight for a rate, from the answer times observed. */
export class ConcurrencyTarget {
  readonly rate: number;
  readonly cap: number;
  private readonly headroom: number;
  private readonly spare: number;
  private readonly assumedMs: number;
  /** The last `window` answer times (ms), a ring; their sum. */
  private readonly times: Float64Array;
  private next = 0;
  private count = 0;
  private sum = 0;
  /** Answers observed in all. */
  private seen = 0;

  constructor(options: ConcurrencyTargetOptions) {
    if (!(options.rate > 0 && Number.isFinite(options.rate))) throw new RangeError(`rate must be a finite number > 0, got ${options.rate}`);
    if (!(Number.isInteger(options.cap) && options.cap >= 1)) throw new RangeError(`cap must be a whole number ≥ 1, got ${options.cap}`);
    this.rate = options.rate;
    this.cap = options.cap;
    this.headroom = options.headroom ?? CONCURRENCY_HEADROOM;
    this.spare = options.spare ?? CONCURRENCY_SPARE;
    this.assumedMs = options.assumedLatencyMs ?? ASSUMED_LATENCY_MS;
    this.times = new Float64Array(options.window ?? LATENCY_WINDOW);
  }

  /** One answer's time (ms) from its turn to its answer handled; a negative or non-finite one is ignored. */
  observe(ms: number): void {
    if (!(ms >= 0) || !Number.isFinite(ms)) return;
    if (this.count === this.times.length) this.sum -= this.times[this.next]!;
    else this.count += 1;
    this.times[this.next] = ms;
    this.sum += ms;
    this.next = (this.next + 1) % this.times.length;
    this.seen += 1;
  }

  /** The mean answer time of the window (ms); the assumed one before any answer. */
  latencyMs(): number {
    return this.count === 0 ? this.assumedMs : Math.max(0, this.sum / this.count);
  }

  /** In flight needed for the rate at the observed answer time, uncapped. */
  needed(): number {
    return Math.ceil((this.rate * this.latencyMs() * this.headroom) / 1000 + this.spare);
  }

  /** In flight to allow now: the need, within [1, cap]. */
  target(): number {
    return Math.max(1, Math.min(this.cap, this.needed()));
  }

  /** The cap, not the need, sets the target, after enough answers to say so. */
  capLimits(): boolean {
    return this.seen >= CAP_EVIDENCE_ANSWERS && this.needed() > this.cap;
  }
}
