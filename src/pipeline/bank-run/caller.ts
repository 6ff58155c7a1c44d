/**
 * Stage 3 of the bank run (docs/ARCHITECTURE.md, "The bank run"): a payee's calls. Each payee
 * that needs the API gets a concurrency slot, then, for each request, its turn in the rate limiter
 * (src/limiter: one gate for first attempts and retries alike); its claim (IN_FLIGHT, checked
 * against the run lock and, for a penny-drop, the deposit history) is committed before the
 * request leaves; the ledger turns the answer, or the failure, into the payee's outcome. The
 * budget (budget.ts) and the circuit breaker (breaker.ts) are parts of their own.
 */
import pLimit, { type LimitFunction } from 'p-limit';
import type { CallResult, Client } from '../../api/client.js';
import { isVasError, type VasError } from '../../api/errors.js';
import type { BankResult } from '../../api/schemas.js';
import { ConcurrencyTarget, createLimiter as createRateLimiter, LATENCY_WINDOW, LimiterLostError, type Limiter, type Turn } from '../../limiter/index.js';
import { describeHolder } from '../../state/run-lock.js';
import type { Claim, VerifyMode } from '../../state/types.js';
import { maskAccount, maskDigits } from '../checks.js';
import { describeSpan, nextIstMidnight } from '../time.js';
import type { ApiClock } from './api-clock.js';
import { Breaker, DEFAULT_BREAKER_THRESHOLD } from './breaker.js';
import { Budget, type BudgetStop } from './budget.js';
import { failureAction } from './failure.js';
import type { PayeeLedger } from './ledger.js';
import type { LivePayees } from './payees.js';
import { SignalEvent, type StopControl } from './stop.js';
import type { BankRunOptions, BankRunSummary, Logger, PayeeTask } from './types.js';

export { Breaker, DEFAULT_BREAKER_THRESHOLD, FAIL_FAST_THRESHOLD } from './breaker.js';

export interface CallerContext {
  options: BankRunOptions;
  client: Client | undefined;
  ledger: PayeeLedger;
  /** Run stats: retries and failed calls, for the report (src/state/run-stats.ts). */
  stats: { noteRetry(error: VasError): void; noteFailure(error: VasError): void };
  payees: LivePayees;
  summary: BankRunSummary;
  stop: StopControl;
  limiter: Limiter | undefined;
  now: () => number;
  /** This machine's clock against the API's (api-clock.ts): read from every answer. */
  clock: ApiClock;
  log: Logger;
  /** Called whenever a payee's calls end (answered or not): the writer may have rows to write. */
  onSettled: () => void;
}

/** The turn of a run without --rate: nothing to count. */
const NO_LIMIT: Turn = { sent() {}, cancel() {} };

/** Why a claim that is not `claimed` stops the run: the state says another process works on it. */
function lostLockMessage(claim: Claim): string {
  const holder = claim.kind === 'lock-lost' && claim.holder ? describeHolder(claim.holder) : 'another vas-verify run';
  return `this run lost the state file's lock to ${holder}: it stopped sending at once`;
}

/** Payees queued for a concurrency place before the reader waits (Caller.waitForQueueRoom). */
export const QUEUED_PAYEES = 256;

/**
 * With --rate, once the input is read and no more than this many seconds of requests are left
 * to send, the limiter paces the rest with a wider margin (Limiter.finishing): a 429 among the
 * last requests waits a whole Retry-After (a second or more) after everything else.
 */
export const FINISH_SECONDS = 1;

