/**
 * Paths the tool writes to (the state file, the output CSV, a summary, downloaded documents) are
 * never followed through a symbolic link (README, Security): a link planted where the tool writes
 * would otherwise make it create, chmod or fill a file elsewhere (a dangling link creates its
 * target). Checked with lstat before anything is touched, and files are opened with O_NOFOLLOW so
 * a link swapped in after the check fails the open instead of being followed.
 */
import fs from 'node:fs';
import path from 'node:path';

/** The refusal, worded for people; undefined when `file` is not a symbolic link (or does not exist). */
export function symlinkProblem(file: string, what: string): string | undefined {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(file);
  } catch {
    return undefined;
  }
  return stat.isSymbolicLink() ? `${what} ${file} is a symbolic link: refusing to follow it (give the real path)` : undefined;
}

/** O_NOFOLLOW where the platform has it (0 elsewhere: then only the lstat check guards). */
export const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;

/** Whether an open failed because the last component is a symbolic link (O_NOFOLLOW). */
export function isSymlinkOpenError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ELOOP' || code === 'EMLINK';
}

// ---- Files that must be distinct: the input, the output, the state, the summary, the report ----

/**
 * What the tool does with a file, which decides the other names it writes beside it: a `writer`
 * writes `.<name>.<pid>.tmp` in the same folder and renames it in (src/pipeline/write.ts,
 * src/report/index.ts); a `state` is SQLite's, with its `-wal`, `-shm` and `-journal`; a `plain`
 * file (the input, --summary) has no companions.
 */
export type FileRole = 'plain' | 'writer' | 'state';

/** A file a command reads or writes, named the way the user gave it. */
export interface NamedFile {
  /** The flag that gave it, as a person would say it: "-o", "--state", "the input". */
  flag: string;
  path: string;
  role: FileRole;
}

/** Where a file really is: its resolved path, and its device and inode when it exists. */
export interface FileIdentity {
  resolved: string;
  dev?: number | undefined;
  ino?: number | undefined;
}

const SQLITE_SIDECARS = ['-wal', '-shm', '-journal'] as const;
const SIDECAR_WHAT: Record<(typeof SQLITE_SIDECARS)[number], string> = {
  '-wal': "write-ahead log",
  '-shm': 'shared-memory file',
  '-journal': 'journal',
};

/**
 * The resolved path of `file` (symbolic links followed, in the file or in its folders) and its
 * device and inode when it exists, so `./a.csv`, `a.csv`, a link and a hard link all compare equal.
 */
export function fileIdentity(file: string): FileIdentity {
  const absolute = path.resolve(file);
  try {
    const stat = fs.statSync(absolute);
    return { resolved: fs.realpathSync(absolute), dev: stat.dev, ino: stat.ino };
  } catch {
    // Not there (yet): its folder may still be reached through a link.
  }
  try {
    return { resolved: path.join(fs.realpathSync(path.dirname(absolute)), path.basename(absolute)) };
  } catch {
    return { resolved: absolute };
  }
}

function sameFile(a: FileIdentity, b: FileIdentity): boolean {
  if (a.resolved === b.resolved) return true;
  return a.dev !== undefined && a.ino !== undefined && a.dev === b.dev && a.ino === b.ino;
}

/** Whether `other` is a temporary file a writer of `target` would write (`.<name>.<pid>.tmp` beside it). */
function isTempOf(target: FileIdentity, other: FileIdentity): boolean {
  if (path.dirname(target.resolved) !== path.dirname(other.resolved)) return false;
  const name = path.basename(other.resolved);
  const prefix = `.${path.basename(target.resolved)}.`;
  return name.startsWith(prefix) && name.endsWith('.tmp') && /^\d+$/.test(name.slice(prefix.length, -'.tmp'.length));
}

/** A file with its identity and the identities of the SQLite sidecars a state has beside it. */
export interface ResolvedFile extends NamedFile {
  id: FileIdentity;
  /** For a `state`: its sidecars (`-wal`, …), resolved the same way. */
  sidecars?: ReadonlyArray<{ suffix: (typeof SQLITE_SIDECARS)[number]; id: FileIdentity }> | undefined;
}

/**
 * The first clash among `files`, worded for people and naming both flags; undefined when every
 * file, temporary file and sidecar is distinct. Pure: identities are resolved by the caller.
 */
export function findCollision(files: readonly ResolvedFile[]): string | undefined {
  for (let i = 0; i < files.length; i += 1) {
    for (let j = 0; j < files.length; j += 1) {
      if (i === j) continue;
      const a = files[i]!;
      const b = files[j]!;
      if (j > i && sameFile(a.id, b.id)) return `${a.flag} ${a.path} and ${b.flag} ${b.path} are the same file`;
      if (a.role === 'writer' && isTempOf(a.id, b.id)) return `${b.flag} ${b.path} is where ${a.flag} ${a.path} writes its temporary file`;
      const sidecar = a.sidecars?.find((s) => sameFile(s.id, b.id));
      if (sidecar) return `${b.flag} ${b.path} is the ${SIDECAR_WHAT[sidecar.suffix]} of ${a.flag} ${a.path}`;
    }
  }
  return undefined;
}

/** Resolves `files` (the state's sidecars included) and returns findCollision's answer. */
export function collisionAmong(files: readonly NamedFile[]): string | undefined {
  const resolved = files.map((f): ResolvedFile => ({
    ...f,
    id: fileIdentity(f.path),
    sidecars: f.role === 'state' ? SQLITE_SIDECARS.map((suffix) => ({ suffix, id: fileIdentity(f.path + suffix) })) : undefined,
  }));
  return findCollision(resolved);
}

/**
 * Removes the files in `dir` that processes now gone left behind (a kill -9 leaves its temporary
 * file): `pidOf` reads the writer's pid from a name of the kind it owns (undefined: not one).
 */
export function removeLeftovers(dir: string, pidOf: (name: string) => number | undefined, isAlive: (pid: number) => boolean): void {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = pidOf(name);
    if (pid !== undefined && Number.isInteger(pid) && pid !== process.pid && !isAlive(pid)) fs.rmSync(path.join(dir, name), { force: true });
  }
}
