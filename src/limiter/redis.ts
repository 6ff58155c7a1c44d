/**
 * One quota shared by every run of one credential, through Redis (README, "Sharing one quota
 * across hosts"). The shared state is one key per limiter id holding the GCRA's theoretical arrival
 * time (pace.ts), updated by a Lua script that reads Redis's own clock, so hosts need no clock
 * agreement. Every ask carries the caller's --rate, so a new --rate takes effect on the next run,
 * and a Redis that restarted empty simply starts a new bucket. The key expires a second after the
 * bucket is empty. Beside it, the rate of the run that asked last, for a second (RATE_SEEN_MS): a
 * run that finds another --rate there says so (onOtherRate), since runs on one credential at
 * different rates share a quota that none of them knows.
 *
 * Why not Bottleneck's clustered mode, as first designed: it keeps the first run's settings in
 * Redis with no expiry (a later --rate is ignored), fails with SETTINGS_KEY_NOT_FOUND when Redis
 * comes back empty, waits forever on an unreachable URL, and spaces requests one Redis round trip
 * and one timer each, which caps the rate far below 1,000/s.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis as RedisClient } from 'ioredis';
import { LimiterSetupError, type TokenSource } from './limiter.js';
import type { Pace } from './pace.js';
import { VERIFIED_TLS } from '../tls.js';

/** How long setting up the connection may take before the run fails (exit 2). Default 8 s (< 10 s). */
export const REDIS_SETUP_TIMEOUT_MS = 8_000;
/** One command's longest wait mid-run; past it the ask counts as a failure. */
export const REDIS_COMMAND_TIMEOUT_MS = 1_500;

/** A booked turn further ahead than this (or ten of the asking run's intervals) is not waited for (TAKE_SCRIPT). */
export const STALE_BOOKING_MS = 2_000;
const STALE_BOOKING_US = STALE_BOOKING_MS * 1000;

/**
 * How long a run's --rate stays beside the bucket after its last ask (two of its intervals when
 * longer): a run asks every few ms while it has callers waiting, and one that started a second
 * after another ended is not told of it.
 */
export const RATE_SEEN_MS = 1_000;

// Times in µs from Redis's TIME; ARGV: interval (µs), catch-up (µs), want (tokens), the asking
// run's --rate and how long it stays in KEYS[2] (ms). Returns {granted, waitMs, otherRate}: the
// same arithmetic as takeTokens in pace.ts, and the rate another run asked at last when it is
// not this one's ('' otherwise).
const TAKE_SCRIPT = `
local seen = redis.call('GET', KEYS[2])
redis.call('SET', KEYS[2], ARGV[4], 'PX', tonumber(ARGV[5]))
local other = ''
if seen and seen ~= ARGV[4] then other = seen end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local interval = tonumber(ARGV[1])
local catchup = tonumber(ARGV[2])
local want = tonumber(ARGV[3])
local start = tonumber(redis.call('GET', KEYS[1]) or '') or 0
-- A turn of this rate is never booked more than one interval ahead: one booked far later was
-- left by a run at a much lower --rate (killed, or still running) or by a clock that stepped
-- back, and waiting for it would stall this run for minutes or hours. Start afresh instead.
if start > now + math.max(${STALE_BOOKING_US}, 10 * interval) then start = now end
if start < now - catchup then start = now - catchup end
if start > now then return {0, math.ceil((start - now) / 1000), other} end
local n = math.floor((now - start) / interval) + 1
if want < n then n = want end
if n > 0 then
  local tat = start + n * interval
  redis.call('SET', KEYS[1], string.format('%.0f', tat), 'PX', math.ceil((tat - now) / 1000) + 1000)
end
return {n, 0, other}
`;

// Deletes KEYS[1] (a run's rate) if it still holds ARGV[1] (that run's rate): another run's stays.
const FORGET_SCRIPT = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

/** The longest a run's end waits to take its rate from beside the bucket. */
const FORGET_RATE_MS = 300;