export class Caller {
  private readonly context: CallerContext;
  private readonly options: BankRunOptions;
  private readonly ledger: PayeeLedger;
  private readonly limit: LimitFunction;
  private readonly breaker: Breaker;
  private readonly budget: Budget;
  private readonly idle = new SignalEvent();
  private readonly spaceRetry: (() => Promise<void>) | undefined;
  private readonly noteRetry: (event: { error: VasError }) => void;
  /** Payees dispatched whose calls have not ended. */
  private outstanding = 0;
  /** Fired as payees leave the queue for a concurrency place (waitForQueueRoom). */
  private readonly queueRoom = new SignalEvent();
  /** With --rate: the requests in flight follow R × the observed answer time, up to --concurrency. */
  private readonly follow: ConcurrencyTarget | undefined;
  private saidCapped = false;
  /**
   * Answers observed since the last 429: the answer times include the 429s' Retry-After waits, so
   * while the window holds any, a quota below --rate (not the cap) is what holds the rate back.
   */
  private answersSinceQuota = Number.POSITIVE_INFINITY;
  /** Payees with a request under way (from its turn to its answer, retries included). */
  private sending = 0;
  /** The reader has read the whole input (inputEnded). */
  private inputRead = false;
  private finishing = false;
  /** An answer has told the API's time (its Date header), or a success came without one (the API sends none). */
  private clockHeard = false;
  /** The one penny-drop allowed in flight before then (api-clock.ts). */
  private clockProbe = false;
  private readonly clockHeardEvent = new SignalEvent();
  private saidClock = false;

  constructor(context: CallerContext) {
    this.context = context;
    this.options = context.options;
    this.ledger = context.ledger;
    this.limit = pLimit(Math.max(1, context.options.concurrency));
    context.stop.whenStopped(() => {
      this.queueRoom.fire();
      this.clockHeardEvent.fire();
    });
    const { rate } = context.options;
    if (context.limiter && rate !== undefined) {
      this.follow = new ConcurrencyTarget({ rate, cap: Math.max(1, context.options.concurrency) });
      this.limit.concurrency = this.follow.target();
    }
    this.breaker = new Breaker(context.options.breakerThreshold ?? DEFAULT_BREAKER_THRESHOLD);
    this.budget = new Budget(context.options, context.summary);
    const { limiter } = context;
    // A retry spends the same quota as a first attempt: it waits its turn too (a refusal cancels
    // it), and leaves as soon as it has it.
    this.spaceRetry = limiter
      ? async () => {
          const turn = await this.takeTurn();
          if (!turn) throw new Error('no turn: the run is stopping');
          turn.sent();
        }
      : undefined;
    // A 429 slows every caller down, not only the one that got it (AIMD in the limiter).
    this.noteRetry = (event: { error: VasError }) => {
      context.stats.noteRetry(event.error);
      if (limiter && event.error.code === 'rate-limit') {
        limiter.penalize(event.error.retryAfterMs);
        this.answersSinceQuota = 0;
      }
    };
  }

  /** Waits for a request's turn in the rate limiter; undefined when the run stops meanwhile (or the shared limiter is lost). */
  private async takeTurn(): Promise<Turn | undefined> {
    const { limiter, stop } = this.context;
    if (!limiter) return NO_LIMIT;
    try {
      const turn = await limiter.acquire(stop.turnAbort.signal);
      if (!stop.reason) return turn;
      turn.cancel();
      return undefined;
    } catch (error) {
      if (error instanceof LimiterLostError) stop.stop('fatal', error.message);
      else if (!stop.reason) throw error;
      return undefined;
    }
  }

  /** Queues a payee's calls: a concurrency slot, then (with --rate) its turn. */
  dispatch(task: PayeeTask): void {
    this.outstanding += 1;
    void this.limit(() => this.work(task));
  }

  /**
   * Waits while QUEUED_PAYEES payees wait for a concurrency place (or the run stops). The reader
   * reads ahead far enough to cover a slow answer or a 429's retry at the head of the file
   * (ordered-writer.ts: with --rate 1,500, 12,000 rows); those rows are answered and wait for the
   * head. Rows read merely to queue for a place would only hold memory and a claim's place in the
   * file order, so the reader stops at this many queued.
   */
  async waitForQueueRoom(): Promise<void> {
    while (this.queueFull()) await this.queueRoom.wait();
  }

  /** Whether the reader should wait (waitForQueueRoom): asked per row, without a promise when it need not. */
  queueFull(): boolean {
    return this.limit.pendingCount >= QUEUED_PAYEES && !this.context.stop.reason;
  }

  /** The reader has read the whole input: no payee will be dispatched after those queued. */
  inputEnded(): void {
    this.inputRead = true;
    this.checkFinishing();
  }

  /**
   * The limiter's last stretch (Limiter.finishing): the input is read, and the payees still to
   * send — dispatched, with no request under way or answered — fit in FINISH_SECONDS.
   */
  private checkFinishing(): void {
    const { limiter } = this.context;
    const rate = this.options.rate;
    if (this.finishing || !this.inputRead || !limiter || rate === undefined) return;
    if (this.outstanding - this.sending > rate * FINISH_SECONDS) return;
    this.finishing = true;
    limiter.finishing();
  }

