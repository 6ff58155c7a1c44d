/**
 * Sandbox options: the public shape, the defaults (one place), validation, and the parsers the
 * CLI uses for `--latency` and `--faults`.
 */
import { UsageError } from '../errors.js';
import { MAX_TIMER_MS } from '../timers.js';
import type { RegistryEntry } from './registry.js';

/** Faults the sandbox can inject before processing a request. */
export type FaultKind = '429' | '500' | '503' | 'reset' | 'hang';
export const FAULT_KINDS: readonly FaultKind[] = ['429', '500', '503', 'reset', 'hang'];

// `| undefined` everywhere so callers can pass through unset CLI flags under
// exactOptionalPropertyTypes; undefined always means "use the default".
export interface SandboxOptions {
  /** TCP port; default 0 (a free port is picked). */
  port?: number | undefined;
  /** Interface to bind; default '127.0.0.1'. */
  host?: string | undefined;
  /** The static bearer token accepted on API calls; default 'sandbox-token'. */
  token?: string | undefined;
  /** OAuth client id; with clientSecret enables POST /oauth/v1/token. Default: unset (disabled). */
  clientId?: string | undefined;
  /** OAuth client secret; with clientId enables POST /oauth/v1/token. Default: unset (disabled). */
  clientSecret?: string | undefined;
  /** Lifetime of issued OAuth tokens in seconds; default 3600. */
  tokenTtlSeconds?: number | undefined;
  /** Delay added before every API answer: fixed ms, or uniform in [min, max]; default 0. */
  latencyMs?: number | readonly [number, number] | undefined;
  /** Requests per second across API ops; beyond it 429 Quota Violation. Default: unlimited. */
  rateLimit?: number | undefined;
  /** Processed requests per account number per Asia/Kolkata day (pl+pd); default: unlimited. */
  dailyLimit?: number | undefined;
  /** Probability (0..1) of injecting a fault before processing an API request; default 0. */
  faultRate?: number | undefined;
  /** Fault kinds to choose from (uniformly); default all five. */
  faults?: readonly FaultKind[] | undefined;
  /** PRNG seed for names, faults and latency; default 1. */
  seed?: number | undefined;
  /** Registry: CSV path (accountNumber,ifsc,name[,status]) or entries; default none. */
  accounts?: string | readonly RegistryEntry[] | undefined;
  /**
   * The payee file's names by account number (`bank --sandbox` without `--sandbox-accounts`): an
   * account the registry does not know answers its payee's name written as a bank prints it,
   * with the documented shares of different and changing holders (bank-style.ts). Default none:
   * generated holders.
   */
  payeeNames?: ReadonlyMap<string, string> | undefined;
  /** Document-locker sessions approve themselves after this many ms; default: never. */
  autoAuthorizeMs?: number | undefined;
  /** Document-locker session lifetime in seconds from creation; default 600. */
  sessionTtlSeconds?: number | undefined;
  /** Clock in ms since the epoch; default Date.now (tests inject one to cross IST midnight). */
  now?: (() => number) | undefined;
}

export const SANDBOX_DEFAULTS = {
  port: 0,
  host: '127.0.0.1',
  token: 'sandbox-token',
  tokenTtlSeconds: 3600,
  latencyMs: 0,
  faultRate: 0,
  seed: 1,
  sessionTtlSeconds: 600,
} as const;

/** Options after defaults and checks. */
export interface ResolvedOptions {
  readonly port: number;
  readonly host: string;
  readonly token: string;
  readonly client: { readonly id: string; readonly secret: string } | null;
  readonly tokenTtlSeconds: number;
  readonly latency: readonly [number, number];
  readonly rateLimit: number | null;
  readonly dailyLimit: number | null;
  readonly faultRate: number;
  readonly faults: readonly FaultKind[];
  readonly seed: number;
  readonly payeeNames: ReadonlyMap<string, string> | null;
  readonly autoAuthorizeMs: number | null;
  readonly sessionTtlSeconds: number;
  readonly now: () => number;
}

/** An option out of its range: a usage error (exit 2) naming it. */
function check(condition: boolean, message: string): void {
  if (!condition) throw new UsageError(`sandbox: ${message}`);
}

const isNonNegative = (value: number): boolean => Number.isFinite(value) && value >= 0;
const isDelay = (ms: number): boolean => isNonNegative(ms) && ms <= MAX_TIMER_MS;

