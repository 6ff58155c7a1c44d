/**
 * The one redaction point (README, Security). Every secret the process learns — the static token,
 * the client secret, every access token the token endpoint issues, the password of a URL — is
 * registered here the moment it is known, and every error text is passed through `redact` where
 * the error is created, so nothing built from it (a CSV cell, the state file, a summary, JSON
 * output, a log line) can carry a secret an upstream echoed back.
 *
 * The registry is process-wide on purpose: secrets are learned deep inside the client (a refreshed
 * OAuth token) while errors are created in many modules, and the error base class must be able to
 * redact without being handed a registry. A process holds one set of credentials; a secret
 * registered stays registered (over-redacting a string that merely equals an old token is harmless).
 */

/** What a secret is replaced with. */
export const REDACTED = '[redacted]';
/** Shorter values are not registered: redacting them would mangle ordinary text. */
export const MIN_SECRET_LENGTH = 4;
/** Longest excerpt of an upstream body kept in an error (characters, after redaction). */
export const EXCERPT_LIMIT = 200;

/** scheme://user:PASSWORD@ — the password part (not one already masked as ***). */
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s/?#@:]*:)(?!\*\*\*@)[^\s/?#@]+@/gi;

const secrets = new Set<string>();
/** Registered values, longest first (a token that contains another is replaced whole). */
let ordered: string[] = [];

/** Registers a secret, and the forms an echo may show it in (URL-encoded, as in a form body). */
export function registerSecret(value: string | undefined | null): void {
  if (!value || value.length < MIN_SECRET_LENGTH) return;
  const forms = new Set([value, encodeURIComponent(value), new URLSearchParams({ v: value }).toString().slice(2)]);
  try {
    forms.add(decodeURIComponent(value));
  } catch {
    // Not URL-encoded text: nothing more to add.
  }
  let added = false;
  for (const form of forms) {
    if (form.length >= MIN_SECRET_LENGTH && !secrets.has(form)) {
      secrets.add(form);
      added = true;
    }
  }
  if (added) ordered = [...secrets].sort((a, b) => b.length - a.length);
}

/** Registers the userinfo (password, and a user name given with it) of a URL, if it has any. */
export function registerUrlSecrets(text: string | undefined): void {
  if (!text) return;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return;
  }
  if (url.password) {
    registerSecret(url.password);
    registerSecret(decodeURIComponentSafe(url.password));
  }
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** `text` with every registered secret replaced by REDACTED. */
export function redact(text: string): string {
  // A URL's password, however short, and whether or not it was registered (one printed masked, ***, stays so).
  let out = text.includes('@') ? text.replace(URL_PASSWORD, `$1${REDACTED}@`) : text;
  if (ordered.length === 0 || out.length < MIN_SECRET_LENGTH) return out;
  for (const secret of ordered) {
    if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
  return out;
}

/** A PAN (five letters, four digits, a letter), free-standing (a sentence's full stop may follow). */
const PAN = /(?<![0-9A-Za-z_./\\-])[A-Za-z]{5}(\d{4}[A-Za-z])(?![0-9A-Za-z_/\\-]|\.[0-9A-Za-z])/g;
/** An Aadhaar number written in groups of four (`1234 5678 9012`, `1234-5678-9012`). */
const GROUPED_AADHAAR = /(?<![0-9A-Za-z_./\\-])\d{4}([ -])\d{4}\1(\d{4})(?![0-9A-Za-z_/\\-]|\.[0-9A-Za-z])/g;
/** A date given as someone's date of birth: `DOB 01/02/1990`, `date of birth: 1990-02-01`, JSON's `"dob": "01021990"`. */
const BIRTH_DATE = /\b(d\.?o\.?b\.?|date[ _]?of[ _]?birth|birth[ _]?date)([\s"':=]{0,5})(\d{1,4}[-/. ]\d{1,2}[-/. ]\d{1,4}|\d{8})\b/gi;

/**
 * The identifiers a document-locker or bank answer may quote besides an account number (masked
 * where accounts are, pipeline/checks.ts): a PAN, an Aadhaar number in groups, a date of birth
 * after its label. Applied to what an upstream says (`excerpt`), not to our own messages, where
 * a file name like MARCH2025A.csv is no PAN.
 */
export function maskPersonalIds(text: string): string {
  return text.replace(PAN, 'xxxxx$1').replace(GROUPED_AADHAAR, 'xxxx$1xxxx$1$2').replace(BIRTH_DATE, '$1$2xx-xx-xxxx');
}

/**
 * A short, one-line, redacted excerpt of an upstream body, personal identifiers masked
 * (maskPersonalIds). Redacted before it is cut, so a secret cut in half by the limit cannot
 * survive as a prefix.
 */
export function excerpt(text: string, limit: number = EXCERPT_LIMIT): string {
  // Only the start is ever shown: do not scan hundreds of kilobytes of an echoed page.
  const head = text.length > limit * 8 ? text.slice(0, limit * 8) : text;
  const oneLine = maskPersonalIds(redact(head)).replace(/\s+/g, ' ').trim();
  return oneLine.length > limit || head.length < text.length ? `${oneLine.slice(0, limit)}…` : oneLine;
}

/** For tests: forget every registered secret. */
export function clearSecretsForTest(): void {
  secrets.clear();
  ordered = [];
}
