/**
 * The rate limiter of a bulk run (README, "The rate"; docs/ARCHITECTURE.md, "Layout"): one gate that every request
 * passes, first attempts and retries alike. Callers wait in one queue; tokens are taken from a
 * source in batches (the embedded GCRA, or a Redis shared by every run of one credential) and
 * the whole queue is woken by one timer, so the rate is exact from 0.1/s to thousands per second
 * instead of being capped by one timer per request.
 */
import { AppError, EXIT_CODES, type ExitCode } from '../errors.js';
import { Aimd, BURST_MS, MAX_PAUSE_MS, RATE_CUT, SHARED_MAX_CATCH_UP_MS, atQuotaEdge, pausesEveryone, takeTokens, toPace, type Pace } from './pace.js';
import { SendLog, type LoggedTurn } from './send-log.js';

/**
 * A request's turn. It counts against the quota from when it is granted; say when the request
 * actually leaves (`sent`), or that it will not (`cancel`), so that the limiter counts what the
 * quota counts (send-log.ts). A turn left unsettled counts as sent when it was granted.
 */
export interface Turn {
  sent(): void;
  cancel(): void;
}

/** A gate every request passes. */
export interface Limiter {
  /**
   * Resolves with a turn when one request may leave. Rejects with the signal's reason when it is
   * aborted, with LimiterLostError when the shared store is gone, with LimiterClosedError after close().
   */
  acquire(signal?: AbortSignal): Promise<Turn>;
  /**
   * A 429 (quota violation): every caller slows down, then speeds up again (AIMD). With its
   * Retry-After (ms), when the 429s persist or the wait is long, nobody is let through until
   * then (at most MAX_PAUSE_MS; pace.ts, pausesEveryone).
   */
  penalize(retryAfterMs?: number): void;
  /** An answer that was no 429: the quota let its request through (what a cut below the rate is measured by). */
  passed(): void;
  /**
   * The run's last requests are being sent: from now on the pace keeps a wider margin
   * (FINISH_SHARE of the usual pace; not with a shared quota, whose pace every run shares). A 429
   * mid-run costs one slot of the quota, its retry leaving
   * while other requests go; one among the last requests costs a whole Retry-After at the end of
   * the run, with nothing left to send meanwhile.
   */
  finishing(): void;
  /** The rate in use now (requests per second). */
  currentRate(): number;
  /** Rejects whatever waits and lets go of the store; idempotent, bounded in time. */
  close(): Promise<void>;
}

/** Where tokens come from. */
export interface TokenSource {
  /** Takes up to `want` tokens at `pace`; when none, says in how many ms one is due. */
  take(want: number, pace: Pace): Promise<{ granted: number; waitMs: number }> | { granted: number; waitMs: number };
  /** Says what the source is, for messages (credentials masked). */
  readonly describe: string;
  /** Shared by several runs (--redis): the pace keeps a wider margin (pace.ts, SHARED_HEADROOM). */
  readonly shared?: boolean;
  close(): Promise<void>;
}

/** A turn asked of a limiter that was closed. Exit 1. */
export class LimiterClosedError extends AppError {
  override readonly name = 'LimiterClosedError';
  readonly kind = 'rate-limiter';
}

/** The shared store stopped answering mid-run: the run must stop (its rows stay resumable). Exit 1. */
export class LimiterLostError extends AppError {
  override readonly name = 'LimiterLostError';
  readonly kind = 'rate-limiter';
}

/** The limiter could not be set up (a malformed or unreachable --redis URL): fix the invocation. Exit 2. */
export class LimiterSetupError extends AppError {
  override readonly name = 'LimiterSetupError';
  readonly kind = 'usage';
  override get exitCode(): ExitCode {
    return EXIT_CODES.usage;
  }
}

export interface RateLimiterOptions {
  /** Requests per second asked for (--rate). */
  rate: number;
  source?: TokenSource | undefined;
  /** Clock in ms. Default performance.now. */
  now?: (() => number) | undefined;
  /** How long a failing source may fail before the limiter gives up. Default 3000 ms. */
  lostAfterMs?: number | undefined;
  /** Fewest ms between two asks of an asynchronous source while callers wait. Default 5 ms. */
  pollMs?: number | undefined;
  /** Called once when the source is lost. */
  onLost?: ((error: LimiterLostError) => void) | undefined;
}

