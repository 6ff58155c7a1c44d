/**
 * Stage 3 of the bank run (docs/ARCHITECTURE.md, "The bank run"): a payee's calls. Each payee
 * that needs the API gets a concurrency slot, then its turn in the rate limiter; its IN_FLIGHT
 * mark is committed before the request leaves; the answer, or the failure, becomes its outcome.
 * The caller also keeps the budget (--max-calls, --max-spend) and the circuit breaker.
 */
import { createRequire } from 'node:module';
import Bottleneck from 'bottleneck';
import pLimit, { type LimitFunction } from 'p-limit';
import type { CallResult, Client } from '../../api/client.js';
import { isVasError, type VasError } from '../../api/errors.js';
import type { BankResult } from '../../api/schemas.js';
import { UsageError } from '../../errors.js';
import type { BankStore } from '../../state/bank-store.js';
import type { VerifyMode } from '../../state/types.js';
import { maskAccount, maskDigits } from '../checks.js';
import { nextIstMidnight } from '../time.js';
import type { LivePayees } from './payees.js';
import { deferralReason, invalidResult, toNewResult } from './results.js';
import { SignalEvent, type StopControl } from './stop.js';
import type { BankRunOptions, BankRunSummary, Logger, PayeeTask } from './types.js';

/** Consecutive service failures (unavailable, network, timeout, server) that stop the run. Default 10. */
export const DEFAULT_BREAKER_THRESHOLD = 10;
/** Service failures that stop a run in which no call has succeeded yet (a wrong or dead target). */
export const FAIL_FAST_THRESHOLD = 3;
/** Share of --rate actually used, leaving room for timing jitter against the quota. */
export const RATE_HEADROOM = 0.975;

export interface CallerParts {
  options: BankRunOptions;
  client: Client | undefined;
  store: BankStore;
  runId: number | null;
  payees: LivePayees;
  summary: BankRunSummary;
  stop: StopControl;
  limiter: Bottleneck | undefined;
  now: () => number;
  log: Logger;
  /** Called whenever a payee's calls end (answered or not): the writer may have rows to write. */
  onSettled: () => void;
}

/**
 * The circuit breaker: counts consecutive failed calls of the service and says why the run
 * must stop when they say it is down.
 */
export class Breaker {
  private consecutiveFailures = 0;
  private successes = 0;
  private readonly threshold: number;

  constructor(threshold: number) {
    this.threshold = threshold;
  }

  succeeded(): void {
    this.consecutiveFailures = 0;
    this.successes += 1;
  }

  /** An answer that is not a failure of the service (the account was refused). */
  answered(): void {
    this.consecutiveFailures = 0;
  }

  /** Counts a failed call; returns why the run must stop, if it must. */
  failed(error: VasError): string | undefined {
    this.consecutiveFailures += 1;
    // Nothing answers at that address (refused, unknown host, 404 for the API path): the client
    // already retried, and every other row would fail the same way.
    const unreachable = error.code === 'refused' || error.code === 'dns' || error.code === 'not-found';
    const neverWorked = this.successes === 0 && this.consecutiveFailures >= FAIL_FAST_THRESHOLD;
    if (!unreachable && !neverWorked && this.consecutiveFailures < this.threshold) return undefined;
    return unreachable
      ? `cannot reach the API: ${maskDigits(error.describe())}`
      : `${this.consecutiveFailures} call(s) in a row failed (last: ${maskDigits(error.describe())}): the service looks down`;
  }
}

/**
 * Keeps the sends themselves spaced at --rate. The limiter spaces the start of each payee, but
 * its commit takes a variable time before the send; without this gate commits could bunch them.
 */
export class SendGate {
  private readonly spacingMs: number;
  private nextSendAt = 0;

  constructor(rate: number | undefined) {
    this.spacingMs = rate !== undefined && rate > 0 ? 1000 / (rate * RATE_HEADROOM) : 0;
  }

