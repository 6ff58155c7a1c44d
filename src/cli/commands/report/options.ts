/** `vas-verify report`: its flags, and how they reach the command (./index.ts). */
import type { Argv } from 'yargs';
import { DEFAULT_STATE_FILE } from '../../config.js';
import type { CommandContext, CommandIo, GlobalFlags } from '../../io.js';

export interface ReportFlags {
  state?: string | undefined;
  run?: number | undefined;
  output: string;
  csv?: string | undefined;
  limit?: number | undefined;
}

export interface ReportCommand {
  reportCommand(flags: ReportFlags, io: CommandIo): Promise<number>;
}

function reportOptions<T>(y: Argv<T>) {
  return y
    .option('state', { type: 'string', describe: `State file of the run (env VAS_STATE, default ${DEFAULT_STATE_FILE})` })
    .option('run', { type: 'number', describe: 'Run id (default: the newest run of the state)' })
    .option('output', { alias: 'o', type: 'string', demandOption: true, describe: 'HTML file to write (mode 0600)' })
    .option('csv', { type: 'string', describe: "The run's enriched CSV, for a run made before decisions were kept in the state: its name verdicts and verified rows whose name does not match" })
    .option('limit', { type: 'number', describe: 'Most rows listed per table (default 50)' })
    .example('$0 report --state vas-verify.sqlite -o run.html', 'The newest run')
    .example('$0 report --state nightly.sqlite --run 12 --csv payees.verified.csv -o run12.html', 'An earlier run, with name verdicts');
}

function toReportFlags(args: Record<string, unknown>): ReportFlags {
  return {
    state: args.state as string | undefined,
    run: args.run as number | undefined,
    output: args.output as string,
    csv: args.csv as string | undefined,
    limit: args.limit as number | undefined,
  };
}

export function registerReportCommand<T>(y: Argv<T>, ctx: CommandContext<ReportCommand>): Argv<T> {
  return y.command(
    'report',
    'Rebuild the HTML report of a bank run from its state file',
    (c) => reportOptions(c),
    (args) => ctx.run(async () => (await ctx.load()).reportCommand(toReportFlags(args), ctx.io(args as GlobalFlags))),
  );
}