  /** Resolves when no payee's calls are under way. */
  async settled(): Promise<void> {
    while (this.outstanding > 0) await this.idle.wait();
  }

  private async work(task: PayeeTask): Promise<void> {
    const { stop } = this.context;
    // It has its place: one more payee may be read and queued.
    this.queueRoom.fire();
    try {
      await this.execute(task);
    } catch (error) {
      // A bug, or the state file failing under us: stop everything and report it.
      stop.stop('fatal', error instanceof Error ? error.message : String(error));
    } finally {
      this.outstanding -= 1;
      this.context.onSettled();
      if (this.outstanding === 0) this.idle.fire();
    }
  }

  private stopForBudget(over: BudgetStop): void {
    this.context.stop.stop(over, this.budget.describe(over));
  }

  private async execute(task: PayeeTask): Promise<void> {
    const { stop, payees, client } = this.context;
    if (stop.reason) return;
    const dueAt = payees.deferredUntil(task.account);
    if (dueAt !== undefined && dueAt > this.context.now()) {
      this.ledger.defer(task, dueAt);
      return;
    }
    let mode: VerifyMode = this.options.mode === 'pd' ? 'pd' : 'pl';
    const over = this.budget.exceeded(mode);
    if (over) {
      this.stopForBudget(over);
      return;
    }
    if (!client) throw new Error('runBank: no client for a real run');
    for (;;) {
      const answer = await this.call(task, mode, client);
      if (!answer) return;
      const next = this.settle(task, mode, answer);
      if (next === undefined) return;
      mode = next;
    }
  }

  /** One call of `mode`: its turn, counted, claimed and committed, then sent. Undefined when it ended without an answer. */
  private async call(task: PayeeTask, mode: VerifyMode, client: Client): Promise<CallResult<BankResult> | undefined> {
    if (mode === 'pd' && !this.clockHeard) {
      const probe = await this.awaitClock();
      if (this.context.stop.reason) {
        // hybrid's payee is still claimed by its penny-less call.
        if (this.options.mode === 'hybrid') this.ledger.release(task);
        return undefined;
      }
      if (probe) {
        try {
          return await this.send(task, mode, client);
        } finally {
          this.clockProbe = false;
          this.clockHeardEvent.fire();
        }
      }
    }
    return this.send(task, mode, client);
  }

  /**
   * Until an answer has told the API's time, one penny-drop at a time (api-clock.ts): true when
   * this call is that one; false once the time is known (or the run stops).
   */
  private async awaitClock(): Promise<boolean> {
    while (!this.clockHeard && this.clockProbe && !this.context.stop.reason) await this.clockHeardEvent.wait();
    if (this.clockHeard || this.context.stop.reason) return false;
    this.clockProbe = true;
    return true;
  }

