/** `vas-verify bank`: the I/O around runBank — config, client, state file, signals, output. */
import { isSpreadsheetPath } from '../../../input/spreadsheet.js';
import { EXIT } from '../../exit.js';
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import type { Client, RetryEvent } from '../../../api/client.js';
import { isStateFailure, openDatabase, stateFailure } from '../../../state/db.js';
import { BankStore } from '../../../state/bank-store.js';
import { Checkpointer } from '../../../state/checkpointer.js';
import { isAlive } from '../../../state/run-lock.js';
import { UsageError } from '../../../errors.js';
import { parsePolicy } from '../../../decision/index.js';
import { runBank, type BankRunOptions, type BankRunSummary } from '../../../pipeline/bank-run/index.js';
import { MIN_DEPOSIT_MEMORY_MS } from '../../../pipeline/bank-run/ledger.js';
import { checkOutputPath } from '../../../output/sink.js';
import { writePrivateFile } from '../../../output/private-file.js';
import type { InputInfo } from '../../../input/inspect.js';
import { parseDuration } from '../../../pipeline/time.js';
import { matchNames } from '../../../match/index.js';
import { ifscRegistry } from '../../../input/ifsc-registry.js';
import { DEFAULT_RATE_CONCURRENCY_CAP } from '../../../limiter/index.js';
import { resolveNumber, resolveRedisUrl, resolveStatePath, defaultOutputPath, BULK_RETRY, DEFAULT_CONCURRENCY, type Env } from '../../config.js';
import type { Connection as ApiConnection } from '../../config.js';
import { connect, limitOptions, resolveApiConnection, type Connected } from '../../connect.js';
import type { CommandIo } from '../../io.js';
import { createProgress } from '../../progress.js';
import { attentionLines, formatSummary, staleAnswersWarning, summaryJson, type SummaryExtras } from '../../summary.js';
import { registerUrlSecrets } from '../../../redact.js';
import type { SandboxOptions } from '../../../sandbox/index.js';
import { retryCause } from '../../../state/run-stats.js';
import { toolVersion } from '../../../version.js';
import { resumeWords, type BankFlags } from './options.js';
import { checkBankFiles } from '../../distinct-files.js';
import { MAX_SANDBOX_PAYEES, readSandboxPayees } from './sandbox-payees.js';
import { shellCommand } from '../../../shell-quote.js';

/** The flags checked and resolved against the environment, before anything is opened. */
interface BankSettings {
  concurrency: number;
  reuseMs: number | undefined;
  /** --max-age; undefined: `off`. */
  maxAgeMs: number | undefined;
  /** --policy, read and checked. */
  policy: BankRunOptions['policy'];
  depositMemoryMs: number;
  /** VAS_LOCK_LEASE: how long another host's lock must stand still before it is taken over. */
  lockLeaseMs: number | undefined;
  timeoutMs: number;
  /** --deadline, resolved (src/cli/connect.ts). */
  limits: ReturnType<typeof limitOptions>;
  pricePl: number;
  pricePd: number;
  output: string;
  statePath: string;
  /** The shared quota's Redis URL, password included (never printed), or undefined. */
  /** The shared quota's Redis URL, and where it came from (--redis or VAS_REDIS_URL) for messages. */
  redis: { url: string; given: string } | undefined;
}

/** What the run left: its summary, or the state file's failure. */
type RunEnd = { summary: BankRunSummary; retries: Record<string, number> } | { stateFailure: Error | undefined };

