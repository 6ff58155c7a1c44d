/**
 * The payees of this run whose outcome is not known yet, shared by the planner (which starts
 * them) and the caller (which answers them), and the accounts deferred to the next day. Memory
 * only: the ledger (ledger.ts) writes the state.
 */
import type { PayeeOutcome, PayeeTask } from './types.js';

export class LivePayees {
  /** Payees waiting for their outcome, by `account|ifsc`: a later row of one joins it. */
  private readonly waiting = new Map<string, PayeeTask>();
  /** Accounts that hit their daily limit, and when they may be called again. */
  private readonly deferredAccounts = new Map<string, number>();

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
}
