/**
 * The circuit breaker of the bank run (docs/ARCHITECTURE.md, "The bank run"): a run of failed
 * calls of the service stops the run, rows resumable, instead of marking thousands FAILED.
 */
import type { VasError } from '../../api/errors.js';
import { maskDigits } from '../checks.js';

/** Consecutive service failures (unavailable, network, timeout, server) that stop the run. Default 10. */
export const DEFAULT_BREAKER_THRESHOLD = 10;
/** Service failures that stop a run in which no call has succeeded yet (a wrong or dead target). */
export const FAIL_FAST_THRESHOLD = 3;

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
