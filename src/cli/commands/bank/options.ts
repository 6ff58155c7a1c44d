/** `vas-verify bank`: its flags, and how they reach the command (./index.ts). */
import type { Argv } from 'yargs';
import type { InputInfo } from '../../../input/inspect.js';
import type { Delimiter } from '../../../input/read-csv.js';
import { inspectInBackground } from '../../../input/inspect.js';
import type { RunMode } from '../../../state/types.js';
import { DEFAULT_RATE_CONCURRENCY_CAP } from '../../../limiter/index.js';
import { DEFAULT_CONCURRENCY, DEFAULT_DEADLINE, DEFAULT_MAX_AGE, DEFAULT_STATE_FILE, DEFAULT_TIMEOUT } from '../../config.js';
import type { CommandContext, CommandIo, GlobalFlags } from '../../io.js';
// The documented shares alone (no sandbox code), for --sandbox's help.
import { CHANGED_HOLDER_SHARE, DIFFERENT_HOLDER_SHARE } from '../../../sandbox/holder-shares.js';

export interface BankFlags {
  input: string;
  output?: string | undefined;
  mode: RunMode;
  state?: string | undefined;
  resume: boolean;
  rate?: number | undefined;
  concurrency?: number | undefined;
  accountCol?: string | undefined;
  ifscCol?: string | undefined;
  nameCol?: string | undefined;
  /** `--confirm-account-col`: the column repeating the account number, cross-checked with it (default: found by its header and content). */
  confirmAccountCol?: string | undefined;
  /** `--confirm-ifsc-col`: the column repeating the IFSC, cross-checked with it (default: found by its header and content). */
  confirmIfscCol?: string | undefined;
  /** `--header-row N` and `--sheet NAME` (src/input/). */
  headerRow?: number | undefined;
  sheet?: string | undefined;
  /** `--delimiter` and `--explain-columns` (src/input/). */
  delimiter?: Delimiter | undefined;
  explainColumns: boolean;
  reuse?: string | undefined;
  /** `--max-age`: re-check answers older than this (default DEFAULT_MAX_AGE; `off`: never). */
  maxAge: string;
  /** `--policy FILE`: the decision policy (JSON); default the built-in one. */
  policy?: string | undefined;
  /** `--fail-on hold|review`: exit 4 when payees need a person. */
  failOn?: 'hold' | 'review' | undefined;
  depositMemory: string;
  retryUnconfirmed: boolean;
  summary?: string | undefined;
  /** --report FILE.html: the run's HTML report, written when the run ends (src/report/). */
  report?: string | undefined;
  baseUrl?: string | undefined;
  sandbox: boolean;
  /** With `sandbox`: a holder registry CSV for the in-process sandbox; default none (generated holders). */
  sandboxAccounts?: string | undefined;
  maxCalls?: number | undefined;
  maxSpend?: number | undefined;
  pricePl?: number | undefined;
  pricePd?: number | undefined;
  dryRun: boolean;
  timeout: string;
  /** --deadline: total time of one request (default DEFAULT_DEADLINE). */
  deadline?: string | undefined;
  redis?: string | undefined;
}

export interface BankCommand {
  /** `inspection`: the input's fingerprint pass, when the caller has started it early. */
  bankCommand(flags: BankFlags, io: CommandIo, inspection?: Promise<InputInfo>): Promise<number>;
}