interface Waiter {
  resolve: (turn: Turn) => void;
  reject: (error: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
}

/** The embedded source: GCRA in this process. */
export function createLocalSource(now: () => number = () => performance.now()): TokenSource {
  // A new limiter starts with one token, not a catch-up's worth: the first requests of a run
  // are the slowest to reach the quota (connections are being opened).
  let tat: number | undefined;
  return {
    describe: 'embedded',
    take(want, pace) {
      const at = now();
      tat ??= at;
      const t = takeTokens(tat, at, want, pace);
      tat = t.tat;
      return { granted: t.granted, waitMs: t.waitMs };
    },
    close: () => Promise.resolve(),
  };
}

/** A run starts at this share of its rate and reaches the rate within a second (see AimdOptions.startShare). */
export const SLOW_START_SHARE = 0.9;

/**
 * The share of the rate the run's last requests are paced at (Limiter.finishing): the margin of
 * one cut of the rate (RATE_CUT), enough for a bunch of ~70 ms of arrivals at the quota instead of
 * ~30, at the cost of a tenth of the last second.
 */
export const FINISH_SHARE = RATE_CUT;

/** The least time a quota is measured over (acceptedRate): a shorter stretch is one burst of it. */
const MIN_MEASURE_MS = 500;

export class RateLimiter implements Limiter {
  private readonly source: TokenSource;
  private readonly now: () => number;
  private readonly aimd: Aimd;
  private readonly lostAfterMs: number;
  private readonly pollMs: number;
  private readonly onLost: ((error: LimiterLostError) => void) | undefined;
  private readonly waiters: Waiter[] = [];
  /** The requests sent in the quota's last second (and the turns granted for them). */
  private readonly log: SendLog;
  private timer: NodeJS.Timeout | undefined;
  /** An asynchronous take is under way. */
  private taking = false;
  private failingSince: number | undefined;
  private lastError: unknown;
  private failure: Error | undefined;
  private closing: Promise<void> | undefined;
  /** A 429's Retry-After: nobody is let through before this time. */
  private pausedUntil = Number.NEGATIVE_INFINITY;
  /** When the last burst of 429s began, and whether it stops everyone (pausesEveryone). */
  private burstAt = Number.NEGATIVE_INFINITY;
  private sinceLastBurst = Number.POSITIVE_INFINITY;
  private burstPauses = false;
  /** When each 429 of the last second came (pausesEveryone weighs them against the requests sent). */
  private readonly recent429s: number[] = [];
  /** When each answer the quota let through came, over its last window from `passesHead` on (passed()). */
  private readonly recentPasses: number[] = [];
  private passesHead = 0;
  private readonly startedAt: number;
  /** The source answers with a promise (Redis): asked by the timer only, not by every caller. */
  private asynchronous = false;
  /** The round trip of an asynchronous source's ask (ms, smoothed): its pace catches up that much. */
  private askMs = 0;
  /** The run's last requests (finishing()): paced at FINISH_SHARE of the rate. */
  private finishShare = 1;

  constructor(options: RateLimiterOptions) {
    if (!(options.rate > 0 && Number.isFinite(options.rate))) throw new RangeError(`rate must be a finite number > 0, got ${options.rate}`);
    this.source = options.source ?? createLocalSource(options.now);
    this.now = options.now ?? (() => performance.now());
    this.startedAt = this.now();
    this.aimd = new Aimd({ target: options.rate, startShare: SLOW_START_SHARE, startAt: this.startedAt });
    this.log = new SendLog(options.rate);
    this.lostAfterMs = options.lostAfterMs ?? 3000;
    this.pollMs = options.pollMs ?? 5;
    this.onLost = options.onLost;
  }

  currentRate(): number {
    return this.aimd.rate(this.now()) * this.finishShare;
  }

  finishing(): void {
    // A shared quota (--redis) is paced for every run at once: this run's end is not theirs.
    if (this.source.shared === true) return;
    this.finishShare = FINISH_SHARE;
  }

