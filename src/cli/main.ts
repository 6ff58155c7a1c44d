/**
 * The one entry of the CLI: parses argv, runs a command, and alone decides the exit code
 * (errors through ./exit.ts). Each command registers its flags from commands/<name>/options.ts;
 * its code (commands/<name>/index.ts) is imported only when it runs.
 */
import yargs, { type Argv } from 'yargs';
import { UsageError } from '../errors.js';
import { createLogger, type CliLogger } from './logger.js';
import { registerBankCommand } from './commands/bank/options.js';
import { registerDocsCommands } from './commands/docs/options.js';
import { registerFilterCommand } from './commands/filter/options.js';
import { registerIfscCommand } from './commands/ifsc/options.js';
import { registerNameMatchCommand } from './commands/name-match/options.js';
import { registerReportCommand } from './commands/report/options.js';
import { registerReviewCommand } from './commands/review/options.js';
import { registerReleaseCommand } from './commands/release/options.js';
import { registerAuditCommand } from './commands/audit/options.js';
import { registerSandboxCommand } from './commands/sandbox/options.js';
import { EXIT, reportError } from './exit.js';
import { createCommandIo, type CommandContext, type GlobalFlags, type MainIo } from './io.js';

export type { MainIo };
export { EXIT };

/**
 * A flag given twice (`-o a.csv -o b.csv`, `--mode pl --mode pd`) is a usage error: yargs would
 * hand the command a list where it expects one value (an internal error), and taking either one
 * silently could deposit, write or read where the user did not mean. Repeatable flags are declared
 * `array: true`.
 */
function refuseRepeatedFlags(args: Record<string, unknown>, options: FlagOptions): void {
  const repeatable = new Set(options.array);
  for (const [key, value] of Object.entries(args)) {
    if (key === '_' || key.includes('-') || !Array.isArray(value) || repeatable.has(key)) continue;
    const flag = kebab(key);
    if (repeatable.has(flag)) continue;
    throw new UsageError(`${flag.length === 1 ? '-' : '--'}${flag} was given ${value.length} times (${value.map((v) => JSON.stringify(String(v))).join(', ')}): give it once`);
  }
}

/** yargs's declared options of the command being parsed (getOptions() is yargs's own, untyped). */
interface FlagOptions {
  number: string[];
  array: string[];
  boolean: string[];
}

/** A `--name` or `--name=value` word of the command line: its name in kebab case (yargs takes `--maxCalls` for `--max-calls`). */
interface FlagWord {
  name: string;
  /** The value after `=`, or undefined for `--name` alone. */
  value: string | undefined;
  /** The word after it (its value, when it has no `=`). */
  next: string | undefined;
}

/**
 * The command line's long flags up to `--`, read once for the checks below: yargs's own reading
 * loses what they look for (a repeated number summed, an empty one taken as 0, `--resume=maybe`
 * taken as false).
 */
function flagWords(argv: readonly string[]): FlagWord[] {
  const end = argv.indexOf('--');
  const words = end === -1 ? argv : argv.slice(0, end);
  const flags: FlagWord[] = [];
  words.forEach((word, i) => {
    const flag = /^--([A-Za-z-]+)(?:=(.*))?$/s.exec(word);
    if (flag) flags.push({ name: kebab(flag[1]!), value: flag[2], next: words[i + 1] });
  });
  return flags;
}

/**
 * A number flag given twice is found in the words themselves: yargs adds a repeated value of 1 to
 * the one before it instead of keeping both (`--rate 50 --rate 1` is 51, `--run 3 --run 1` is run
 * 4, `--max-calls 1 --max-calls 1` is 2), so no list reaches refuseRepeatedFlags. `--name value`,
 * `--name=value` and yargs's camelCase spelling count alike.
 */
function refuseRepeatedNumbers(options: FlagOptions, flags: readonly FlagWord[]): void {
  const numbers = new Set(options.number);
  const repeatable = new Set(options.array);
  const given = new Map<string, string[]>();
  for (const { name, value, next } of flags) {
    if (!numbers.has(name) || repeatable.has(name)) continue;
    given.set(name, [...(given.get(name) ?? []), value ?? next ?? '']);
  }
  for (const [name, values] of given) {
    if (values.length > 1) throw new UsageError(`--${name} was given ${values.length} times (${values.map((v) => JSON.stringify(v)).join(', ')}): give it once`);
  }
}

/** Flags that name a file or folder: an empty value (an unset shell variable) would name the current folder, or nothing. */
const PATH_FLAGS = ['output', 'state', 'summary', 'report', 'policy', 'exceptions', 'download', 'sandbox-accounts', 'accounts', 'import', 'input'];

/** `-o ""`, `--state "$UNSET"`: refused before anything is read or written, one line. */
function refuseEmptyPaths(args: Record<string, unknown>): void {
  for (const flag of PATH_FLAGS) {
    if (args[flag] !== '') continue;
    const named = flag === 'output' ? '-o' : flag === 'input' && (args._ as unknown[])[0] === 'bank' ? 'the payee file' : `--${flag}`;
    throw new UsageError(`${named} is empty: give a file name`);
  }
}

