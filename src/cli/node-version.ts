/**
 * Which Node this tool needs, from package.json's `engines` (one place to change it), and the
 * one line a person gets on an older one. Imported by ./bin.ts before anything else, so it must
 * itself import nothing that an old Node cannot load.
 */
import { readFileSync } from 'node:fs';

/** The lowest [major, minor] of an `engines.node` range such as `>=22.19` or `>=22.19.0`. */
export function minimumOf(range: string): [number, number] | undefined {
  const match = /^\s*>=\s*v?(\d+)(?:\.(\d+))?/.exec(range);
  return match ? [Number(match[1]), Number(match[2] ?? 0)] : undefined;
}

/** The line to print when `version` (process.version) is below `range`; undefined when it is not. */
export function nodeVersionProblem(version: string, range: string): string | undefined {
  const minimum = minimumOf(range);
  const match = /^v?(\d+)\.(\d+)/.exec(version);
  if (!minimum || !match) return undefined;
  const [major, minor] = [Number(match[1]), Number(match[2])];
  if (major > minimum[0] || (major === minimum[0] && minor >= minimum[1])) return undefined;
  return `vas-verify needs Node.js ${minimum[0]}.${minimum[1]} or later; this is Node.js ${version.replace(/^v/, '')} (${process.execPath}). Install Node 22 or 24 (LTS) and put it first on PATH (cron has its own PATH).`;
}

/** package.json's `engines.node` (src/ and dist/ are both two levels below it); undefined if unreadable. */
export function requiredNodeRange(): string | undefined {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { engines?: { node?: string } };
    return pkg.engines?.node;
  } catch {
    return undefined;
  }
}
