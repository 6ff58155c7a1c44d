/**
 * Configuration resolved once: flags beat environment beat defaults. Pure: it takes the parsed
 * flags and the environment as data.
 */
import { UsageError } from '../errors.js';

export type Env = Readonly<Record<string, string | undefined>>;

export const DEFAULT_STATE_FILE = 'vas-verify.sqlite';
export const DEFAULT_CONCURRENCY = 8;
export const DEFAULT_TIMEOUT = '30s';
/** Longest total time of one request or one download (--deadline), beside the --timeout silence limit. */
export const DEFAULT_DEADLINE = '2m';
/**
 * How old a run's answer may be before the nightly run asks again (--max-age). A week: a holder
 * that changed (the fraud signal) is seen within seven nights, at a seventh of the cost of asking
 * every night (50,000 payees: 50,000 calls a week instead of 350,000); lists paid daily to new
 * accounts set 1d. A penny-drop run asks again only past --deposit-memory: never pay twice.
 */
export const DEFAULT_MAX_AGE = '7d';
/**
 * Retry budget of a bulk run: it is unattended and a FAILED row costs another run, so a call is
 * tried 8 times (one in 400,000 rows fails at a 20% fault rate, against one in 3,000 with 5), and
 * 429s with Retry-After do not count (up to 30): a quota below --rate slows the run, it does not
 * fail rows. An outage is still found quickly: a refused connection keeps the default 5 attempts,
 * and the circuit breaker stops the run.
 */
export const BULK_RETRY = { maxAttempts: 8, maxQuotaWaits: 30 } as const;

export interface ConnectionFlags {
  baseUrl?: string | undefined;
  sandbox?: boolean | undefined;
}

export type Connection =
  | { kind: 'sandbox' }
  | {
      kind: 'remote';
      baseUrl: string;
      token: string | undefined;
      clientId: string | undefined;
      clientSecret: string | undefined;
      tokenUrl: string | undefined;
    };

export function resolveConnection(flags: ConnectionFlags, env: Env): Connection {
  // Both on the command line: answering from the imitation while a real API was named would decide
  // payees on made-up holders without a word (the README gives them as alternatives).
  if (flags.sandbox && flags.baseUrl !== undefined) {
    throw new UsageError('--base-url and --sandbox name two APIs: give --base-url for the real API, or --sandbox alone for the embedded imitation');
  }
  if (flags.sandbox) return { kind: 'sandbox' };
  const baseUrl = flags.baseUrl ?? env.VAS_BASE_URL;
  if (!baseUrl) {
    throw new UsageError('no API to talk to: give --base-url URL (or set VAS_BASE_URL), or add --sandbox to use the embedded sandbox');
  }
  checkBaseUrl(baseUrl, flags.baseUrl !== undefined ? '--base-url' : 'VAS_BASE_URL');
  const token = tokenOf(env.VAS_TOKEN);
  const clientId = env.VAS_CLIENT_ID?.trim() || undefined;
  const clientSecret = env.VAS_CLIENT_SECRET?.trim() ? env.VAS_CLIENT_SECRET : undefined;
  if (!token && !(clientId && clientSecret)) {
    if (clientId || clientSecret) {
      throw new UsageError(`incomplete client credentials: set both VAS_CLIENT_ID and VAS_CLIENT_SECRET (${clientId ? 'VAS_CLIENT_SECRET' : 'VAS_CLIENT_ID'} is missing)`);
    }
    throw new UsageError('no credentials: set VAS_TOKEN, or VAS_CLIENT_ID and VAS_CLIENT_SECRET');
  }
  return { kind: 'remote', baseUrl, token, clientId, clientSecret, tokenUrl: env.VAS_TOKEN_URL || undefined };
}

/**
 * Refuses a base URL with a ?query or a #fragment (the operations' paths are appended to it, so
 * either would be cut off or end up inside the path) or with user:password in it (a URL goes to
 * logs, the resume line and `ps`). A path prefix (https://host/api/v1/) is kept. The URL itself is
 * not echoed: its query or userinfo may hold a secret. One that does not parse is left to the
 * client's own message.
 */
