/**
 * Workbooks written part by part for the tests, hostile ones included (a zip bomb, a huge cell,
 * millions of shared strings): each part's XML comes from a generator and is deflated as it is
 * produced, so a part that inflates to a GiB never exists whole in the test process.
 */
import fs from 'node:fs';
import { ZipWriter } from '../../src/output/zip-writer.js';

export type XmlSource = string | Iterable<string>;

export interface TestSheet {
  name: string;
  xml: XmlSource;
}

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** A sheet's XML around rows given as XML. */
export function* sheetXml(rows: Iterable<string>): Generator<string> {
  yield `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet ${NS}><sheetData>`;
  let batch = '';
  for (const row of rows) {
    batch += row;
    if (batch.length > 65_536) {
      yield batch;
      batch = '';
    }
  }
  yield `${batch}</sheetData></worksheet>`;
}

/** One row of inline-string and number cells: strings as text cells, numbers as number cells. */
export function rowXml(number: number, cells: ReadonlyArray<string | number>): string {
  const body = cells
    .map((c) => (typeof c === 'number' ? `<c><v>${c}</v></c>` : `<c t="inlineStr"><is><t>${escape(c)}</t></is></c>`))
    .join('');
  return `<row r="${number}">${body}</row>`;
}

/** A shared-strings part from its strings. */
export function* sharedStringsXml(strings: Iterable<string>): Generator<string> {
  yield `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst ${NS}>`;
  let batch = '';
  for (const s of strings) {
    batch += `<si><t>${escape(s)}</t></si>`;
    if (batch.length > 65_536) {
      yield batch;
      batch = '';
    }
  }
  yield `${batch}</sst>`;
}

/** Writes a workbook of these sheets (and shared strings, stored after the sheets as Excel does). */
export async function writeWorkbook(file: string, sheets: readonly TestSheet[], sharedStrings?: XmlSource): Promise<void> {
  const zip = new ZipWriter(fs.createWriteStream(file, { mode: 0o600 }));
  const types = sheets.map((_, i) => `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`).join('');
  await zip.add('[Content_Types].xml', [`<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>${types}${sharedStrings === undefined ? '' : '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>'}</Types>`]);
  await zip.add('_rels/.rels', [`<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`]);
  const sheetList = sheets.map((s, i) => `<sheet name="${escape(s.name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('');
  await zip.add('xl/workbook.xml', [`<?xml version="1.0" encoding="UTF-8"?><workbook ${NS}><sheets>${sheetList}</sheets></workbook>`]);
  const rels = sheets.map((_, i) => `<Relationship Id="rId${i + 1}" Type="${REL}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`).join('');
  const sst = sharedStrings === undefined ? '' : `<Relationship Id="rId${sheets.length + 1}" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/>`;
  await zip.add('xl/_rels/workbook.xml.rels', [`<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels}${sst}</Relationships>`]);
  for (const [i, sheet] of sheets.entries()) await zip.add(`xl/worksheets/sheet${i + 1}.xml`, typeof sheet.xml === 'string' ? [sheet.xml] : sheet.xml);
  if (sharedStrings !== undefined) await zip.add('xl/sharedStrings.xml', typeof sharedStrings === 'string' ? [sharedStrings] : sharedStrings);
  await zip.finish();
}

export interface OdsSheet {
  name: string;
  /** Cells: a string, a number, or `{ xml }`: a cell's own XML (a formula, a merge, a covered cell). */
  rows: ReadonlyArray<ReadonlyArray<string | number | { xml: string }>>;
  /**
   * How the sheet is hidden: `automatic` as LibreOffice writes it (its automatic table style says
   * `table:display="false"`), `common` through a common style of styles.xml its automatic style
   * inherits from. Default: visible.
   */
  hidden?: 'automatic' | 'common' | undefined;
}

const ODS_NS = [
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"',
  'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"',
  'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"',
  'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"',
].join(' ');

/** Writes an .ods as LibreOffice Calc does: sheets shown or hidden through their table styles; `generator`: meta.xml's (none by default, as a script writes). */
export async function writeOds(file: string, sheets: readonly OdsSheet[], generator?: string): Promise<void> {
  const zip = new ZipWriter(fs.createWriteStream(file, { mode: 0o600 }));
  await zip.add('mimetype', ['application/vnd.oasis.opendocument.spreadsheet'], 0);
  if (generator !== undefined) {
    await zip.add('meta.xml', [`<?xml version="1.0" encoding="UTF-8"?><office:document-meta xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0" office:version="1.3"><office:meta><meta:generator>${escape(generator)}</meta:generator></office:meta></office:document-meta>`]);
  }
  await zip.add('META-INF/manifest.xml', [`<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/><manifest:file-entry manifest:full-path="styles.xml" manifest:media-type="text/xml"/></manifest:manifest>`]);
  await zip.add('styles.xml', [`<?xml version="1.0" encoding="UTF-8"?><office:document-styles ${ODS_NS} office:version="1.3"><office:styles><style:style style:name="HiddenSheet" style:family="table"><style:table-properties table:display="false"/></style:style></office:styles></office:document-styles>`]);
  const cell = (c: string | number | { xml: string }) => (typeof c === 'object' ? c.xml : typeof c === 'number'
    ? `<table:table-cell office:value-type="float" office:value="${c}" calcext:value-type="float"><text:p>${c}</text:p></table:table-cell>`
    : `<table:table-cell office:value-type="string" calcext:value-type="string"><text:p>${escape(c)}</text:p></table:table-cell>`);
  const style = (s: OdsSheet) => (s.hidden === 'automatic' ? 'ta2' : s.hidden === 'common' ? 'ta3' : 'ta1');
  const tables = sheets.map((s) => `<table:table table:name="${escape(s.name)}" table:style-name="${style(s)}"><table:table-column table:number-columns-repeated="4"/>${s.rows.map((r) => `<table:table-row>${r.map(cell).join('')}</table:table-row>`).join('')}</table:table>`).join('');
  await zip.add('content.xml', [
    `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${ODS_NS} xmlns:calcext="urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0" office:version="1.3"><office:automatic-styles>`,
    '<style:style style:name="ta1" style:family="table" style:master-page-name="Default"><style:table-properties table:display="true" style:writing-mode="lr-tb"/></style:style>',
    '<style:style style:name="ta2" style:family="table" style:master-page-name="Default"><style:table-properties table:display="false" style:writing-mode="lr-tb"/></style:style>',
    '<style:style style:name="ta3" style:family="table" style:parent-style-name="HiddenSheet"><style:table-properties style:writing-mode="lr-tb"/></style:style>',
    `</office:automatic-styles><office:body><office:spreadsheet>${tables}</office:spreadsheet></office:body></office:document-content>`,
  ]);
  await zip.finish();
}
