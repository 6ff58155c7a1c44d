/** `vas-verify audit`: its flags, and how they reach the command (./index.ts). */
import type { Argv } from 'yargs';
import { DEFAULT_STATE_FILE } from '../../config.js';
import type { CommandContext, CommandIo, GlobalFlags } from '../../io.js';

export interface AuditFlags {
  state?: string | undefined;
  run?: number | undefined;
  format: 'json' | 'csv';
}

export interface AuditCommand {
  auditCommand(flags: AuditFlags, io: CommandIo): Promise<number>;
}

function auditOptions<T>(y: Argv<T>) {
  return y
    .option('state', { type: 'string', describe: `State file (env VAS_STATE, default ${DEFAULT_STATE_FILE})` })
    .option('run', { type: 'number', describe: "Only this run's entries (the whole chain is checked either way)" })
    .option('format', { choices: ['json', 'csv'] as const, default: 'json' as const, describe: 'JSON lines (one entry a line) or CSV' })
    .example('$0 audit --run 12', "Run 12's decisions, reviews and releases; exit 1 if the chain is broken")
    .example('$0 audit --format csv > audit.csv', 'The whole trail for a spreadsheet');
}

export function registerAuditCommand<T>(y: Argv<T>, ctx: CommandContext<AuditCommand>): Argv<T> {
  return y.command(
    'audit',
    'Print the audit trail (every decision, review and release) and verify its hash chain',
    (c) => auditOptions(c),
    (args) => ctx.run(async () => (await ctx.load()).auditCommand({ state: args.state as string | undefined, run: args.run as number | undefined, format: args.format as AuditFlags['format'] }, ctx.io(args as GlobalFlags))),
  );
}
