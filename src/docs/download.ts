/**
 * Saving a session's documents: `<dir>/<sessionId>/<docType>.pdf|.xml`, mode 0600 in a 0700
 * directory, each file checked (PDF header, well-formed XML) before it is kept, written to a
 * temporary name and then linked into place so that no reader sees half a file and no existing
 * file is ever replaced. The same content already there counts as saved (re-runs and repeated
 * callbacks are harmless); different content is refused, loudly.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Client } from '../api/client.js';
import type { DocumentInfo } from '../api/schemas.js';
import { isVasError } from '../api/errors.js';
import { isSafeSessionId, planDocumentFiles, safeSegment } from './files.js';
import { checkPdf, checkXml, type FileCheck } from './validate.js';
import { symlinkProblem } from '../safe-path.js';
import { redact } from '../redact.js';
import { AppError, EXIT_CODES, type ExitCode } from '../errors.js';

export interface SaveOptions {
  /** Root download directory; created 0700 when missing. */
  dir: string;
  sessionId: string;
  documents: readonly DocumentInfo[];
  signal?: AbortSignal | undefined;
  /** Largest file accepted; default the client's (20 MiB). */
  maxBytes?: number | undefined;
}

export type SaveState = 'saved' | 'unchanged';

export interface SavedFile {
  docType: string;
  format: 'pdf' | 'xml';
  path: string;
  state: SaveState;
  bytes: number;
  /** Where it was fetched from: scheme, host and port (the API may name any host). */
  source: string;
}

export interface SaveFailure {
  docType: string;
  format: 'pdf' | 'xml';
  path: string;
  reason: string;
}

export interface SaveReport {
  /** The session's directory. */
  directory: string;
  files: SavedFile[];
  failures: SaveFailure[];
}

/** A download directory problem: nothing could be saved. An output error: exit 2 (AppError redacts its message). */
export class DownloadDirError extends AppError {
  override readonly name = 'DownloadDirError';
  readonly kind = 'output';
  override get exitCode(): ExitCode {
    return EXIT_CODES.usage;
  }
}

export async function saveDocuments(client: Client, options: SaveOptions): Promise<SaveReport> {
  const sessionDir = path.join(options.dir, isSafeSessionId(options.sessionId) ? options.sessionId : safeSegment(options.sessionId, 'session'));
  prepareDirectory(options.dir, sessionDir);
  const report: SaveReport = { directory: sessionDir, files: [], failures: [] };
  for (const plan of planDocumentFiles(options.documents)) {
    const doc = options.documents[plan.index]!;
    for (const format of ['pdf', 'xml'] as const) {
      const target = path.join(sessionDir, format === 'pdf' ? plan.pdf : plan.xml);
      const url = format === 'pdf' ? doc.pdfUrl : doc.xmlUrl;
      // Redacted where it is made: a reason may quote the start of what a hostile host sent.
      const fail = (reason: string) => report.failures.push({ docType: doc.docType, format, path: target, reason: redact(reason) });
      if (url.trim() === '') {
        fail(`the API gave no ${format.toUpperCase()} URL`);
        continue;
      }
      let bytes: Buffer;
      let source: string;
      try {
        ({ bytes, source } = await client.downloadDocument(url, {
          signal: options.signal,
          ...(options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes }),
        }));
      } catch (error) {
        if (!isVasError(error)) throw error;
        if (error.code === 'aborted') throw error;
        fail(`download failed: ${error.describe()}`);
        continue;
      }
      const check: FileCheck = format === 'pdf' ? checkPdf(bytes) : checkXml(bytes);
      if (!check.ok) {
        fail(`not saved: ${check.reason}`);
        continue;
      }
      const written = writeNew(target, bytes);
      if (written.ok) report.files.push({ docType: doc.docType, format, path: target, state: written.state, bytes: bytes.length, source });
      else fail(written.reason);
    }
  }
  return report;
}

/**
 * Whether the download directory can be used, without creating anything: a DownloadDirError
 * when it is a link, is not a directory, or could not be created (its nearest existing parent is
 * not a writable directory). Called before any request, so a wait for the user's consent does
 * not end in a directory the documents cannot be saved in.
 */
