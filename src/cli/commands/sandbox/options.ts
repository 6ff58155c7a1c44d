/** `vas-verify sandbox`: its flags (kept apart from ./index.ts so the CLI entry loads no sandbox code). */
import type { Argv } from 'yargs';
import type { CommandContext, CommandIo, GlobalFlags } from '../../io.js';

export interface SandboxCommand {
  sandboxCommand(args: Record<string, unknown>, io: CommandIo): Promise<number>;
}

function sandboxOptions<T>(y: Argv<T>) {
  return y
    .option('port', { type: 'number', default: 8080, describe: 'Port to listen on (0 picks a free one)' })
    .option('host', { type: 'string', default: '127.0.0.1', describe: 'Address to bind' })
    .option('token', { type: 'string', default: 'sandbox-token', describe: 'Accepted static bearer token' })
    .option('client-id', { type: 'string', describe: 'Enables POST /oauth/v1/token with these client credentials' })
    .option('client-secret', { type: 'string' })
    .option('token-ttl', { type: 'number', describe: 'Lifetime of issued tokens in seconds (default 3600)' })
    .option('latency', { type: 'string', describe: 'Added latency in ms: 200 or 100-300' })
    .option('rate-limit', { type: 'number', describe: 'Requests per second before 429 Quota Violation' })
    .option('daily-limit', { type: 'number', describe: 'Requests per account per IST day before the daily-limit error' })
    .option('fault-rate', { type: 'number', describe: 'Probability 0..1 of injecting a fault before processing' })
    .option('faults', { type: 'string', describe: 'Fault kinds: 429,500,503,reset,hang (default all)' })
    .option('seed', { type: 'number', describe: 'Seed for names, faults and latency (default 1)' })
    .option('accounts', { type: 'string', describe: 'Registry CSV: accountNumber,ifsc,name[,status]' })
    .option('auto-authorize', { type: 'number', describe: 'Document sessions complete by themselves after MS' })
    .option('session-ttl', { type: 'number', describe: 'Document session lifetime in seconds (default 600)' })
    .example('$0 sandbox --port 0 --latency 50-150 --fault-rate 0.1', '');
}

export function registerSandboxCommand<T>(y: Argv<T>, ctx: CommandContext<SandboxCommand>): Argv<T> {
  return y.command(
    'sandbox',
    'Start the embedded sandbox that imitates the whole API',
    (c) => sandboxOptions(c),
    (args) => ctx.run(async () => (await ctx.load()).sandboxCommand(args, ctx.io(args as GlobalFlags))),
  );
}
