/**
 * The pure arithmetic of the rate limiter (README, "The rate"; docs/ARCHITECTURE.md, "Layout"): a generic cell-rate
 * algorithm (GCRA) that hands out tokens in batches, and an AIMD controller that lowers the rate
 * on a 429 and raises it again afterwards. No timers, no I/O: the embedded limiter runs the GCRA
 * here, the Redis one runs the same formula in a Lua script (redis.ts).
 */

/**
 * Share of --rate the pace aims at. The quota itself is kept by the send log (send-log.ts): no
 * window of a second plus JITTER_MARGIN_MS (30 ms) holds more than --rate requests where they
 * leave, however the run's event loop bunches them. At 0.97 the pace stays just under what that
 * window allows in a steady stream (1000 / 1030 = 0.971), so the log only trims the bursts a
 * catch-up brings; the rest of the rate (3%) is the margin for a request's way to the quota.
 */
export const RATE_HEADROOM = 0.97;
/**
 * How far behind the clock the limiter may catch up, in ms. The queue is woken by one timer
 * (and by every caller that arrives), and on a busy event loop (a bunch of answers being
 * written, a garbage collection) it runs tens of ms late: the tokens that accrued meanwhile leave
 * together instead of being lost, as far as the send log has room for them. Idle time beyond it
 * accrues nothing, so a quiet limiter starts with at most that much. (At 10 ms, a 3,000/s run
 * lost about 3% of its quota to late wake-ups.)
 */
export const CATCH_UP_MS = 50;
/**
 * The same two for runs sharing one quota through Redis: the send log sees only this run's
 * requests, so the shared GCRA alone keeps the quota: each run's lateness (a Redis round trip,
 * its own busy event loop) can become another run's burst, so the margin is wider and the
 * catch-up short. (1000 + 10 + J) × 0.95 < 1000: J < 42.6 ms.
 */
export const SHARED_HEADROOM = 0.95;
export const SHARED_CATCH_UP_MS = 10;
/**
 * The most a shared limiter catches up when Redis is far away. Its asks go one at a time, so the
 * tokens that accrue during one round trip are caught up by the next ask or lost: with 10 ms,
 * a Redis 20 ms away delivered a third of --rate. The catch-up follows the round trip (plus the
 * poll) up to this, which leaves J < 12 ms of the margin above; a Redis farther than ~35 ms
 * delivers less than the rate.
 */
export const SHARED_MAX_CATCH_UP_MS = 40;

export interface Pace {
  /** Milliseconds between two tokens. */
  intervalMs: number;
  /** Lateness that is caught up (ms). */
  catchUpMs: number;
}

/** The pace that delivers `rate` requests per second (less the headroom); `shared` for --redis. */
export function toPace(rate: number, shared = false): Pace {
  return shared
    ? { intervalMs: 1000 / (rate * SHARED_HEADROOM), catchUpMs: SHARED_CATCH_UP_MS }
    : { intervalMs: 1000 / (rate * RATE_HEADROOM), catchUpMs: CATCH_UP_MS };
}

/**
 * The most tokens `takeTokens` can grant within any `windowMs` at `pace`, when the requests they
 * start may also be bunched by up to `bunchMs` on their way (a late send, a busy server): the
 * granted tokens' due times are `intervalMs` apart and each is at most `catchUpMs` old when
 * granted, so they span at least (count − 1) × interval ≤ window + catch-up + bunching.
 */
export function maxInWindow(pace: Pace, windowMs = 1000, bunchMs = 0): number {
  return Math.floor((windowMs + pace.catchUpMs + bunchMs) / pace.intervalMs + 1e-9) + 1;
}

/**
 * A 429's Retry-After pauses every caller until then; longer than this is taken as this (the
 * retry policy gives up on a call told to wait longer, src/api/retry.ts).
 */
export const MAX_PAUSE_MS = 60_000;
/** 429s this close together are one burst (one crowded second of the quota gives many): one cut, one decision. */
export const BURST_MS = 250;
/** A new burst of 429s this soon after the last one: the cut did not suffice (the quota is lower than --rate, or shared). */
export const PERSISTENT_WITHIN_MS = 2000;
/** A Retry-After longer than the quota's one-second window: the service asks for a break. */
export const LONG_RETRY_AFTER_MS = 1000;

/** The cut of the rate on a 429 (AIMD's multiplicative decrease). */
export const RATE_CUT = 0.9;

