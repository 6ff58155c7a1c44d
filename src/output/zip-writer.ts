/**
 * A zip written as a stream (an .xlsx is one): each part deflated as its chunks arrive, its CRC
 * and sizes in a data descriptor after it, so no part is ever held whole. A part of another zip
 * can be copied as it is stored (compressed), for the sheets an output keeps unchanged.
 */
import fs from 'node:fs';
import zlib from 'node:zlib';
import { once } from 'node:events';
import { pipeline } from 'node:stream';
import { OutputError } from '../errors.js';

interface Written {
  name: Buffer;
  method: number;
  flags: number;
  crc32: number;
  compressedSize: number;
  size: number;
  offset: number;
}

/** The zip fields this writer keeps 32-bit: an .xlsx past 4 GiB is not one Excel opens anyway. */
const MAX_32 = 0xffffffff;
const UTF8_NAME = 0x800;
const DESCRIPTOR = 0x8;

export class ZipWriter {
  private readonly written: Written[] = [];
  private offset = 0;

  constructor(private readonly out: fs.WriteStream) {}

  private async put(bytes: Buffer): Promise<void> {
    this.offset += bytes.length;
    if (this.offset > MAX_32) throw new OutputError('the .xlsx output would pass 4 GiB: write a CSV output instead (-o FILE.csv)');
    if (this.out.destroyed) throw new OutputError('the .xlsx output was closed');
    if (this.out.write(bytes)) return;
    // A stream destroyed while it waits (a discarded output) closes without draining. One
    // listener of each kind, removed when settled (events.once would add an 'error' listener per wait).
    await new Promise<void>((resolve, reject) => {
      const settle = (error?: Error) => {
        this.out.off('drain', onDrain);
        this.out.off('close', onClose);
        this.out.off('error', settle);
        if (error) reject(error);
        else resolve();
      };
      const onDrain = () => settle();
      const onClose = () => settle(new OutputError('the .xlsx output was closed'));
      this.out.on('drain', onDrain);
      this.out.on('close', onClose);
      this.out.on('error', settle);
    });
  }

  private localHeader(entry: Omit<Written, 'offset'>): Buffer {
    const head = Buffer.alloc(30);
    head.writeUInt32LE(0x04034b50, 0);
    head.writeUInt16LE(20, 4);
    head.writeUInt16LE(entry.flags, 6);
    head.writeUInt16LE(entry.method, 8);
    head.writeUInt32LE(0x00210000, 10); // 1980-01-01 00:00: a fixed date, so equal inputs give equal files.
    head.writeUInt32LE(entry.flags & DESCRIPTOR ? 0 : entry.crc32, 14);
    head.writeUInt32LE(entry.flags & DESCRIPTOR ? 0 : entry.compressedSize, 18);
    head.writeUInt32LE(entry.flags & DESCRIPTOR ? 0 : entry.size, 22);
    head.writeUInt16LE(entry.name.length, 26);
    return Buffer.concat([head, entry.name]);
  }

  /** A new part, deflated from its chunks as they come. */
  async add(name: string, chunks: AsyncIterable<Buffer | string> | Iterable<Buffer | string>, level = 6): Promise<void> {
    const entry = { name: Buffer.from(name, 'utf8'), method: 8, flags: UTF8_NAME | DESCRIPTOR, crc32: 0, compressedSize: 0, size: 0, offset: this.offset };
    await this.put(this.localHeader(entry));
    async function* counted(): AsyncGenerator<Buffer> {
      for await (const piece of chunks) {
        const bytes = typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece;
        entry.crc32 = zlib.crc32(bytes, entry.crc32);
        entry.size += bytes.length;
        yield bytes;
      }
    }
    const deflate = zlib.createDeflateRaw({ level });
    pipeline(counted(), deflate, () => undefined);
    for await (const chunk of deflate as AsyncIterable<Buffer>) {
      entry.compressedSize += chunk.length;
      await this.put(chunk);
    }
    if (entry.size > MAX_32) throw new OutputError('a part of the .xlsx output would pass 4 GiB: write a CSV output instead (-o FILE.csv)');
    const descriptor = Buffer.alloc(16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(entry.crc32 >>> 0, 4);
    descriptor.writeUInt32LE(entry.compressedSize, 8);
    descriptor.writeUInt32LE(entry.size, 12);
    await this.put(descriptor);
    this.written.push(entry);
  }

  /** A part copied as another zip stores it (still compressed), with its CRC and sizes. */
  async copy(name: string, stored: { method: number; crc32: number; compressedSize: number; size: number }, raw: AsyncIterable<Buffer>): Promise<void> {
    const entry = { name: Buffer.from(name, 'utf8'), method: stored.method, flags: UTF8_NAME, crc32: stored.crc32, compressedSize: stored.compressedSize, size: stored.size, offset: this.offset };
    await this.put(this.localHeader(entry));
    for await (const chunk of raw) await this.put(chunk);
    this.written.push(entry);
  }

  /** Writes the index and ends the stream; resolves once the file is closed. */
  async finish(): Promise<void> {
    const start = this.offset;
    for (const entry of this.written) {
      const head = Buffer.alloc(46);
      head.writeUInt32LE(0x02014b50, 0);
      head.writeUInt16LE(20, 4);
      head.writeUInt16LE(20, 6);
      head.writeUInt16LE(entry.flags, 8);
      head.writeUInt16LE(entry.method, 10);
      head.writeUInt32LE(0x00210000, 12);
      head.writeUInt32LE(entry.crc32 >>> 0, 16);
      head.writeUInt32LE(entry.compressedSize, 20);
      head.writeUInt32LE(entry.size, 24);
      head.writeUInt16LE(entry.name.length, 28);
      head.writeUInt32LE(entry.offset, 42);
      await this.put(Buffer.concat([head, entry.name]));
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.written.length, 8);
    end.writeUInt16LE(this.written.length, 10);
    end.writeUInt32LE(this.offset - start, 12);
    end.writeUInt32LE(start, 16);
    await this.put(end);
    this.out.end();
    if (!this.out.closed) await once(this.out, 'close');
  }
}
