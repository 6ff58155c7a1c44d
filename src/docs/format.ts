/**
 * Pure formatting of document-locker results for people and scripts: dates, tables, and the
 * neutralising of text that came from the API before it reaches a terminal.
 */
import type { DocumentInfo } from '../api/schemas.js';

/**
 * DDMMYYYY → YYYY-MM-DD when it is a real calendar date; anything else is shown as returned
 * (a KYC reviewer must see what the service said, not a guess).
 */
export function formatDob(raw: string): string {
  const match = /^(\d{2})(\d{2})(\d{4})$/.exec(raw.trim());
  if (match === null) return raw;
  const [, dd, mm, yyyy] = match as unknown as [string, string, string, string];
  const day = Number(dd);
  const month = Number(mm);
  const year = Number(yyyy);
  const date = new Date(Date.UTC(year, month - 1, day));
  if (year < 1800 || date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return raw;
  return `${yyyy}-${mm}-${dd}`;
}

/**
 * Text from the API as one printable cell: control characters (a hostile value could carry
 * terminal escape sequences or fake line breaks) become U+FFFD, runs of spaces collapse.
 */
export function toCell(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, '\ufffd').replace(/ {2,}/g, ' ').trim();
}

/** What one document looks like to a person or a script (URLs are capabilities: left out). */
export interface DocumentView {
  docType: string;
  idNumber: string;
  name: string;
  /** YYYY-MM-DD, or as returned when it is not a DDMMYYYY date. */
  dob: string;
  gender: string;
}

export function toDocumentView(doc: DocumentInfo): DocumentView {
  return {
    docType: doc.docType,
    idNumber: maskAadhaar(doc.docType, doc.idNumber),
    name: doc.name,
    dob: formatDob(doc.dob),
    gender: doc.gender,
  };
}

const AADHAAR_TYPE = /aadhaa?r|^uid/i;
const AADHAAR_SHAPE = /^\s*\d{4}[ -]?\d{4}[ -]?\d{4}\s*$/;

/**
 * An Aadhaar number as it may be shown: its last four digits (`xxxxxxxx1234`, the form the
 * interface promises). A service that returns the full number (an Aadhaar docType, or any
 * twelve-digit id) is masked here rather than printed or kept; a masked one is left as returned.
 */
export function maskAadhaar(docType: string, idNumber: string): string {
  if (!AADHAAR_TYPE.test(docType) && !AADHAAR_SHAPE.test(idNumber)) return idNumber;
  const digits = idNumber.replace(/\D/g, '');
  return digits.length > 4 ? `xxxxxxxx${digits.slice(-4)}` : idNumber;
}

/** A plain text table: a header, a rule, one line per row; every cell neutralised. */
export function formatTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const cells = rows.map((row) => headers.map((_, i) => toCell(row[i] ?? '')));
  const widths = headers.map((header, i) => Math.max(width(header), ...cells.map((row) => width(row[i] ?? ''))));
  const line = (row: readonly string[]) =>
    row.map((cell, i) => (i === row.length - 1 ? cell : pad(cell, widths[i] ?? 0))).join('  ').trimEnd();
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n') + '\n';
}

/** The documents of a session as a table: docType, id (as returned), name, date of birth, gender. */
export function formatDocumentsTable(docs: readonly DocumentInfo[]): string {
  return formatTable(
    ['DOC TYPE', 'ID NUMBER', 'NAME', 'DATE OF BIRTH', 'GENDER'],
    docs.map((doc) => {
      const view = toDocumentView(doc);
      return [view.docType, view.idNumber, view.name, view.dob, view.gender];
    }),
  );
}

/** One session as `docs fetch` (no id) lists it. */
export interface SessionListRow {
  sessionId: string;
  createdAt: number;
  status: string;
  fetchedAt: number | null;
  files: readonly string[];
  /** Kind of the last callback received for it, if any (success | failure). */
  lastCallback: string | null;
}

export function formatSessionsTable(rows: readonly SessionListRow[]): string {
  if (rows.length === 0) return 'no document sessions in this state file yet: start one with `vas-verify docs init`\n';
  return formatTable(
    ['SESSION', 'CREATED', 'STATUS', 'CALLBACK', 'FETCHED', 'FILES'],
    rows.map((row) => [
      row.sessionId,
      isoMinute(row.createdAt),
      row.status,
      row.lastCallback ?? '-',
      row.fetchedAt === null ? '-' : isoMinute(row.fetchedAt),
      String(row.files.length),
    ]),
  );
}

/** 2024-05-01T10:20Z: enough for a listing, and unambiguous (UTC). */
export function isoMinute(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16)}Z`;
}

function width(text: string): number {
  return [...text].length;
}

function pad(text: string, to: number): string {
  return text + ' '.repeat(Math.max(0, to - width(text)));
}
