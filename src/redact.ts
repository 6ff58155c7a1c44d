/**
 * Secret redaction hook. Every AppError's message passes through `redact()` (src/errors.ts), so a
 * registry of secrets (tokens, client secrets) can keep them out of every error text. This
 * stub passes text through unchanged; the registry replaces it.
 */
export function redact(text: string): string {
  return text;
}
