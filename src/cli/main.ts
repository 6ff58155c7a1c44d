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
function refuseRepeatedFlags(args: Record<string, unknown>, parser: Argv): void {
  // getOptions() is yargs's own (untyped): the options of the command being parsed.
  const repeatable = new Set((parser as unknown as { getOptions(): { array: string[] } }).getOptions().array);
  for (const [key, value] of Object.entries(args)) {
    if (key === '_' || key.includes('-') || !Array.isArray(value) || repeatable.has(key)) continue;
    const flag = kebab(key);
    if (repeatable.has(flag)) continue;
    throw new UsageError(`${flag.length === 1 ? '-' : '--'}${flag} was given ${value.length} times (${value.map((v) => JSON.stringify(String(v))).join(', ')}): give it once`);
  }
}

/**
 * A number flag given twice is found in the words themselves: yargs adds a repeated value of 1 to
 * the one before it instead of keeping both (`--rate 50 --rate 1` is 51, `--run 3 --run 1` is run
 * 4, `--max-calls 1 --max-calls 1` is 2), so no list reaches refuseRepeatedFlags. `--name value`,
 * `--name=value` and yargs's camelCase spelling count alike.
 */
function refuseRepeatedNumbers(parser: Argv, argv: readonly string[]): void {
  // getOptions() is yargs's own (untyped): the options of the command being parsed.
  const options = (parser as unknown as { getOptions(): { number: string[]; array: string[] } }).getOptions();
  const numbers = new Set(options.number);
  const repeatable = new Set(options.array);
  const end = argv.indexOf('--');
  const words = end === -1 ? argv : argv.slice(0, end);
  const given = new Map<string, string[]>();
  words.forEach((word, i) => {
    const flag = /^--([A-Za-z-]+)(?:=(.*))?$/s.exec(word);
    const name = flag && kebab(flag[1]!);
    if (!flag || !name || !numbers.has(name) || repeatable.has(name)) return;
    given.set(name, [...(given.get(name) ?? []), flag[2] ?? words[i + 1] ?? '']);
  });
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
function refuseEmptyNumbers(parser: Argv, argv: readonly string[]): void {
  // getOptions() is yargs's own (untyped): the options of the command being parsed.
  const numbers = new Set((parser as unknown as { getOptions(): { number: string[] } }).getOptions().number);
  const end = argv.indexOf('--');
  const words = end === -1 ? argv : argv.slice(0, end);
  words.forEach((word, i) => {
    const flag = /^--([A-Za-z-]+)(=?)$/.exec(word);
    // yargs takes `--maxCalls` for `--max-calls`.
    const name = flag && kebab(flag[1]!);
    if (!flag || !name || !numbers.has(name)) return;
    const next = words[i + 1];
    const empty = flag[2] === '=' || next === undefined || next === '' || /^-(?![\d.])/.test(next);
    if (empty) throw new UsageError(`--${name} is empty: give a number`);
  });
}

/**
 * A switch given a value (`--resume=maybe`, `--retry-unconfirmed=yes`) reaches yargs as false
 * unless the value is "true": a cron line that meant to resume started over, or refused. Only
 * `=true` and `=false` are taken; anything else is refused.
 */
function refuseSwitchValues(parser: Argv, argv: readonly string[]): void {
  // getOptions() is yargs's own (untyped): the options of the command being parsed.
  const switches = new Set((parser as unknown as { getOptions(): { boolean: string[] } }).getOptions().boolean);
  const end = argv.indexOf('--');
  for (const word of end === -1 ? argv : argv.slice(0, end)) {
    const flag = /^--(?:no-)?([A-Za-z-]+)=(.*)$/s.exec(word);
    if (!flag || !switches.has(kebab(flag[1]!)) || /^(true|false)$/.test(flag[2]!)) continue;
    throw new UsageError(`--${kebab(flag[1]!)} is a switch and takes no value (got ${JSON.stringify(flag[2])}): give --${kebab(flag[1]!)} alone, or leave it out`);
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
      refuseRepeatedNumbers(parser, argv);
      refuseRepeatedFlags(args, parser);
      refuseEmptyPaths(args);
      refuseEmptyNumbers(parser, argv);
      refuseSwitchValues(parser, argv);
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
