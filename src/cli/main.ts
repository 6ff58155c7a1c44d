/**
 * The one entry of the CLI: parses argv, runs a command, and alone decides the exit code.
 * 0 every row final · 1 fatal · 2 usage or input error · 3 some rows not final (re-run later).
 */
import yargs, { type Argv } from 'yargs';
import { isVasError } from '../api/errors.js';
import { UsageError } from '../pipeline/errors.js';
import { inspectInBackground } from '../pipeline/inspect.js';
import { createLogger, type CliLogger, type LogFormat } from './logger.js';
import type { BankFlags, CommandIo } from './commands/bank.js';
import { sandboxOptions } from './commands/sandbox-options.js';
import { registerDocsCommands } from './commands/docs.js';
import { DEFAULT_CONCURRENCY, DEFAULT_STATE_FILE, DEFAULT_TIMEOUT, type Env } from './config.js';

export interface MainIo {
  env: Env;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  stderrIsTty: boolean;
  stopSignal: AbortSignal;
  /** Resolves when the process is asked to stop (used by long-running servers). */
  now?: () => number;
}

export const EXIT = { ok: 0, fatal: 1, usage: 2, incomplete: 3 } as const;

/**
 * Errors that mean "fix the invocation or the input" (exit 2), told apart by name so that this
 * entry need not load every module that defines one: commands are imported only when run.
 */
const USAGE_ERRORS = new Set(['UsageError', 'ColumnError', 'InputError', 'OutputError', 'StateFileError']);

function usageLike(error: unknown): boolean {
  return error instanceof Error && USAGE_ERRORS.has(error.name);
}

