import { UsageError } from '../errors.js';
import { IST_OFFSET_MS } from '../ist.js';

/** Time helpers: durations like 30d, and the next midnight in Asia/Kolkata (UTC+5:30, no DST); times for people are src/ist.ts. */

const DAY_MS = 86_400_000;

/** The first instant of the next calendar day in India after `nowMs`. */
export function nextIstMidnight(nowMs: number): number {
  const istDay = Math.floor((nowMs + IST_OFFSET_MS) / DAY_MS);
  return (istDay + 1) * DAY_MS - IST_OFFSET_MS;
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3600_000, d: DAY_MS, w: 7 * DAY_MS };

/**
 * "30d", "12h", "90m", "45s", "2w", "500ms" → milliseconds. Anything else is the user's mistake:
 * a UsageError (exit 2) naming `what` (the flag or variable it came from).
 */
export function parseDuration(text: string, what: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w)\s*$/i.exec(text);
  if (!match) throw new UsageError(`${what}: "${text}" is not a duration: use a number and a unit, e.g. 30d, 12h, 15m, 30s`);
  return Math.round(Number(match[1]) * UNITS[match[2]!.toLowerCase()]!);
}

/** A duration for people: "7d", "36h", "90m" (the largest whole unit). */
export function formatDurationShort(ms: number): string {
  for (const [unit, size] of [['d', DAY_MS], ['h', 3600_000], ['m', 60_000], ['s', 1000]] as const) {
    if (ms >= size && ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
}

/** A span in rough words, for messages: "40 s", "12 min", "5 h", "100 days", "more than a year". */
export function describeSpan(ms: number): string {
  const minutes = ms / 60_000;
  if (minutes < 2) return `${Math.round(ms / 1000)} s`;
  if (minutes < 60) return `${Math.round(minutes)} min`;
  if (minutes < 48 * 60) return `${Math.round(minutes / 60)} h`;
  if (minutes < 365 * 24 * 60) return `${Math.round(minutes / 60 / 24)} days`;
  return 'more than a year';
}
