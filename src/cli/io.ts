/**
 * The one small interface through which every command does its I/O: environment, stdout, the
 * logger on stderr, the stop signal and the clock. Built once per command by main.ts from the
 * process (bin.ts) or from a test.
 */
import type { Env } from './config.js';
import { createLogger, type CliLogger, type LogFormat } from './logger.js';

/** What main() is given: the process, or a test's stand-in for it. */
export interface MainIo {
  env: Env;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  stderrIsTty: boolean;
  /** Aborted by SIGINT/SIGTERM/SIGHUP. */
  stopSignal: AbortSignal;
  /** Clock; default Date.now shifted by VAS_TEST_CLOCK_OFFSET_MS. */
  now?: () => number;
}

/** What a command is given. */
export interface CommandIo {
  env: Env;
  log: CliLogger;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  stderrIsTty: boolean;
  /** Aborted by SIGINT/SIGTERM/SIGHUP. */
  stopSignal: AbortSignal;
  quiet: boolean;
  /** Test hook: shifts the clock (VAS_TEST_CLOCK_OFFSET_MS). */
  now: () => number;
}

/** The global flags every command shares. */
export interface GlobalFlags {
  quiet?: boolean;
  logFormat?: string;
}

export function createCommandIo(io: MainIo, now: () => number, flags: GlobalFlags): CommandIo {
  const log = createLogger({ format: (flags.logFormat as LogFormat) ?? 'text', quiet: flags.quiet ?? false, write: io.stderr, now });
  if (io.env.NODE_TLS_REJECT_UNAUTHORIZED === '0') {
    log.warn('NODE_TLS_REJECT_UNAUTHORIZED=0 is ignored: vas-verify always verifies TLS certificates (for a private CA, give its certificate in NODE_EXTRA_CA_CERTS)');
    // Certificates are checked whatever it says (src/tls.ts); Node would still warn at the first TLS connection that they are not.
    delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
  }
  return { env: io.env, log, stdout: io.stdout, stderr: io.stderr, stderrIsTty: io.stderrIsTty, stopSignal: io.stopSignal, now, quiet: flags.quiet ?? false };
}

/**
 * How a command's options.ts hands its work to main.ts: `run` records the exit code, `io` builds
 * the command's I/O from its parsed flags, `load` imports the command's index.ts only when it
 * runs (so other commands start faster, and options.ts never imports index.ts).
 */
export interface CommandContext<C> {
  run: (task: () => Promise<number>) => Promise<void>;
  io: (flags: GlobalFlags) => CommandIo;
  load: () => Promise<C>;
}
