/** `vas-verify ifsc`: its argument, and how it reaches the command (./index.ts). */
import type { Argv } from 'yargs';
import type { CommandContext, CommandIo, GlobalFlags } from '../../io.js';

export interface IfscFlags {
  code: string;
}

export interface IfscCommand {
  ifscCommand(flags: IfscFlags, io: CommandIo): Promise<number>;
}

export function registerIfscCommand<T>(y: Argv<T>, ctx: CommandContext<IfscCommand>): Argv<T> {
  return y.command(
    'ifsc <code>',
    'Show what the shipped IFSC registry knows of a code (bank, type, UPI, sub-member, listed or not)',
    (c) =>
      c
        .positional('code', { type: 'string', demandOption: true })
        .example('$0 ifsc HDFC0000001', 'Exit 0: the bank is known (listed or not); 1: no such bank; 2: not an IFSC'),
    (args) => ctx.run(async () => (await ctx.load()).ifscCommand({ code: args.code as string }, ctx.io(args as GlobalFlags))),
  );
}