/**
 * A number flag with no value (`--max-calls $UNSET --quiet`, or last on the line) reaches yargs as
 * not given, or as its default (`sandbox --port`: 8080); one with an empty value
 * (`--price-pd "$UNSET"`, `--rate=`) as 0. Either way a cap or the rate was silently off, or a
 * price was nothing (so `--max-spend` never stopped): refused like an empty path. A word after the
 * flag that starts with `-` and is not a number (`-5`, `-.5`) is the next flag, not its value.
 */
function refuseEmptyNumbers(options: FlagOptions, flags: readonly FlagWord[]): void {
  const numbers = new Set(options.number);
  for (const { name, value, next } of flags) {
    if (!numbers.has(name)) continue;
    const empty = value !== undefined ? value === '' : next === undefined || next === '' || /^-(?![\d.])/.test(next);
    if (empty) throw new UsageError(`--${name} is empty: give a number`);
  }
}

/**
 * A switch given a value (`--resume=maybe`, `--retry-unconfirmed=yes`) reaches yargs as false
 * unless the value is "true": a cron line that meant to resume started over, or refused. Only
 * `=true` and `=false` are taken; anything else is refused.
 */
function refuseSwitchValues(options: FlagOptions, flags: readonly FlagWord[]): void {
  const switches = new Set(options.boolean);
  for (const { name: word, value } of flags) {
    if (value === undefined) continue;
    const name = word.startsWith('no-') ? word.slice(3) : word;
    if (!switches.has(name) || /^(true|false)$/.test(value)) continue;
    throw new UsageError(`--${name} is a switch and takes no value (got ${JSON.stringify(value)}): give --${name} alone, or leave it out`);
  }
}

/** `maxCalls` → `max-calls`. */
function kebab(flag: string): string {
  return flag.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

export async function main(argv: readonly string[], io: MainIo): Promise<number> {
  const offset = Number(io.env.VAS_TEST_CLOCK_OFFSET_MS ?? 0) || 0;
  const now = io.now ?? (() => Date.now() + offset);
  let log: CliLogger = createLogger({ format: 'text', quiet: false, write: io.stderr, now });
  let exitCode: number = EXIT.ok;
  const context = <C>(load: () => Promise<C>): CommandContext<C> => ({
    run: async (task) => {
      exitCode = await task();
    },
    io: (flags: GlobalFlags) => {
      const commandIo = createCommandIo(io, now, flags);
      log = commandIo.log;
      return commandIo;
    },
    load,
  });

  let parser: Argv = yargs([...argv])
    .scriptName('vas-verify')
    .usage('$0 <command> [options]\n\nVerify Indian bank accounts in bulk, match payee names, and fetch document-locker documents.')
    .option('quiet', { alias: 'q', type: 'boolean', default: false, describe: 'Only warnings and errors on stderr' })
    .option('log-format', { choices: ['text', 'json'] as const, default: 'text', describe: 'Format of stderr messages' });
  parser = registerBankCommand(parser, context(() => import('./commands/bank/index.js')));
  parser = registerSandboxCommand(parser, context(() => import('./commands/sandbox/index.js')));
  parser = registerIfscCommand(parser, context(() => import('./commands/ifsc/index.js')));
  parser = registerNameMatchCommand(parser, context(() => import('./commands/name-match/index.js')));
  parser = registerReportCommand(parser, context(() => import('./commands/report/index.js')));
  parser = registerFilterCommand(parser, context(() => import('./commands/filter/index.js')));
  parser = registerReviewCommand(parser, context(() => import('./commands/review/index.js')));
  parser = registerDocsCommands(parser, context(() => import('./commands/docs/index.js')));
  parser = registerReleaseCommand(parser, context(() => import('./commands/release/index.js')));
  parser = registerAuditCommand(parser, context(() => import('./commands/audit/index.js')));
  parser = parser
    .demandCommand(1, 'name a command: audit, bank, docs, filter, ifsc, name-match, release, report, review or sandbox')
    .strict()
    .recommendCommands()
    .help()
    .alias('h', 'help')
    .version()
    // Laying out help text costs ~45 ms of string-width work at every start: only for --help.
    .wrap(argv.includes('--help') || argv.includes('-h') ? Math.min(110, process.stdout.columns ?? 110) : null)
    .exitProcess(false)
    .middleware((args) => {
      const options = (parser as unknown as { getOptions(): FlagOptions }).getOptions();
      const flags = flagWords(argv);
      refuseRepeatedNumbers(options, flags);
      refuseRepeatedFlags(args, options);
      refuseEmptyPaths(args);
      refuseEmptyNumbers(options, flags);
      refuseSwitchValues(options, flags);
    }, true)
    .fail((message, error) => {
      if (error) throw error;
      // yargs breaks some of its messages over lines ("Invalid values:\n  Argument: mode, …"): one line, as every error is.
      throw new UsageError(message.replace(/\s*\n\s*/g, ' '));
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
    return reportError(error, log, io.env);
  }
  return helpShown ? EXIT.ok : exitCode;
}
