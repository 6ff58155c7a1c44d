/**
 * Escaping for the HTML run report. Every value that comes from the input file or the API
 * (names, reasons, request ids, file names) passes through one of these before it reaches the
 * page: a hostile CSV row must not run script or inject markup (docs/ARCHITECTURE.md, "Security").
 */

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

/**
 * Text for an element body or a quoted attribute value. Control characters (other than tab and
 * newline) and lone surrogates are dropped: they have no business on the page and some
 * confuse parsers.
 */
export function escapeHtml(value: unknown): string {
  const text = value === null || value === undefined ? '' : String(value);
  return text
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '')
    .replace(/[&<>"'`]/g, (c) => HTML_ESCAPES[c]!);
}

/** A value cut to `max` characters (with an ellipsis) and escaped: long API text stays readable. */
export function escapeCut(value: unknown, max: number): string {
  const text = value === null || value === undefined ? '' : String(value);
  return escapeHtml(text.length > max ? `${text.slice(0, max - 1)}…` : text);
}

/** An account number shown as its last four digits only (docs/ARCHITECTURE.md, "Security"). */
export function maskAccountNumber(account: string): string {
  const digits = account.replace(/\D/g, '');
  return digits.length <= 4 ? '••••' : `••••${digits.slice(-4)}`;
}

/** Free text (a reason from the API) with every run of 9–18 digits masked to its last four. */
export function maskLongDigits(text: string): string {
  return text.replace(/(?<![0-9A-Za-z-])\d{9,18}(?![0-9A-Za-z-])/g, (m) => maskAccountNumber(m));
}
