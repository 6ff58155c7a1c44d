/**
 * The run's budget (--max-calls, --max-spend; docs/ARCHITECTURE.md, "The bank run"): every call
 * is counted, with its price, before its request leaves, so concurrent payees never overshoot it.
 */
import type { VerifyMode } from '../../state/types.js';
import type { BankRunOptions, BankRunSummary } from './types.js';

export type BudgetStop = 'max-calls' | 'max-spend';

export class Budget {
  private readonly options: BankRunOptions;
  private readonly summary: BankRunSummary;

  constructor(options: BankRunOptions, summary: BankRunSummary) {
    this.options = options;
    this.summary = summary;
  }

  private price(mode: VerifyMode): number {
    return mode === 'pd' ? this.options.pricePd : this.options.pricePl;
  }

  /** Which budget a call of `mode` would pass, if any. */
  exceeded(mode: VerifyMode): BudgetStop | null {
    const { options, summary } = this;
    if (options.maxCalls !== undefined && summary.calls.pl + summary.calls.pd >= options.maxCalls) return 'max-calls';
    if (options.maxSpend !== undefined && summary.spend + this.price(mode) > options.maxSpend + 1e-9) return 'max-spend';
    return null;
  }

  /** Counts a call about to leave. */
  spend(mode: VerifyMode): void {
    this.summary.calls[mode] += 1;
    this.summary.spend += this.price(mode);
  }

  /** Gives back a call counted that did not leave. */
  refund(mode: VerifyMode): void {
    this.summary.calls[mode] -= 1;
    this.summary.spend -= this.price(mode);
  }

  /** The stop's message. */
  describe(over: BudgetStop): string {
    return over === 'max-calls' ? `--max-calls ${this.options.maxCalls} reached` : `--max-spend ${this.options.maxSpend} reached`;
  }
}
