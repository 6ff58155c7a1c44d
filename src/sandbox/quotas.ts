/** Quotas: the requests-per-second window (`--rate-limit`) and the per-account daily allowance (`--daily-limit`). */

import { IST_OFFSET_MS } from '../ist.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Days since the epoch in Asia/Kolkata: the day daily limits and changing holders count by. */
export function istDay(ms: number): number {
  return Math.floor((ms + IST_OFFSET_MS) / DAY_MS);
}

/** A sliding window of request times across API ops. */
export class RateWindow {
  private stamps: number[] = [];

  constructor(
    private readonly limit: number | null,
    private readonly now: () => number,
  ) {}

  /** Takes a slot in the sliding window, or answers the Retry-After seconds when full. */
  take(): number | null {
    const limit = this.limit;
    if (limit === null) return null;
    // `capacity` requests per window, the window as long as they take at the limit: 2 per second
    // for 2, one per two seconds for 0.5, two per 0.8 s for 2.5 (not rounded down to 2 per second).
    const capacity = Math.max(1, Math.floor(limit));
    const windowMs = (1000 * capacity) / limit;
    const now = this.now();
    while (this.stamps.length > 0 && (this.stamps[0] ?? now) <= now - windowMs) this.stamps.shift();
    if (this.stamps.length >= capacity) {
      const oldest = this.stamps[0] ?? now;
      return Math.max(1, Math.ceil((oldest + windowMs - now) / 1000));
    }
    this.stamps.push(now);
    return null;
  }

  clear(): void {
    this.stamps = [];
  }
}

/** Processed requests per account number in the current Asia/Kolkata day. */
export class DailyQuota {
  private day = -1;
  private used = new Map<string, number>();

  constructor(
    private readonly limit: number | null,
    private readonly now: () => number,
  ) {}

  /** Counts one processed request against the account's allowance for the current IST day. */
  take(accountNumber: string): boolean {
    const limit = this.limit;
    if (limit === null) return true;
    const day = istDay(this.now());
    if (day !== this.day) {
      this.day = day;
      this.used = new Map();
    }
    const used = this.used.get(accountNumber) ?? 0;
    if (used >= limit) return false;
    this.used.set(accountNumber, used + 1);
    return true;
  }

  clear(): void {
    this.day = -1;
    this.used = new Map();
  }
}