  /** One request of `mode`: its turn, counted, claimed and committed, then sent. Undefined when it ended without an answer. */
  private async send(task: PayeeTask, mode: VerifyMode, client: Client): Promise<CallResult<BankResult> | undefined> {
    const { stop } = this.context;
    // The one gate, taken before the payee is claimed (a queued payee is never in doubt).
    const turn = await this.takeTurn();
    if (!turn) {
      if (mode === 'pd' && this.options.mode === 'hybrid') this.ledger.release(task);
      return undefined;
    }
    // The budget is checked again after the wait for the turn: other payees' calls may have been
    // counted meanwhile. Checked and counted with no await between, so they never overshoot it.
    const over = this.budget.exceeded(mode);
    if (over) {
      turn.cancel();
      if (mode === 'pd' && this.options.mode === 'hybrid') this.ledger.release(task);
      this.stopForBudget(over);
      return undefined;
    }
    // The place is held from here to the answer: what Little's law needs (ConcurrencyTarget).
    const grantedAt = performance.now();
    this.budget.spend(mode);
    const claim = this.ledger.claim(task, mode);
    if (claim.kind !== 'claimed') {
      turn.cancel();
      this.budget.refund(mode);
      if (claim.kind === 'deposited') this.ledger.deposited(task, claim.deposit);
      else stop.stop('lock-lost', lostLockMessage(claim));
      return undefined;
    }
    // IN_FLIGHT is committed before the request is sent (DESIGN §4), whatever the mode: a
    // penny-drop's rupee, and a penny-less call's price, counted in the state before it is paid.
    try {
      await this.ledger.flush();
    } catch (error) {
      turn.cancel();
      throw error;
    }
    if (stop.reason && stop.reason !== 'max-calls' && stop.reason !== 'max-spend') {
      // Stopped while the claim was being committed: nothing was sent, so nothing is in doubt.
      // (A budget stop lets the calls already counted within the budget go.)
      turn.cancel();
      this.budget.refund(mode);
      this.ledger.release(task);
      return undefined;
    }
    // The request leaves now: the limiter counts it from here (the commit took its time).
    turn.sent();
    this.sending += 1;
    this.checkFinishing();
    try {
      const answer = await client.verifyBankAccount(
        { accountNumber: task.account, ifsc: task.ifsc, mode },
        { signal: stop.callAbort.signal, beforeRetry: this.spaceRetry, onRetry: this.noteRetry, onServerTime: this.noteServerTime },
      );
      // An answer without a Date: the API does not send one, and waiting would learn nothing.
      if (answer.serverTime === undefined) this.clockHeard = true;
      this.context.limiter?.passed();
      return answer;
    } catch (error) {
      // An answer that refused the call (an invalid account, the daily limit) got through the quota too.
      if (isVasError(error) && error.status !== undefined && error.status !== 429) this.context.limiter?.passed();
      this.fail(task, mode, error);
      return undefined;
    } finally {
      this.sending -= 1;
      if (this.follow) this.observe(performance.now() - grantedAt);
    }
  }

  /** One answer's time (turn to answer): the concurrency follows the rate (ConcurrencyTarget). */
  private observe(ms: number): void {
    const follow = this.follow!;
    follow.observe(ms);
    this.answersSinceQuota += 1;
    const target = follow.target();
    if (target !== this.limit.concurrency) this.limit.concurrency = target;
    if (!this.saidCapped && follow.capLimits() && this.answersSinceQuota > LATENCY_WINDOW) {
      this.saidCapped = true;
      const latency = Math.round(follow.latencyMs());
      this.context.log.warn(`answers take ${latency} ms on average: ${follow.cap} in flight cannot keep up with --rate ${follow.rate}; raise --concurrency to ${follow.needed()} to reach --rate ${follow.rate}`);
    }
  }

  /** Keeps an answer. Returns the next call's mode when hybrid must follow a NOT_VERIFIED with a penny-drop. */
  private settle(task: PayeeTask, mode: VerifyMode, answer: CallResult<BankResult>): VerifyMode | undefined {
    const { stop, summary } = this.context;
    this.breaker.succeeded();
    const hybrid = this.options.mode === 'hybrid' && mode === 'pl';
    if (hybrid && answer.result.verificationStatus === 'NOT_VERIFIED') {
      this.ledger.intermediate(task, answer);
      const over = this.budget.exceeded('pd');
      if (stop.reason || over) {
        this.ledger.release(task);
        if (over) this.stopForBudget(over);
        return undefined;
      }
      return 'pd';
    }
    if (hybrid) summary.avoided.hybrid += 1;
    this.ledger.answered(task, mode, answer);
    return undefined;
  }

  /**
   * Reads the API's time from an answer, an error's included (api-clock.ts), as it arrives, before
   * the answer is kept or the call retried. Clocks a day or more apart stop a run that
   * sends penny-drops before its next one: the deposit memory is counted in this machine's time.
   * A penny-less run is told once.
   */
  private readonly noteServerTime = (serverTime: number): void => {
    const { clock, stop, log } = this.context;
    clock.observe(serverTime);
    this.clockHeard = true;
    const problem = clock.problem();
    if (!problem) return;
    if (this.options.mode !== 'pl') {
      stop.stop('fatal', `${problem}: penny-drops are remembered by their date, and a wrong date sends a payee a second one. Set the clock right (NTP: timedatectl set-ntp true), then run again with --resume`);
    } else if (!this.saidClock) {
      this.saidClock = true;
      log.warn(`${problem}: verified_at and the --max-age of answers are counted in this machine's time; set the clock right (NTP: timedatectl set-ntp true)`);
    }
  };

