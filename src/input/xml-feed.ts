/**
 * Feeding a workbook part's inflated bytes to saxes (a streaming, well-formedness-checking XML
 * parser) within the bounds of sheet-limits.ts. saxes keeps a text node, a comment or a tag in
 * memory until its end: a 600 MB cell would be one 600 MB string. So the characters fed since
 * the parser's last event are counted after each chunk, and a run longer than any cell Excel
 * can hold (escaped) stops the read before it grows further.
 */
import { StringDecoder } from 'node:string_decoder';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { InputError } from '../errors.js';
import type { ZipEntry, ZipFile } from './zip-reader.js';
import { damagedError, limitError } from './sheet-limits.js';

/** An escaped character is at most 10 characters of XML (`&#x10FFFF;`); 6 covers `&amp;`-style text. */
const ESCAPE_FACTOR = 6;
/** Room for a cell's tags and attributes around its text. */
const TAG_SLACK = 64 * 1024;

export interface XmlHandlers {
  /** `name` without its namespace prefix; `raw` as written (for a writer that copies the XML). */
  open(name: string, attributes: Record<string, string>, raw: string): void;
  text(text: string): void;
  close(name: string, raw: string): void;
}

/** A tag's name without its namespace prefix (`x:row` → `row`): writers differ in prefixes, not in names. */
export function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
}

export class XmlFeed {
  private readonly parser = new SaxesParser({});
  private readonly decoder = new StringDecoder('utf8');
  private lastEvent = 0;
  private readonly maxRun: number;

  constructor(
    private readonly zip: ZipFile,
    private readonly entry: ZipEntry,
    handlers: XmlHandlers,
    maxCellChars: number,
  ) {
    this.maxRun = maxCellChars * ESCAPE_FACTOR + TAG_SLACK;
    const mark = () => {
      this.lastEvent = this.parser.position;
    };
    this.parser.on('opentag', (tag: SaxesTagPlain) => {
      mark();
      handlers.open(localName(tag.name), tag.attributes, tag.name);
    });
    this.parser.on('closetag', (tag: SaxesTagPlain) => {
      mark();
      handlers.close(localName(tag.name), tag.name);
    });
    this.parser.on('text', (text: string) => {
      mark();
      handlers.text(text);
    });
    this.parser.on('cdata', (text: string) => {
      mark();
      handlers.text(text);
    });
    this.parser.on('comment', mark);
    this.parser.on('processinginstruction', mark);
    this.parser.on('doctype', mark);
  }

  /** Parses one chunk; the handlers run inside this call. */
  write(chunk: Buffer): void {
    this.guard(() => this.parser.write(this.decoder.write(chunk)));
    if (this.parser.position - this.lastEvent > this.maxRun) {
      throw limitError(this.zip.file, `the part ${this.entry.name} has a cell, tag or comment longer than ${this.maxRun.toLocaleString('en-US')} characters (Excel holds at most 32,767 in a cell)`);
    }
  }

  end(): void {
    this.guard(() => this.parser.write(this.decoder.end()).close());
  }

  private guard(task: () => void): void {
    try {
      task();
    } catch (error) {
      if (error instanceof InputError) throw error;
      throw damagedError(this.zip.file, `the part ${this.entry.name} is not well-formed XML (${(error as Error).message})`);
    }
  }
}

/** Reads a whole part through the handlers. */
export async function readXmlPart(zip: ZipFile, entry: ZipEntry, handlers: XmlHandlers, maxCellChars: number): Promise<void> {
  const feed = new XmlFeed(zip, entry, handlers, maxCellChars);
  for await (const chunk of zip.inflate(entry)) feed.write(chunk);
  feed.end();
}
