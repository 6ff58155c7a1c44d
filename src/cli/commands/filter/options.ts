/** `vas-verify filter`: its flags, and how they reach the command (./index.ts). */
import type { Argv } from 'yargs';
import type { CommandContext, CommandIo, GlobalFlags } from '../../io.js';

export interface FilterFlags {
  csv: string;
  where: string[];
  /** Put the file's line first in each row (the numbering the report shows). Default false. */
  line: boolean;
}

export interface FilterCommand {
  filterCommand(flags: FilterFlags, io: CommandIo): Promise<number>;
}

export function registerFilterCommand<T>(y: Argv<T>, ctx: CommandContext<FilterCommand>): Argv<T> {
  return y.command(
    'filter <csv>',
    "Print the rows of a run's enriched CSV that meet every --where (the report names the command for each list it cuts short)",
    (c) =>
      c
        .positional('csv', { type: 'string', demandOption: true, describe: 'The enriched CSV `vas-verify bank` wrote (-o)' })
        .option('where', { type: 'string', array: true, demandOption: true, describe: 'COLUMN=VALUE[,VALUE…] (one of), COLUMN!=VALUE (none of); COLUMN!= means not empty' })
        .option('line', { type: 'boolean', default: false, describe: "Put each row's line in the file first (a column named line): the numbering the report shows" })
        .example('$0 filter payees.verified.csv --where verify_status=FAILED > failed.csv', 'The failed rows')
        .example('$0 filter payees.verified.csv --where decision=HOLD', 'The held rows (--where decision_reason=NAME_MISMATCH,HOLDER_CHANGED: by why)')
        .example("$0 filter payees.verified.csv --where 'changed_since!='", 'Holders that changed'),
    (args) =>
      ctx.run(async () => (await ctx.load()).filterCommand({ csv: args.csv as string, where: (args.where as string[]).map(String), line: Boolean(args.line) }, ctx.io(args as GlobalFlags))),
  );
}
