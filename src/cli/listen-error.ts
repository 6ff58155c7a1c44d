/**
 * A server the CLI starts (sandbox, docs listen, review) that cannot listen where it was told: a
 * usage error of one line (exit 2), not an internal error with a stack.
 */
import { UsageError } from '../errors.js';

/** The usage error for a failed listen on `host`:`port`, or the error itself when it is not one of those. */
export function listenError(error: unknown, host: string | undefined, port: number | undefined): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const where = `${host ?? '127.0.0.1'}:${port ?? 0}`;
  if (code === 'EADDRINUSE') return new UsageError(`${where} is already in use: choose another --port (0 picks a free one)`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new UsageError(`cannot bind --host ${host ?? ''}: no such local address`);
  if (code === 'EACCES' || code === 'EPERM') return new UsageError(`cannot listen on ${where}: permission denied (ports below 1024 need privileges): choose another --port`);
  return error;
}
