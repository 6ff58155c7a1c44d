/** What the sandbox counted, and its control routes: GET /__sandbox/stats and POST /__sandbox/reset. */
import type { Exchange, Responder } from './exchange.js';

/** What the sandbox counted since start or the last reset (also at GET /__sandbox/stats). */
export interface SandboxStats {
  /** Requests received per op name, plus `token` (OAuth) and `webhook` (callbacks sent). */
  requests: Record<string, number>;
  /** Responses sent per HTTP status (as a string); dropped connections are not answers. */
  responses: Record<string, number>;
  /** One-rupee deposits actually made, per account number. */
  deposits: Record<string, number>;
  /** Faults injected by faultRate. */
  faults: number;
  /**
   * When the first and the last API request (any op, answered or not) arrived, in ms of the
   * sandbox's clock (epoch), or null before any: (API requests − 1) over their difference is the
   * rate a quota saw (`npm run bench:rate`).
   */
  firstApiRequestAt: number | null;
  lastApiRequestAt: number | null;
  /** The most API requests it was handling at once (received, not yet answered): a client's concurrency as the API sees it. */
  maxConcurrentApiRequests: number;
}

function bump(counter: Record<string, number>, key: string): void {
  counter[key] = (counter[key] ?? 0) + 1;
}

/** The live counters behind SandboxStats. */
export class SandboxCounters {
  private requests: Record<string, number> = {};
  private responses: Record<string, number> = {};
  private deposits: Record<string, number> = {};
  private faults = 0;
  private firstApiRequestAt: number | null = null;
  private lastApiRequestAt: number | null = null;
  private concurrentApi = 0;
  private maxConcurrentApi = 0;

  /** One API request received at `at` (ms): counted under its op and stamped. */
  countApiRequest(op: string, at: number): void {
    bump(this.requests, op);
    this.firstApiRequestAt ??= at;
    this.lastApiRequestAt = at;
  }

  /** An API request is being handled (received, not yet answered): for maxConcurrentApiRequests. */
  apiStarted(): void {
    this.concurrentApi += 1;
    if (this.concurrentApi > this.maxConcurrentApi) this.maxConcurrentApi = this.concurrentApi;
  }

  apiEnded(): void {
    this.concurrentApi -= 1;
  }

  /** One request received: an op name, `token` or `webhook`. */
  countRequest(name: string): void {
    bump(this.requests, name);
  }

  countResponse(status: number): void {
    bump(this.responses, String(status));
  }

  countDeposit(accountNumber: string): void {
    bump(this.deposits, accountNumber);
  }

  countFault(): void {
    this.faults += 1;
  }

  /** A copy of the counters. */
  snapshot(): SandboxStats {
    return {
      requests: { ...this.requests },
      responses: { ...this.responses },
      deposits: { ...this.deposits },
      faults: this.faults,
      firstApiRequestAt: this.firstApiRequestAt,
      lastApiRequestAt: this.lastApiRequestAt,
      maxConcurrentApiRequests: this.maxConcurrentApi,
    };
  }

  clear(): void {
    this.requests = {};
    this.responses = {};
    this.deposits = {};
    this.faults = 0;
    this.firstApiRequestAt = null;
    this.lastApiRequestAt = null;
    this.maxConcurrentApi = this.concurrentApi;
  }
}

/** GET /__sandbox/stats and POST /__sandbox/reset; `reset` clears every counter and window of the sandbox. */
export class StatsRoutes {
  constructor(
    private readonly counters: SandboxCounters,
    private readonly responder: Responder,
    private readonly reset: () => void,
  ) {}

  stats(ex: Exchange): void {
    this.responder.sendJson(ex, 200, this.counters.snapshot());
  }

  resetAll(ex: Exchange): void {
    this.reset();
    this.responder.sendJson(ex, 200, { ok: true });
  }
}
