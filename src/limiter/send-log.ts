/**
 * What the quota counts: the requests this run sent in the last second (README, "The rate";
 * docs/ARCHITECTURE.md, "Layout"). The GCRA (pace.ts) spaces the turns it grants, but a turn is
 * not a request: between the two the run commits the row's IN_FLIGHT mark, and on a busy event
 * loop (a bunch of answers being written, a garbage collection) that takes tens of ms, so turns
 * granted apart leave together. The log counts the requests where they leave, in a window of
 * the quota's second plus a margin for their way to the quota (network, the server's own
 * delays; wider for a run's first requests, START_MARGIN_MS), and the limiter grants no turn that
 * would put more than the quota into it. With it, the GCRA may catch up a long lateness without
 * overrunning the quota.
 *
 * A turn counts from when it is granted; `sent()` moves it to when its request leaves,
 * `cancel()` gives it back (nothing was sent). A turn never settled counts as sent when granted.
 * Pure: the caller passes the clock.
 */

/** The margin for a request's way to the quota: the window is the quota's second plus this (ms). */
export const JITTER_MARGIN_MS = 30;

/**
 * The margin at a run's first request (ms), shrinking by a ms every ms to JITTER_MARGIN_MS: a
 * run's first requests reach the quota later than they leave (new connections, TLS handshakes, a
 * server that has not seen them yet), so the quota's first full second sees them bunched.
 */
export const START_MARGIN_MS = 150;

/** One granted turn, as the log sees it. */
export interface LoggedTurn {
  /** When it leaves the window if never sent (its grant time plus the window). */
  readonly expiresAt: number;
  /**
   * pending: counted from its grant; expired: pending for a whole window, no longer counted (a
   * send that still comes is counted from then); done: sent or cancelled.
   */
  state: 'pending' | 'expired' | 'done';
}

export class SendLog {
  /** Most requests in any window. */
  readonly cap: number;
  /** The window (ms): the quota's second (longer below 1/s) plus JITTER_MARGIN_MS. */
  readonly windowMs: number;
  /** The quota's window without the margin (ms). */
  private readonly quotaMs: number;
  /** The first turn's time: the margin is wider just after it. */
  private firstAt: number | undefined;
  /** When each sent request leaves the window, oldest first (sends come in time order, and the margin shrinks no faster than time passes). */
  private sent: number[] = [];
  private sentHead = 0;
  /** Turns granted and not yet settled, oldest first. */
  private pending: LoggedTurn[] = [];
  private pendingHead = 0;
  private pendingCount = 0;

  /** A log for a quota of `rate` requests per second (`rate` < 1: one request per 1/rate s). */
  constructor(rate: number) {
    this.cap = Math.max(1, Math.floor(rate));
    this.quotaMs = rate >= 1 ? 1000 : 1000 / rate;
    this.windowMs = this.quotaMs + JITTER_MARGIN_MS;
  }

  /** When a request that leaves at `at` leaves the window. */
  private expiryOf(at: number): number {
    this.firstAt ??= at;
    return at + this.quotaMs + Math.max(JITTER_MARGIN_MS, START_MARGIN_MS - (at - this.firstAt));
  }

  /** How many more requests the window holds at `now`. */
  room(now: number): number {
    this.expire(now);
    return this.cap - (this.sent.length - this.sentHead) - this.pendingCount;
  }

  /** How many requests the window holds at `now` (sent, and granted not yet settled). */
  inWindow(now: number): number {
    return this.cap - this.room(now);
  }

  /** Ms from `now` until the oldest entry leaves the window (0 when the log is empty). */
  freeInMs(now: number): number {
    this.expire(now);
    const next = Math.min(this.sent[this.sentHead] ?? Number.POSITIVE_INFINITY, this.nextPending()?.expiresAt ?? Number.POSITIVE_INFINITY);
    return next === Number.POSITIVE_INFINITY ? 0 : Math.max(0, next - now);
  }

  /** A turn granted at `now`: counted from now until it is settled. */
  grant(now: number): LoggedTurn {
    const turn: LoggedTurn = { expiresAt: this.expiryOf(now), state: 'pending' };
    this.pending.push(turn);
    this.pendingCount += 1;
    return turn;
  }

  /** The turn's request leaves at `now` (times passed to sent() never go back). */
  markSent(turn: LoggedTurn, now: number): void {
    if (turn.state === 'done') return;
    // A turn that expired (its request waited a whole window to leave) is counted from now again.
    this.settle(turn, 'done');
    this.sent.push(this.expiryOf(now));
  }

  /** The turn was not used: its place in the window is free again. */
  cancel(turn: LoggedTurn): void {
    this.settle(turn, 'done');
  }

  private settle(turn: LoggedTurn, state: 'expired' | 'done'): void {
    if (turn.state === 'pending') this.pendingCount -= 1;
    turn.state = state;
  }

  private nextPending(): LoggedTurn | undefined {
    while (this.pendingHead < this.pending.length && this.pending[this.pendingHead]!.state !== 'pending') this.pendingHead += 1;
    return this.pending[this.pendingHead];
  }

  /** Drops what left the window; a turn pending for a whole window counts as sent when granted. */
  private expire(now: number): void {
    while (this.sentHead < this.sent.length && this.sent[this.sentHead]! <= now) this.sentHead += 1;
    for (let turn = this.nextPending(); turn && turn.expiresAt <= now; turn = this.nextPending()) this.settle(turn, 'expired');
    // Compact now and then: the arrays only grow at their ends.
    if (this.sentHead > 4096 && this.sentHead * 2 > this.sent.length) {
      this.sent = this.sent.slice(this.sentHead);
      this.sentHead = 0;
    }
    if (this.pendingHead > 4096 && this.pendingHead * 2 > this.pending.length) {
      this.pending = this.pending.slice(this.pendingHead);
      this.pendingHead = 0;
    }
  }
}
