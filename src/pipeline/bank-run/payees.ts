/**
 * The payees of this run whose outcome is not known yet, shared by the planner (which starts
 * them) and the caller (which answers them), and the accounts deferred to the next day.
 */
import type { BankStore } from '../../state/bank-store.js';
import { deferralReason } from './results.js';
import type { BankRunSummary, PayeeOutcome, PayeeTask } from './types.js';

export class LivePayees {
  /** Payees waiting for their outcome, by `account|ifsc`: a later row of one joins it. */
  private readonly waiting = new Map<string, PayeeTask>();
  /** Accounts that hit their daily limit, and when they may be called again. */
  private readonly deferredAccounts = new Map<string, number>();
  private readonly store: BankStore;
  /** null for a dry run: nothing is written. */
  private readonly runId: number | null;
  private readonly summary: BankRunSummary;

  constructor(store: BankStore, runId: number | null, summary: BankRunSummary) {
    this.store = store;
    this.runId = runId;
    this.summary = summary;
  }

  waitingFor(payee: string): PayeeTask | undefined {
    return this.waiting.get(payee);
  }

  add(task: PayeeTask): void {
    this.waiting.set(task.payee, task);
  }

  resolve(task: PayeeTask, outcome: PayeeOutcome): void {
    task.outcome = outcome;
    this.waiting.delete(task.payee);
  }

  /** When this account may be called again, if it is deferred. */
  deferredUntil(account: string): number | undefined {
    return this.deferredAccounts.get(account);
  }

  deferAccount(account: string, dueAt: number): void {
    this.deferredAccounts.set(account, dueAt);
  }

  /** Gives a new payee its row in the state (most get it with their IN_FLIGHT mark instead). */
  ensureStored(task: PayeeTask): void {
    if (task.stored || this.runId === null) return;
    this.store.insertPayee(this.runId, task.account, task.ifsc, task.firstRow);
    task.stored = true;
  }

  /** Defers a payee whose account is deferred, without a call. */
  defer(task: PayeeTask, dueAt: number): void {
    const reason = deferralReason(dueAt);
    this.ensureStored(task);
    if (this.runId !== null) this.store.markStatus(this.runId, task.firstRow, 'DEFERRED', reason, null, dueAt);
    this.summary.avoided.deferral += 1;
    this.resolve(task, { status: 'DEFERRED', reason, source: 'api', result: undefined, requestId: '' });
  }
}
