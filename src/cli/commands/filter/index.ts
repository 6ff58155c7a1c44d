/** `vas-verify filter OUT.csv --where …`: the rows behind a capped list of the run report (src/report/filter.ts). */
import { EXIT } from '../../exit.js';
import { UsageError } from '../../../errors.js';
import { filterRows, parseCondition } from '../../../report/filter.js';
import type { CommandIo } from '../../io.js';
import type { FilterFlags } from './options.js';

export async function filterCommand(flags: FilterFlags, io: CommandIo): Promise<number> {
  // `--where "$UNSET"` in a script: no condition would print every row (every row "held").
  if (flags.where.length === 0) throw new UsageError('--where needs COLUMN=VALUE[,VALUE…] or COLUMN!=VALUE: it was given no condition');
  const conditions = flags.where.map(parseCondition);
  const rows = await filterRows(flags.csv, conditions, (text) => io.stdout(text), { line: flags.line });
  io.log.info(`${rows} row(s) of ${flags.csv}`);
  return EXIT.ok;
}