/** `inspection`: the input's fingerprint pass, when the caller has started it early. */
export async function bankCommand(flags: BankFlags, io: CommandIo, inspection?: Promise<InputInfo>): Promise<number> {
  const settings = resolveSettings(flags, io.env);
  const connection = flags.dryRun ? undefined : resolveApiConnection({ baseUrl: flags.baseUrl, sandbox: flags.sandbox }, io.env, io.log);
  if (flags.sandboxAccounts !== undefined && !flags.sandbox) throw new UsageError('--sandbox-accounts needs --sandbox');
  // Read before the state file is opened, so a wrong path costs nothing.
  const sandboxAccounts = flags.sandboxAccounts === undefined ? undefined : await loadSandboxAccounts(flags.sandboxAccounts);
  const sandbox = connection?.kind === 'sandbox' ? await sandboxOptions(flags, settings, io, inspection, sandboxAccounts) : undefined;
  const resumeHint = resumeCommand(flags, settings.output);
  const end = await runWithState(flags, settings, connection, io, inspection, sandbox, resumeHint);
  if (!('summary' in end)) {
    // The cause names the remedy: a full disk, a lock, a damaged file (src/state/db.ts).
    const { cause, remedy } = stateFailure(end.stateFailure ?? 'unknown failure');
    // The failed group of writes was rolled back: the file holds every row committed before it.
    io.log.error(`the state file ${settings.statePath} failed (${cause}); the run stopped, rows checkpointed before this are kept. ${remedy}, then resume with: ${resumeHint}`);
    return EXIT.fatal;
  }
  const extras = { retries: end.retries, stateFile: settings.statePath, prices: { pl: settings.pricePl, pd: settings.pricePd } };
  const exitCode = reportRun(flags, end.summary, extras, resumeHint, io);
  const final = flags.report ? await writeReport(flags, settings, end.summary, io, exitCode) : exitCode;
  noticePeople(flags, end.summary, final, io);
  return final;
}

/**
 * The cron notice, always last: how many payees are on HOLD and to REVIEW, by reason, and what
 * to run next. A warning, so `--quiet` keeps it; nothing at all when nobody needs to look.
 */
function noticePeople(flags: BankFlags, summary: BankRunSummary, exitCode: number, io: CommandIo): void {
  const stale = staleAnswersWarning(summary, io.now());
  if (stale) io.log.warn(stale);
  const lines = attentionLines(summary, { stateFlag: flags.state, exitCode, failOn: flags.failOn });
  if (lines) for (const line of lines) io.log.warn(line);
  else if (!summary.dryRun && summary.rows > 0 && !summary.stopped) io.log.info('no payee on HOLD or to REVIEW');
}

/**
 * VAS_LOCK_LEASE (a duration, default 2m): how long a run waits, watching another host's
 * heartbeat, before it takes that host's lock over; a holder beats eight times per lease.
 * Raise it where hosts sharing a state file may stall longer (a network filesystem, a VM paused).
 */
function resolveLockLease(env: Env): number | undefined {
  const text = env.VAS_LOCK_LEASE;
  return text === undefined || text === '' ? undefined : parseDuration(text, 'VAS_LOCK_LEASE');
}

/** The shortest --timeout kept as given (undici's idle timers tick every ~500 ms). */
const MIN_TIMEOUT_MS = 1_000;

/** The command that continues this run, safe to paste: every word shell-quoted (src/shell-quote.ts). */
function resumeCommand(flags: BankFlags, output: string): string {
  return shellCommand(resumeWords(flags, output));
}

