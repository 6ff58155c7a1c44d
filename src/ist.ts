/**
 * Times for people: India Standard Time (UTC+5:30, no DST), as every message, page and report
 * shows them ("26 Nov 2026, 00:00 IST"); the files keep ISO-8601 UTC. Here, apart from pipeline/,
 * so that state/ and review/ say times the same way.
 */

export const IST_OFFSET_MS = 5.5 * 3600_000;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number): string => String(n).padStart(2, '0');

/** A date for people in India: "26 Nov 2026" (IST). */
export function formatIstDate(ms: number): string {
  const d = new Date(ms + IST_OFFSET_MS);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/** A time for people in India: "26 Nov 2026, 00:00 IST" (files keep ISO-8601 UTC). */
export function formatIst(ms: number): string {
  const d = new Date(ms + IST_OFFSET_MS);
  return `${formatIstDate(ms)}, ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} IST`;
}
