/**
 * Secrets from the environment only (#26, "A secret in ps"): the shared quota's Redis is given by
 * --redis or VAS_REDIS_URL, its password by VAS_REDIS_PASSWORD or inside VAS_REDIS_URL; a password
 * on the command line is refused (exit 2) before anything is opened. Run against Debian's
 * redis-server with --requirepass (helpers/redis.ts), the real CLI and the sandbox on port 0.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Redis } from 'ioredis';
import { startSandbox, type Sandbox } from '../src/sandbox/index.js';
import { resolveRedisUrl } from '../src/cli/config.js';
import { runCli, tempDir } from './helpers/cli.js';
import { requireRedis, startRedis } from './helpers/redis.js';

const PASSWORD = 'Zq7-redis-pass/with+odd@chars';
const PAYEES = 'name,account number,ifsc\nA,900000000011,SBIN0001234\nB,900000000012,SBIN0001234\nC,900000000013,SBIN0001234\n';

function setup(t: TestContext): string {
  const dir = tempDir(t);
  fs.writeFileSync(path.join(dir, 'p.csv'), PAYEES);
  return dir;
}

async function sandboxFor(t: TestContext): Promise<Sandbox> {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  return sandbox;
}

/** Everything the run wrote (output, state, summary) and said, to look for the password in. */
function everything(dir: string, said: string): string {
  return said + fs.readdirSync(dir).map((f) => fs.readFileSync(path.join(dir, f)).toString('latin1')).join('');
}

/** How many limiter scripts Redis ran: proof that the run used it. */
async function scriptCalls(port: number): Promise<number> {
  const inspector = new Redis({ port, host: '127.0.0.1', password: PASSWORD, lazyConnect: true });
  try {
    await inspector.connect();
    const info = await inspector.info('commandstats');
    return [...info.matchAll(/cmdstat_eval(?:sha)?:calls=(\d+)/g)].reduce((n, m) => n + Number(m[1]), 0);
  } finally {
    inspector.disconnect();
  }
}

test('a password in --redis is refused (exit 2) with a message that says to use the environment; nothing is opened', async (t) => {
  const dir = setup(t);
  const r = await runCli(['bank', 'p.csv', '-o', 'o.csv', '--state', 's.sqlite', '--sandbox', '--rate', '50', '--redis', `redis://:${encodeURIComponent(PASSWORD)}@127.0.0.1:1`], { cwd: dir });
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /--redis must not carry a password/);
  assert.match(r.stderr, /VAS_REDIS_PASSWORD/);
  assert.match(r.stderr, /VAS_REDIS_URL/);
  assert.doesNotMatch(r.stderr, /Zq7/);
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  assert.deepEqual(fs.readdirSync(dir), ['p.csv']);
});

test('a password in the query of --redis (?password=) is refused like one before the host: exit 2, one line, the password nowhere, nothing opened', async (t) => {
  const dir = setup(t);
  for (const query of [`?password=${encodeURIComponent(PASSWORD)}`, `/0?db=1&password=${encodeURIComponent(PASSWORD)}`]) {
    const r = await runCli(['bank', 'p.csv', '-o', 'o.csv', '--state', 's.sqlite', '--sandbox', '--rate', '50', '--redis', `redis://127.0.0.1:1${query}`], { cwd: dir });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /--redis/);
    assert.match(r.stderr, /VAS_REDIS_PASSWORD/);
    assert.doesNotMatch(r.stderr, /Zq7/);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.deepEqual(fs.readdirSync(dir), ['p.csv']);
  }
});

test('VAS_REDIS_URL with the password in it: the run shares its quota through that Redis, and the password is nowhere', { timeout: 60_000 }, async (t) => {
  if (!requireRedis(t)) return;
  const redis = await startRedis(t, ['--requirepass', PASSWORD]);
  const sandbox = await sandboxFor(t);
  const dir = setup(t);
  const r = await runCli(['bank', 'p.csv', '-o', 'o.csv', '--state', 's.sqlite', '--base-url', sandbox.url, '--rate', '50', '--summary', 'run.json'], {
    cwd: dir,
    env: { VAS_REDIS_URL: `redis://:${encodeURIComponent(PASSWORD)}@127.0.0.1:${redis.port}` },
  });
  assert.equal(r.code, 0, r.stderr);
  assert.ok((await scriptCalls(redis.port)) > 0, 'the run never asked Redis');
  assert.ok(!everything(dir, r.stderr + r.stdout).includes('Zq7'));
});

test('--redis without a password takes it from VAS_REDIS_PASSWORD; without it the Redis refuses (exit 2, no call made)', { timeout: 60_000 }, async (t) => {
  if (!requireRedis(t)) return;
  const redis = await startRedis(t, ['--requirepass', PASSWORD]);
  const sandbox = await sandboxFor(t);
  const dir = setup(t);
  const args = ['bank', 'p.csv', '-o', 'o.csv', '--state', 's.sqlite', '--base-url', sandbox.url, '--rate', '50', '--redis', `redis://127.0.0.1:${redis.port}`];
  const without = await runCli(args, { cwd: dir, env: { VAS_REDIS_PASSWORD: undefined, VAS_REDIS_URL: undefined } });
  assert.equal(without.code, 2, without.stderr);
  assert.match(without.stderr, /NOAUTH|auth/i);
  assert.deepEqual(sandbox.stats().requests, {});
  const withIt = await runCli([...args, '--resume'], { cwd: dir, env: { VAS_REDIS_PASSWORD: PASSWORD } });
  assert.equal(withIt.code, 0, withIt.stderr);
  assert.ok((await scriptCalls(redis.port)) > 0);
  assert.ok(!everything(dir, withIt.stderr + withIt.stdout + without.stderr).includes('Zq7'));
});