function resolveSettings(flags: BankFlags, env: Env): BankSettings {
  // With --rate the requests in flight follow the rate (src/limiter/concurrency.ts): --concurrency is their cap.
  const concurrency = flags.concurrency ?? (flags.rate === undefined ? DEFAULT_CONCURRENCY : DEFAULT_RATE_CONCURRENCY_CAP);
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new UsageError('--concurrency must be a whole number ≥ 1');
  if (flags.rate !== undefined && !(flags.rate > 0 && Number.isFinite(flags.rate))) throw new UsageError('--rate must be a finite number of requests per second > 0 (your credential\'s quota, e.g. --rate 50)');
  const redis = sharedQuotaRedis(flags, env);
  if (flags.maxCalls !== undefined && !(Number.isInteger(flags.maxCalls) && flags.maxCalls >= 0)) throw new UsageError('--max-calls must be a whole number ≥ 0');
  // yargs reads `--max-spend 5,000` or `₹500` as NaN, and no spend is ever over NaN: the cap would be off.
  if (flags.maxSpend !== undefined && !(Number.isFinite(flags.maxSpend) && flags.maxSpend >= 0)) throw new UsageError('--max-spend must be a number ≥ 0, in the unit of --price-pl and --price-pd, without commas or a currency sign (e.g. --max-spend 5000)');
  if (flags.headerRow !== undefined && !(Number.isInteger(flags.headerRow) && flags.headerRow >= 1)) throw new UsageError('--header-row must be a line number ≥ 1');
  if (flags.sheet !== undefined && !isSpreadsheetPath(flags.input)) throw new UsageError('--sheet applies to a spreadsheet input (.xlsx, .xls, .ods) only');
  if (flags.delimiter !== undefined && isSpreadsheetPath(flags.input)) throw new UsageError('--delimiter applies to a CSV input only');
  const reuseMs = flags.reuse === undefined ? undefined : parseDuration(flags.reuse, '--reuse');
  const maxAgeMs = flags.maxAge === 'off' ? undefined : parseDuration(flags.maxAge, '--max-age');
  const policy = flags.policy === undefined ? undefined : readPolicy(flags.policy);
  const timeoutMs = parseDuration(flags.timeout, '--timeout');
  // undici checks its header and body timeouts on a clock that ticks every half second: a shorter
  // --timeout would be promised and not kept (a 100ms one let 500 ms answers through).
  if (timeoutMs < MIN_TIMEOUT_MS) throw new UsageError(`--timeout must be at least 1s (got ${flags.timeout}): the HTTP client checks it about every half second`);
  const depositMemoryMs = parseDuration(flags.depositMemory, '--deposit-memory');
  const lockLeaseMs = resolveLockLease(env);
  if (depositMemoryMs < MIN_DEPOSIT_MEMORY_MS) throw new UsageError('--deposit-memory must be at least 30d: a payee is never sent a second penny-drop sooner');
  const pricePl = resolveNumber(flags.pricePl, env.VAS_PRICE_PL, 0, '--price-pl');
  const pricePd = resolveNumber(flags.pricePd, env.VAS_PRICE_PD, 0, '--price-pd');
  const output = flags.output ?? defaultOutputPath(flags.input);
  const limits = limitOptions({ deadline: flags.deadline });
  const statePath = resolveStatePath(flags.state, env);
  // Two flags naming one file would destroy the input, the state or the output (src/cli/distinct-files.ts).
  checkBankFiles({ input: flags.input, output, dryRun: flags.dryRun, statePath, stateFlag: flags.state !== undefined, summary: flags.summary, report: flags.report });
  // Found before any call, not after the run has paid for every row.
  if (flags.summary) checkOutputPath(flags.summary, '--summary');
  if (flags.report) checkOutputPath(flags.report, '--report');
  return { concurrency, reuseMs, maxAgeMs, policy, depositMemoryMs, lockLeaseMs, timeoutMs, limits, pricePl, pricePd, output, statePath, redis };
}