  penalize(retryAfterMs?: number): void {
    // The rate is cut (once per burst, or per quota window at the quota's edge) and recovers from
    // when sending resumes. Whether everyone also waits for the Retry-After is decided for the
    // burst (pace.ts, pausesEveryone), weighing the last second's 429s against its requests; the
    // calls that got the 429 wait it in their retry anyway.
    const now = this.now();
    while (this.recent429s.length > 0 && this.recent429s[0]! <= now - 1000) this.recent429s.shift();
    this.recent429s.push(now);
    const accepted = this.acceptedRate(now);
    if (now - this.burstAt >= BURST_MS) {
      this.sinceLastBurst = now - this.burstAt;
      this.burstAt = now;
      this.burstPauses = false;
    }
    // Judged again with each 429 of the burst: it pauses once its share shows a lower quota.
    const sends = this.log.inWindow(now);
    this.burstPauses ||= pausesEveryone(retryAfterMs, this.sinceLastBurst, this.recent429s.length, sends);
    if (this.burstPauses && retryAfterMs !== undefined && retryAfterMs > 0) {
      this.pausedUntil = Math.max(this.pausedUntil, now + Math.min(retryAfterMs, MAX_PAUSE_MS));
    }
    // At the quota's edge one cut per quota window: a cut shows only once the window has slid
    // past the requests sent before it, and cutting again meanwhile (a 1,500/s run saw four cuts
    // in one crowded second) only throws quota away. A larger share cuts at each burst.
    const edge = atQuotaEdge(this.recent429s.length, sends);
    // Beyond the edge the quota is below the rate: what it let through says where.
    this.aimd.onViolation(now, this.pausedUntil, edge ? this.log.windowMs : undefined, edge ? undefined : accepted);
  }

  passed(): void {
    const now = this.now();
    this.forgetPasses(now);
    this.recentPasses.push(now);
  }

  private forgetPasses(now: number): void {
    const since = now - this.log.windowMs;
    while (this.passesHead < this.recentPasses.length && this.recentPasses[this.passesHead]! <= since) this.passesHead += 1;
    // Dropped from the front now and then, not at every answer (a window holds thousands at 3,000/s).
    if (this.passesHead > 1024 && this.passesHead * 2 > this.recentPasses.length) {
      this.recentPasses.splice(0, this.passesHead);
      this.passesHead = 0;
    }
  }

  /**
   * What the quota let through over its last window, per second: a measure of a quota below the
   * rate, taken over the part of the window the run was sending (not paused: a pause lets less
   * through than the quota allows), at least MIN_MEASURE_MS. Undefined otherwise, and for a shared
   * quota, whose window also holds the other runs' requests.
   */
  private acceptedRate(now: number): number | undefined {
    if (this.source.shared === true || this.pausedUntil > now) return undefined;
    // Over the window, or the part of it since the run started or its last pause ended.
    const since = Math.max(now - this.log.windowMs, this.startedAt, this.pausedUntil);
    if (now - since < MIN_MEASURE_MS) return undefined;
    this.forgetPasses(now);
    let passes = 0;
    for (let i = this.recentPasses.length - 1; i >= this.passesHead && this.recentPasses[i]! > since; i -= 1) passes += 1;
    // No answer back yet is no measure: answers take their time, a 429 none (answers of a second
    // with no Retry-After to pause on: 0/s measured 500 ms in, and the rate cut to its floor).
    if (passes === 0) return undefined;
    return (passes * 1000) / (now - since);
  }

