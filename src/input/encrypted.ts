/**
 * Workbooks saved with a password to open (docs/ARCHITECTURE.md, "Layout", src/input/). Excel
 * encrypts an .xlsx into an OLE2 compound file (magic D0 CF 11 E0 A1 B1 1A E1) whose root holds
 * the streams `EncryptionInfo` and `EncryptedPackage`, whatever the file's name; an .xls with a
 * password has a FILEPASS record (SheetJS says "File is password-protected"); LibreOffice encrypts
 * an .ods's parts and says so in its manifest. None can be read without the password: the run
 * says so, and how to remove it, instead of calling the file damaged or not a workbook.
 */
import fs from 'node:fs';
import { InputError } from '../errors.js';

const OLE2_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
/** Sector numbers at or past this are markers (end of chain, free, FAT, DIFAT), not sectors. */
const MAX_SECTOR = 0xfffffffa;
const DIRECTORY_ENTRY_BYTES = 128;
const NO_ENTRY = 0xffffffff;
/** The streams of an encrypted Office Open XML package ([MS-OFFCRYPTO] 2.3.4.1). */
const ENCRYPTED_PACKAGE_STREAMS = new Set(['EncryptedPackage', 'EncryptionInfo']);

export type PasswordApp = 'excel' | 'calc';

/** The one message for a workbook with a password to open, with what to do in the program that saved it. */
export function passwordProtectedError(file: string, app: PasswordApp = 'excel'): InputError {
  const how = app === 'excel'
    ? 'remove the password in Excel (File > Info > Protect Workbook > Encrypt with Password, clear the password, OK, then save)'
    : 'remove the password in LibreOffice Calc (File > Save As, untick "Save with password", then save)';
  return new InputError(`input ${file} is password-protected (encrypted with a password to open), and vas-verify cannot read it: ${how}, or save a copy without a password, and run that`);
}

/** Whether a file's first bytes are an OLE2 compound file's (.xls, or an encrypted .xlsx). */
export function isCompoundFile(head: Buffer): boolean {
  return head.length >= OLE2_MAGIC.length && head.subarray(0, OLE2_MAGIC.length).equals(OLE2_MAGIC);
}

/**
 * Whether a compound file is an encrypted Office Open XML package: a stream named
 * `EncryptedPackage` or `EncryptionInfo` at its root. Reads the header, the FAT sectors the
 * directory's chain passes through, and the directory; anything malformed is "no" (the reader
 * that follows says what is wrong with the file).
 */
export function isEncryptedPackage(file: string): boolean {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return false;
  }
  try {
    return rootStreamNames(fd).some((name) => ENCRYPTED_PACKAGE_STREAMS.has(name));
  } catch {
    return false;
  } finally {
    fs.closeSync(fd);
  }
}

/** The names of the entries at the root of a compound file's directory ([MS-CFB] 2.2, 2.6). */
function rootStreamNames(fd: number): string[] {
  const size = fs.fstatSync(fd).size;
  const read = (offset: number, length: number): Buffer => {
    const buf = Buffer.alloc(length);
    if (fs.readSync(fd, buf, 0, length, offset) !== length) throw new Error('short read');
    return buf;
  };
  const header = read(0, 512);
  if (!isCompoundFile(header)) return [];
  const shift = header.readUInt16LE(0x1e);
  if (shift !== 9 && shift !== 12) return [];
  const sectorBytes = 1 << shift;
  const sectors = Math.ceil(size / sectorBytes);
  const offsetOf = (sector: number) => (sector + 1) * sectorBytes;
  // The FAT's sectors: the first 109 listed in the header, the rest in the DIFAT chain.
  const fatCount = header.readUInt32LE(0x2c);
  if (fatCount > sectors) return [];
  const fat: number[] = [];
  for (let i = 0; i < 109 && fat.length < fatCount; i += 1) fat.push(header.readUInt32LE(0x4c + i * 4));
  let difat = header.readUInt32LE(0x44);
  for (let hops = 0; fat.length < fatCount && difat < MAX_SECTOR && hops < sectors; hops += 1) {
    const block = read(offsetOf(difat), sectorBytes);
    for (let i = 0; i < sectorBytes / 4 - 1 && fat.length < fatCount; i += 1) fat.push(block.readUInt32LE(i * 4));
    difat = block.readUInt32LE(sectorBytes - 4);
  }
  const perFatSector = sectorBytes / 4;
  const next = (sector: number): number => {
    const fatSector = fat[Math.floor(sector / perFatSector)];
    if (fatSector === undefined || fatSector >= MAX_SECTOR) throw new Error('sector outside the FAT');
    return read(offsetOf(fatSector) + (sector % perFatSector) * 4, 4).readUInt32LE(0);
  };
  // The directory: its chain of sectors, 128-byte entries.
  const entries: Buffer[] = [];
  let sector = header.readUInt32LE(0x30);
  for (let hops = 0; sector < MAX_SECTOR && hops < sectors; hops += 1) {
    const block = read(offsetOf(sector), sectorBytes);
    for (let at = 0; at < sectorBytes; at += DIRECTORY_ENTRY_BYTES) entries.push(block.subarray(at, at + DIRECTORY_ENTRY_BYTES));
    sector = next(sector);
  }
  const root = entries[0];
  if (root === undefined) return [];
  // The root's children are a tree of siblings under its child entry.
  const names: string[] = [];
  const seen = new Set<number>();
  const pending = [root.readUInt32LE(0x4c)];
  while (pending.length > 0) {
    const id = pending.pop()!;
    if (id === NO_ENTRY || seen.has(id)) continue;
    seen.add(id);
    const entry = entries[id];
    if (entry === undefined) continue;
    const nameBytes = Math.min(entry.readUInt16LE(0x40), 64);
    names.push(entry.subarray(0, Math.max(0, nameBytes - 2)).toString('utf16le'));
    pending.push(entry.readUInt32LE(0x44), entry.readUInt32LE(0x48));
  }
  return names;
}
