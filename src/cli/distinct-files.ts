/**
 * Every file one command reads or writes must be a different file (README, "Security"): `-o
 * ./payees.csv` for `payees.csv`, a --summary naming the state, a --report naming the output would
 * otherwise overwrite the input, the state or the enriched file. Compared as real files (src/safe-path.ts),
 * before anything is opened or written.
 */
import { UsageError } from '../errors.js';
import { collisionAmong, type NamedFile } from '../safe-path.js';

export interface BankFiles {
  input: string;
  /** The output; not written by a dry run. */
  output: string;
  dryRun: boolean;
  /** The resolved state path, and whether --state named it. */
  statePath: string;
  stateFlag: boolean;
  summary?: string | undefined;
  report?: string | undefined;
}

function stateFile(statePath: string, stateFlag: boolean): NamedFile {
  return { flag: stateFlag ? '--state' : 'the state file', path: statePath, role: 'state' };
}

function refuse(clash: string | undefined): void {
  if (clash) throw new UsageError(`${clash}: nothing was written; give each file its own path`);
}

/** `vas-verify bank`: the input, -o, the state, --summary and --report. */
export function checkBankFiles(files: BankFiles): void {
  const named: NamedFile[] = [{ flag: 'the input', path: files.input, role: 'plain' }];
  if (!files.dryRun) named.push({ flag: '-o', path: files.output, role: 'writer' });
  if (files.statePath !== ':memory:') named.push(stateFile(files.statePath, files.stateFlag));
  if (files.summary !== undefined) named.push({ flag: '--summary', path: files.summary, role: 'plain' });
  if (files.report !== undefined) named.push({ flag: '--report', path: files.report, role: 'writer' });
  refuse(collisionAmong(named));
}

/** `vas-verify report`: -o against the state it reads and the --csv it reads. */
export function checkReportFiles(files: { output: string; statePath: string; stateFlag: boolean; csv?: string | undefined }): void {
  const named: NamedFile[] = [{ flag: '-o', path: files.output, role: 'writer' }, stateFile(files.statePath, files.stateFlag)];
  if (files.csv !== undefined) named.push({ flag: '--csv', path: files.csv, role: 'plain' });
  refuse(collisionAmong(named));
}

/**
 * `vas-verify release`: -o and --exceptions (both written through a temporary file and renamed in)
 * against the state it records in — and its -wal and -shm, which SQLite deletes or rewrites when
 * it closes the state: a payout written there would vanish — and the --input it reads.
 */
export function checkReleaseFiles(files: { output: string; exceptions?: string | undefined; input?: string | undefined; statePath: string; stateFlag: boolean }): void {
  const named: NamedFile[] = [{ flag: '-o', path: files.output, role: 'writer' }, stateFile(files.statePath, files.stateFlag)];
  if (files.exceptions !== undefined) named.push({ flag: '--exceptions', path: files.exceptions, role: 'writer' });
  if (files.input !== undefined) named.push({ flag: '--input', path: files.input, role: 'plain' });
  refuse(collisionAmong(named));
}
