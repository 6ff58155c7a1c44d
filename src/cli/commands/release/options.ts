/** `vas-verify release`: its flags, and how they reach the command (./index.ts). */
import type { Argv } from 'yargs';
import { DEFAULT_STATE_FILE } from '../../config.js';
import type { CommandContext, CommandIo, GlobalFlags } from '../../io.js';

export interface ReleaseFlags {
  state?: string | undefined;
  run?: number | undefined;
  output: string;
  exceptions?: string | undefined;
  input?: string | undefined;
  approvals?: number | undefined;
}

export interface ReleaseCommand {
  releaseCommand(flags: ReleaseFlags, io: CommandIo): Promise<number>;
}

function releaseOptions<T>(y: Argv<T>) {
  return y
    .option('output', { alias: 'o', type: 'string', demandOption: true, describe: "The payout file for the bank: the input's layout, only the payees to PAY (mode 0600)" })
    .option('state', { type: 'string', describe: `State file of the run (env VAS_STATE, default ${DEFAULT_STATE_FILE})` })
    .option('run', { type: 'number', describe: 'Run id (default: the newest run of the state)' })
    .option('exceptions', { type: 'string', describe: 'Also write the payees left out, with their decision and reasons (CSV, or .xlsx by its name)' })
    .option('approvals', { type: 'number', describe: "Different reviewers a payee paid on acceptance needs (default: the run's policy; only ever stricter)" })
    .option('input', { type: 'string', describe: "The run's input, when it is no longer where the run read it (default: the run's own path)" })
    .example('$0 release -o payout.csv --exceptions held.csv', 'After the night run and the review: the file for the bank portal')
    .example('$0 release --state nightly.sqlite --run 12 -o payout.xlsx', 'An earlier run of an .xlsx input');
}

function toReleaseFlags(args: Record<string, unknown>): ReleaseFlags {
  return {
    state: args.state as string | undefined,
    run: args.run as number | undefined,
    output: args.output as string,
    exceptions: args.exceptions as string | undefined,
    input: args.input as string | undefined,
    approvals: args.approvals as number | undefined,
  };
}

export function registerReleaseCommand<T>(y: Argv<T>, ctx: CommandContext<ReleaseCommand>): Argv<T> {
  return y.command(
    'release',
    "Write the payout file for the bank: the run's input with only the payees to PAY",
    (c) => releaseOptions(c),
    (args) => ctx.run(async () => (await ctx.load()).releaseCommand(toReleaseFlags(args), ctx.io(args as GlobalFlags))),
  );
}