  /** What a failed call comes to (failure.ts decides; the ledger records it). */
  private fail(task: PayeeTask, mode: VerifyMode, caught: unknown): void {
    if (!isVasError(caught)) throw caught;
    const error = caught;
    const { stop } = this.context;
    this.context.stats.noteFailure(error); // run stats: a 429, 5xx or timeout that ended the call
    const requestId = error.requestId ?? null;
    switch (failureAction(error, mode)) {
      case 'defer':
        return this.deferForDailyLimit(task, requestId);
      case 'refuse':
        this.breaker.answered();
        return this.ledger.refused(task, mode, error);
      case 'unconfirm':
        return this.unconfirm(task, error);
      case 'release':
        return this.ledger.release(task);
      case 'stop-auth':
        this.ledger.release(task);
        return stop.stop('auth', error.describe());
      case 'stop-tls':
        // The handshake failed: the request never left, so it is neither a call nor spend.
        this.budget.refund(mode);
        this.ledger.release(task);
        return stop.stop('tls', error.describe());
      case 'stop-wait': {
        this.ledger.release(task);
        const why = error.code === 'rate-limit' ? "the API's quota refuses calls" : 'the API is not available';
        const meaning = error.code === 'rate-limit' ? "the credential's quota looks used up for now" : 'it is down for a while';
        return stop.stop('breaker', `${why} and asks to wait ${describeSpan(error.retryAfterMs!)} (${maskDigits(error.describe())}, Retry-After longer than a run waits): ${meaning}; the rows not answered stay pending`);
      }
      case 'service': {
        const down = this.breaker.failed(error);
        if (down) {
          this.ledger.release(task);
          return stop.stop('breaker', down);
        }
        return this.ledger.failed(task, maskDigits(error.describe()), requestId);
      }
      case 'fail':
        return this.ledger.failed(task, maskDigits(error.describe()), requestId);
    }
  }

  /** A daily-limit answer defers this payee and every other payee of the account to the next IST day. */
  private deferForDailyLimit(task: PayeeTask, requestId: string | null): void {
    this.ledger.deferredByLimit(task, nextIstMidnight(this.context.now()), requestId);
    this.context.log.info(`account ${maskAccount(task.account)}: daily limit reached, deferred to the next IST day with its other rows`);
  }

  /** A penny-drop whose answer was lost: a rupee may have moved, so it is never re-sent by itself. */
  private unconfirm(task: PayeeTask, error: VasError): void {
    const reason = maskDigits(`no readable answer to the penny-drop request (${error.message}): a rupee may have moved; check before re-sending with --resume --retry-unconfirmed`);
    this.ledger.unconfirmed(task, reason, error.requestId ?? null);
    // Still a failed call: a run of them stops the run instead of sending every deposit blind.
    const down = error.code === 'aborted' ? undefined : this.breaker.failed(error);
    if (down) this.context.stop.stop('breaker', down);
  }
}

/**
 * limiter: the rate limiter for --rate (src/limiter), embedded or shared through Redis (--redis);
 * none without --rate, and none for a dry run (it makes no call, so it neither needs nor touches
 * a shared limiter). Set up before any call: an unusable --redis stops the run here (exit 2).
 */
export async function createLimiter(options: BankRunOptions, signal: AbortSignal, warn: (message: string) => void): Promise<Limiter | undefined> {
  if (options.dryRun) return undefined;
  // A LimiterSetupError is a usage error of its own (exit 2).
  return await createRateLimiter({ rate: options.rate, redis: options.redis, signal, onOtherRate: (other) => warn(otherRateMessage(options.rate!, other)) });
}

/**
 * Another run shares this Redis quota at another --rate: each ask moves the shared bucket by the
 * asker's own interval, so together the runs send at a rate between the two, and none of them
 * knows which one is the credential's quota.
 */
export function otherRateMessage(rate: number, other: number): string {
  return `another run is taking turns of this Redis quota at --rate ${other}, this one at --rate ${rate}: runs at once send at a rate between the two, above the credential's quota (429s) if it is the lower one and below it if it is the higher; give every run of one credential the same --rate, its quota (README, "Sharing one quota across hosts")`;
}