function bankOptions<T>(y: Argv<T>) {
  return y
    .positional('input', { type: 'string', demandOption: true, describe: 'Payee CSV or .xlsx (account number, IFSC, name, …)' })
    .option('output', { alias: 'o', type: 'string', describe: 'Enriched CSV or .xlsx to write (default: <input>.verified.csv)' })
    .option('mode', { choices: ['pl', 'pd', 'hybrid'] as const, default: 'pl', describe: 'pl: no deposit; pd: one-rupee deposit; hybrid: pd only where pl says NOT_VERIFIED' })
    .option('state', { type: 'string', describe: `Checkpoint file (env VAS_STATE, default ${DEFAULT_STATE_FILE})` })
    .option('resume', { type: 'boolean', default: false, describe: 'Continue an unfinished run of this input (safe to always pass from cron)' })
    .option('rate', { type: 'number', describe: 'Requests per second (default: no limit)' })
    .option('concurrency', { type: 'number', describe: `Requests in flight at most (default ${DEFAULT_CONCURRENCY}; with --rate the cap of the requests in flight, which follow the rate × the answer time: default ${DEFAULT_RATE_CONCURRENCY_CAP})` })
    .option('account-col', { type: 'string', describe: 'Header of the account number column' })
    .option('ifsc-col', { type: 'string', describe: 'Header of the IFSC column' })
    .option('name-col', { type: 'string', describe: 'Header of the payee name column' })
    .option('confirm-account-col', { type: 'string', describe: 'Header of the column repeating the account number to confirm it (default: found by its header, e.g. "Confirm Account No"): a row whose two differ is INVALID' })
    .option('confirm-ifsc-col', { type: 'string', describe: 'Header of the column repeating the IFSC to confirm it (default: found by its header, e.g. "Confirm IFSC Code"): a row whose two differ is INVALID' })
    .option('header-row', { type: 'number', describe: 'Line of the header (default: found in the first 20 lines)' })
    .option('sheet', { type: 'string', describe: 'Sheet of a spreadsheet input, .xlsx, .xls or .ods (default: the first sheet if it is a payee list, else the one visible sheet that is)' })
    .option('delimiter', { choices: ['comma', 'semicolon', 'tab', 'pipe'] as const, describe: 'CSV delimiter (default: sniffed from the first lines; the output keeps it)' })
    .option('explain-columns', { type: 'boolean', default: false, describe: 'Log how each column scored (header, IFSCs, account numbers, names) when the columns are chosen' })
    .option('reuse', { type: 'string', describe: 'Reuse results younger than this from the state, e.g. 30d' })
    .option('max-age', { type: 'string', default: DEFAULT_MAX_AGE, describe: "Re-check this run's answers older than this (nightly re-verification: a holder may change), e.g. 7d; off: never" })
    .option('policy', { type: 'string', describe: 'Decision policy (JSON): which name verdicts PAY, REVIEW or HOLD; default: GOOD or better pays, a changed holder holds' })
    .option('fail-on', { choices: ['hold', 'review'] as const, describe: 'Exit 4 when every row is final but payees are on HOLD (hold), or on HOLD or to REVIEW (review)' })
    .option('retry-unconfirmed', { type: 'boolean', default: false, describe: 'Re-send penny-drops whose answer was lost (may deposit twice)' })
    .option('deposit-memory', { type: 'string', default: DEFAULT_DEPOSIT_MEMORY, describe: 'A payee with a penny-drop younger than this (any run, any file) is not sent another; at least 30d' })
    .option('summary', { type: 'string', describe: 'Also write the summary as JSON to this file' })
    .option('report', { type: 'string', describe: 'Also write a self-contained HTML report of the run to this file' })
    .option('base-url', { type: 'string', describe: 'API base URL (env VAS_BASE_URL)' })
    .option('sandbox', { type: 'boolean', default: false, describe: `Run against an in-process sandbox; without --sandbox-accounts each account's holder is its payee name as a bank prints it (initials, surname first, cut), ${percent(DIFFERENT_HOLDER_SHARE)} another person, ${percent(CHANGED_HOLDER_SHARE)} a holder that changes every IST day` })
    .option('sandbox-accounts', { type: 'string', describe: 'With --sandbox: holder registry CSV (accountNumber,ifsc,name[,status]) the sandbox answers from' })
    .option('max-calls', { type: 'number', describe: 'Stop dispatching after this many calls (resumable)' })
    .option('max-spend', { type: 'number', describe: 'Stop dispatching before the estimated spend passes this' })
    .option('price-pl', { type: 'number', describe: 'Price of a penny-less call (env VAS_PRICE_PL, default 0)' })
    .option('price-pd', { type: 'number', describe: 'Price of a penny-drop call (env VAS_PRICE_PD, default 0)' })
    .option('dry-run', { type: 'boolean', default: false, describe: 'Check the file and report what a run would call and cost; no calls' })
    .option('timeout', { type: 'string', default: DEFAULT_TIMEOUT, describe: 'Per-request idle timeout: longest wait for headers or between body bytes, e.g. 30s' })
    .option('deadline', { type: 'string', default: DEFAULT_DEADLINE, describe: 'Longest total time of one request, e.g. 2m (a trickled answer is cut; 0 for none)' })
    .option('redis', { type: 'string', describe: 'Share one --rate across processes and hosts through Redis: redis://[user@]host:port (env VAS_REDIS_URL; the password only from the environment, VAS_REDIS_PASSWORD or VAS_REDIS_URL; needs --rate)' })
    .example('$0 bank payees.csv -o payees.verified.csv --resume --max-age 7d --fail-on hold --quiet', 'Nightly run from cron: mails only when payees are held')
    .example('$0 bank payees.csv --sandbox', 'Try it with no credentials')
    .example('$0 bank samples/payees.csv --sandbox --sandbox-accounts samples/holders.csv', 'The demo: bank-side names that differ the way real ones do')
    .example('$0 bank payees.csv --mode hybrid --rate 20 --reuse 30d --summary run.json', 'Cheapest safe run');
}

/** --deposit-memory's default: 90 days (DEFAULT_DEPOSIT_MEMORY_MS). */
const DEFAULT_DEPOSIT_MEMORY = '90d';

const percent = (share: number): string => `${Math.round(share * 100)}%`;

const DELIMITER_NAMES: Readonly<Record<string, Delimiter>> = { comma: ',', semicolon: ';', tab: '\t', pipe: '|' };