  get active(): boolean {
    return this.spacingMs > 0;
  }

  async pass(): Promise<void> {
    if (this.spacingMs === 0) return;
    const t = performance.now();
    const wait = this.nextSendAt - t;
    this.nextSendAt = Math.max(t, this.nextSendAt) + this.spacingMs;
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
}

export class Caller {
  private readonly parts: CallerParts;
  private readonly options: BankRunOptions;
  private readonly limit: LimitFunction;
  private readonly breaker: Breaker;
  private readonly gate: SendGate;
  private readonly idle = new SignalEvent();
  private readonly spaceRetry: (() => Promise<void>) | undefined;
  /** Payees dispatched whose calls have not ended. */
  private outstanding = 0;

  constructor(parts: CallerParts) {
    this.parts = parts;
    this.options = parts.options;
    this.limit = pLimit(Math.max(1, parts.options.concurrency));
    this.breaker = new Breaker(parts.options.breakerThreshold ?? DEFAULT_BREAKER_THRESHOLD);
    this.gate = new SendGate(parts.options.rate);
    const limiter = parts.limiter;
    // A retry spends the same quota as a first attempt: it waits its turn in the rate limiter.
    this.spaceRetry = limiter
      ? async () => {
          await limiter.schedule(() => Promise.resolve());
          await this.gate.pass();
        }
      : undefined;
  }

  /** Queues a payee's calls: a concurrency slot, then (with --rate) its turn. */
  dispatch(task: PayeeTask): void {
    this.outstanding += 1;
    void this.limit(() => this.work(task));
  }

  /** Resolves when no payee's calls are under way. */
  async settled(): Promise<void> {
    while (this.outstanding > 0) await this.idle.wait();
  }

  private async work(task: PayeeTask): Promise<void> {
    const { limiter, stop } = this.parts;
    try {
      if (limiter && !stop.reason) await limiter.schedule(() => this.execute(task));
      else await this.execute(task);
    } catch (error) {
      // A bug, or the state file failing under us: stop everything and report it.
      stop.stop('fatal', error instanceof Error ? error.message : String(error));
    } finally {
      this.outstanding -= 1;
      this.parts.onSettled();
      if (this.outstanding === 0) this.idle.fire();
    }
  }

  /** Which budget a call of `mode` would pass, if any. */
  private budgetExceeded(mode: VerifyMode = this.options.mode === 'pd' ? 'pd' : 'pl'): 'max-calls' | 'max-spend' | null {
    const { summary } = this.parts;
    const made = summary.calls.pl + summary.calls.pd;
    if (this.options.maxCalls !== undefined && made >= this.options.maxCalls) return 'max-calls';
    if (this.options.maxSpend !== undefined) {
      const next = mode === 'pd' ? this.options.pricePd : this.options.pricePl;
      if (summary.spend + next > this.options.maxSpend + 1e-9) return 'max-spend';
    }
    return null;
  }

  private stopForBudget(over: 'max-calls' | 'max-spend'): void {
    this.parts.stop.stop(over, over === 'max-calls' ? `--max-calls ${this.options.maxCalls} reached` : `--max-spend ${this.options.maxSpend} reached`);
  }

  private async execute(task: PayeeTask): Promise<void> {
    const { stop, payees, now, client, runId } = this.parts;
    if (stop.reason) return;
    const dueAt = payees.deferredUntil(task.account);
    if (dueAt !== undefined && dueAt > now()) {
      payees.defer(task, dueAt);
      return;
    }
    const over = this.budgetExceeded();
    if (over) {
      this.stopForBudget(over);
      return;
    }
    if (!client || runId === null) throw new Error('runBank: no client for a real run');
    let mode: VerifyMode = this.options.mode === 'pd' ? 'pd' : 'pl';
    for (;;) {
      const answer = await this.call(task, mode, client, runId);
      if (!answer) return;
      const next = this.settle(task, mode, answer, runId);
      if (next === undefined) return;
      mode = next;
    }
  }