/** The --policy file, checked before anything is opened: one line naming the field that is wrong. */
function readPolicy(file: string): BankRunOptions['policy'] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`--policy: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const parsed = parsePolicy(text);
  if (!parsed.ok) throw new UsageError(`--policy ${file}: ${parsed.problem}; see "The nightly decision" in the README for the fields`);
  return { source: file, policy: parsed.policy };
}

/** --redis or VAS_REDIS_URL, its password from the environment only (src/cli/config.ts). */
function sharedQuotaRedis(flags: BankFlags, env: Env): { url: string; given: string } | undefined {
  const url = resolveRedisUrl(flags.redis, env);
  if (url === undefined) return undefined;
  // A password in the Redis URL is a secret like the token: kept out of every message and file.
  registerUrlSecrets(url);
  const given = flags.redis !== undefined ? '--redis' : 'VAS_REDIS_URL';
  // The shared limiter shares a rate: without one there is nothing to share (never silently ignored).
  if (flags.rate === undefined) {
    const from = given === 'VAS_REDIS_URL' ? 'VAS_REDIS_URL (from the environment)' : given;
    throw new UsageError(`${from} shares one --rate between runs: give --rate RPS too (the quota of your credential, e.g. --rate 50)`);
  }
  return { url, given };
}

/** Opens the state file and the connection, runs, and closes both whatever happens. */
async function runWithState(
  flags: BankFlags,
  settings: BankSettings,
  connection: ApiConnection | undefined,
  io: CommandIo,
  inspection: Promise<InputInfo> | undefined,
  sandbox: SandboxOptions | undefined,
  resumeHint: string,
): Promise<RunEnd> {
  const db = openDatabase(settings.statePath, { durable: flags.mode !== 'pl' });
  const store = new BankStore(db, io.now);
  // The WAL is copied into the state file on a thread of its own, not in the run's commits (a dry
  // run writes next to nothing).
  const checkpointer = flags.dryRun ? undefined : Checkpointer.start(db, settings.statePath);
  let connected: Connected | undefined;
  const retries: Record<string, number> = {};
  const progress = createProgress({ tty: io.stderrIsTty, write: io.stderr, log: (line) => io.log.info(line), quiet: io.quiet, now: io.now });
  let summary: BankRunSummary | undefined;
  // A state file that cannot be written mid-run (full disk, I/O error, damaged pages).
  let stateFailure: Error | undefined;
  try {
    let client: Client | undefined;
    if (connection) {
      connected = await connect(connection, io.log, {
        timeoutMs: settings.timeoutMs,
        ...settings.limits,
        connections: Math.max(settings.concurrency, 1),
        retry: BULK_RETRY,
        sandbox,
        onRetry: (event: RetryEvent) => {
          const cause = retryCause(event.error);
          retries[cause] = (retries[cause] ?? 0) + 1;
        },
      });
      client = connected.client;
    }
    const recorded = { resumeCommand: resumeHint, toolVersion: toolVersion() };
    summary = await runBank({ ...runOptions(flags, settings, connection, inspection), recorded }, {
      client, store, now: io.now, stopSignal: io.stopSignal, log: io.log, pid: process.pid, isAlive, matchNames,
      ifscRegistry: ifscRegistry(),
      onProgress: (p) => progress.update(p),
    });
  } catch (error) {
    if (!isStateFailure(error)) throw error;
    stateFailure = error;
  } finally {
    progress.done();
    await connected?.close();
    try {
      store.close();
    } catch (error) {
      if (!isStateFailure(error)) throw error;
      stateFailure ??= error;
    } finally {
      await checkpointer?.stop();
    }
    db.close();
  }
  return stateFailure || !summary ? { stateFailure } : { summary, retries };
}

function runOptions(flags: BankFlags, settings: BankSettings, connection: ApiConnection | undefined, inspection: Promise<InputInfo> | undefined): BankRunOptions {
  // The shared quota's id: a hash of the credential, never the credential.
  const limiterId = connection?.kind === 'remote'
    ? `vas-verify:${createHash('sha256').update(connection.clientId ?? connection.token ?? '').digest('hex').slice(0, 16)}`
    : 'vas-verify:sandbox';
  return {
    inputPath: flags.input,
    inspection,
    outputPath: settings.output,
    mode: flags.mode,
    resume: flags.resume,
    retryUnconfirmed: flags.retryUnconfirmed,
    reuseMs: settings.reuseMs,
    maxAgeMs: settings.maxAgeMs,
    policy: settings.policy,
    failOn: flags.failOn,
    depositMemoryMs: settings.depositMemoryMs,
    lockLeaseMs: settings.lockLeaseMs,
    rate: flags.rate,
    concurrency: settings.concurrency,
    columns: { account: flags.accountCol, ifsc: flags.ifscCol, name: flags.nameCol, confirm: flags.confirmAccountCol, confirmIfsc: flags.confirmIfscCol },
    headerRow: flags.headerRow,
    sheet: flags.sheet,
    delimiter: flags.delimiter,
    explainColumns: flags.explainColumns,
    // A spreadsheet's spool stays beside the state, never in $TMPDIR (issue #26).
    spoolDir: path.dirname(path.resolve(settings.statePath)),
    maxCalls: flags.maxCalls,
    maxSpend: flags.maxSpend,
    pricePl: settings.pricePl,
    pricePd: settings.pricePd,
    dryRun: flags.dryRun,
    redis: settings.redis ? { ...settings.redis, limiterId } : undefined,
  };
}

/** The summary on stderr (and --summary JSON), and what to do next when the run is not done. */
function reportRun(flags: BankFlags, summary: BankRunSummary, extras: SummaryExtras, resumeHint: string, io: CommandIo): number {
  const { log } = io;
  log.info(formatSummary(summary, extras));
  let exitCode = summary.exitCode;
  if (flags.summary) {
    try {
      writePrivateFile(flags.summary, `${JSON.stringify(summaryJson(summary, extras), null, 2)}\n`);
    } catch (error) {
      // The run's rows are checkpointed either way; only the summary file is missing.
      log.error(`--summary: could not write ${flags.summary}: ${(error as Error).message}; the run's rows are checkpointed in ${extras.stateFile}`);
      if (exitCode === EXIT.ok) exitCode = EXIT.fatal;
    }
  }
  if (summary.stopped) {
    const what = summary.message ?? 'stopped';
    const line = `${what}; every answered row is checkpointed in ${extras.stateFile}. Resume with: ${resumeHint}`;
    if (summary.exitCode === EXIT.fatal) log.error(line);
    else log.warn(line);
  } else if (summary.exitCode === EXIT.incomplete) {
    const s = summary.statuses;
    log.warn(`${s.DEFERRED} deferred, ${s.FAILED} failed, ${s.UNCONFIRMED} unconfirmed row(s) are not final: re-run later with: ${resumeHint}`);
  }
  return exitCode;
}