export function checkDownloadDir(root: string): void {
  // Never through a link (src/safe-path.ts): documents hold personal data.
  const linked = symlinkProblem(root, 'download directory');
  if (linked) throw new DownloadDirError(linked);
  let dir = path.resolve(root);
  for (;;) {
    let stat: fs.Stats | undefined;
    try {
      stat = fs.statSync(dir);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // Missing, or under a file (ENOTDIR): the parent above says which.
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw new DownloadDirError(`cannot use download directory ${root}: ${(error as Error).message}`);
    }
    if (stat !== undefined) {
      if (!stat.isDirectory()) {
        throw new DownloadDirError(dir === path.resolve(root) ? `download directory ${root} exists and is not a directory` : `cannot create download directory ${root}: ${dir} is not a directory`);
      }
      try {
        fs.accessSync(dir, fs.constants.W_OK | fs.constants.X_OK);
      } catch {
        throw new DownloadDirError(`cannot write in ${dir === path.resolve(root) ? `download directory ${root}` : `${dir}, where download directory ${root} would be created`}`);
      }
      return;
    }
    const parent = path.dirname(dir);
    if (parent === dir) return;
    dir = parent;
  }
}

function prepareDirectory(root: string, sessionDir: string): void {
  // Never through a link (src/safe-path.ts): documents hold personal data.
  const linked = symlinkProblem(root, 'download directory');
  if (linked) throw new DownloadDirError(linked);
  try {
    fs.mkdirSync(root, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new DownloadDirError(`cannot create download directory ${root}: ${(error as Error).message}`);
  }
  try {
    fs.mkdirSync(sessionDir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
      throw new DownloadDirError(`cannot create ${sessionDir}: ${(error as Error).message}`);
    }
    // Already there (a re-run): it must be a real directory, not a link planted elsewhere.
    const stat = fs.lstatSync(sessionDir);
    if (!stat.isDirectory()) throw new DownloadDirError(`${sessionDir} exists and is not a directory: not writing documents there`);
  }
  // mkdir's mode is filtered by the umask; documents hold personal data, so set it outright.
  fs.chmodSync(sessionDir, 0o700);
}

type WriteResult = { ok: true; state: SaveState } | { ok: false; reason: string };

/** Writes bytes to `target` only if it does not exist yet (or already holds exactly them). */
function writeNew(target: string, bytes: Buffer): WriteResult {
  const temp = path.join(path.dirname(target), `.${path.basename(target)}.${randomBytes(6).toString('hex')}.part`);
  try {
    const fd = fs.openSync(temp, fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_WRONLY, 0o600);
    try {
      fs.fchmodSync(fd, 0o600);
      fs.writeSync(fd, bytes);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    try {
      // link() fails with EEXIST instead of replacing: no window where an existing file is lost.
      fs.linkSync(temp, target);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') return sameContent(target, bytes);
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV') throw error;
      // File systems without hard links: an exclusive copy is the next best thing.
      try {
        fs.copyFileSync(temp, target, fs.constants.COPYFILE_EXCL);
        fs.chmodSync(target, 0o600);
      } catch (copyError) {
        if ((copyError as NodeJS.ErrnoException).code === 'EEXIST') return sameContent(target, bytes);
        throw copyError;
      }
    }
    return { ok: true, state: 'saved' };
  } catch (error) {
    return { ok: false, reason: `cannot write ${target}: ${(error as Error).message}` };
  } finally {
    fs.rmSync(temp, { force: true });
  }
}

function sameContent(target: string, bytes: Buffer): WriteResult {
  const linked = symlinkProblem(target, 'download path');
  if (linked) return { ok: false, reason: `${linked}: not overwritten` };
  let existing: Buffer;
  try {
    existing = fs.readFileSync(target);
  } catch (error) {
    return { ok: false, reason: `${target} exists and cannot be read (${(error as Error).message}): not overwritten` };
  }
  if (existing.equals(bytes)) return { ok: true, state: 'unchanged' };
  return { ok: false, reason: `${target} already exists with different content: not overwritten (move it away, or use another --download directory)` };
}
