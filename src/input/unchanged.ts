/**
 * Whether the input stayed the same file while a run read it (docs/ARCHITECTURE.md, "Never
 * paying twice"): tonight's export landing mid-run must not leave a run recorded complete under
 * the first file's fingerprint with rows of both. Its identity (device, inode, size, mtime) is
 * taken before the run reads it and compared after the last row, and its content hashed again.
 */
import fs from 'node:fs';
import { createHash } from 'node:crypto';

/** What identifies the file on disk, without reading it. */
export interface FileIdentity {
  dev: number;
  ino: number;
  size: number;
  mtimeNs: bigint;
}

export function fileIdentity(file: string): FileIdentity | undefined {
  try {
    const stat = fs.statSync(file, { bigint: true });
    return { dev: Number(stat.dev), ino: Number(stat.ino), size: Number(stat.size), mtimeNs: stat.mtimeNs };
  } catch {
    return undefined;
  }
}

/**
 * SHA-256 of the file's content, as the input's fingerprint is computed (src/input/inspect.ts).
 * Read through one buffer: a read stream's fresh 1 MiB chunk each time lay outside V8's heap
 * until a collection, and hashing a 75 MB input at the end of a million-row run added tens of MB
 * to its peak RSS.
 */
export async function contentHash(file: string): Promise<string | undefined> {
  const hash = createHash('sha256');
  let handle: fs.promises.FileHandle | undefined;
  try {
    handle = await fs.promises.open(file, 'r');
    const buffer = Buffer.allocUnsafe(1 << 20);
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      hash.update(buffer.subarray(0, bytesRead));
    }
  } catch {
    return undefined;
  } finally {
    await handle?.close().catch(() => {});
  }
  return hash.digest('hex');
}

/**
 * Why the input is not the file the run started on, or undefined when it is: the same identity
 * as before the first row was read, and the same content as its fingerprint.
 */
export async function inputChange(file: string, before: FileIdentity | undefined, fingerprint: string): Promise<string | undefined> {
  const now = fileIdentity(file);
  if (!now) return 'it is gone';
  if (before && (now.dev !== before.dev || now.ino !== before.ino)) return 'it was replaced by another file';
  if (before && now.size !== before.size) return `its size changed from ${before.size} to ${now.size} bytes`;
  if (before && now.mtimeNs !== before.mtimeNs) return 'it was written to';
  const hash = await contentHash(file);
  if (hash !== fingerprint) return 'its content changed';
  return undefined;
}