/** The URL with any user name, password and ?query (ioredis reads a password there too) replaced by ***, for messages. */
export function maskRedisUrl(raw: string): string {
  try {
    const url = new URL(raw);
    if (url.protocol === 'redis:' || url.protocol === 'rediss:') {
      if (url.username) url.username = '***';
      if (url.password) url.password = '***';
      if (url.search) url.search = '***';
      if (url.hash) url.hash = '***';
      return url.toString().replace(/\/$/, '');
    }
  } catch {
    // Not a URL at all: masked below.
  }
  // Whatever stands before an @ may be user:password.
  const at = raw.lastIndexOf('@');
  if (at < 0) return raw;
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(raw)?.[0] ?? '';
  return `${scheme}***${raw.slice(at)}`;
}

/**
 * Checks that `raw` is a redis:// or rediss:// URL with a host, at most a database number for a
 * path and no ?query or #fragment; throws LimiterSetupError. ioredis would take every query item
 * as an option of its own (a password among them, or a db that is not a number: an uncaught
 * SELECT error), so the URL holds only what the README documents.
 */
export function checkRedisUrl(raw: string, given = REDIS_FLAG): URL {
  const notRedis = () => new LimiterSetupError(`${given} ${maskRedisUrl(raw)} is not a Redis URL: give redis://[user@]host:port[/db] (or rediss:// for TLS; the password in VAS_REDIS_PASSWORD)`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw notRedis();
  }
  if ((url.protocol !== 'redis:' && url.protocol !== 'rediss:') || url.hostname === '') throw notRedis();
  if (url.search !== '' || url.hash !== '' || raw.includes('?') || raw.includes('#')) {
    throw new LimiterSetupError(`${given} ${maskRedisUrl(raw)} has a ?query or #fragment, which vas-verify does not read: give redis://[user@]host:port[/db] (or rediss:// for TLS; the password in VAS_REDIS_PASSWORD)`);
  }
  if (redisDatabase(url) === null) {
    throw new LimiterSetupError(`${given} ${maskRedisUrl(raw)} names database "${url.pathname.slice(1)}": after the port comes a database number (redis://host:port/0) or nothing`);
  }
  return url;
}

/** The database number of a checked URL's path (undefined: none given; null: not a number). */
function redisDatabase(url: URL): number | undefined | null {
  const path = url.pathname;
  if (path === '' || path === '/') return undefined;
  return /^\/\d{1,9}$/.test(path) ? Number(path.slice(1)) : null;
}

/**
 * Redis's reason, in words a cron log's reader can act on. Redis's own errors never carry the
 * password; its "unknown command" echoes the script's first bytes, which are cut off here.
 */
export function explainSetupError(error: Error | undefined, tls: boolean): string {
  const message = (error?.message ?? 'connection failed').replace(/, with args beginning with:[\s\S]*$/, '').trim().replace(/\.+$/, '');
  if (/^NOAUTH\b/.test(message)) {
    return 'this Redis requires a password (NOAUTH) and none was given: set VAS_REDIS_PASSWORD (or put the password in VAS_REDIS_URL)';
  }
  if (/^WRONGPASS\b|invalid password|invalid username-password/i.test(message)) {
    return 'this Redis refused the user name or password (WRONGPASS): check VAS_REDIS_PASSWORD (or the password in VAS_REDIS_URL) and the user name in the URL';
  }
  if (/^ERR unknown command '(eval|evalsha|script)'/i.test(message)) {
    return `this Redis does not run Lua scripts (${message}: EVAL renamed or disabled by rename-command?); the shared rate limit needs EVAL and EVALSHA`;
  }
  if (/^NOPERM\b/.test(message)) {
    return `${message} (the Redis user needs EVAL, EVALSHA, GET, SET, DEL and TIME on the keys vas-verify:*)`;
  }
  if (tls && /ETIMEDOUT|ECONNRESET|socket disconnected|wrong version number|packet length too long/i.test(message)) {
    return `${message} during the TLS handshake: is this port a plain (non-TLS) Redis? rediss:// needs a Redis listening with TLS (tls-port); redis:// is plain`;
  }
  return message;
}

