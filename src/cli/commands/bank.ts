/** `vas-verify bank`: the I/O around runBank — config, client, state file, signals, output. */
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import type { Client, RetryEvent } from '../../api/client.js';
import { openDatabase } from '../../state/db.js';
import { BankStore, isAlive, type RunMode } from '../../state/bank-store.js';
import { runBank, UsageError, type BankRunSummary } from '../../pipeline/run.js';
import { checkOutputPath } from '../../pipeline/write.js';
import type { InputInfo } from '../../pipeline/inspect.js';
import { parseDuration } from '../../pipeline/time.js';
import { matchNames } from '../../match/index.js';
import { ifscRegistry } from '../../input/ifsc-registry.js';
import { resolveNumber, resolveStatePath, defaultOutputPath, BULK_RETRY, DEFAULT_CONCURRENCY, type Env } from '../config.js';
import type { CliLogger } from '../logger.js';
import { connect, resolveApiConnection, type Connected } from '../connect.js';
import { createProgress } from '../progress.js';
import { formatSummary, summaryJson } from '../summary.js';

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
  /** [input] `--header-row N` and `--sheet NAME`. */
  headerRow?: number | undefined;
  sheet?: string | undefined;
  reuse?: string | undefined;
  retryUnconfirmed: boolean;
  summary?: string | undefined;
  baseUrl?: string | undefined;
  sandbox: boolean;
  maxCalls?: number | undefined;
  maxSpend?: number | undefined;
  pricePl?: number | undefined;
  pricePd?: number | undefined;
  dryRun: boolean;
  timeout: string;
  redis?: string | undefined;
}

export interface CommandIo {
  env: Env;
  log: CliLogger;
  stderr: (text: string) => void;
  stderrIsTty: boolean;
  /** Aborted by SIGINT/SIGTERM. */
  stopSignal: AbortSignal;
  quiet: boolean;
  /** Test hook: shifts the clock (VAS_TEST_CLOCK_OFFSET_MS). */
  now: () => number;
}