test('VAS_REDIS_URL without --rate is refused like --redis without it: nothing to share, never silently ignored', async (t) => {
  const dir = setup(t);
  const r = await runCli(['bank', 'p.csv', '-o', 'o.csv', '--state', 's.sqlite', '--sandbox'], { cwd: dir, env: { VAS_REDIS_URL: 'redis://127.0.0.1:1' } });
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /VAS_REDIS_URL .*give --rate/);
});

test('a Redis from VAS_REDIS_URL that cannot be used is named VAS_REDIS_URL in the message, not --redis (which was never given)', async (t) => {
  const dir = setup(t);
  for (const url of ['redis://127.0.0.1:1', 'redis://127.0.0.1:1/db']) {
    const r = await runCli(['bank', 'p.csv', '-o', 'o.csv', '--state', 's.sqlite', '--sandbox', '--rate', '5'], { cwd: dir, env: { VAS_REDIS_URL: url, VAS_REDIS_PASSWORD: undefined } });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /VAS_REDIS_URL redis:\/\/127\.0\.0\.1:1/, r.stderr);
    assert.doesNotMatch(r.stderr, /--redis redis:/, r.stderr);
  }
  // Given on the command line, the flag is what the message names.
  const flag = await runCli(['bank', 'p.csv', '-o', 'o.csv', '--state', 's.sqlite', '--sandbox', '--rate', '5', '--redis', 'redis://127.0.0.1:1'], { cwd: dir, env: { VAS_REDIS_URL: undefined } });
  assert.equal(flag.code, 2, flag.stderr);
  assert.match(flag.stderr, /--redis redis:\/\/127\.0\.0\.1:1/);
});

test('resolveRedisUrl: flag beats environment; the password only from the environment', () => {
  assert.equal(resolveRedisUrl(undefined, {}), undefined);
  assert.equal(resolveRedisUrl('redis://h:1', {}), 'redis://h:1');
  assert.equal(resolveRedisUrl(undefined, { VAS_REDIS_URL: 'redis://:pw@h:1' }), 'redis://:pw@h:1');
  assert.equal(resolveRedisUrl(undefined, { VAS_REDIS_URL: 'redis://h:1', VAS_REDIS_PASSWORD: 'pw' }), 'redis://:pw@h:1');
  assert.equal(resolveRedisUrl('redis://other:2', { VAS_REDIS_URL: 'redis://:pw@h:1' }), 'redis://:pw@other:2');
  assert.equal(resolveRedisUrl('redis://user@h:1', { VAS_REDIS_PASSWORD: 'p w' }), 'redis://user:p%20w@h:1');
  assert.throws(() => resolveRedisUrl('redis://:pw@h:1', {}), /must not carry a password/);
  assert.throws(() => resolveRedisUrl('redis://user:pw@h:1', { VAS_REDIS_PASSWORD: 'x' }), /must not carry a password/);
  assert.equal(resolveRedisUrl('not a url', { VAS_REDIS_PASSWORD: 'x' }), 'not a url');
});

test('a Redis that refuses the run at set-up says why in words to act on: no password, a wrong one, EVAL renamed away, rediss:// to a plain port (exit 2, one line, the password nowhere, no call)', { timeout: 90_000 }, async (t) => {
  if (!requireRedis(t)) return;
  const locked = await startRedis(t, ['--requirepass', PASSWORD]);
  const noScripts = await startRedis(t, ['--rename-command', 'EVAL', '', '--rename-command', 'EVALSHA', '']);
  const sandbox = await sandboxFor(t);
  const cases: Array<[string, Record<string, string | undefined>, RegExp]> = [
    // Before: "NOAUTH HELLO must be called with the client already authenticated, otherwise the HELLO AUTH <user> <pass> option can be used…"
    [`redis://127.0.0.1:${locked.port}`, { VAS_REDIS_PASSWORD: undefined }, /requires a password \(NOAUTH\).*set VAS_REDIS_PASSWORD/],
    [`redis://127.0.0.1:${locked.port}`, { VAS_REDIS_PASSWORD: 'Zq7-wrong' }, /refused the user name or password \(WRONGPASS\).*check VAS_REDIS_PASSWORD/],
    // Before: "ERR unknown command 'eval', with args beginning with: ' local t = redis.call('TIME') …" (the script's source).
    [`redis://127.0.0.1:${noScripts.port}`, {}, /does not run Lua scripts .*rename-command.*needs EVAL and EVALSHA/],
    // Before: "connect ETIMEDOUT" after the TCP connection had succeeded.
    [`rediss://127.0.0.1:${noScripts.port}`, {}, /TLS handshake: is this port a plain \(non-TLS\) Redis\?/],
  ];
  for (const [url, env, reason] of cases) {
    const dir = setup(t);
    const r = await runCli(['bank', 'p.csv', '-o', 'o.csv', '--state', 's.sqlite', '--base-url', sandbox.url, '--rate', '50', '--redis', url], { cwd: dir, env: { VAS_REDIS_URL: undefined, ...env } });
    assert.equal(r.code, 2, `${url}: ${r.stderr}`);
    const errors = r.stderr.split('\n').filter((l) => l.startsWith('error'));
    assert.equal(errors.length, 1, r.stderr);
    assert.match(errors[0]!, reason);
    assert.match(errors[0]!, /no call was made/);
    assert.doesNotMatch(r.stderr, /Zq7|redis\.call/);
  }
  assert.deepEqual(sandbox.stats().requests, {});
});
