/**
 * The temporary file every output sink writes (docs/ARCHITECTURE.md, "Layout", src/output/):
 * beside the target, mode 0600 (it holds personal data, see "Security"), renamed into place by
 * the sink's commit() or removed by its discard(); and what a failure to write it is called.
 */
import fs from 'node:fs';
import path from 'node:path';
import { AppError, OutputError } from '../errors.js';

export class TempFile {
  readonly stream: fs.WriteStream;
  /** The stream's first error, if any (a full disk, a failed write). */
  failure: Error | undefined;
  private readonly closing: Promise<void>;

  constructor(readonly path: string) {
    clearTemp(path);
    this.stream = fs.createWriteStream(path, { mode: 0o600, flags: 'wx' });
    // Always listened to: a write still in progress when the stream is destroyed (a discarded
    // output) reports ERR_STREAM_DESTROYED when it completes, which, unheard, ended the process.
    this.stream.on('error', (error) => {
      this.failure ??= error;
    });
    this.closing = new Promise<void>((resolve) => this.stream.once('close', () => resolve()));
  }

  /** Resolves once the file is closed (never rejects: a failure is `failure`). */
  async closed(): Promise<void> {
    if (!this.stream.closed) await this.closing;
  }

  /**
   * Drops the file whatever writes are pending: the stream destroyed (a write in progress ends
   * first, its error heard above), closed, then the file removed. Never throws.
   */
  async discard(): Promise<void> {
    this.stream.destroy();
    await this.closed();
    await fs.promises.rm(this.path, { force: true }).catch(() => undefined);
  }

  /** Renames the finished file to `target` (renameOutput). */
  renameTo(target: string, outputPath: string): Promise<void> {
    return renameOutput(this.path, target, outputPath);
  }
}

/**
 * Makes room for a fresh temporary file at `temp` (`.<name>.<pid>.tmp` beside its target): whatever
 * is there — a file this pid left before a reboot, a link or a file planted by someone who can write
 * in the folder — is removed, never written through. The caller then creates it exclusively (O_EXCL),
 * so a link planted in between fails the write instead of being followed (README, Security).
 */
export function clearTemp(temp: string): void {
  try {
    fs.rmSync(temp, { force: true });
  } catch {
    // A directory by that name: the exclusive create fails and says so.
  }
}

/** Renames a finished temporary file to `target`; when it cannot, removes it and throws an OutputError naming `outputPath`. */
export async function renameOutput(temp: string, target: string, outputPath: string): Promise<void> {
  try {
    await fs.promises.rename(temp, target);
  } catch (error) {
    await fs.promises.rm(temp, { force: true }).catch(() => undefined);
    throw outputWriteError(outputPath, error);
  }
}

/** What a failed write, close or rename of an output is, by its errno code, and what to do. */
const FAILURES: Readonly<Record<string, string>> = {
  ENOSPC: 'its disk is full; free some space',
  EDQUOT: 'the disk quota is exceeded; free some space',
  EACCES: 'permission denied; give this user write access to it and its folder',
  EPERM: 'the operation is not permitted; give this user write access to it and its folder',
  EROFS: 'its file system is read-only; choose another -o path',
  EIO: 'the disk failed to write it (an I/O error); check the disk',
  EFBIG: 'the file is too large for its file system; write it elsewhere',
};

/**
 * A failure to write the output at `outputPath` (mid-run or when it is renamed into place), as
 * one line naming the path and what happened: an OutputError. The caller adds the resume command.
 * Errors the tool raised on purpose (an .xlsx past 4 GiB) keep their own words.
 */
export function outputWriteError(outputPath: string, error: unknown): AppError {
  if (error instanceof AppError) return error;
  const { code, syscall } = (error ?? {}) as NodeJS.ErrnoException;
  const dir = path.dirname(path.resolve(outputPath));
  const known = code === 'ENOENT' && !fs.existsSync(dir) ? `its folder ${dir} was removed during the run; create it again` : code ? FAILURES[code] : undefined;
  // Anything else is named by Node's own words (its code and the call are in them).
  const what = known ? `${known} (${code}${syscall ? `, ${syscall}` : ''})` : error instanceof Error ? error.message : String(error);
  return new OutputError(`cannot write the output ${outputPath}: ${what}`, { cause: error });
}
