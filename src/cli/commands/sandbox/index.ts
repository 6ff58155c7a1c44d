/** `vas-verify sandbox`: the embedded sandbox as a server, until SIGINT/SIGTERM. */
import { EXIT } from '../../exit.js';
import fs from 'node:fs';
import { startSandbox, parseFaults, parseLatency, loadRegistry, type SandboxOptions } from '../../../sandbox/index.js';
import { isAppError, UsageError } from '../../../errors.js';
import type { CommandIo } from '../../io.js';
import { listenError } from '../../listen-error.js';

export async function sandboxCommand(args: Record<string, unknown>, io: CommandIo): Promise<number> {
  const options: SandboxOptions = {};
  const set = <K extends keyof SandboxOptions>(key: K, value: SandboxOptions[K] | undefined) => {
    if (value !== undefined) options[key] = value as SandboxOptions[K];
  };
  try {
    set('port', args.port as number);
    set('host', args.host as string);
    set('token', args.token as string);
    set('clientId', args['client-id'] as string | undefined);
    set('clientSecret', args['client-secret'] as string | undefined);
    set('tokenTtlSeconds', args['token-ttl'] as number | undefined);
    if (args.latency !== undefined) options.latencyMs = parseLatency(String(args.latency));
    set('rateLimit', args['rate-limit'] as number | undefined);
    set('dailyLimit', args['daily-limit'] as number | undefined);
    set('faultRate', args['fault-rate'] as number | undefined);
    if (args.faults !== undefined) {
      // The kinds alone inject nothing (the rate defaults to 0): a test run would pass without a single fault.
      if (args['fault-rate'] === undefined) throw new UsageError('--faults chooses the kinds of fault but injects none without --fault-rate P (the share of API requests that get one, 0..1): add e.g. --fault-rate 0.1');
      options.faults = parseFaults(String(args.faults));
    }
    set('seed', args.seed as number | undefined);
    set('autoAuthorizeMs', args['auto-authorize'] as number | undefined);
    set('sessionTtlSeconds', args['session-ttl'] as number | undefined);
    if (args.accounts !== undefined) {
      let text: string;
      try {
        text = fs.readFileSync(String(args.accounts), 'utf8');
      } catch (error) {
        throw new UsageError(`cannot read --accounts ${String(args.accounts)}: ${(error as Error).message}`);
      }
      try {
        options.accounts = loadRegistry(text);
      } catch (error) {
        // Its message names the line and what is wrong with it.
        throw new UsageError(`--accounts ${String(args.accounts)}: ${(error as Error).message}`);
      }
    }
  } catch (error) {
    if (isAppError(error)) throw error;
    throw new UsageError((error as Error).message);
  }
  const sandbox = await startSandbox(options).catch((error: unknown) => {
    if (isAppError(error)) throw error;
    throw listenError(error, options.host, options.port);
  });
  io.stdout(`sandbox listening on ${sandbox.url}\n`);
  await new Promise<void>((resolve) => {
    if (io.stopSignal.aborted) resolve();
    io.stopSignal.addEventListener('abort', () => resolve(), { once: true });
  });
  await sandbox.close();
  return EXIT.ok;
}
