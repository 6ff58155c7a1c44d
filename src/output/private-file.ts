/**
 * A small file written whole (a report, a run summary): beside its place, created exclusively with
 * mode 0600 (never through a link left at the temporary name), then renamed in, so a reader never
 * sees half of it and its bits are 0600 whether or not it existed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { clearTemp } from './temp-file.js';

export function writePrivateFile(file: string, text: string): void {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  try {
    clearTemp(tmp);
    fs.writeFileSync(tmp, text, { mode: 0o600, flag: 'wx' });
    fs.chmodSync(tmp, 0o600);
    fs.renameSync(tmp, file);
  } catch (error) {
    fs.rmSync(tmp, { force: true });
    throw error;
  }
}
