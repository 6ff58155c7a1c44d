/**
 * Documents a completed document-locker session returns, and the files behind pdfUrl/xmlUrl:
 * a minimal but valid PDF (correct xref offsets, so strict readers open it) and well-formed XML.
 */
import { personFor, type Gender } from './data/names.js';
import { intBetween, pick, randomFor } from './prng.js';

export type DocType = 'aadhaar' | 'pan';

/** One issued document, before its URLs are attached. */
export interface IssuedDocument {
  readonly docType: DocType;
  /** Aadhaar is masked to its last four digits, as the service returns it. */
  readonly idNumber: string;
  readonly name: string;
  /** DDMMYYYY */
  readonly dob: string;
  readonly gender: Gender;
}

const ISSUERS: Readonly<Record<DocType, string>> = {
  aadhaar: 'Unique Identification Authority of India',
  pan: 'Income Tax Department, Government of India',
};
const TITLES: Readonly<Record<DocType, string>> = {
  aadhaar: 'Aadhaar (masked)',
  pan: 'Permanent Account Number Card',
};
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Aadhaar and PAN for one generated person; deterministic per key and seed. */
export function documentsFor(key: string, seed: number): IssuedDocument[] {
  const person = personFor(`documents:${key}`, seed);
  const random = randomFor(`documents:${key}`, seed);
  const day = String(intBetween(random, 1, 28)).padStart(2, '0');
  const month = String(intBetween(random, 1, 12)).padStart(2, '0');
  const dob = `${day}${month}${intBetween(random, 1958, 2004)}`;
  const aadhaarLast4 = String(intBetween(random, 0, 9999)).padStart(4, '0');
  // PAN: 3 letters, P for an individual, the surname's initial, 4 digits, a check letter.
  const surnameInitial = person.name.split(' ').at(-1)?.charAt(0) ?? 'K';
  const letter = (): string => pick(random, [...LETTERS]);
  const pan = `${letter()}${letter()}${letter()}P${surnameInitial}${String(intBetween(random, 1, 9999)).padStart(4, '0')}${letter()}`;
  return [
    { docType: 'aadhaar', idNumber: `xxxxxxxx${aadhaarLast4}`, name: person.name, dob, gender: person.gender },
    { docType: 'pan', idNumber: pan, name: person.name, dob, gender: person.gender },
  ];
}

const formatDob = (dob: string): string => `${dob.slice(0, 2)}/${dob.slice(2, 4)}/${dob.slice(4)}`;

// PDF strings are latin1 and use backslash escapes for the delimiters.
const pdfText = (text: string): string => text.replace(/[^\x20-\x7e]/g, '?').replace(/([\\()])/g, '\\$1');

/** A one-page PDF 1.4 showing the document's title, holder and id number as text. */
export function renderPdf(doc: IssuedDocument, issuedAt: Date): Buffer {
  const lines = [
    `Issued by: ${ISSUERS[doc.docType]}`,
    `Name: ${doc.name}`,
    `${doc.docType === 'aadhaar' ? 'Aadhaar number' : 'PAN'}: ${doc.idNumber}`,
    `Date of birth: ${formatDob(doc.dob)}`,
    `Gender: ${doc.gender}`,
    `Issued on: ${issuedAt.toISOString()}`,
    'Sandbox document - not valid for any purpose.',
  ];
  const content = [
    'BT',
    '/F1 20 Tf',
    '72 760 Td',
    `(${pdfText(TITLES[doc.docType])}) Tj`,
    '/F1 12 Tf',
    ...lines.flatMap((line) => ['0 -26 Td', `(${pdfText(line)}) Tj`]),
    'ET',
  ].join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Title (${pdfText(`${TITLES[doc.docType]} - ${doc.name}`)}) /Producer (vas-verify sandbox) >>`,
  ];
  // Byte offsets are what a reader seeks to, so build in latin1 where chars == bytes.
  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(out.length);
    out += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xrefAt = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 6 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

const xmlText = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');

/** A small well-formed XML certificate carrying the same fields as the JSON document. */
export function renderXml(doc: IssuedDocument, issuedAt: Date): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<Certificate type="${doc.docType}" issuer="${xmlText(ISSUERS[doc.docType])}" issuedAt="${issuedAt.toISOString()}" sandbox="true">`,
    `  <IdNumber>${xmlText(doc.idNumber)}</IdNumber>`,
    `  <Name>${xmlText(doc.name)}</Name>`,
    `  <Dob>${doc.dob}</Dob>`,
    `  <Gender>${doc.gender}</Gender>`,
    '</Certificate>',
    '',
  ].join('\n');
}
