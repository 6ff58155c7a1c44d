/**
 * Everything the tool says on stderr goes through here: masked account numbers, secrets
 * replaced, text or JSON lines, silenced by --quiet (errors are always said).
 */
import { maskDigits } from '../pipeline/checks.js';
import { redact, registerSecret } from '../redact.js';
import { stripControl } from '../terminal.js';

export type LogFormat = 'text' | 'json';
export type Level = 'info' | 'warn' | 'error';

export interface CliLogger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  /** Adds a value that must never be printed (token, client secret). */
  addSecret(secret: string | undefined): void;
}

export interface LoggerOptions {
  format: LogFormat;
  quiet: boolean;
  write: (line: string) => void;
  now?: () => number;
}

export function createLogger(options: LoggerOptions): CliLogger {
  // Secrets live in the process-wide registry (src/redact.ts): ones the client learns later (an
  // issued token) are redacted here too. Control characters never reach the terminal.
  const clean = (message: string) => stripControl(maskDigits(redact(message)));
  const emit = (level: Level, message: string) => {
    if (options.quiet && level === 'info') return;
    const text = clean(message);
    if (options.format === 'json') {
      const time = new Date((options.now ?? Date.now)()).toISOString();
      options.write(`${JSON.stringify({ time, level, message: text })}\n`);
    } else {
      options.write(level === 'info' ? `${text}\n` : `${level}: ${text}\n`);
    }
  };
  return {
    info: (m) => emit('info', m),
    warn: (m) => emit('warn', m),
    error: (m) => emit('error', m),
    addSecret(secret) {
      registerSecret(secret);
    },
  };
}
