/**
 * Numbers, money and times as the report shows them to people: Indian digit grouping, rupees, and
 * times in India Standard Time (Asia/Kolkata, UTC+5:30, no daylight saving) — the team's clock.
 * The files the tool writes keep ISO times in UTC; only the page speaks IST. Pure.
 */

import { IST_OFFSET_MS, formatIst, formatIstDate } from '../ist.js';

const numberFormat = new Intl.NumberFormat('en-IN');
const moneyFormat = new Intl.NumberFormat('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** `1,23,456`: Indian grouping. */
export function formatCount(n: number): string {
  return numberFormat.format(n);
}

/** `24.00`: an estimated spend, two decimals. */
export function formatMoney(n: number): string {
  return moneyFormat.format(n);
}

/** `₹ 4,52,000` or `₹ 4,52,000.50`: paise shown only when there are some. */
export function formatRupees(n: number): string {
  return `₹ ${Number.isInteger(n) ? numberFormat.format(n) : moneyFormat.format(n)}`;
}

/** `n payee` or `n payees`, the count grouped. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

function ist(ms: number | null | undefined): Date | undefined {
  return ms === null || ms === undefined || !Number.isFinite(ms) ? undefined : new Date(ms + IST_OFFSET_MS);
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `25 Nov 2026`, the IST date. */
export function formatDate(ms: number | null | undefined): string {
  return ist(ms) ? formatIstDate(ms!) : '—';
}

/** `25 Nov 2026, 23:30 IST`. */
export function formatTime(ms: number | null | undefined): string {
  return ist(ms) ? formatIst(ms!) : '—';
}

/** `23:30:05`, the IST time of day to the second (a chart's axis). */
export function formatClock(ms: number | null | undefined): string {
  const d = ist(ms);
  return d ? `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}` : '—';
}

export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '—';
  const s = Math.round(ms / 1000);
  if (s < 60) return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${s} s`;
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h > 0 ? `${h} h ${m} min` : `${m} min ${s % 60} s`;
}