/** Applies defaults and rejects out-of-range values with a message naming the option. */
export function resolveOptions(options: SandboxOptions): ResolvedOptions {
  const port = options.port ?? SANDBOX_DEFAULTS.port;
  check(Number.isInteger(port) && port >= 0 && port <= 65535, `port must be an integer 0-65535, got ${port}`);
  const host = options.host ?? SANDBOX_DEFAULTS.host;
  check(host.length > 0, 'host must not be empty');
  const token = options.token ?? SANDBOX_DEFAULTS.token;
  check(token.length > 0, 'token must not be empty');

  const { clientId, clientSecret } = options;
  check((clientId === undefined) === (clientSecret === undefined), 'clientId and clientSecret must be given together');
  const client = clientId !== undefined && clientSecret !== undefined ? { id: clientId, secret: clientSecret } : null;

  const tokenTtlSeconds = options.tokenTtlSeconds ?? SANDBOX_DEFAULTS.tokenTtlSeconds;
  check(Number.isFinite(tokenTtlSeconds) && tokenTtlSeconds > 0, `tokenTtlSeconds must be > 0, got ${tokenTtlSeconds}`);

  const rawLatency = options.latencyMs ?? SANDBOX_DEFAULTS.latencyMs;
  const latency: [number, number] = typeof rawLatency === 'number' ? [rawLatency, rawLatency] : [rawLatency[0], rawLatency[1]];
  check(isDelay(latency[0]) && isDelay(latency[1]) && latency[0] <= latency[1],
    `latencyMs must be 0 to ${MAX_TIMER_MS} (and min <= max), got ${JSON.stringify(rawLatency)}`);

  const rateLimit = options.rateLimit ?? null;
  check(rateLimit === null || (Number.isFinite(rateLimit) && rateLimit > 0), `rateLimit must be > 0, got ${rateLimit}`);
  const dailyLimit = options.dailyLimit ?? null;
  check(dailyLimit === null || (Number.isInteger(dailyLimit) && dailyLimit > 0),
    `dailyLimit must be a positive integer, got ${dailyLimit}`);

  const faultRate = options.faultRate ?? SANDBOX_DEFAULTS.faultRate;
  check(Number.isFinite(faultRate) && faultRate >= 0 && faultRate <= 1, `faultRate must be between 0 and 1, got ${faultRate}`);
  const faults = options.faults ?? FAULT_KINDS;
  check(faults.length > 0, 'faults must name at least one kind');
  for (const kind of faults) check(FAULT_KINDS.includes(kind), `unknown fault kind "${kind}" (known: ${FAULT_KINDS.join(', ')})`);

  const seed = options.seed ?? SANDBOX_DEFAULTS.seed;
  check(Number.isFinite(seed), `seed must be a number, got ${seed}`);
  const autoAuthorizeMs = options.autoAuthorizeMs ?? null;
  check(autoAuthorizeMs === null || isDelay(autoAuthorizeMs), `autoAuthorizeMs must be 0 to ${MAX_TIMER_MS}, got ${autoAuthorizeMs}`);
  const sessionTtlSeconds = options.sessionTtlSeconds ?? SANDBOX_DEFAULTS.sessionTtlSeconds;
  check(Number.isFinite(sessionTtlSeconds) && sessionTtlSeconds > 0, `sessionTtlSeconds must be > 0, got ${sessionTtlSeconds}`);

  return {
    port, host, token, client, tokenTtlSeconds, latency, rateLimit, dailyLimit, faultRate,
    faults: [...faults], seed, payeeNames: options.payeeNames ?? null, autoAuthorizeMs, sessionTtlSeconds, now: options.now ?? Date.now,
  };
}

/** Parses `--latency`: "200" (fixed ms) or "100-300" (uniform range). */
export function parseLatency(text: string): number | [number, number] {
  const trimmed = text.trim();
  const fixed = /^(\d+)$/.exec(trimmed);
  if (fixed !== null) return Number(fixed[1]);
  const range = /^(\d+)\s*-\s*(\d+)$/.exec(trimmed);
  if (range !== null) {
    const min = Number(range[1]);
    const max = Number(range[2]);
    if (min > max) throw new Error(`invalid latency "${text}": minimum ${min} is above maximum ${max}`);
    return [min, max];
  }
  throw new Error(`invalid latency "${text}": expected milliseconds like 200, or a range like 100-300`);
}

/** Parses `--faults`: a comma-separated list from 429,500,503,reset,hang. */
export function parseFaults(text: string): FaultKind[] {
  const kinds = text.split(',').map((part) => part.trim().toLowerCase()).filter((part) => part !== '');
  if (kinds.length === 0) throw new Error(`invalid faults "${text}": name at least one of ${FAULT_KINDS.join(',')}`);
  const result: FaultKind[] = [];
  for (const kind of kinds) {
    const known = FAULT_KINDS.find((candidate) => candidate === kind);
    if (known === undefined) throw new Error(`invalid fault "${kind}": expected one of ${FAULT_KINDS.join(',')}`);
    if (!result.includes(known)) result.push(known);
  }
  return result;
}
