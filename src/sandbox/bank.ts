/** The bank operations, account-verification-pl (penny-less) and -pd (penny-drop), after the API pipeline's checks. */
import {
  BankRequestSchema,
  dailyLimitMessage,
  MESSAGES,
  type BankResult,
  type OpName,
} from '../api/schemas.js';
import { envelopeError, errorIn200, success, type Exchange, type Responder } from './exchange.js';
import { parseJson } from './http-util.js';
import { ifscDetailsFor } from './ifsc.js';
import { istDay, type DailyQuota } from './quotas.js';
import type { Registry, RegistryEntry } from './registry.js';
import { buildBankResult, planBankRequest } from './scenarios.js';
import type { SandboxCounters } from './stats.js';
import type { Waits } from './timing.js';

const ACCOUNT_PATTERN = /^\d{9,18}$/;

/** How many times each op was asked about each account since the last reset (test accounts use it). */
export class Attempts {
  private counts = new Map<string, number>();

  /** Counts one more attempt of `op` for the account and answers its number, from 1. */
  next(op: OpName, accountNumber: string): number {
    const key = `${op}:${accountNumber}`;
    const attempt = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, attempt);
    return attempt;
  }

  clear(): void {
    this.counts = new Map();
  }
}

export interface BankDeps {
  readonly seed: number;
  readonly registry: Registry;
  /** The payee file's names by account (options.ts `payeeNames`), or null. */
  readonly payeeNames: ReadonlyMap<string, string> | null;
  readonly now: () => number;
  readonly attempts: Attempts;
  readonly daily: DailyQuota;
  readonly counters: SandboxCounters;
  readonly responder: Responder;
  readonly waits: Waits;
}

export class BankHandler {
  constructor(private readonly deps: BankDeps) {}

  async handle(ex: Exchange, op: OpName, body: string | null, isPennyDrop: boolean): Promise<void> {
    const { responder } = this.deps;
    const parsed = BankRequestSchema.safeParse(parseJson(body));
    if (!parsed.success) return responder.answerApi(ex, 400, { json: envelopeError(400, MESSAGES.invalidRequest) });
    const { accountNumber, ifscNumber } = parsed.data;
    if (!ACCOUNT_PATTERN.test(accountNumber)) {
      return responder.answerApi(ex, 400, { json: envelopeError(400, MESSAGES.invalidAccount) });
    }
    if (ifscNumber.length !== 11) return responder.answerApi(ex, 200, { json: errorIn200(MESSAGES.ifscLength) });
    const ifscDetails = ifscDetailsFor(ifscNumber);
    if (ifscDetails === null) return responder.answerApi(ex, 200, { json: errorIn200(MESSAGES.invalidIfsc) });

    const plan = planBankRequest(accountNumber, this.deps.attempts.next(op, accountNumber));
    switch (plan.kind) {
      case 'fail':
        return plan.status === 503
          ? responder.answerApi(ex, 503, { text: MESSAGES.unavailable })
          : responder.answerApi(ex, 500, { json: envelopeError(500, MESSAGES.internal) });
      case 'error200':
        return responder.answerApi(ex, 200, { json: errorIn200(plan.message) });
      case 'process':
        break;
    }
    if (!this.deps.daily.take(accountNumber)) {
      return responder.answerApi(ex, 200, { json: errorIn200(dailyLimitMessage(accountNumber)) });
    }

    const entry: RegistryEntry | undefined = this.deps.registry.find(accountNumber, ifscNumber);
    const payeeName = this.deps.payeeNames?.get(accountNumber);
    const result: BankResult = buildBankResult({ accountNumber, ifscDetails, isPennyDrop, entry, seed: this.deps.seed, payeeName, istDay: istDay(this.deps.now()) });
    // The rupee moves as soon as the request is processed, whatever happens to the answer.
    if (isPennyDrop) this.deps.counters.countDeposit(accountNumber);

    await this.deps.waits.wait(plan.delayMs);
    if (plan.dropConnection) return responder.dropConnection(ex);
    return responder.answerApi(ex, 200, { json: success(result) });
  }
}
