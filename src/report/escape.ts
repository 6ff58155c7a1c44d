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
 * The bidirectional controls: embeddings and overrides (U+202A–U+202E), isolates (U+2066–U+2069)
 * and the marks (U+200E, U+200F, U+061C). A holder name with U+202E would show the rest of its
 * line reversed ("Trojan Source"): the page drops them, and isolates each value from the outside
 * instead (`isolate`), which is all a right-to-left name needs to show correctly.
 */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/**
 * Text for an element body or a quoted attribute value. Control characters (other than tab and
 * newline), bidirectional controls and lone surrogates are dropped: they have no business on the
 * page and some confuse parsers or reorder what a reader sees.
 */
export function escapeHtml(value: unknown): string {
  const text = value === null || value === undefined ? '' : String(value);
  return text
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '')
    .replace(BIDI_CONTROLS, '')
    .replace(/[&<>"'`]/g, (c) => HTML_ESCAPES[c]!);
}

/**
 * Escaped text in its own `<bdi>`: a value from outside (a name, a reason, a file name) whose
 * direction is its own, so a right-to-left name cannot reorder the text around it.
 */
export function isolate(escaped: string): string {
  return `<bdi>${escaped}</bdi>`;
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
