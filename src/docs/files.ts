/**
 * Pure decisions about where downloaded documents go. Every name that reaches the file system
 * comes from the API (docType, sessionId), so each one is reduced to a plain file-name segment
 * that cannot climb out of the download directory, and names that collide are told apart.
 */
import type { DocumentInfo } from '../api/schemas.js';

/** Longest segment we build from an API value (well below every file system's limit). */
export const MAX_SEGMENT_LENGTH = 64;

// Device names Windows refuses as file names, whatever the extension.
const RESERVED = /^(con|prn|aux|nul|com\d|lpt\d)$/i;

/**
 * A docType (or any API text) as a safe file-name segment: lower case ASCII letters, digits,
 * `-` and `_` only; everything else becomes `-`; no leading dot or dash; never empty; never a
 * reserved device name. `aadhaar` stays `aadhaar`; `../../etc/passwd` becomes `etc-passwd`;
 * `Driving Licence` becomes `driving-licence`.
 */
export function safeSegment(text: string, fallback = 'document'): string {
  const cleaned = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '') // accents off: É → E
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '')
    .slice(0, MAX_SEGMENT_LENGTH)
    .replace(/[-_]+$/g, '');
  if (cleaned === '') return fallback;
  return RESERVED.test(cleaned) ? `${cleaned}-doc` : cleaned;
}

/** Session ids are UUIDs; we accept a little more, but nothing that could be a path. */
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

export function isSafeSessionId(sessionId: string): boolean {
  return SESSION_ID.test(sessionId);
}

/** Where one document's two files go, relative to the session directory. */
export interface DocumentFilePlan {
  /** Index into the documents array. */
  index: number;
  docType: string;
  /** e.g. `aadhaar` (or `aadhaar-2` for a second document of the same type). */
  baseName: string;
  pdf: string;
  xml: string;
}

/**
 * File names for every document, in order: `<docType>.pdf` and `<docType>.xml`. Unknown
 * docTypes are kept (sanitised), not dropped; two documents whose names would collide get
 * `-2`, `-3`, … so no document silently replaces another.
 */
export function planDocumentFiles(docs: readonly Pick<DocumentInfo, 'docType'>[]): DocumentFilePlan[] {
  const used = new Set<string>();
  return docs.map((doc, index) => {
    const base = safeSegment(doc.docType);
    let name = base;
    for (let n = 2; used.has(name); n += 1) name = `${base}-${n}`;
    used.add(name);
    return { index, docType: doc.docType, baseName: name, pdf: `${name}.pdf`, xml: `${name}.xml` };
  });
}