/**
 * 429s in the last second at or below this share of the requests sent in it are the quota's edge:
 * arrivals bunched on their way (a garbage collection or a checkpoint here, a pause at the server)
 * or a quota a little below --rate, and one cut of the rate absorbs them — a quota q × R refuses
 * (0.97 − q) / 0.97 of a run paced at 0.97 × R, and one cut (× RATE_CUT) brings the pace under any
 * quota that refuses at most 1 − RATE_CUT of it. Only a larger share shows a quota one cut cannot
 * reach, worth stopping everyone for. Measured (bench:rate, 1,500/s, 1 s answers, the server on
 * the same two cores): bunched arrivals refused 1–7% of a second's requests, and pausing everyone
 * at every second such burst threw away a second of quota each time, a fifth of the rate over 20 s.
 */
export const QUOTA_EDGE_SHARE = 1 - RATE_CUT;

/**
 * Whether a burst of 429s stops every caller until its Retry-After, or only cuts the rate.
 * A lone burst at the quota's edge (timing jitter at a rate close to the quota) only cuts it: the
 * quota's window refills by itself, the calls that got the 429 wait their Retry-After in their
 * retry, and pausing everyone would throw away a whole second of quota. Bursts that come back
 * within PERSISTENT_WITHIN_MS with more than QUOTA_EDGE_SHARE of the last second's requests
 * refused, or a Retry-After longer than the window, stop everyone until then, so a quota below
 * --rate is not hammered while AIMD converges on it. `recent429s` and `recentSends`: the 429s and
 * the requests sent within the last second (the defaults judge by recurrence alone).
 */
export function pausesEveryone(retryAfterMs: number | undefined, sinceLastBurstMs: number, recent429s = 1, recentSends = 0): boolean {
  if (retryAfterMs === undefined || !(retryAfterMs > 0)) return false;
  if (retryAfterMs > LONG_RETRY_AFTER_MS) return true;
  return sinceLastBurstMs <= PERSISTENT_WITHIN_MS && !atQuotaEdge(recent429s, recentSends);
}

/** Whether the last second's 429s are the quota's edge: at most QUOTA_EDGE_SHARE of the requests sent in it. */
export function atQuotaEdge(recent429s: number, recentSends: number): boolean {
  return recent429s <= QUOTA_EDGE_SHARE * recentSends;
}

export interface Take {
  /** Tokens granted now (0..want). */
  granted: number;
  /** The new theoretical arrival time to keep. */
  tat: number;
  /** When nothing was granted: ms until one token is due. */
  waitMs: number;
}

/**
 * GCRA: `tat` is when the next token is due. Tokens due up to `catchUpMs` ago are still granted
 * (a late wake-up loses nothing); older ones are forgotten. Times in ms, any origin.
 */
export function takeTokens(tat: number, now: number, want: number, pace: Pace): Take {
  const start = Math.max(tat, now - pace.catchUpMs);
  if (start > now) return { granted: 0, tat: start, waitMs: start - now };
  const due = Math.floor((now - start) / pace.intervalMs + 1e-9) + 1;
  const granted = Math.max(0, Math.min(want, due));
  return { granted, tat: start + granted * pace.intervalMs, waitMs: granted > 0 ? 0 : start - now };
}

export interface AimdOptions {
  /** The rate asked for (requests per second): never exceeded. */
  target: number;
  /** Factor applied on a quota violation. Default 0.9 (a lone 429 from jitter costs little; a low quota is still reached, 0.9 per hold). */
  decrease?: number;
  /**
   * Growth per second after a cut, as a share of the rate the cut left (additive from there, so
   * a quota far below `target` is approached in steps of its own size). Default 0.15 (from 0.9×
   * back to the target in 0.75 s).
   */
  recoverPerSecond?: number;
  /** Violations closer together than this cut once (one crowded second gives many 429s). Default 250 ms. */
  holdMs?: number;
  /** Lowest rate, as a share of `target`. Default 0.01 (at least 0.1/s). */
  floorShare?: number;
  /**
   * Start below the target, as if cut at `startAt`: the first requests of a run are the slowest
   * to arrive (connections are being opened), so a full-rate first second would put one request
   * too many into the quota's first window. Default 1 (no slow start).
   */
  startShare?: number;
  startAt?: number;
}