export async function main(argv: readonly string[], io: MainIo): Promise<number> {
  const offset = Number(io.env.VAS_TEST_CLOCK_OFFSET_MS ?? 0) || 0;
  const now = io.now ?? (() => Date.now() + offset);
  let log: CliLogger = createLogger({ format: 'text', quiet: false, write: io.stderr, now });
  let exitCode: number = EXIT.ok;
  const run = async (task: () => Promise<number>) => {
    exitCode = await task();
  };
  const commandIo = (args: { quiet?: boolean; logFormat?: string }): CommandIo => {
    log = createLogger({ format: (args.logFormat as LogFormat) ?? 'text', quiet: args.quiet ?? false, write: io.stderr, now });
    return { env: io.env, log, stderr: io.stderr, stderrIsTty: io.stderrIsTty, stopSignal: io.stopSignal, now, quiet: args.quiet ?? false };
  };

  const parser: Argv = yargs([...argv])
    .scriptName('vas-verify')
    .usage('$0 <command> [options]\n\nVerify Indian bank accounts in bulk, match payee names, and fetch document-locker documents.')
    .option('quiet', { alias: 'q', type: 'boolean', default: false, describe: 'Only warnings and errors on stderr' })
    .option('log-format', { choices: ['text', 'json'] as const, default: 'text', describe: 'Format of stderr messages' })
    .command(
      'bank <input>',
      'Verify every account of a payee CSV or .xlsx and write an enriched copy',
      (y) =>
        y
          .positional('input', { type: 'string', demandOption: true, describe: 'Payee CSV or .xlsx (account number, IFSC, name, …)' })
          .option('output', { alias: 'o', type: 'string', describe: 'Enriched CSV or .xlsx to write (default: <input>.verified.csv)' })
          .option('mode', { choices: ['pl', 'pd', 'hybrid'] as const, default: 'pl', describe: 'pl: no deposit; pd: one-rupee deposit; hybrid: pd only where pl says NOT_VERIFIED' })
          .option('state', { type: 'string', describe: `Checkpoint file (env VAS_STATE, default ${DEFAULT_STATE_FILE})` })
          .option('resume', { type: 'boolean', default: false, describe: 'Continue an unfinished run of this input (safe to always pass from cron)' })
          .option('rate', { type: 'number', describe: 'Requests per second (default: no limit)' })
          .option('concurrency', { type: 'number', default: DEFAULT_CONCURRENCY, describe: 'Requests in flight at most' })
          .option('account-col', { type: 'string', describe: 'Header of the account number column' })
          .option('ifsc-col', { type: 'string', describe: 'Header of the IFSC column' })
          .option('name-col', { type: 'string', describe: 'Header of the payee name column' })
          .option('header-row', { type: 'number', describe: 'Line of the header (default: found in the first 20 lines)' })
          .option('sheet', { type: 'string', describe: 'Sheet of an .xlsx input (default: the first)' })
          .option('reuse', { type: 'string', describe: 'Reuse results younger than this from the state, e.g. 30d' })
          .option('retry-unconfirmed', { type: 'boolean', default: false, describe: 'Re-send penny-drops whose answer was lost (may deposit twice)' })
          .option('summary', { type: 'string', describe: 'Also write the summary as JSON to this file' })
          .option('base-url', { type: 'string', describe: 'API base URL (env VAS_BASE_URL)' })
          .option('sandbox', { type: 'boolean', default: false, describe: 'Run against an in-process sandbox' })
          .option('max-calls', { type: 'number', describe: 'Stop dispatching after this many calls (resumable)' })
          .option('max-spend', { type: 'number', describe: 'Stop dispatching before the estimated spend passes this' })
          .option('price-pl', { type: 'number', describe: 'Price of a penny-less call (env VAS_PRICE_PL, default 0)' })
          .option('price-pd', { type: 'number', describe: 'Price of a penny-drop call (env VAS_PRICE_PD, default 0)' })
          .option('dry-run', { type: 'boolean', default: false, describe: 'Check the file and report what a run would call and cost; no calls' })
          .option('timeout', { type: 'string', default: DEFAULT_TIMEOUT, describe: 'Per-request timeout for headers and body, e.g. 30s' })
          .option('redis', { type: 'string', describe: 'Share one rate limit across processes through Redis (needs ioredis)' })
          .example('$0 bank payees.csv -o payees.verified.csv --resume', 'Nightly run from cron')
          .example('$0 bank payees.csv --sandbox', 'Try it with no credentials')
          .example('$0 bank payees.csv --mode hybrid --rate 20 --reuse 30d --summary run.json', 'Cheapest safe run'),
      (args) =>
        run(async () => {
          // The input's fingerprint pass runs on another thread while the command loads.
          const inspection = inspectInBackground(args.input as string);
          return (await import('./commands/bank.js')).bankCommand(
            {
              input: args.input as string,
              output: args.output,
              mode: args.mode as BankFlags['mode'],
              state: args.state,
              resume: args.resume,
              rate: args.rate,
              concurrency: args.concurrency,
              accountCol: args['account-col'],
              ifscCol: args['ifsc-col'],
              nameCol: args['name-col'],
              headerRow: args['header-row'],
              sheet: args.sheet,
              reuse: args.reuse,
              retryUnconfirmed: args['retry-unconfirmed'],
              summary: args.summary,
              baseUrl: args['base-url'],
              sandbox: args.sandbox,
              maxCalls: args['max-calls'],
              maxSpend: args['max-spend'],
              pricePl: args['price-pl'],
              pricePd: args['price-pd'],
              dryRun: args['dry-run'],
              timeout: args.timeout,
              redis: args.redis,
            } satisfies BankFlags,
            commandIo(args as { quiet?: boolean; logFormat?: string }),
            inspection,
          );
        }),
    )
    .command(
      'sandbox',
      'Start the embedded sandbox that imitates the whole API',
      (y) => sandboxOptions(y),
      (args) => run(async () => (await import('./commands/sandbox.js')).sandboxCommand(args, { ...commandIo(args as { quiet?: boolean }), stdout: io.stdout })),
    )
    .command(
      'name-match <expected> <actual>',
      'Score how well a bank-side name matches the payee name',
      (y) =>
        y
          .positional('expected', { type: 'string', demandOption: true })
          .positional('actual', { type: 'string', demandOption: true })
          .option('explain', { type: 'boolean', default: false, describe: 'Also list the rules that fired' })
          .example('$0 name-match "R K Sharma" "RAJESH KUMAR SHARMA"', ''),
      (args) => run(async () => (await import('./commands/name-match.js')).nameMatchCommand(args.expected as string, args.actual as string, args.explain, io.stdout)),
    )
    .command(
      'ifsc <code>',
      'Show what the shipped IFSC registry knows of a code (bank, type, UPI, sub-member, listed or not)',
      (y) =>
        y
          .positional('code', { type: 'string', demandOption: true })
          .example('$0 ifsc HDFC0000001', 'Exit 0: the bank is known (listed or not); 1: no such bank; 2: not an IFSC'),
      (args) => run(async () => (await import('./commands/ifsc.js')).ifscCommand(args.code as string, io.stdout)),
    )
    .command('docs', 'Document-locker flow: init, fetch, listen', (y) =>
      registerDocsCommands(y, (task) => run(task), (args) => ({ ...commandIo(args), stdout: io.stdout })).demandCommand(1, 'name a docs command: init, fetch or listen'),
    )
    .demandCommand(1, 'name a command: bank, docs, ifsc, name-match or sandbox')
    .strict()
    .recommendCommands()
    .help()
    .alias('h', 'help')
    .version()
    // Laying out help text costs ~45 ms of string-width work at every start: only for --help.
    .wrap(argv.includes('--help') || argv.includes('-h') ? Math.min(110, process.stdout.columns ?? 110) : null)
    .exitProcess(false)
    .fail((message, error) => {
      if (error) throw error;
      throw new UsageError(message);
    });

  let helpShown = false;
  try {
    await parser.parseAsync([...argv], {}, (error, _argv, output) => {
      if (output && !error) {
        helpShown = true;
        io.stdout(`${output}\n`);
      }
    });
  } catch (error) {
    return report(error, log);
  }
  return helpShown ? EXIT.ok : exitCode;
}

export function report(error: unknown, log: CliLogger): number {
  if (usageLike(error)) {
    log.error(`${(error as Error).message}`);
    return EXIT.usage;
  }
  if (error instanceof Error && error.name === 'RunLockedError') {
    log.error(error.message);
    return EXIT.fatal;
  }
  if (isVasError(error)) {
    log.error(error.describe());
    return error.kind === 'invalid-input' && error.status === undefined ? EXIT.usage : EXIT.fatal;
  }
  const message = error instanceof Error ? error.message : String(error);
  log.error(`internal error (this is a bug, please report it): ${message}`);
  if (process.env.VAS_DEBUG && error instanceof Error) log.error(error.stack ?? '');
  return EXIT.fatal;
}
