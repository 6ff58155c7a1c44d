/**
 * The payee sheet of an .xlsx input, re-written for the output (docs/ARCHITECTURE.md, "Layout",
 * src/output/): everything around its rows (column widths, views, merged cells, conditional
 * formats, …) copied, its rows handed out one at a time with their cells as they were (type,
 * style, formula, value), so the writer can append the tool's columns to each. The `dimension`
 * and each row's `spans` are left out: the rows are wider now, and both are optional.
 */
import { escapeXml } from './xml-text.js';
import { limitError, type SheetLimits } from '../input/sheet-limits.js';
import { RowBuilder, type SheetCell, type SheetRow } from '../input/xlsx-stream.js';
import { XmlFeed, type XmlHandlers } from '../input/xml-feed.js';
import type { ZipEntry, ZipFile } from '../input/zip-reader.js';

export type SheetPiece = { kind: 'xml'; xml: string } | { kind: 'row'; row: SheetRow };

/** `0` → `A`, `27` → `AB`. */
export function columnName(col: number): string {
  let name = '';
  for (let n = col + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

function attributesXml(attributes: Record<string, string> | undefined): string {
  let xml = '';
  for (const [name, value] of Object.entries(attributes ?? {})) xml += ` ${name}="${escapeXml(value)}"`;
  return xml;
}

/** A cell of the input as it was: its type, style, formula and value. */
export function cellXml(cell: SheetCell, row: number): string {
  const type = cell.type === 'n' ? '' : ` t="${escapeXml(cell.type)}"`;
  const style = cell.style === undefined ? '' : ` s="${escapeXml(cell.style)}"`;
  let body = cell.formula === undefined ? '' : `<f${attributesXml(cell.formulaAttributes)}>${escapeXml(cell.formula)}</f>`;
  if (cell.type === 'inlineStr') body += `<is><t xml:space="preserve">${escapeXml(cell.value)}</t></is>`;
  else if (cell.value !== '') body += `<v>${escapeXml(cell.value)}</v>`;
  return `<c r="${columnName(cell.col)}${row}"${style}${type}${attributesXml(cell.extra)}>${body}</c>`;
}

/** A text cell the tool adds. */
export function textCellXml(col: number, row: number, text: string, style?: string): string {
  const s = style === undefined ? '' : ` s="${escapeXml(style)}"`;
  return `<c r="${columnName(col)}${row}"${s} t="inlineStr"><is><t xml:space="preserve">${escapeXml(text)}</t></is></c>`;
}

export function rowOpenXml(row: SheetRow): string {
  const { spans: _spans, ...attributes } = row.attributes;
  return `<row r="${row.number}"${attributesXml(attributes)}>`;
}

/**
 * The root's attributes, with its prefix's namespace also declared as the default one when the
 * sheet names it only through a prefix (`<x:worksheet xmlns:x="…main">`, as the Open XML SDK and
 * .NET exporters write): the rows and cells written here are unprefixed, and without a default
 * namespace they would be in none (Excel calls the file damaged).
 */
function withDefaultNamespace(raw: string, attributes: Record<string, string>): Record<string, string> {
  const colon = raw.indexOf(':');
  if (colon === -1 || attributes.xmlns !== undefined) return attributes;
  const uri = attributes[`xmlns:${raw.slice(0, colon)}`];
  return uri === undefined ? attributes : { xmlns: uri, ...attributes };
}

/** Serialises what is outside `<sheetData>`; inside, a RowBuilder makes rows. */
class SheetSplitter implements XmlHandlers {
  readonly pieces: SheetPiece[] = [];
  private buffered = '';
  private openTag = false;
  private inData = false;
  private skipping = 0;
  private outside = 0;

  constructor(
    private readonly rows: RowBuilder,
    private readonly file: string,
    private readonly limits: SheetLimits,
  ) {}

  private put(xml: string): void {
    if (this.openTag) {
      this.buffered += '>';
      this.openTag = false;
    }
    this.buffered += xml;
    this.outside += xml.length;
    if (this.outside > this.limits.maxPartBytes) throw limitError(this.file, 'the payee sheet has more than 16 MiB around its rows', 'write a CSV output instead (-o FILE.csv)');
  }

  open(name: string, attributes: Record<string, string>, raw: string): void {
    if (this.inData) return this.rows.open(name, attributes);
    if (this.skipping > 0 || name === 'dimension') {
      this.skipping += 1;
      return;
    }
    this.put(`<${raw}${attributesXml(name === 'worksheet' ? withDefaultNamespace(raw, attributes) : attributes)}`);
    this.openTag = true;
    if (name === 'sheetData') {
      this.put('');
      this.inData = true;
      this.flush();
    }
  }

  text(text: string): void {
    if (this.inData) this.rows.text(text);
    else if (this.skipping === 0) this.put(escapeXml(text));
  }

  close(name: string, raw: string): void {
    if (this.inData && name !== 'sheetData') {
      this.rows.close(name);
      for (const row of this.rows.ready.splice(0)) this.pieces.push({ kind: 'row', row });
      return;
    }
    if (this.skipping > 0) {
      this.skipping -= 1;
      return;
    }
    if (name === 'sheetData') this.inData = false;
    if (this.openTag) {
      this.buffered += '/>';
      this.openTag = false;
    } else this.put(`</${raw}>`);
  }

  flush(): void {
    if (this.buffered !== '') this.pieces.push({ kind: 'xml', xml: this.buffered });
    this.buffered = '';
  }
}

/** The payee sheet's pieces in order: the XML before its first row, its rows, the XML after. */
export async function* sheetPieces(zip: ZipFile, entry: ZipEntry, limits: SheetLimits): AsyncGenerator<SheetPiece> {
  const splitter = new SheetSplitter(new RowBuilder(zip.file, limits), zip.file, limits);
  const feed = new XmlFeed(zip, entry, splitter, limits.maxCellChars);
  yield { kind: 'xml', xml: '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' };
  for await (const chunk of zip.inflate(entry)) {
    feed.write(chunk);
    if (splitter.pieces.length > 0) yield* splitter.pieces.splice(0);
  }
  feed.end();
  splitter.flush();
  yield* splitter.pieces.splice(0);
}
