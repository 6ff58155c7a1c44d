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