function toBankFlags(args: Record<string, unknown>): BankFlags {
  return {
    input: args.input as string,
    output: args.output as string | undefined,
    mode: args.mode as BankFlags['mode'],
    state: args.state as string | undefined,
    resume: args.resume as boolean,
    rate: args.rate as number | undefined,
    concurrency: args.concurrency as number | undefined,
    accountCol: args['account-col'] as string | undefined,
    ifscCol: args['ifsc-col'] as string | undefined,
    nameCol: args['name-col'] as string | undefined,
    confirmAccountCol: args['confirm-account-col'] as string | undefined,
    confirmIfscCol: args['confirm-ifsc-col'] as string | undefined,
    headerRow: args['header-row'] as number | undefined,
    sheet: args.sheet as string | undefined,
    delimiter: DELIMITER_NAMES[args.delimiter as string],
    explainColumns: args['explain-columns'] as boolean,
    reuse: args.reuse as string | undefined,
    maxAge: args['max-age'] as string,
    policy: args.policy as string | undefined,
    failOn: args['fail-on'] as BankFlags['failOn'],
    depositMemory: args['deposit-memory'] as string,
    retryUnconfirmed: args['retry-unconfirmed'] as boolean,
    summary: args.summary as string | undefined,
    report: args.report as string | undefined,
    baseUrl: args['base-url'] as string | undefined,
    sandbox: args.sandbox as boolean,
    sandboxAccounts: args['sandbox-accounts'] as string | undefined,
    maxCalls: args['max-calls'] as number | undefined,
    maxSpend: args['max-spend'] as number | undefined,
    pricePl: args['price-pl'] as number | undefined,
    pricePd: args['price-pd'] as number | undefined,
    dryRun: args['dry-run'] as boolean,
    timeout: args.timeout as string,
    deadline: args.deadline as string | undefined,
    redis: args.redis as string | undefined,
  };
}

/** A URL's password as `***`: the resume command is logged, recorded in the state and shown in the report. */
function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password === '') return url;
    parsed.password = '***';
    return parsed.href;
  } catch {
    return url;
  }
}

/**
 * The command line that continues a run as it was started: the same input, output, state, mode
 * and every flag that shapes the run (the rate and its sharing, the columns, the reuse and re-check
 * windows, the limits, the timeouts, the reports). Printed on a stop, pasted by people and cron;
 * one flag left out changes what the resumed run does (no --rate: the quota ignored; another
 * --account-col: other payees). Never --retry-unconfirmed: re-sending deposits is asked for each
 * time, after the bank statement is checked. Values come back as they were given, but for a
 * password inside --base-url (the token and the Redis password come from the environment only).
 */
export function resumeWords(flags: BankFlags, output: string): string[] {
  const delimiter = Object.entries(DELIMITER_NAMES).find(([, char]) => char === flags.delimiter)?.[0];
  const option = (name: string, value: string | number | undefined, fallback?: string): string[] =>
    value === undefined || value === fallback ? [] : [`--${name}`, String(value)];
  return [
    'vas-verify', 'bank', flags.input, '-o', output, '--mode', flags.mode, '--resume',
    ...option('state', flags.state),
    ...option('rate', flags.rate),
    ...option('concurrency', flags.concurrency),
    ...option('redis', flags.redis),
    ...option('account-col', flags.accountCol),
    ...option('ifsc-col', flags.ifscCol),
    ...option('name-col', flags.nameCol),
    ...option('confirm-account-col', flags.confirmAccountCol),
    ...option('confirm-ifsc-col', flags.confirmIfscCol),
    ...option('header-row', flags.headerRow),
    ...option('sheet', flags.sheet),
    ...option('delimiter', delimiter),
    ...option('reuse', flags.reuse),
    ...option('max-age', flags.maxAge, DEFAULT_MAX_AGE),
    ...option('policy', flags.policy),
    ...option('fail-on', flags.failOn),
    ...option('deposit-memory', flags.depositMemory, DEFAULT_DEPOSIT_MEMORY),
    ...option('summary', flags.summary),
    ...option('report', flags.report),
    ...option('base-url', flags.baseUrl === undefined ? undefined : withoutPassword(flags.baseUrl)),
    ...(flags.sandbox ? ['--sandbox'] : []),
    ...option('sandbox-accounts', flags.sandboxAccounts),
    ...option('max-calls', flags.maxCalls),
    ...option('max-spend', flags.maxSpend),
    ...option('price-pl', flags.pricePl),
    ...option('price-pd', flags.pricePd),
    ...option('timeout', flags.timeout, DEFAULT_TIMEOUT),
    ...option('deadline', flags.deadline, DEFAULT_DEADLINE),
  ];
}

export function registerBankCommand<T>(y: Argv<T>, ctx: CommandContext<BankCommand>): Argv<T> {
  return y.command(
    'bank <input>',
    'Verify every account of a payee CSV or .xlsx and write an enriched copy',
    (c) => bankOptions(c),
    (args) =>
      ctx.run(async () => {
        // The input's fingerprint pass runs on another thread while the command loads.
        const inspection = inspectInBackground(args.input as string);
        return (await ctx.load()).bankCommand(toBankFlags(args), ctx.io(args as GlobalFlags), inspection);
      }),
  );
}
