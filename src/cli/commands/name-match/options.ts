/** `vas-verify name-match`: its arguments, and how they reach the command (./index.ts). */
import type { Argv } from 'yargs';
import type { CommandContext, CommandIo, GlobalFlags } from '../../io.js';

export interface NameMatchFlags {
  expected: string;
  actual: string;
  explain: boolean;
}

export interface NameMatchCommand {
  nameMatchCommand(flags: NameMatchFlags, io: CommandIo): Promise<number>;
}

export function registerNameMatchCommand<T>(y: Argv<T>, ctx: CommandContext<NameMatchCommand>): Argv<T> {
  return y.command(
    'name-match <expected> <actual>',
    'Score how well a bank-side name matches the payee name',
    (c) =>
      c
        .positional('expected', { type: 'string', demandOption: true })
        .positional('actual', { type: 'string', demandOption: true })
        .option('explain', { type: 'boolean', default: false, describe: 'Also print the rules in words, the tokens, the pairing and the caps' })
        .example('$0 name-match "R K Sharma" "RAJESH KUMAR SHARMA"', ''),
    (args) =>
      ctx.run(async () =>
        (await ctx.load()).nameMatchCommand({ expected: args.expected as string, actual: args.actual as string, explain: args.explain }, ctx.io(args as GlobalFlags)),
      ),
  );
}
