/**
 * Everything the tool says on stderr goes through here: masked account numbers, secrets
 * replaced, text or JSON lines, silenced by --quiet (errors are always said).
 */
import { maskDigits } from '../pipeline/checks.js';

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
  const secrets: string[] = [];
  const clean = (message: string) => {
    let text = maskDigits(message);
    for (const secret of secrets) text = text.split(secret).join('[redacted]');
    return text;
  };
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
      if (secret && secret.length >= 4 && !secrets.includes(secret)) secrets.push(secret);
    },
  };
}
