/**
 * Retry-After (RFC 9110 §10.2.3): either delay-seconds or an HTTP-date.
 * Returns milliseconds to wait, or undefined when absent or unparsable.
 */
export function parseRetryAfter(value: string | string[] | undefined, nowMs: number): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined) return undefined;
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}