export interface RedisSourceOptions {
  url: string;
  /** A hash of the credential (never the credential): the key shared by its runs. */
  limiterId: string;
  /** Aborts the setup (SIGINT/SIGTERM while connecting). */
  signal?: AbortSignal | undefined;
  setupTimeoutMs?: number | undefined;
  /** Where the URL came from, as messages name it: `--redis` (the default) or `VAS_REDIS_URL`. */
  given?: string | undefined;
  /** This run's --rate, kept beside the bucket for a second after each ask (RATE_SEEN_MS) so another run can compare its own. */
  rate: number;
  /** Called once, the first time an ask finds that another run shares the quota at another --rate. */
  onOtherRate?: ((otherRate: number) => void) | undefined;
}

/** How messages name a Redis URL given on the command line. */
const REDIS_FLAG = '--redis';

type TakeClient = RedisClient & {
  vasForget(rateKey: string, rate: string): Promise<number>;
  vasTake(key: string, rateKey: string, interval: string, catchUp: string, want: string, rate: string, rateSeenMs: string): Promise<[number, number, string]>;
};

/** `work`, or a rejection once `timeoutMs` has passed or `signal` aborts (SIGINT/SIGTERM while connecting). */
async function bounded(work: Promise<void>, timeoutMs: number, signal: AbortSignal | undefined): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  try {
    await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${Math.round(timeoutMs / 1000)} s`)), timeoutMs);
      }),
      new Promise<never>((_, reject) => {
        if (!signal) return;
        onAbort = () => reject(new Error('stopped by signal while connecting'));
        if (signal.aborted) onAbort();
        else signal.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
  } finally {
    if (timer) clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}

/** ioredis's options for a checked URL. */
function clientOptions(url: URL, setupTimeoutMs: number) {
  return {
    lazyConnect: true,
    connectTimeout: Math.min(5_000, setupTimeoutMs),
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    // Mid-run, an ask fails at once while Redis is away (the limiter decides when it is lost);
    // ioredis keeps reconnecting in the background.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: (times: number) => Math.min(100 * times, 1_000),
    // rediss:// by the parsed URL (ioredis only knows it spelled in lower case: REDISS:// went in
    // clear text), and its certificate always checked: left to Node, NODE_TLS_REJECT_UNAUTHORIZED=0
    // in the environment turned the check off (README, Security).
    ...(url.protocol === 'rediss:' ? { tls: VERIFIED_TLS } : {}),
  };
}

/**
 * The key of the rate kept beside `bucket`: `vas-verify:<id>:rate{vas-verify:<id>:gcra}` (the set-up
 * probe's bucket gets one the same way). Its hash
 * tag (the braces) puts it in the bucket's slot, so that the script's two keys are one slot's on a
 * cluster-mode Redis (else CROSSSLOT), and it still starts with `vas-verify:` for an ACL's key pattern.
 */
function rateKeyOf(bucket: string): string {
  return `${bucket.replace(/:gcra$/, '')}:rate{${bucket}}`;
}

/**
 * This run's --rate as the take script keeps it beside the bucket (its key, the value, how long it
 * stays), and `heard`, which tells onOtherRate once of the first other rate an ask finds there.
 */
function rateSeen(options: RedisSourceOptions): { key: string; rate: string; keptMs: string; heard: (otherRate: string) => void } {
  let told = false;
  return {
    key: rateKeyOf(`${options.limiterId}:gcra`),
    rate: String(options.rate),
    keptMs: String(Math.max(RATE_SEEN_MS, Math.ceil(2_000 / options.rate))),
    heard(otherRate) {
      const other = otherRate === '' ? Number.NaN : Number(otherRate);
      if (told || !Number.isFinite(other) || other === options.rate) return;
      told = true;
      options.onOtherRate?.(other);
    },
  };
}

/** Connects (bounded in time) and checks that the script runs; throws LimiterSetupError. */
export async function createRedisSource(options: RedisSourceOptions): Promise<TokenSource> {
  const given = options.given ?? REDIS_FLAG;
  const url = checkRedisUrl(options.url, given);
  const database = redisDatabase(url) ?? undefined; // checked: a number or none
  const shown = maskRedisUrl(options.url);
  const setupTimeoutMs = options.setupTimeoutMs ?? REDIS_SETUP_TIMEOUT_MS;
  let Redis: typeof import('ioredis').Redis;
  try {
    ({ Redis } = await import('ioredis'));
  } catch (error) {
    throw new LimiterSetupError(`--redis needs the ioredis package, which is missing from this installation: reinstall vas-verify (${(error as Error).message})`);
  }
  const redis = new Redis(options.url, clientOptions(url, setupTimeoutMs)) as TakeClient;
  let lastError: Error | undefined;
  // Without a listener ioredis prints every reconnection failure; the limiter reports instead.
  redis.on('error', (error: Error) => {
    lastError = error;
  });
  redis.defineCommand('vasTake', { numberOfKeys: 2, lua: TAKE_SCRIPT });
  redis.defineCommand('vasForget', { numberOfKeys: 1, lua: FORGET_SCRIPT });
  const key = `${options.limiterId}:gcra`;
  const seen = rateSeen(options);

  try {
    await bounded(
      (async () => {
        await redis.connect();
        // ioredis reports a database this Redis lacks as an event and goes on in database 0.
        if (database !== undefined) await redis.select(database);
        // One token of a probe key, then deleted: the script runs and Redis takes its write (a
        // read-only replica refuses here, not mid-run); the run's own bucket is untouched.
        const probe = `${key}:probe`;
        await redis.vasTake(probe, rateKeyOf(probe), '1', '0', '1', seen.rate, '1000');
        await redis.del(probe, rateKeyOf(probe));
      })(),
      setupTimeoutMs,
      options.signal,
    );
  } catch (error) {
    redis.disconnect();
    if (options.signal?.aborted) {
      throw new LimiterSetupError(`stopped by a signal while connecting to the Redis at ${given} ${shown}; no call was made`, { cause: error });
    }
    // ioredis's own rejection says only "Connection is closed"; the socket's error says why.
    const why = explainSetupError(lastError ?? (error as Error), url.protocol === 'rediss:');
    throw new LimiterSetupError(`cannot use the Redis at ${given} ${shown} for the shared rate limit: ${why}. Check the URL and that Redis is running; no call was made`, { cause: error });
  }

  let closed = false;
  return {
    describe: `Redis at ${shown}`,
    // The pace of a shared quota keeps a wider margin (pace.ts, SHARED_HEADROOM): one run's
    // lateness must not become another run's burst.
    shared: true,
    async take(want: number, pace: Pace) {
      if (redis.status !== 'ready') throw lastError ?? new Error(`connection ${redis.status}`);
      const [granted, waitMs, otherRate] = await redis.vasTake(key, seen.key, String(Math.max(1, Math.round(pace.intervalMs * 1000))), String(Math.round(pace.catchUpMs * 1000)), String(want), seen.rate, seen.keptMs);
      seen.heard(otherRate);
      return { granted: Number(granted), waitMs: Number(waitMs) };
    },
    async close() {
      if (closed) return;
      closed = true;
      // This run's rate leaves with it (unless another run's stands there now), so that the next
      // run of a nightly sequence is not told of a run that has ended. At most FORGET_RATE_MS: a
      // Redis that is gone must not hold the exit. No QUIT, for the same reason.
      if (redis.status === 'ready') await Promise.race([redis.vasForget(seen.key, seen.rate).catch(() => undefined), sleep(FORGET_RATE_MS, undefined, { ref: false })]);
      redis.disconnect();
    },
  };
}
