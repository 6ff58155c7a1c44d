/**
 * This package's version, from package.json (src/ and dist/ are both one level below it), read
 * once. Its own module so that a bank run records it without loading the HTML report's code.
 */
import fs from 'node:fs';

let version: string | undefined;

export function toolVersion(): string {
  if (version === undefined) {
    try {
      version = (JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: string }).version ?? 'unknown';
    } catch {
      version = 'unknown';
    }
  }
  return version;
}
