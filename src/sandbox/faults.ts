/** Fault injection (`--fault-rate`, `--faults`): drawn from a stream seeded by `--seed` before a request is processed. */
import { envelopeError, QUOTA_BODY, type Exchange, type Responder } from './exchange.js';
import { MESSAGES } from '../api/schemas.js';
import type { FaultKind } from './options.js';
import { createRandom, hashString, pick, type Random } from './prng.js';

export class FaultInjector {
  private readonly random: Random;

  constructor(
    private readonly rate: number,
    private readonly kinds: readonly FaultKind[],
    seed: number,
    private readonly responder: Responder,
  ) {
    this.random = createRandom(hashString(`faults:${seed}`));
  }

  /** The fault for the next request, or null for none. */
  draw(): FaultKind | null {
    if (this.rate <= 0) return null;
    if (this.random() >= this.rate) return null;
    return pick(this.random, this.kinds);
  }

  async inject(ex: Exchange, kind: FaultKind): Promise<void> {
    switch (kind) {
      case '429':
        return this.responder.answerApi(ex, 429, { json: QUOTA_BODY }, { 'retry-after': '1' });
      case '500':
        return this.responder.answerApi(ex, 500, { json: envelopeError(500, MESSAGES.internal) });
      case '503':
        return this.responder.answerApi(ex, 503, { text: MESSAGES.unavailable });
      case 'reset':
        return this.responder.dropConnection(ex);
      case 'hang':
        // Never answer: the socket stays open until the client gives up or close() runs.
        return;
    }
  }
}
