/** The API ops' pipeline: count → fault → rate limit → auth → the op's handler (validation → scenario → latency → answer). */
import { MESSAGES, OPS, type OpName } from '../api/schemas.js';
import type { BankHandler } from './bank.js';
import type { DocLockerOps } from './doclocker-api.js';
import { envelopeError, QUOTA_BODY, type Exchange, type Responder } from './exchange.js';
import type { FaultInjector } from './faults.js';
import { readBody } from './http-util.js';
import type { TokenStore } from './oauth.js';
import type { RateWindow } from './quotas.js';
import type { SandboxCounters } from './stats.js';

export interface ApiDeps {
  readonly counters: SandboxCounters;
  readonly faults: FaultInjector;
  readonly rateWindow: RateWindow;
  readonly tokens: TokenStore;
  readonly responder: Responder;
  readonly bank: BankHandler;
  readonly docLocker: DocLockerOps;
  /** The sandbox's clock (ms since the epoch). */
  readonly now: () => number;
}

export class ApiOps {
  constructor(private readonly deps: ApiDeps) {}

  async handle(ex: Exchange, op: OpName): Promise<void> {
    const { counters } = this.deps;
    counters.countApiRequest(op, this.deps.now());
    counters.apiStarted();
    try {
      await this.answer(ex, op);
    } finally {
      counters.apiEnded();
    }
  }

  private async answer(ex: Exchange, op: OpName): Promise<void> {
    const { counters, responder } = this.deps;
    const body = await readBody(ex.req);

    const fault = this.deps.faults.draw();
    if (fault !== null) {
      counters.countFault();
      return this.deps.faults.inject(ex, fault);
    }
    const retryAfter = this.deps.rateWindow.take();
    if (retryAfter !== null) {
      return responder.answerApi(ex, 429, { json: QUOTA_BODY }, { 'retry-after': String(retryAfter) });
    }
    if (!this.deps.tokens.isAuthorized(ex.req)) {
      return responder.answerApi(ex, 401, { json: envelopeError(401, MESSAGES.invalidCredentials) }, {
        'www-authenticate': 'Bearer error="invalid_token"',
      });
    }
    switch (op) {
      case OPS.pennyLess:
        return this.deps.bank.handle(ex, op, body, false);
      case OPS.pennyDrop:
        return this.deps.bank.handle(ex, op, body, true);
      case OPS.docInit:
        return this.deps.docLocker.init(ex, body);
      case OPS.docFetch:
        return this.deps.docLocker.fetchStatus(ex, body);
    }
  }
}
