/** `vas-verify review`: its flags, and how they reach the command (./index.ts). */
import type { Argv } from 'yargs';
import { DEFAULT_STATE_FILE } from '../../config.js';
import type { CommandContext, CommandIo, GlobalFlags } from '../../io.js';

export interface ReviewFlags {
  state?: string | undefined;
  run?: number | undefined;
  reviewer?: string | undefined;
  approvals?: number | undefined;
  port?: number | undefined;
  /** `--import FILE`: the decisions from an edited enriched file instead of the page. */
  import?: string | undefined;
}

export interface ReviewCommand {
  reviewCommand(flags: ReviewFlags, io: CommandIo): Promise<number>;
}

function reviewOptions<T>(y: Argv<T>) {
  return y
    .option('state', { type: 'string', describe: `State file of the run (env VAS_STATE, default ${DEFAULT_STATE_FILE})` })
    .option('run', { type: 'number', describe: 'Run id (default: the newest run of the state)' })
    .option('reviewer', { type: 'string', describe: 'Who decides, kept with each decision (default: the OS user)' })
    .option('approvals', { type: 'number', describe: "Different reviewers who must accept a payee before it is paid, 1 or 2 (default: the run's policy, else 1)" })
    .option('port', { type: 'number', describe: 'Port of the page on 127.0.0.1 (default 0: a free one)' })
    .option('import', { type: 'string', describe: 'Take the decisions from the enriched file after a person edited its decision column (.csv or .xlsx) instead of the page' })
    .example('$0 review --state nightly.sqlite --reviewer asha', 'Prints the page\'s URL (with its one-time token) on stdout; open it, decide, click Done')
    .example('$0 review --state nightly.sqlite --reviewer ravi --approvals 2', 'The second approval, where two people must accept a payee')
    .epilogue(
      'The page lists the rows the run left at REVIEW or HOLD. Its URL is printed on stdout and opens the page once (the token is then spent); ' +
        'the page stops when the reviewer clicks Done, or on Ctrl-C. Decisions are kept in the state file (reviews and audit tables).',
    );
}

function toReviewFlags(args: Record<string, unknown>): ReviewFlags {
  return {
    state: args.state as string | undefined,
    run: args.run as number | undefined,
    reviewer: args.reviewer as string | undefined,
    approvals: args.approvals as number | undefined,
    port: args.port as number | undefined,
    import: args.import as string | undefined,
  };
}

export function registerReviewCommand<T>(y: Argv<T>, ctx: CommandContext<ReviewCommand>): Argv<T> {
  return y.command(
    'review',
    'Settle the payees a run left at REVIEW or HOLD: a local page (or --import an edited file)',
    (c) => reviewOptions(c),
    (args) => ctx.run(async () => (await ctx.load()).reviewCommand(toReviewFlags(args), ctx.io(args as GlobalFlags))),
  );
}