/** `inspection`: the input's fingerprint pass, when the caller has started it early. */
export async function bankCommand(flags: BankFlags, io: CommandIo, inspection?: Promise<InputInfo>): Promise<number> {
  const { env, log } = io;
  const concurrency = flags.concurrency ?? DEFAULT_CONCURRENCY;
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new UsageError('--concurrency must be a whole number ≥ 1');
  if (flags.rate !== undefined && !(flags.rate > 0)) throw new UsageError('--rate must be a number of requests per second > 0');
  if (flags.maxCalls !== undefined && !(Number.isInteger(flags.maxCalls) && flags.maxCalls >= 0)) throw new UsageError('--max-calls must be a whole number ≥ 0');
  if (flags.headerRow !== undefined && !(Number.isInteger(flags.headerRow) && flags.headerRow >= 1)) throw new UsageError('--header-row must be a line number ≥ 1');
  if (flags.sheet !== undefined && !/\.xlsx$/i.test(flags.input)) throw new UsageError('--sheet applies to an .xlsx input only');
  let reuseMs: number | undefined;
  let timeoutMs: number;
  try {
    reuseMs = flags.reuse === undefined ? undefined : parseDuration(flags.reuse);
    timeoutMs = parseDuration(flags.timeout);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const pricePl = resolveNumber(flags.pricePl, env.VAS_PRICE_PL, 0, '--price-pl');
  const pricePd = resolveNumber(flags.pricePd, env.VAS_PRICE_PD, 0, '--price-pd');
  const output = flags.output ?? defaultOutputPath(flags.input);
  if (!flags.dryRun && output === flags.input) throw new UsageError('the output would overwrite the input: give another -o path');
  const statePath = resolveStatePath(flags.state, env);
  // Found before any call, not after the run has paid for every row.
  if (flags.summary) checkOutputPath(flags.summary, '--summary');

  const connection = flags.dryRun ? undefined : resolveApiConnection({ baseUrl: flags.baseUrl, sandbox: flags.sandbox }, env, log);

  const db = openDatabase(statePath, { durable: flags.mode !== 'pl' });
  const store = new BankStore(db, io.now);
  let connected: Connected | undefined;
  let client: Client | undefined;
  const retries: Record<string, number> = {};
  const progress = createProgress({ tty: io.stderrIsTty, write: io.stderr, log: (line) => log.info(line), quiet: io.quiet, now: io.now });
  let summary: BankRunSummary | undefined;
  // A state file that cannot be written mid-run (full disk, I/O error, damaged pages).
  let stateFailure: InstanceType<typeof Database.SqliteError> | undefined;
  try {
    if (connection) {
      connected = await connect(connection, log, {
        timeoutMs,
        connections: Math.max(concurrency, 1),
        retry: BULK_RETRY,
        onRetry: (event: RetryEvent) => {
          const cause = event.error.status !== undefined ? String(event.error.status) : event.error.code ?? event.error.kind;
          retries[cause] = (retries[cause] ?? 0) + 1;
        },
      });
      client = connected.client;
    }
    const limiterId = connection?.kind === 'remote'
      ? `vas-verify:${createHash('sha256').update(connection.clientId ?? connection.token ?? '').digest('hex').slice(0, 16)}`
      : 'vas-verify:sandbox';
    summary = await runBank(
      {
        inputPath: flags.input,
        inspection,
        outputPath: output,
        mode: flags.mode,
        resume: flags.resume,
        retryUnconfirmed: flags.retryUnconfirmed,
        reuseMs,
        rate: flags.rate,
        concurrency,
        columns: { account: flags.accountCol, ifsc: flags.ifscCol, name: flags.nameCol },
        headerRow: flags.headerRow,
        sheet: flags.sheet,
        maxCalls: flags.maxCalls,
        maxSpend: flags.maxSpend,
        pricePl,
        pricePd,
        dryRun: flags.dryRun,
        redis: flags.redis ? { url: flags.redis, limiterId } : undefined,
      },
      {
        client,
        store,
        now: io.now,
        stopSignal: io.stopSignal,
        log,
        pid: process.pid,
        isAlive,
        matchNames,
        ifscRegistry: ifscRegistry(),
        onProgress: (p) => progress.update(p),
      },
    );
  } catch (error) {
    if (!(error instanceof Database.SqliteError)) throw error;
    stateFailure = error;
  } finally {
    progress.done();
    await connected?.close();
    try {
      store.close();
    } catch (error) {
      if (!(error instanceof Database.SqliteError)) throw error;
      stateFailure ??= error;
    }
    db.close();
  }
  const resumeHint = [
    `vas-verify bank ${flags.input} -o ${output} --mode ${flags.mode} --resume`,
    flags.state ? ` --state ${flags.state}` : '',
    flags.sandbox ? ' --sandbox' : '',
  ].join('');
  if (stateFailure || !summary) {
    const what = stateFailure?.code === 'SQLITE_FULL' ? 'its disk is full' : stateFailure?.message ?? 'unknown failure';
    // The failed group of writes was rolled back: the file holds every row committed before it.
    log.error(`the state file ${statePath} failed (${what}); the run stopped, rows checkpointed before this are kept. Free the space or restore the file, then resume with: ${resumeHint}`);
    return 1;
  }

  const extras = { retries, stateFile: statePath };
  log.info(formatSummary(summary, extras));
  if (flags.summary) {
    const body = `${JSON.stringify(summaryJson(summary, extras), null, 2)}\n`;
    fs.writeFileSync(flags.summary, body, { mode: 0o600 });
    // `mode` applies only to a new file: an existing one keeps its bits unless told.
    fs.chmodSync(flags.summary, 0o600);
  }
  if (summary.stopped) {
    const what = summary.message ?? 'stopped';
    const line = `${what}; every answered row is checkpointed in ${statePath}. Resume with: ${resumeHint}`;
    if (summary.exitCode === 1) log.error(line);
    else log.warn(line);
  } else if (summary.exitCode === 3) {
    const s = summary.statuses;
    log.warn(`${s.DEFERRED} deferred, ${s.FAILED} failed, ${s.UNCONFIRMED} unconfirmed row(s) are not final: re-run later with: ${resumeHint}`);
  }
  return summary.exitCode;
}
