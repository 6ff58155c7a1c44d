/**
 * TEMPORARY (release branch only): `vas-verify review --import FILE` until the review command
 * (src/cli/commands/review/options.ts, with the page) calls reviewImportCommand when --import is
 * given. Drop this file and its line in src/cli/main.ts when that lands; the flags are the same.
 */
import type { Argv } from 'yargs';
import { DEFAULT_STATE_FILE } from '../../config.js';
import type { CommandContext, CommandIo, GlobalFlags } from '../../io.js';
import type { ReviewImportFlags } from './import.js';

export interface ReviewImportCommand {
  reviewImportCommand(flags: ReviewImportFlags, io: CommandIo): Promise<number>;
}

export function registerReviewImportCommand<T>(y: Argv<T>, ctx: CommandContext<ReviewImportCommand>): Argv<T> {
  return y.command(
    'review',
    "Record a person's decisions from the enriched file edited in a spreadsheet",
    (c) =>
      c
        .option('import', { type: 'string', demandOption: true, describe: 'The enriched file (CSV or .xlsx) with its decision column edited' })
        .option('state', { type: 'string', describe: `State file of the run (env VAS_STATE, default ${DEFAULT_STATE_FILE})` })
        .option('run', { type: 'number', describe: 'Run id (default: the newest run of the state)' })
        .option('reviewer', { type: 'string', describe: 'Who decided (default: the OS user)' })
        .option('approvals', { type: 'number', describe: "Different reviewers a payee needs before it is paid (default: the run's policy)" }),
    (args) =>
      ctx.run(async () =>
        (await ctx.load()).reviewImportCommand(
          { file: args.import as string, state: args.state as string | undefined, run: args.run as number | undefined, reviewer: args.reviewer as string | undefined, approvals: args.approvals as number | undefined },
          ctx.io(args as GlobalFlags),
        ),
      ),
  );
}
