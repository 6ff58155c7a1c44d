/**
 * Workbooks for the spreadsheet scenario (issue #26): a full-size sheet as Excel stores it (every
 * text cell a shared string, the shared strings after the sheet), and a zip bomb (1 MB of zip
 * whose shared strings inflate to 1 GiB). Written part by part: nothing is held whole.
 */
import fs from 'node:fs';
import { ZipWriter } from '../../src/output/zip-writer.js';
import { HEADER, payee } from './data.js';

const NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

async function frame(zip: ZipWriter): Promise<void> {
  await zip.add('[Content_Types].xml', [`<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>`]);
  await zip.add('_rels/.rels', [`<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`]);
  await zip.add('xl/workbook.xml', [`<?xml version="1.0" encoding="UTF-8"?><workbook ${NS}><sheets><sheet name="Payees" sheetId="1" r:id="rId1"/></sheets></workbook>`]);
  await zip.add('xl/_rels/workbook.xml.rels', [`<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`]);
}

function* batched(parts: Iterable<string>): Generator<string> {
  let batch = '';
  for (const part of parts) {
    batch += part;
    if (batch.length > 256 * 1024) {
      yield batch;
      batch = '';
    }
  }
  yield batch;
}

/** The strings of row `index` (0 = the header) in shared-string order, and its amount. */
function rowStrings(index: number): { strings: string[]; amount: string } {
  if (index === 0) return { strings: [...HEADER].filter((h) => h !== 'Amount'), amount: '' };
  const p = payee(3, index);
  return { strings: [p.name, p.account, p.ifsc, `payee${index}@example.com`], amount: `${1000 + ((index * 7919) % 90000)}.00` };
}

/** A sheet of `rows` rows (the header included), five columns, text as shared strings (one per cell, as some writers do). */
export async function writeFullSheet(file: string, rows: number): Promise<void> {
  if (fs.existsSync(file)) return;
  const zip = new ZipWriter(fs.createWriteStream(`${file}.part`));
  await frame(zip);
  function* sheet(): Generator<string> {
    yield `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet ${NS}><dimension ref="A1:E${rows}"/><sheetData>`;
    let next = 0;
    for (let i = 0; i < rows; i += 1) {
      const r = i + 1;
      const { amount } = rowStrings(i);
      const s = (col: string) => `<c r="${col}${r}" t="s"><v>${next++}</v></c>`;
      // Indexes in column order: the header's Amount is a string too.
      const abc = `${s('A')}${s('B')}${s('C')}`;
      const d = i === 0 ? s('D') : `<c r="D${r}"><v>${amount}</v></c>`;
      yield `<row r="${r}">${abc}${d}${s('E')}</row>`;
    }
    yield '</sheetData></worksheet>';
  }
  await zip.add('xl/worksheets/sheet1.xml', batched(sheet()));
  function* strings(): Generator<string> {
    yield `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst ${NS}>`;
    for (let i = 0; i < rows; i += 1) {
      const { strings: texts } = rowStrings(i);
      // The header's fourth string is its Amount heading, in column D.
      const ordered = i === 0 ? [texts[0]!, texts[1]!, texts[2]!, 'Amount', texts[3]!] : texts;
      for (const t of ordered) yield `<si><t>${escape(t)}</t></si>`;
    }
    yield '</sst>';
  }
  await zip.add('xl/sharedStrings.xml', batched(strings()));
  await zip.finish();
  fs.renameSync(`${file}.part`, file);
}

/** A payee sheet of two rows whose shared strings inflate to `inflated` bytes from about a thousandth of that. */
export async function writeZipBomb(file: string, inflated: number): Promise<void> {
  if (fs.existsSync(file)) return;
  const zip = new ZipWriter(fs.createWriteStream(`${file}.part`));
  await frame(zip);
  await zip.add('xl/worksheets/sheet1.xml', [`<?xml version="1.0" encoding="UTF-8"?><worksheet ${NS}><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row><row r="2"><c r="A2" t="s"><v>2</v></c><c r="B2" t="s"><v>3</v></c></row></sheetData></worksheet>`]);
  const item = `<si><t>${'A'.repeat(30_000)}</t></si>`;
  function* strings(): Generator<string> {
    yield `<?xml version="1.0" encoding="UTF-8"?><sst ${NS}><si><t>Account No</t></si><si><t>IFSC</t></si><si><t>500100000048</t></si><si><t>SBIN0000001</t></si>`;
    const block = item.repeat(32);
    for (let written = 0; written < inflated; written += block.length) yield block;
    yield '</sst>';
  }
  await zip.add('xl/sharedStrings.xml', strings(), 9);
  await zip.finish();
  fs.renameSync(`${file}.part`, file);
}