/**
 * Growth above a quota the run has found below --rate (Aimd's ceiling), as a share of it: t
 * seconds past it, PROBE_PER_SECOND × (t + t² / 2) — 3% after a second, 35% after five. The quota
 * of a plan is fixed: probing past it at the 15% a second that wins back a cut made by jitter met
 * it again within a second, and each time a crowded second of 429s followed (a 10/s quota with
 * --rate 12: 17% of requests refused and half the quota delivered). Growing slowly at first, the
 * rate stays under the quota for seconds and passes it by a request or so; growing faster later,
 * it finds a quota the measure put too low (a measure over a short stretch is rough).
 */
export const PROBE_PER_SECOND = 0.02;

/** Additive-increase, multiplicative-decrease of the rate. Pure: the caller passes the clock. */
export class Aimd {
  readonly target: number;
  private readonly decrease: number;
  private readonly recoverShare: number;
  private readonly holdMs: number;
  private readonly floor: number;
  /** The rate right after the last cut, and when it was cut. */
  private cutRate: number;
  private cutAt = Number.NEGATIVE_INFINITY;
  private violatedAt = Number.NEGATIVE_INFINITY;
  /**
   * The quota below --rate the 429s showed, once they did (a measured cut, then each later
   * violation's rate): the rate recovers fast up to it and probes past it at PROBE_PER_SECOND.
   */
  private ceiling: number | undefined;
  private measuredAt = Number.NEGATIVE_INFINITY;

  constructor(options: AimdOptions) {
    this.target = options.target;
    this.decrease = options.decrease ?? RATE_CUT;
    this.recoverShare = (options.recoverPerSecond ?? 0.15) / 1000;
    this.holdMs = options.holdMs ?? BURST_MS;
    this.floor = Math.max(0.1, options.target * (options.floorShare ?? 0.01));
    this.cutRate = options.target;
    const startShare = options.startShare ?? 1;
    if (startShare < 1 && options.startAt !== undefined) {
      this.cutRate = options.target * startShare;
      this.cutAt = options.startAt;
    }
  }

  /** The rate to use at `now`. */
  rate(now: number): number {
    if (this.cutAt === Number.NEGATIVE_INFINITY) return this.target;
    const elapsed = Math.max(0, now - this.cutAt);
    const recovered = this.cutRate * (1 + elapsed * this.recoverShare);
    const ceiling = this.ceiling;
    if (ceiling === undefined || recovered <= ceiling) return Math.min(this.target, recovered);
    // Past the quota found: from when the recovery reached it, slowly at first.
    const reachedAfter = Math.max(0, (ceiling / this.cutRate - 1) / this.recoverShare);
    const past = (elapsed - reachedAfter) / 1000;
    return Math.min(this.target, ceiling * (1 + PROBE_PER_SECOND * (past + (past * past) / 2)));
  }

  /**
   * A 429: cut the rate (once per hold period; `holdMs` for this one instead of the default).
   * With `resumeAt` (a Retry-After pause), the recovery starts when dispatch resumes, not during
   * the pause. `accepted`: the rate the quota let through over its last window, when the 429s
   * showed a quota below the rate (more than one cut can absorb): the cut goes straight under it
   * instead of a tenth at a time (a 50/s quota under --rate 100 took 20 cuts and a pause each, and
   * delivered 21/s). Returns whether it was cut.
   */
  onViolation(now: number, resumeAt = now, holdMs = this.holdMs, accepted?: number): boolean {
    const rate = this.rate(now);
    // A measure below the rate cuts even within the hold of a cut at the edge (the burst's first
    // 429s looked like the edge), once per burst.
    const measured = accepted !== undefined && accepted * RATE_HEADROOM < rate * this.decrease && now - this.measuredAt >= this.holdMs;
    if (!measured && now - this.violatedAt < holdMs) return false;
    let cut = rate * this.decrease;
    if (measured) {
      this.ceiling = Math.max(this.floor, accepted);
      this.measuredAt = now;
      cut = accepted * RATE_HEADROOM;
    } else if (this.ceiling !== undefined) {
      // Met again: the quota is below the rate this violation came at.
      this.ceiling = Math.max(this.floor, Math.min(rate, Math.max(this.ceiling, cut)));
    }
    this.cutRate = Math.max(this.floor, cut);
    this.cutAt = Math.max(now, resumeAt);
    this.violatedAt = now;
    return true;
  }
}
