/**
 * This machine's clock against the API's (docs/ARCHITECTURE.md, "Never paying twice"). The
 * deposit memory is counted in this machine's time: a penny-drop dated by a clock running weeks
 * behind falls out of the memory that much early once the clock is right, and a clock running
 * ahead forgets every deposit at once — either way payees are sent a second rupee. Every answer's
 * Date header says when the API answered; the first answers of an invocation tell how far apart
 * the clocks are.
 *
 * - Until an answer has told the API's time, at most one penny-drop is in flight (Caller's
 *   awaitClock), so a wrong clock costs the one whose answer told it (and one per answer lost before).
 * - A penny-drop settled while this clock is known to be behind is dated by the API's time
 *   (`datingShiftMs`): never remembered for less than the memory.
 * - Clocks further apart than CLOCK_SKEW_LIMIT_MS stop a run that sends penny-drops (`problem`);
 *   a penny-less run is warned (its answers' dates are off).
 */
import { describeSpan } from '../time.js';

/** How far apart the clocks may be: a day moves the 30-to-90-day deposit memory by too little to matter. */
export const CLOCK_SKEW_LIMIT_MS = 86_400_000;

export class ApiClock {
  private readonly now: () => number;
  /** The API's time minus this machine's, from the latest answer that carried a Date header. */
  private skew: number | undefined;

  constructor(now: () => number) {
    this.now = now;
  }

  /** An answer's Date header (ms since the epoch), read as it arrives. */
  observe(serverTime: number): void {
    // The header has whole seconds: a skew under 2 s is the rounding, not the clock.
    const skew = serverTime - this.now();
    this.skew = Math.abs(skew) < 2_000 ? 0 : skew;
  }

  /** How much later than this machine's clock a penny-drop settled now is dated: 0 unless this clock is behind. */
  datingShiftMs(): number {
    return Math.max(0, this.skew ?? 0);
  }

  /** Undefined while the clocks agree within CLOCK_SKEW_LIMIT_MS (or nothing is known); else what is wrong, in words. */
  problem(): string | undefined {
    const skew = this.skew;
    if (skew === undefined || Math.abs(skew) <= CLOCK_SKEW_LIMIT_MS) return undefined;
    return `this machine's clock is ${describeSpan(Math.abs(skew))} ${skew > 0 ? 'behind' : 'ahead of'} the API's (the Date of its answers)`;
  }
}
