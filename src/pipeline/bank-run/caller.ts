/**
 * Stage 3 of the bank run (docs/ARCHITECTURE.md, "The bank run"): a payee's calls. Each payee
 * that needs the API gets a concurrency slot, then, for each request, its turn in the rate limiter
 * (src/limiter: one gate for first attempts and retries alike); its IN_FLIGHT mark is committed
 * before the request leaves; the answer, or the failure, becomes its outcome.
 * The caller also keeps the budget (--max-calls, --max-spend) and the circuit breaker.
 */
import pLimit, { type LimitFunction } from 'p-limit';
import type { CallResult, Client } from '../../api/client.js';
import { isVasError, type VasError } from '../../api/errors.js';
import type { BankResult } from '../../api/schemas.js';
import { createLimiter as createRateLimiter, LimiterLostError, type Limiter, type Turn } from '../../limiter/index.js';
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

export interface CallerParts {
  options: BankRunOptions;
  client: Client | undefined;
  store: BankStore;
  runId: number | null;
  payees: LivePayees;
  summary: BankRunSummary;
  stop: StopControl;
  limiter: Limiter | undefined;
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

/** The turn of a run without --rate: nothing to count. */
const NO_LIMIT: Turn = { sent() {}, cancel() {} };

export class Caller {
  private readonly parts: CallerParts;
  private readonly options: BankRunOptions;
  private readonly limit: LimitFunction;
  private readonly breaker: Breaker;
  private readonly idle = new SignalEvent();
  private readonly spaceRetry: (() => Promise<void>) | undefined;
  private readonly noteRetry: (event: { error: VasError }) => void;
  /** Payees dispatched whose calls have not ended. */
  private outstanding = 0;

  constructor(parts: CallerParts) {
    this.parts = parts;
    this.options = parts.options;
    this.limit = pLimit(Math.max(1, parts.options.concurrency));
    this.breaker = new Breaker(parts.options.breakerThreshold ?? DEFAULT_BREAKER_THRESHOLD);
    // ---- limiter (src/limiter): one gate for every request, first attempts and retries ----
    const limiter = parts.limiter;
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
    const penalize = limiter
      ? (event: { error: VasError }) => {
          if (event.error.code === 'rate-limit') limiter.penalize(event.error.retryAfterMs);
        }
      : undefined;
    // ---- end limiter ----
    // Run stats (src/state/run-stats.ts): retries and upstream errors over time, for the report.
    this.noteRetry = (event: { error: VasError }) => {
      parts.store.noteRetry(event.error);
      penalize?.(event);
    };
  }

  /** limiter: waits for this request's turn; undefined when the run stops meanwhile (or the shared limiter is lost). */
  private async takeTurn(): Promise<Turn | undefined> {
    const { limiter, stop } = this.parts;
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

  /** Resolves when no payee's calls are under way. */
  async settled(): Promise<void> {
    while (this.outstanding > 0) await this.idle.wait();
  }

  private async work(task: PayeeTask): Promise<void> {
    const { stop } = this.parts;
    try {
      await this.execute(task);
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
    const { summary, store, stop, limiter } = this.parts;
    // limiter: the one gate, taken before the payee is marked IN_FLIGHT (a queued payee is never in doubt)
    const turn = limiter ? await this.takeTurn() : NO_LIMIT;
    if (!turn) {
      if (mode === 'pd' && this.options.mode === 'hybrid') store.markStatus(runId, task.firstRow, 'PENDING', null, null);
      return undefined;
    }
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
    try {
      await store.flush();
    } catch (error) {
      turn.cancel();
      throw error;
    }
    if (stop.reason && stop.reason !== 'max-calls' && stop.reason !== 'max-spend') {
      turn.cancel();
      // Stopped while the mark was being committed: nothing was sent, so nothing is in doubt.
      // (A budget stop lets the calls already counted within the budget go.)
      summary.calls[mode] -= 1;
      summary.spend -= price;
      store.markStatus(runId, task.firstRow, 'PENDING', null, null);
      return undefined;
    }
    // The request leaves now: the limiter counts it from here (the commit took its time).
    turn.sent();
    try {
      return await client.verifyBankAccount(
        { accountNumber: task.account, ifsc: task.ifsc, mode },
        { signal: stop.callAbort.signal, beforeRetry: this.spaceRetry, onRetry: this.noteRetry },
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
    store.noteFailure(error); // run stats: a 429, 5xx or timeout that ended the call
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

/**
 * limiter: the rate limiter for --rate (src/limiter), embedded or shared through Redis (--redis);
 * none without --rate, and none for a dry run (it makes no call, so it neither needs nor touches
 * a shared limiter). Set up before any call: an unusable --redis stops the run here (exit 2).
 */
export async function createLimiter(options: BankRunOptions, signal: AbortSignal): Promise<Limiter | undefined> {
  if (options.dryRun) return undefined;
  // A LimiterSetupError is a usage error of its own (exit 2).
  return await createRateLimiter({ rate: options.rate, redis: options.redis, signal });
}