  acquire(signal?: AbortSignal): Promise<Turn> {
    if (this.failure) return Promise.reject(this.failure);
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<Turn>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, signal, onAbort: undefined };
      if (signal) {
        waiter.onAbort = () => {
          const at = this.waiters.indexOf(waiter);
          if (at >= 0) this.waiters.splice(at, 1);
          reject(signal.reason);
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      this.waiters.push(waiter);
      // An embedded source is asked at once even while the timer waits: on a busy event loop a
      // caller often arrives before the late timer fires, and a token due now leaves now.
      if (!this.taking && (!this.timer || !this.asynchronous)) this.release();
    });
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      this.fail(new LimiterClosedError('the rate limiter is closed'));
      await this.source.close();
    })();
    return this.closing;
  }

  private pace(): Pace {
    const pace = toPace(this.currentRate(), this.source.shared === true);
    if (!this.asynchronous) return pace;
    // One ask at a time: what accrues during a round trip must be caught up by the next ask.
    return { ...pace, catchUpMs: Math.max(pace.catchUpMs, Math.min(SHARED_MAX_CATCH_UP_MS, this.askMs + this.pollMs)) };
  }

  /** Hands out what the source grants, then sets one timer for the rest of the queue. */
  private release(): void {
    if (this.failure || this.waiters.length === 0) return;
    const now = this.now();
    const pausedMs = this.pausedUntil - now;
    if (pausedMs > 0) {
      this.rearm(Math.ceil(pausedMs));
      return;
    }
    // The quota's window is full of requests already sent: wait until the oldest leaves it.
    const room = this.log.room(now);
    if (room <= 0) {
      this.arm(Math.max(1, Math.ceil(this.log.freeInMs(now))));
      return;
    }
    let answer;
    const askedAt = now;
    try {
      answer = this.source.take(Math.min(this.waiters.length, room), this.pace());
    } catch (error) {
      this.onSourceError(error);
      return;
    }
    if (answer instanceof Promise) {
      this.asynchronous = true;
      this.taking = true;
      answer.then(
        (a) => {
          this.taking = false;
          this.askMs += (this.now() - askedAt - this.askMs) / 4;
          this.onGrant(a.granted, a.waitMs, this.pollMs);
        },
        (error: unknown) => {
          this.taking = false;
          this.onSourceError(error);
        },
      );
      return;
    }
    this.onGrant(answer.granted, answer.waitMs, 1);
  }

  private onGrant(granted: number, waitMs: number, minWaitMs: number): void {
    if (this.failure) return;
    this.failingSince = undefined;
    const now = this.now();
    for (let i = 0; i < granted && this.waiters.length > 0; i += 1) {
      const waiter = this.waiters.shift()!;
      if (waiter.onAbort) waiter.signal?.removeEventListener('abort', waiter.onAbort);
      waiter.resolve(this.turn(this.log.grant(now)));
    }
    if (this.waiters.length === 0) return;
    // Tokens were granted and callers still wait: they arrived meanwhile, or the grant was cut at
    // what was due; either way the next ones are due after one more interval at most.
    const delay = Math.max(minWaitMs, granted > 0 ? minWaitMs : Math.ceil(waitMs));
    this.arm(delay);
  }

  private turn(logged: LoggedTurn): Turn {
    return {
      sent: () => this.log.markSent(logged, this.now()),
      cancel: () => {
        this.log.cancel(logged);
        // Its place in the window is free again: a caller waiting for one may have it now.
        if (!this.taking && !this.asynchronous) this.release();
      },
    };
  }

  private arm(delayMs: number): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.release();
    }, delayMs);
  }

  /** Sets the timer to `delayMs` from now, replacing a shorter one (a pause began). */
  private rearm(delayMs: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.arm(delayMs);
  }

  private onSourceError(error: unknown): void {
    if (this.failure) return;
    const t = this.now();
    this.failingSince ??= t;
    this.lastError = error;
    if (t - this.failingSince >= this.lostAfterMs) {
      const why = this.lastError instanceof Error ? this.lastError.message : String(this.lastError);
      const lost = new LimiterLostError(`the shared rate limit (${this.source.describe}) stopped answering for ${Math.round((t - this.failingSince) / 1000)} s (${why})`, { cause: error });
      this.fail(lost);
      this.onLost?.(lost);
      return;
    }
    // A blip (a Redis restart, a failover): ask again shortly, callers keep waiting.
    this.arm(Math.min(250, this.lostAfterMs));
  }

  private fail(error: Error): void {
    this.failure ??= error;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    for (const waiter of this.waiters.splice(0)) {
      if (waiter.onAbort) waiter.signal?.removeEventListener('abort', waiter.onAbort);
      waiter.reject(this.failure);
    }
  }
}
