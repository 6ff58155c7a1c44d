/**
 * From resolved connection flags to a working client: the embedded sandbox (`--sandbox`) or a
 * remote API with a token or client credentials. Shared by `bank` and `docs`, so both treat
 * secrets the same way: registered with the logger before anything can print them.
 */
import { createClient, type Client, type RetryEvent } from '../api/client.js';
import { parseDuration } from '../pipeline/time.js';
import { UsageError } from '../errors.js';
import { MAX_TIMER_MS } from '../timers.js';
import type { RetryPolicy } from '../api/retry.js';
import type { Sandbox, SandboxOptions } from '../sandbox/index.js';
import { DEFAULT_DEADLINE, plainHttpRemoteHost, resolveConnection, type Connection, type ConnectionFlags, type Env } from './config.js';
import type { CliLogger } from './logger.js';

/** The token the embedded sandbox accepts. */
export const SANDBOX_TOKEN = 'sandbox-token';

/** resolveConnection, plus: the token and client secret are never printed from here on. */
export function resolveApiConnection(flags: ConnectionFlags, env: Env, log: CliLogger): Connection {
  const connection = resolveConnection(flags, env);
  if (connection.kind === 'remote') {
    log.addSecret(connection.token);
    log.addSecret(connection.clientSecret);
    const host = plainHttpRemoteHost(connection.baseUrl);
    if (host !== undefined) log.warn(`the API at ${host} is reached over plain http: the token and the account numbers cross the network unencrypted; use https://`);
    const tokenHost = connection.tokenUrl === undefined ? undefined : plainHttpRemoteHost(connection.tokenUrl);
    if (tokenHost !== undefined) log.warn(`VAS_TOKEN_URL at ${tokenHost} is plain http: the client secret crosses the network unencrypted; use https://`);
  }
  return connection;
}

/** --deadline (a duration, 0 for none) and --docs-allow-host (repeatable) as client options. */
export function limitOptions(flags: { deadline?: string | undefined; docsAllowHost?: readonly string[] | undefined }): Pick<ConnectOptions, 'deadlineMs' | 'documentHosts'> {
  const text = flags.deadline ?? DEFAULT_DEADLINE;
  // 0 (with or without a unit): no total deadline, only the idle --timeout.
  const deadlineMs = text.trim() === '0' ? 0 : parseDuration(text, '--deadline');
  // A timer cannot hold more: a longer one fires at once, and every request would fail.
  if (deadlineMs > MAX_TIMER_MS) throw new UsageError(`--deadline "${text}" is longer than 24 days, the longest a timer holds: give a shorter one, or 0 for none`);
  const hosts = (flags.docsAllowHost ?? []).map((h) => h.trim()).filter((h) => h !== '');
  for (const host of hosts) {
    if (/[/\\@\s]/.test(host)) throw new UsageError(`--docs-allow-host "${host}" must be a host name (optionally with :port), not a URL`);
  }
  return { deadlineMs, documentHosts: hosts.length > 0 ? hosts : undefined };
}

export interface ConnectOptions {
  /** Per-request headers and body timeout in ms; default the client's (30 s). */
  timeoutMs?: number | undefined;
  /** Total time of one request or download in ms; default the client's (2 min). */
  deadlineMs?: number | undefined;
  /** Hosts documents may be downloaded from besides the API's (--docs-allow-host); default any. */
  documentHosts?: readonly string[] | undefined;
  /** Connections per origin; default the client's. */
  connections?: number | undefined;
  onRetry?: ((event: RetryEvent) => void) | undefined;
  /** Overrides of the client's retry policy; default none. */
  retry?: Partial<RetryPolicy> | undefined;
  /** Options of the in-process sandbox, when the connection is `sandbox`. */
  sandbox?: SandboxOptions | undefined;
}

export interface Connected {
  readonly client: Client;
  /** The in-process sandbox, when `--sandbox` was given. */
  readonly sandbox: Sandbox | undefined;
  /** Closes the client, then the sandbox; safe to call more than once. */
  close(): Promise<void>;
}

export async function connect(connection: Connection, log: CliLogger, options: ConnectOptions = {}): Promise<Connected> {
  let sandbox: Sandbox | undefined;
  let baseUrl: string;
  let auth: { token?: string | undefined; clientId?: string | undefined; clientSecret?: string | undefined; tokenUrl?: string | undefined };
  if (connection.kind === 'sandbox') {
    // Loaded only when asked for: a run against a real API does not pay for the sandbox's code.
    const { startSandbox } = await import('../sandbox/index.js');
    sandbox = await startSandbox(options.sandbox ?? {});
    baseUrl = sandbox.url;
    auth = { token: SANDBOX_TOKEN };
    log.info(`using the embedded sandbox at ${sandbox.url}`);
  } else {
    baseUrl = connection.baseUrl;
    auth = connection;
  }
  let client: Client;
  try {
    client = createClient({
      baseUrl,
      token: auth.token,
      clientId: auth.clientId,
      clientSecret: auth.clientSecret,
      tokenUrl: auth.tokenUrl,
      headersTimeoutMs: options.timeoutMs,
      bodyTimeoutMs: options.timeoutMs,
      deadlineMs: options.deadlineMs,
      documentHosts: options.documentHosts,
      connections: options.connections,
      onRetry: options.onRetry,
      retry: options.retry,
    });
  } catch (error) {
    await sandbox?.close();
    throw error;
  }
  let closing: Promise<void> | undefined;
  return {
    client,
    sandbox,
    close() {
      closing ??= (async () => {
        await client.close();
        await sandbox?.close();
      })();
      return closing;
    },
  };
}