  /** One call of `mode`: counted, marked IN_FLIGHT and committed, then sent. Undefined when it ended without an answer. */
  private async call(task: PayeeTask, mode: VerifyMode, client: Client, runId: number): Promise<CallResult<BankResult> | undefined> {
    const { summary, store, stop } = this.parts;
    const price = mode === 'pd' ? this.options.pricePd : this.options.pricePl;
    // Counted before the first await, so concurrent workers never overshoot a budget.
    summary.calls[mode] += 1;
    summary.spend += price;
    if (task.stored) {
      store.markInFlight(runId, task.firstRow, mode);
    } else {
      store.insertInFlight(runId, task.account, task.ifsc, task.firstRow, mode);
      task.stored = true;
    }
    await store.flush();
    if (stop.reason && stop.reason !== 'max-calls' && stop.reason !== 'max-spend') {
      // Stopped while the mark was being committed: nothing was sent, so nothing is in doubt.
      // (A budget stop lets the calls already counted within the budget go.)
      summary.calls[mode] -= 1;
      summary.spend -= price;
      store.markStatus(runId, task.firstRow, 'PENDING', null, null);
      return undefined;
    }
    if (this.gate.active) await this.gate.pass();
    try {
      return await client.verifyBankAccount(
        { accountNumber: task.account, ifsc: task.ifsc, mode },
        { signal: stop.callAbort.signal, beforeRetry: this.spaceRetry },
      );
    } catch (error) {
      this.fail(task, mode, error, runId);
      return undefined;
    }
  }

  /** Keeps an answer. Returns the next call's mode when hybrid must follow a NOT_VERIFIED with a penny-drop. */
  private settle(task: PayeeTask, mode: VerifyMode, answer: CallResult<BankResult>, runId: number): VerifyMode | undefined {
    const { store, stop, summary, payees } = this.parts;
    this.breaker.succeeded();
    const at = this.parts.now();
    const hybrid = this.options.mode === 'hybrid' && mode === 'pl';
    if (hybrid && answer.result.verificationStatus === 'NOT_VERIFIED') {
      store.insertResult(toNewResult(task.account, task.ifsc, 'pl', answer.result, answer.requestId, at));
      if (stop.reason) {
        store.markStatus(runId, task.firstRow, 'PENDING', null, null);
        return undefined;
      }
      const overAgain = this.budgetExceeded('pd');
      if (overAgain) {
        store.markStatus(runId, task.firstRow, 'PENDING', null, null);
        this.stopForBudget(overAgain);
        return undefined;
      }
      return 'pd';
    }
    if (hybrid) summary.avoided.hybrid += 1;
    const result = store.insertResult(toNewResult(task.account, task.ifsc, mode, answer.result, answer.requestId, at));
    store.markDone(runId, task.firstRow, 'api', result.id, answer.requestId ?? null);
    payees.resolve(task, { status: result.status, reason: result.reason ?? '', source: 'api', result, requestId: answer.requestId ?? '' });
    return undefined;
  }

