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

/** SHA-256 of the file's content, as the input's fingerprint is computed (src/input/inspect.ts). */
export async function contentHash(file: string): Promise<string | undefined> {
  const hash = createHash('sha256');
  try {
    for await (const chunk of fs.createReadStream(file, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  } catch {
    return undefined;
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