/** The `--sandbox-accounts` registry; the sandbox's code is loaded only when it is asked for. */
async function loadSandboxAccounts(file: string): Promise<SandboxOptions['accounts']> {
  const { loadRegistry } = await import('../../../sandbox/index.js');
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`--sandbox-accounts: cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    return loadRegistry(text);
  } catch (error) {
    // Its message names the line and what is wrong with it.
    throw new UsageError(`--sandbox-accounts ${file}: ${(error as Error).message}`);
  }
}

/**
 * The in-process sandbox's options: the --sandbox-accounts registry, or else the file's own payee
 * names (src/sandbox/bank-style.ts), and the command's clock (a test's injected one crosses IST days).
 */
async function sandboxOptions(flags: BankFlags, settings: BankSettings, io: CommandIo, inspection: Promise<InputInfo> | undefined, accounts: SandboxOptions['accounts'] | undefined): Promise<SandboxOptions> {
  if (accounts !== undefined) return { accounts, now: io.now };
  const { columns, headerRow, sheet, delimiter, spoolDir, explainColumns } = runOptions(flags, settings, undefined, inspection);
  // Its errors are the run's own, said as the run would (--explain-columns' scores with a column that cannot be told).
  const payees = await readSandboxPayees(flags.input, inspection, { columns, headerRow, sheet, delimiter, spoolDir, explainColumns });
  if (payees.capped) io.log.warn(`--sandbox: the sandbox answers the payee names of the file's first ${MAX_SANDBOX_PAYEES.toLocaleString('en-IN')} accounts; later accounts answer generated holders (mostly NO_MATCH)`);
  return { payeeNames: payees.names, now: io.now };
}

// The report (src/report/) is written after a stop too, from what the state keeps of the run.

/**
 * Writes the run's HTML report from the state, exactly as `vas-verify report` rebuilds it later
 * (the run recorded its figures there); a failure to write it makes a successful run fail (exit 1).
 */
async function writeReport(flags: BankFlags, settings: BankSettings, summary: BankRunSummary, io: CommandIo, exitCode: number): Promise<number> {
  const reportPath = flags.report as string;
  if (summary.runId === null) {
    io.log.warn('--report: a dry run makes no run to report on; no report written');
    return exitCode;
  }
  try {
    const { writeReportFromState } = await import('../../../report/index.js');
    await writeReportFromState({
      statePath: settings.statePath, runId: summary.runId, reportPath, generatedAt: io.now(), stateArg: flags.state,
      prices: { pl: settings.pricePl, pd: settings.pricePd },
      columns: { account: flags.accountCol, ifsc: flags.ifscCol, name: flags.nameCol, confirm: flags.confirmAccountCol, confirmIfsc: flags.confirmIfscCol },
    });
    io.log.info(`report: ${reportPath}`);
  } catch (error) {
    io.log.error(`--report: could not write ${reportPath}: ${(error as Error).message}`);
    return exitCode === EXIT.ok ? EXIT.fatal : exitCode;
  }
  return exitCode;
}