  /** What a failed call comes to: deferred, INVALID, UNCONFIRMED, back to PENDING (with a stop), or FAILED. */
  private fail(task: PayeeTask, mode: VerifyMode, caught: unknown, runId: number): void {
    if (!isVasError(caught)) throw caught;
    const error = caught;
    const { store, payees, stop } = this.parts;
    const requestId = error.requestId ?? null;
    if (error.code === 'daily-limit') return this.deferForDailyLimit(task, error, runId);
    if (error.kind === 'invalid-input') {
      this.breaker.answered();
      const result = store.insertResult(invalidResult(task.account, task.ifsc, mode, error, this.parts.now()));
      store.markDone(runId, task.firstRow, 'api', result.id, requestId);
      payees.resolve(task, { status: 'INVALID', reason: error.message, source: 'api', result, requestId: error.requestId ?? '' });
      return;
    }
    if (mode === 'pd' && error.ambiguous) return this.unconfirm(task, error, runId);
    if (error.code === 'aborted') {
      store.markStatus(runId, task.firstRow, 'PENDING', null, null);
      return;
    }
    if (error.kind === 'auth') {
      store.markStatus(runId, task.firstRow, 'PENDING', null, null);
      stop.stop('auth', error.describe());
      return;
    }
    const serviceFailure = ['unavailable', 'network', 'timeout', 'server', 'quota', 'protocol'].includes(error.kind);
    const down = serviceFailure ? this.breaker.failed(error) : undefined;
    if (down) {
      store.markStatus(runId, task.firstRow, 'PENDING', null, null);
      stop.stop('breaker', down);
      return;
    }
    const reason = maskDigits(error.describe());
    store.markStatus(runId, task.firstRow, 'FAILED', reason, requestId);
    payees.resolve(task, { status: 'FAILED', reason, source: 'api', result: undefined, requestId: error.requestId ?? '' });
  }

  /** A daily-limit answer defers this payee and every other payee of the account to the next IST day. */
  private deferForDailyLimit(task: PayeeTask, error: VasError, runId: number): void {
    const { store, payees, log } = this.parts;
    const dueAt = nextIstMidnight(this.parts.now());
    payees.deferAccount(task.account, dueAt);
    const reason = deferralReason(dueAt);
    store.markStatus(runId, task.firstRow, 'DEFERRED', reason, error.requestId ?? null, dueAt);
    store.deferAccount(runId, task.account, reason, dueAt);
    payees.resolve(task, { status: 'DEFERRED', reason, source: 'api', result: undefined, requestId: error.requestId ?? '' });
    log.info(`account ${maskAccount(task.account)}: daily limit reached, deferred to the next IST day with its other rows`);
  }

  /** A penny-drop whose answer was lost: a rupee may have moved, so it is never re-sent by itself. */
  private unconfirm(task: PayeeTask, error: VasError, runId: number): void {
    const { store, payees, stop } = this.parts;
    const reason = maskDigits(`no readable answer to the penny-drop request (${error.message}): a rupee may have moved; check before re-sending with --resume --retry-unconfirmed`);
    store.markStatus(runId, task.firstRow, 'UNCONFIRMED', reason, error.requestId ?? null);
    payees.resolve(task, { status: 'UNCONFIRMED', reason, source: 'api', result: undefined, requestId: error.requestId ?? '' });
    // Still a failed call: a run of them stops the run instead of sending every deposit blind.
    const down = error.code === 'aborted' ? undefined : this.breaker.failed(error);
    if (down) stop.stop('breaker', down);
  }
}

/** The rate limiter for --rate: embedded, or shared through Redis (--redis). None without --rate. */
export function createLimiter(options: BankRunOptions): Bottleneck | undefined {
  if (options.rate === undefined || options.rate <= 0) return undefined;
  // Requests are spaced 2.5% wider than --rate asks: a quota counted over a sliding second
  // otherwise sees the odd 201st request whenever either side's event loop bunches two.
  const minTime = 1000 / (options.rate * RATE_HEADROOM);
  if (options.redis) {
    // Clustered mode: every run of one credential shares one quota through Redis. Bottleneck
    // loads ioredis itself; it is optional, so say how to get it rather than fail obscurely.
    try {
      createRequire(import.meta.url).resolve('ioredis');
    } catch {
      throw new UsageError('--redis needs the ioredis package: npm install ioredis');
    }
    return new Bottleneck({
      id: options.redis.limiterId,
      datastore: 'ioredis',
      clearDatastore: false,
      clientOptions: options.redis.url,
      minTime,
      reservoir: null,
    } as Bottleneck.ConstructorOptions);
  }
  return new Bottleneck({ minTime });
}
