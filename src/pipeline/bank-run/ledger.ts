/**
 * The payee ledger (docs/ARCHITECTURE.md, "The bank run"): the one place where a payee's status
 * changes. Each transition is one call that writes the state, resolves the payee's rows and
 * counts what it avoided, together; the planner and the caller only decide which transition.
 *
 * It also keeps the promise never to pay twice: a penny-drop is claimed in the state before its
 * request leaves (src/state/bank-store.ts `claim`), and a payee whose deposit the history already
 * holds — answered, in flight or unconfirmed, in any run of any file — is not sent another.
 */
import type { VasError } from '../../api/errors.js';
import type { CallResult } from '../../api/client.js';
import type { BankResult } from '../../api/schemas.js';
import type { BankStore } from '../../state/bank-store.js';
import type { Claim, DepositRecord, PayeeRecord, ResultRecord, VerifyMode } from '../../state/types.js';
import type { ApiClock } from './api-clock.js';
import type { LivePayees } from './payees.js';
import { deferralReason, invalidResult, toNewResult } from './results.js';
import type { BankRunSummary, PayeeOutcome, PayeeTask } from './types.js';

/** How long a penny-drop is remembered per payee by default: 90 days (docs/ARCHITECTURE.md, "Never paying twice"). */
export const DEFAULT_DEPOSIT_MEMORY_MS = 90 * 86_400_000;
/** The shortest deposit memory a user may choose (--deposit-memory): 30 days. */
export const MIN_DEPOSIT_MEMORY_MS = 30 * 86_400_000;

export interface LedgerContext {
  store: BankStore;
  /** The run's id; null for a dry run of an input never run. */
  runId: number | null;
  /** A dry run writes nothing to the state. */
  dryRun: boolean;
  payees: LivePayees;
  summary: BankRunSummary;
  now: () => number;
  /** This machine's clock against the API's: a penny-drop settled while it is behind is dated by the API's time. */
  clock: ApiClock;
  /** How long a penny-drop is remembered: one sent within this is never sent again by itself. */
  depositMemoryMs: number;
  /** --retry-unconfirmed: a deposit in flight or unconfirmed may be sent again. */
  retryUnconfirmed: boolean;
}

export class PayeeLedger {
  private readonly parts: LedgerContext;
  private readonly store: BankStore;
  /** null when nothing is written (a dry run). */
  private readonly runId: number | null;
  /** The run was set open again by a payee asked again (requeue). */
  private reopened = false;

  constructor(parts: LedgerContext) {
    this.parts = parts;
    this.store = parts.store;
    this.runId = parts.dryRun ? null : parts.runId;
  }

  // ---- outcomes known without a call ----

  /** An outcome the state already holds (an earlier invocation's), or a dry run's. */
  known(task: PayeeTask, outcome: PayeeOutcome): void {
    // Answered before this invocation: another run may have had a newer answer since.
    const result = outcome.result && this.store.checkedAgainstNewer(outcome.result);
    this.parts.payees.resolve(task, result === outcome.result ? outcome : { ...outcome, result });
  }

  /** A stored payee due again (an expired deferral, a failure): back to PENDING. */
  requeue(record: PayeeRecord): void {
    if (this.runId === null) return;
    // A payee of a finished run asked again (--max-age, an expired deferral): the run is not final
    // until it is answered, and a release must not pay on the old answers meanwhile.
    if (!this.reopened) {
      this.store.reopenRun(this.runId);
      this.reopened = true;
    }
    this.store.markStatus(this.runId, record.firstRow, 'PENDING', null, null);
  }

  /** A result taken from the state instead of a call (--reuse, or the payee's answered deposit). */
  reuse(task: PayeeTask, result: ResultRecord): void {
    this.parts.summary.avoided.reuse += 1;
    this.ensureStored(task);
    if (this.runId !== null) this.store.markDone(this.runId, task.firstRow, 'reuse', result.id, result.requestId);
    this.resolve(task, { status: result.status, reason: result.reason ?? '', source: 'reuse', result: this.store.checkedAgainstNewer(result), requestId: result.requestId ?? '' });
  }

  /** A payee of an account deferred to the next day, without a call. */
  defer(task: PayeeTask, dueAt: number): void {
    const reason = deferralReason(dueAt);
    this.ensureStored(task);
    if (this.runId !== null) this.store.markStatus(this.runId, task.firstRow, 'DEFERRED', reason, null, dueAt);
    this.parts.summary.avoided.deferral += 1;
    this.resolve(task, { status: 'DEFERRED', reason, source: 'api', result: undefined, requestId: '' });
  }

  /** The payee's newest penny-drop within the deposit memory that stops another, if any. */
  depositOf(task: PayeeTask): DepositRecord | undefined {
    const deposit = this.store.lastDeposit(task.account, task.ifsc, this.depositSince());
    if (!deposit || (deposit.status !== 'ANSWERED' && this.parts.retryUnconfirmed)) return undefined;
    return deposit;
  }

  /**
   * A payee the deposit history already holds: its answer is reused; a deposit in flight or
   * unconfirmed makes it UNCONFIRMED, never sent again without --retry-unconfirmed.
   */
  deposited(task: PayeeTask, deposit: DepositRecord): void {
    if (deposit.status === 'ANSWERED' && deposit.result) return this.reuse(task, deposit.result);
    const by = deposit.runId === null ? 'an earlier run' : `run ${deposit.runId}`;
    const reason = `a penny-drop to this account was sent by ${by} on ${new Date(deposit.sentAt).toISOString().slice(0, 10)} and its answer is not known: a rupee may have moved; check the bank statement, then re-run with --retry-unconfirmed to send another`;
    this.ensureStored(task);
    if (this.runId !== null) this.store.markStatus(this.runId, task.firstRow, 'UNCONFIRMED', reason, null);
    this.resolve(task, { status: 'UNCONFIRMED', reason, source: 'api', result: undefined, requestId: '' });
  }

