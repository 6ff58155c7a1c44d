/**
 * Pure checks that a downloaded file is what its URL promised, before it is kept: a PDF starts
 * with `%PDF-`; an XML document is well formed. An HTML error page served with status 200 is
 * the usual way this goes wrong, and a KYC file must not silently hold one.
 */
import { XMLValidator } from 'fast-xml-parser';

export type FileCheck = { ok: true } | { ok: false; reason: string };

/** Bytes a PDF may have before its header (the spec allows junk within the first 1024). */
const PDF_HEADER_WINDOW = 1024;

export function checkPdf(bytes: Uint8Array): FileCheck {
  if (bytes.length === 0) return { ok: false, reason: 'the file is empty' };
  const head = Buffer.from(bytes.subarray(0, PDF_HEADER_WINDOW)).toString('latin1');
  // Strictly, "%PDF-" must come first; we allow a UTF-8 BOM or whitespace a proxy may add.
  if (/^(\ufeff|\xef\xbb\xbf)?\s*%PDF-\d/.test(head)) return { ok: true };
  return { ok: false, reason: `it does not start with %PDF- (starts with ${describeStart(bytes)})` };
}

export function checkXml(bytes: Uint8Array): FileCheck {
  if (bytes.length === 0) return { ok: false, reason: 'the file is empty' };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, reason: 'it is not valid UTF-8' };
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (!/^\s*</.test(text)) return { ok: false, reason: `it is not XML (starts with ${describeStart(bytes)})` };
  // fast-xml-parser validates well-formedness (matching tags, attribute syntax, one root)
  // without resolving entities or fetching anything, so a hostile file cannot reach out.
  const result = XMLValidator.validate(text, { allowBooleanAttributes: false });
  if (result === true) return { ok: true };
  return { ok: false, reason: `it is not well-formed XML: ${result.err.msg} (line ${result.err.line}, column ${result.err.col})` };
}

/** The first bytes, printable, for an error message (never more than 16 characters). */
function describeStart(bytes: Uint8Array): string {
  const head = Buffer.from(bytes.subarray(0, 16)).toString('latin1');
  return JSON.stringify(head.replace(/[^\x20-\x7e]/g, '.'));
}
