/**
 * The state file of a run for the commands that act on a finished run (release, audit,
 * review --import): it must exist (it is never created here), and --run must be a run id.
 */
import fs from 'node:fs';
import path from 'node:path';
import { UsageError } from '../../../errors.js';
import { openDatabase, type Db } from '../../../state/db.js';
import { resolveStatePath } from '../../config.js';
import type { CommandIo } from '../../io.js';

export interface RunState {
  db: Db;
  statePath: string;
  /** The state file's folder, where a spreadsheet may spool its shared strings. */
  spoolDir: string;
}

export function openRunState(stateFlag: string | undefined, run: number | undefined, io: CommandIo): RunState {
  if (run !== undefined && !(Number.isInteger(run) && run > 0)) throw new UsageError('--run must be a run id (a whole number ≥ 1)');
  const statePath = resolveStatePath(stateFlag, io.env);
  if (!fs.existsSync(statePath)) throw new UsageError(`state file ${statePath} does not exist: give the --state of the run`);
  return { db: openDatabase(statePath), statePath, spoolDir: path.dirname(path.resolve(statePath)) };
}