  // ---- a call ----

  /** Claims the payee for a request of `mode` (IN_FLIGHT, with its deposit for a penny-drop); nothing leaves unless `claimed`. */
  claim(task: PayeeTask, mode: VerifyMode): Claim {
    const claim = this.store.claim({
      runId: this.runId!, firstRow: task.firstRow, account: task.account, ifsc: task.ifsc, mode, stored: task.stored,
      depositSince: this.depositSince(), retryUnconfirmed: this.parts.retryUnconfirmed,
    });
    if (claim.kind === 'claimed') {
      task.stored = true;
      task.depositId = claim.depositId;
    }
    return claim;
  }

  /** Commits every write so far: a claim is on disk before its request leaves. */
  flush(): Promise<void> {
    return this.store.flush();
  }

  /** A claimed request that did not leave (the run stopped first): back to PENDING, its deposit not sent. */
  release(task: PayeeTask): void {
    this.settleDeposit(task, 'NOT_SENT', null, null);
    this.store.markStatus(this.runId!, task.firstRow, 'PENDING', null, null);
  }

  /** hybrid: a penny-less NOT_VERIFIED, kept as a result before the penny-drop that follows it. */
  intermediate(task: PayeeTask, answer: CallResult<BankResult>): void {
    this.store.insertResult(toNewResult(task.account, task.ifsc, 'pl', answer.result, answer.requestId, this.parts.now()));
  }

  /** The API's answer: a final result. */
  answered(task: PayeeTask, mode: VerifyMode, answer: CallResult<BankResult>): void {
    const result = this.store.insertResult(toNewResult(task.account, task.ifsc, mode, answer.result, answer.requestId, this.parts.now()));
    this.done(task, result, answer.requestId ?? null);
  }

  /** The API refused the account or IFSC: a final INVALID result. */
  refused(task: PayeeTask, mode: VerifyMode, error: VasError): void {
    const result = this.store.insertResult(invalidResult(task.account, task.ifsc, mode, error, this.parts.now()));
    this.done(task, result, error.requestId ?? null, error.message);
  }

  private done(task: PayeeTask, result: ResultRecord, requestId: string | null, reason = result.reason ?? ''): void {
    this.store.markDone(this.runId!, task.firstRow, 'api', result.id, requestId);
    this.settleDeposit(task, 'ANSWERED', result.id, requestId);
    this.resolve(task, { status: result.status, reason, source: 'api', result, requestId: requestId ?? '' });
  }

  /** The service failed for good (no rupee moved): FAILED, picked up by a later --resume. */
  failed(task: PayeeTask, reason: string, requestId: string | null): void {
    this.settleDeposit(task, 'FAILED', null, requestId);
    this.store.markStatus(this.runId!, task.firstRow, 'FAILED', reason, requestId);
    this.resolve(task, { status: 'FAILED', reason, source: 'api', result: undefined, requestId: requestId ?? '' });
  }

  /** A penny-drop whose answer was lost: a rupee may have moved; never re-sent by itself. */
  unconfirmed(task: PayeeTask, reason: string, requestId: string | null): void {
    this.settleDeposit(task, 'UNCONFIRMED', null, requestId);
    this.store.markStatus(this.runId!, task.firstRow, 'UNCONFIRMED', reason, requestId);
    this.resolve(task, { status: 'UNCONFIRMED', reason, source: 'api', result: undefined, requestId: requestId ?? '' });
  }

  /** The account's daily limit: this payee and every other payee of the account wait for `dueAt`. */
  deferredByLimit(task: PayeeTask, dueAt: number, requestId: string | null): void {
    const reason = deferralReason(dueAt);
    this.settleDeposit(task, 'FAILED', null, requestId);
    this.parts.payees.deferAccount(task.account, dueAt);
    this.store.markStatus(this.runId!, task.firstRow, 'DEFERRED', reason, requestId, dueAt);
    this.store.deferAccount(this.runId!, task.account, reason, dueAt);
    this.resolve(task, { status: 'DEFERRED', reason, source: 'api', result: undefined, requestId: requestId ?? '' });
  }

  // ---- helpers ----

  private depositSince(): number {
    return this.parts.now() - this.parts.depositMemoryMs;
  }

  private settleDeposit(task: PayeeTask, status: 'ANSWERED' | 'UNCONFIRMED' | 'FAILED' | 'NOT_SENT', resultId: number | null, requestId: string | null): void {
    if (task.depositId === undefined || task.depositId === null) return;
    this.store.settleDeposit(task.depositId, status, resultId, requestId, this.parts.clock.datingShiftMs());
    task.depositId = null;
  }

  /** Gives a new payee its row in the state (most get it with their claim instead). */
  private ensureStored(task: PayeeTask): void {
    if (task.stored || this.runId === null) return;
    this.store.insertPayee(this.runId, task.account, task.ifsc, task.firstRow);
    task.stored = true;
  }

  private resolve(task: PayeeTask, outcome: PayeeOutcome): void {
    this.parts.payees.resolve(task, outcome);
  }
}