function checkBaseUrl(text: string, name: '--base-url' | 'VAS_BASE_URL'): void {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return;
  }
  const example = 'give the scheme, host and optional path only, e.g. https://api.example.com or https://api.example.com/api/v1/';
  if (url.username !== '' || url.password !== '') {
    throw new UsageError(`${name} must not carry a user name or password (a URL is shown by ps, in logs and in the resume line): ${example}, and the credentials in VAS_TOKEN or VAS_CLIENT_ID and VAS_CLIENT_SECRET`);
  }
  if (text.includes('?')) throw new UsageError(`${name} must not carry a ?query (the operations' paths are appended to the base URL): ${example}`);
  if (text.includes('#')) throw new UsageError(`${name} must not carry a #fragment (the operations' paths are appended to the base URL): ${example}`);
}

/**
 * VAS_TOKEN as the bearer token: spaces around it dropped (a copied line), blank as none. A token
 * is one word (RFC 6750): one with a space or a line break inside would go out as another header
 * or a broken one, so it is refused here, before any call.
 */
function tokenOf(text: string | undefined): string | undefined {
  const token = text?.trim();
  if (!token) return undefined;
  // eslint-disable-next-line no-control-regex
  if (/[\s\u0000-\u001f\u007f]/.test(token)) throw new UsageError('VAS_TOKEN holds a space or a line break: set it to the token alone (no "Bearer ", no line breaks)');
  return token;
}

/**
 * The host of a plain-http base URL that is not this machine: the token and every account number
 * would cross the network unencrypted. Undefined for https and for loopback (the sandbox).
 */
export function plainHttpRemoteHost(baseUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return undefined; // the client refuses it with its own message
  }
  if (url.protocol !== 'http:') return undefined;
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const loopback = host === 'localhost' || host.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(host) || host === '::1';
  return loopback ? undefined : url.host;
}

export function resolveStatePath(flag: string | undefined, env: Env): string {
  return flag ?? (env.VAS_STATE || DEFAULT_STATE_FILE);
}

export function resolveNumber(flag: number | undefined, envValue: string | undefined, fallback: number, name: string): number {
  if (flag !== undefined) {
    if (!Number.isFinite(flag) || flag < 0) throw new UsageError(`${name} must be a number ≥ 0`);
    return flag;
  }
  if (envValue !== undefined && envValue !== '') {
    const n = Number(envValue);
    if (!Number.isFinite(n) || n < 0) throw new UsageError(`${name} from the environment ("${envValue}") must be a number ≥ 0`);
    return n;
  }
  return fallback;
}

/** Default output path beside the input: payees.csv → payees.verified.csv. */
export { defaultOutputPath } from '../output/sink.js';

/** The URL's password, if it parses and has one. */
function urlPassword(text: string | undefined): string | undefined {
  if (!text) return undefined;
  try {
    return new URL(text).password || undefined;
  } catch {
    return undefined;
  }
}

/**
 * The Redis of the shared quota: `--redis` beats VAS_REDIS_URL. Its password comes from the
 * environment only (VAS_REDIS_PASSWORD, or the password of VAS_REDIS_URL), like the token: a
 * command line is visible to every user of the host (`ps`), so a password in `--redis` is refused.
 * Undefined when neither is given; a URL that does not parse is returned as it is, for the
 * limiter to refuse with its own message.
 */
export function resolveRedisUrl(flag: string | undefined, env: Env): string | undefined {
  const fromEnv = env.VAS_REDIS_URL || undefined;
  // A ?query may carry one too (ioredis reads ?password=): refused alike, never echoed.
  if (flag !== undefined && (urlPassword(flag) !== undefined || /[?#]/.test(flag))) {
    throw new UsageError('--redis must not carry a password or a ?query (every user of this host can read a command line): put the password in VAS_REDIS_PASSWORD, or the whole URL in VAS_REDIS_URL, and give --redis redis://host:port[/db] or nothing');
  }
  const given = flag ?? fromEnv;
  if (given === undefined) return undefined;
  const password = env.VAS_REDIS_PASSWORD || urlPassword(fromEnv);
  if (password === undefined || urlPassword(given) !== undefined) return given;
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    return given;
  }
  url.password = password;
  return url.toString();
}
