/**
 * One quota across processes through a real Redis (README, "Sharing one quota across hosts"):
 * real CLI processes, the sandbox on port 0 counting requests, 429s and deposits, and Debian's
 * redis-server on a free loopback port started by the test (helpers/redis.ts). Without
 * redis-server these tests skip outside CI, saying how to install it; in CI they fail.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { Redis } from 'ioredis';
import { startSandbox, type Sandbox, type SandboxOptions } from '../src/sandbox/index.js';
import { readCsvObjects, runCli, spawnCli, sum, tempDir, waitFor } from './helpers/cli.js';
import { requireRedis, startRedis } from './helpers/redis.js';

const TOKEN = 'sandbox-token';

/** `count` distinct ordinary payees (no test-account endings), unique to `seed`. */
function writePayees(dir: string, name: string, count: number, seed: number): string {
  const lines = ['Payee Name,Account Number,IFSC'];
  for (let i = 0; i < count; i += 1) {
    const account = `7${seed}${String(100_000 + i).padStart(8, '0')}${String(11 + (i % 60)).padStart(2, '0')}`;
    lines.push(`Payee ${seed}-${i},${account},${['SBIN0001234', 'HDFC0000123', 'ICIC0001234'][i % 3]}`);
  }
  const file = path.join(dir, name);
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

async function sandboxFor(t: TestContext, options: SandboxOptions = {}): Promise<Sandbox> {
  const sandbox = await startSandbox(options);
  t.after(() => sandbox.close());
  return sandbox;
}

const answered = (s: Sandbox) => sum(s.stats().responses) - (s.stats().responses['429'] ?? 0);

/**
 * Runs `count` CLI processes at once and measures, at the sandbox, the rate of answered calls
 * while all of them are busy (between 10% and 90% of the total, so start-up is not counted).
 */
async function runTogether(t: TestContext, dir: string, sandbox: Sandbox, inputs: string[], flags: string[], onMidRun?: () => Promise<void>) {
  const runs = inputs.map((input, i) =>
    spawnCli(['bank', input, '-o', `out-${i}-${path.basename(input)}`, '--state', `state-${i}-${path.basename(input)}.sqlite`, '--base-url', sandbox.url, ...flags], { cwd: dir }),
  );
  t.after(() => runs.forEach((r) => r.child.kill('SIGKILL')));
  const samples: Array<[number, number]> = [];
  let done = false;
  const all = Promise.all(runs.map((r) => r.result)).finally(() => (done = true));
  let mid = false;
  while (!done) {
    samples.push([performance.now(), answered(sandbox)]);
    if (!mid && onMidRun && answered(sandbox) > 50) {
      mid = true;
      await onMidRun();
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const results = await all;
  return { results, samples };
}

function steadyRate(samples: Array<[number, number]>, total: number): number {
  const from = samples.find(([, n]) => n >= total * 0.1)!;
  const to = [...samples].reverse().find(([, n]) => n <= total * 0.9)!;
  return ((to[1] - from[1]) * 1000) / (to[0] - from[0]);
}

test('three runs at --rate 50 --redis share one quota of 50/s: within it (≤ 0.5% 429) and ≥ 0.9 × 50/s together; without --redis they exceed it; Redis holds no credential', { timeout: 150_000 }, async (t) => {
  if (!requireRedis(t)) return;
  const redis = await startRedis(t);
  const dir = tempDir(t);
  const rows = 300;
  const inputs = [1, 2, 3].map((seed) => writePayees(dir, `payees-${seed}.csv`, rows, seed));
  const shared = await sandboxFor(t, { rateLimit: 50 });
  const inspector = new Redis(redis.url, { lazyConnect: true });
  t.after(() => inspector.disconnect());
  await inspector.connect();
  const seen: string[] = [];
  const started = performance.now();
  const { results, samples } = await runTogether(t, dir, shared, inputs, ['--rate', '50', '--concurrency', '16', '--redis', redis.url], async () => {
    for (const key of await inspector.keys('*')) seen.push(key, String(await inspector.get(key)));
  });
  const wallS = (performance.now() - started) / 1000;
  for (const r of results) assert.equal(r.code, 0, r.stderr);
  const stats = shared.stats();
  const calls = sum(stats.responses);
  const too = stats.responses['429'] ?? 0;
  const rate = steadyRate(samples, rows * 3);
  t.diagnostic(`with --redis: ${calls} calls, ${too} × 429, ${rate.toFixed(1)}/s while all three ran, ${wallS.toFixed(1)} s in all`);
  assert.ok(too <= calls * 0.005, `${too} × 429 of ${calls}`);
  assert.ok(rate >= 0.9 * 50, `together only ${rate.toFixed(1)}/s`);
  assert.ok(rate <= 50 * 1.02, `together ${rate.toFixed(1)}/s, above the quota`);
  // The shared key is named by a hash of the credential; neither key nor value holds the token.
  assert.ok(seen.length > 0, 'no key in Redis mid-run');
  for (const item of seen) assert.ok(!item.includes(TOKEN), `Redis holds ${item}`);
  // Two keys: the bucket (a time) and the rate of the run that asked last (its --rate, for a second).
  const keys = seen.filter((_, i) => i % 2 === 0);
  for (const key of keys) assert.match(key, /^vas-verify:[0-9a-f]{16}:(gcra|rate\{vas-verify:[0-9a-f]{16}:gcra\})$/);
  assert.ok(keys.some((key) => key.endsWith(':gcra')), `no bucket among ${keys.join(', ')}`);
  for (const input of inputs) assert.equal(readCsvObjects(path.join(dir, `out-${inputs.indexOf(input)}-${path.basename(input)}`)).length, rows);

  // The same three without --redis: each keeps its own 50/s, so together they overrun the quota.
  const alone = await sandboxFor(t, { rateLimit: 50 });
  const fewer = [4, 5, 6].map((seed) => writePayees(dir, `alone-${seed}.csv`, 100, seed));
  const without = await runTogether(t, dir, alone, fewer, ['--rate', '50', '--concurrency', '16']);
  for (const r of without.results) assert.equal(r.code, 0, r.stderr);
  const aloneStats = alone.stats();
  const aloneCalls = sum(aloneStats.responses);
  const aloneToo = aloneStats.responses['429'] ?? 0;
  t.diagnostic(`without --redis: ${aloneCalls} calls, ${aloneToo} × 429`);
  // Each run honours the Retry-After of its 429s (a second's pause) and slows down, so they do
  // not burn retries (31% 429s before that); but every second each of them runs into the quota
  // the others filled: several times the 0.5% that --redis keeps to (4–5% here).
  assert.ok(aloneToo > aloneCalls * 0.02, `without --redis only ${aloneToo} × 429 of ${aloneCalls}: the test does not show the mode matters`);
});

test('Redis stopped mid-run: the run stops within seconds, one clear line, exit 1; resumed after Redis is back, every row once, no payee paid twice', { timeout: 120_000 }, async (t) => {
  if (!requireRedis(t)) return;
  const redis = await startRedis(t);
  const dir = tempDir(t);
  const rows = 120;
  const input = writePayees(dir, 'payees.csv', rows, 7);
  const sandbox = await sandboxFor(t, { latencyMs: [20, 60] });
  const args = ['bank', input, '-o', 'out.csv', '--state', 'state.sqlite', '--base-url', sandbox.url, '--mode', 'pd', '--rate', '20', '--concurrency', '4', '--redis', redis.url];
  const run = spawnCli(args, { cwd: dir });
  t.after(() => run.child.kill('SIGKILL'));
  await waitFor(() => answered(sandbox) >= 20, 30_000, 'the first calls');
  await redis.stop();
  const stoppedAt = performance.now();
  const callsAtStop = sum(sandbox.stats().requests);
  const first = await run.result;
  const tookS = (performance.now() - stoppedAt) / 1000;
  t.diagnostic(`exit ${first.code} ${tookS.toFixed(1)} s after Redis stopped; stderr: ${first.stderr.trim().split('\n').slice(-2).join(' | ')}`);
  assert.equal(first.code, 1, first.stderr);
  assert.ok(tookS < 10, `took ${tookS} s`);
  // No request left once the limiter stopped answering (those in flight at the stop finished).
  assert.ok(sum(sandbox.stats().requests) <= callsAtStop + 4 + 1, 'calls went on after Redis was gone');
  const errors = first.stderr.split('\n').filter((l) => /error/i.test(l));
  assert.equal(errors.length, 1, first.stderr);
  assert.match(errors[0]!, /Redis at redis:\/\/127\.0\.0\.1:\d+.*--resume/);
  assert.ok(!fs.existsSync(path.join(dir, 'out.csv')));

  await redis.start();
  const second = await runCli([...args, '--resume'], { cwd: dir });
  assert.ok(second.code === 0 || second.code === 3, second.stderr);
  const out = readCsvObjects(path.join(dir, 'out.csv'));
  assert.equal(out.length, rows);
  assert.deepEqual(out.map((r) => r['Payee Name']), Array.from({ length: rows }, (_, i) => `Payee 7-${i}`));
  const deposits = sandbox.stats().deposits;
  for (const [account, n] of Object.entries(deposits)) assert.ok(n <= 1, `${account} paid ${n} times`);
  const requests = sandbox.stats().requests;
  assert.ok(sum(requests) - (requests.token ?? 0) <= rows, `${sum(requests)} requests for ${rows} payees`);
  for (const r of out) assert.ok(['VERIFIED', 'NOT_VERIFIED', 'UNCONFIRMED'].includes(r.verify_status!), r.verify_status);
});

test('an unreachable or malformed --redis fails before any call, within 10 s, exit 2, naming the URL with its credentials masked; --redis without --rate is a usage error', { timeout: 60_000 }, async (t) => {
  const dir = tempDir(t);
  const input = writePayees(dir, 'payees.csv', 5, 8);
  const sandbox = await sandboxFor(t);
  // A URL with a password comes from the environment (one on the command line is refused).
  for (const [url, shown, via] of [
    ['redis://127.0.0.1:1', 'redis://127.0.0.1:1', 'flag'],
    ['redis://admin:s3cr3t-pw@127.0.0.1:1/0', 'redis://***:***@127.0.0.1:1/0', 'env'],
    ['not-a-url', 'not-a-url', 'flag'],
    ['http://127.0.0.1:6379', 'http://127.0.0.1:6379', 'flag'],
  ] as const) {
    const started = performance.now();
    const args = ['bank', input, '-o', 'out.csv', '--state', 'state.sqlite', '--base-url', sandbox.url, '--rate', '10', ...(via === 'flag' ? ['--redis', url] : [])];
    const r = await runCli(args, { cwd: dir, env: via === 'env' ? { VAS_REDIS_URL: url } : {} });
    const tookS = (performance.now() - started) / 1000;
    assert.equal(r.code, 2, `${url}: ${r.stderr}`);
    assert.ok(tookS < 10, `${url}: ${tookS} s`);
    assert.ok(r.stderr.includes(shown), `${url}: ${r.stderr}`);
    assert.ok(!r.stderr.includes('s3cr3t'), r.stderr);
  }
  const noRate = await runCli(['bank', input, '-o', 'out.csv', '--state', 'state.sqlite', '--base-url', sandbox.url, '--redis', 'redis://127.0.0.1:1'], { cwd: dir });
  assert.equal(noRate.code, 2, noRate.stderr);
  assert.match(noRate.stderr, /--redis .*--rate/);
  assert.equal(sum(sandbox.stats().requests), 0, 'a call was made');
});

test('a --redis whose database is not a number, or one this Redis does not have, or with ?options, is refused before any call: exit 2, one line naming the URL, no stack trace', { timeout: 60_000 }, async (t) => {
  if (!requireRedis(t)) return;
  const redis = await startRedis(t);
  const sandbox = await sandboxFor(t);
  for (const tail of ['/abc', '/99', '/0/1', '?db=3', '#x']) {
    const dir = tempDir(t);
    const input = writePayees(dir, 'payees.csv', 3, 9);
    // A ?query on the command line is refused as a place for a password (hardening-redis.test.ts); here it comes from the environment.
    const viaEnv = /[?#]/.test(tail);
    const args = ['bank', input, '-o', 'out.csv', '--state', 'state.sqlite', '--base-url', sandbox.url, '--rate', '10', ...(viaEnv ? [] : ['--redis', `${redis.url}${tail}`])];
    const r = await runCli(args, { cwd: dir, env: viaEnv ? { VAS_REDIS_URL: `${redis.url}${tail}` } : {} });
    assert.equal(r.code, 2, `${tail}: ${r.stderr}`);
    const errors = r.stderr.split('\n').filter((l) => /^error|Error|    at /.test(l));
    assert.equal(errors.length, 1, `${tail}: ${r.stderr}`);
    // Named as it was given: the flag, or the environment variable.
    assert.match(errors[0]!, viaEnv ? /VAS_REDIS_URL redis:\/\/127\.0\.0\.1/ : /--redis redis:\/\/127\.0\.0\.1/, tail);
  }
  assert.equal(sum(sandbox.stats().requests), 0, 'a call was made');
});

/** A TCP relay on 127.0.0.1:0 to `port` that delays every chunk by `delayMs` each way: a Redis farther away. */
async function startDelayRelay(t: TestContext, port: number, delayMs: number): Promise<number> {
  const sockets = new Set<net.Socket>();
  const relay = net.createServer((client) => {
    const upstream = net.connect(port, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => s.destroy());
    }
    client.on('data', (d) => setTimeout(() => upstream.write(d), delayMs));
    upstream.on('data', (d) => setTimeout(() => client.write(d), delayMs));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((r) => relay.listen(0, '127.0.0.1', r));
  t.after(() => {
    for (const s of sockets) s.destroy();
    return new Promise<void>((r) => relay.close(() => r()));
  });
  return (relay.address() as AddressInfo).port;
}

test('a Redis 20 ms away (a relay delaying each way by 10 ms): a run at --rate 100 still gets near its rate, not the third a 10 ms catch-up per round trip allowed', { timeout: 90_000 }, async (t) => {
  if (!requireRedis(t)) return;
  const redis = await startRedis(t);
  const relayPort = await startDelayRelay(t, redis.port, 10);
  const sandbox = await sandboxFor(t);
  const dir = tempDir(t);
  const input = writePayees(dir, 'payees.csv', 800, 6);
  const r = await runCli(['bank', input, '-o', 'out.csv', '--state', 'state.sqlite', '--base-url', sandbox.url, '--rate', '100', '--redis', `redis://127.0.0.1:${relayPort}`], { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  const stats = sandbox.stats();
  assert.equal(stats.requests['account-verification-pl'], 800);
  const rate = ((800 - 1) * 1000) / (stats.lastApiRequestAt! - stats.firstApiRequestAt!);
  t.diagnostic(`${rate.toFixed(1)} requests/s through a Redis 20 ms away`);
  // Before: one ask per round trip, each catching up 10 ms: ~1.95 tokens per 25 ms, 40-80/s.
  assert.ok(rate >= 75, `${rate.toFixed(1)} requests/s at --rate 100`);
});

test('a --redis that cannot be written (a read-only replica) is refused before any call: exit 2, one line naming the URL and why', { timeout: 60_000 }, async (t) => {
  if (!requireRedis(t)) return;
  const primary = await startRedis(t);
  const replica = await startRedis(t, ['--replicaof', '127.0.0.1', String(primary.port)]);
  const sandbox = await sandboxFor(t);
  const dir = tempDir(t);
  const input = writePayees(dir, 'payees.csv', 5, 5);
  const r = await runCli(['bank', input, '-o', 'out.csv', '--state', 'state.sqlite', '--base-url', sandbox.url, '--rate', '10', '--redis', replica.url], { cwd: dir });
  assert.equal(r.code, 2, r.stderr);
  const errors = r.stderr.split('\n').filter((l) => l.startsWith('error'));
  assert.equal(errors.length, 1, r.stderr);
  assert.match(errors[0]!, new RegExp(`--redis ${replica.url.replace(/\./g, '\\.')}.*READONLY`));
  assert.equal(sum(sandbox.stats().requests), 0, 'a call was made');
});

test('a new --rate takes effect on the next run; a Redis restarted empty mid-run is re-seeded, not fatal', { timeout: 120_000 }, async (t) => {
  if (!requireRedis(t)) return;
  const redis = await startRedis(t);
  const dir = tempDir(t);
  const sandbox = await sandboxFor(t);
  const slow = writePayees(dir, 'slow.csv', 10, 1);
  const first = await runCli(['bank', slow, '-o', 'slow-out.csv', '--state', 's.sqlite', '--base-url', sandbox.url, '--rate', '5', '--redis', redis.url], { cwd: dir });
  assert.equal(first.code, 0, first.stderr);
  const fast = writePayees(dir, 'fast.csv', 250, 2);
  const started = performance.now();
  const run = spawnCli(['bank', fast, '-o', 'fast-out.csv', '--state', 's.sqlite', '--base-url', sandbox.url, '--rate', '50', '--concurrency', '8', '--redis', redis.url], { cwd: dir });
  t.after(() => run.child.kill('SIGKILL'));
  await waitFor(() => answered(sandbox) >= 10 + 60, 30_000, 'the second run under way');
  await redis.stop();
  await redis.start();
  const second = await run.result;
  const tookS = (performance.now() - started) / 1000;
  t.diagnostic(`250 rows at --rate 50 after a --rate 5 run, Redis restarted mid-run: ${tookS.toFixed(1)} s`);
  assert.equal(second.code, 0, second.stderr);
  assert.equal(readCsvObjects(path.join(dir, 'fast-out.csv')).length, 250);
  // 250 rows at 50/s take ~5 s (at the old 5/s, 50 s); start-up and the restart cost a few more.
  assert.ok(tookS < 20, `took ${tookS} s`);
});

test('SIGTERM stops a run cleanly whatever Redis is doing: while it hangs mid-run, and while connecting to a hung Redis', { timeout: 90_000 }, async (t) => {
  if (!requireRedis(t)) return;
  const redis = await startRedis(t);
  const dir = tempDir(t);
  const sandbox = await sandboxFor(t);
  const input = writePayees(dir, 'payees.csv', 400, 3);
  const args = ['bank', input, '-o', 'out.csv', '--state', 'state.sqlite', '--base-url', sandbox.url, '--rate', '20', '--redis', redis.url];
  const run = spawnCli(args, { cwd: dir });
  t.after(() => run.child.kill('SIGKILL'));
  t.after(() => redis.thaw());
  await waitFor(() => answered(sandbox) >= 10, 30_000, 'the first calls');
  redis.freeze();
  await new Promise((r) => setTimeout(r, 500));
  const signalled = performance.now();
  run.child.kill('SIGTERM');
  const r = await run.result;
  const tookS = (performance.now() - signalled) / 1000;
  t.diagnostic(`mid-run, Redis frozen: exit ${r.code} ${tookS.toFixed(1)} s after SIGTERM`);
  assert.ok(r.code === 3 || r.code === 1, r.stderr);
  assert.ok(tookS < 5, `took ${tookS} s`);
  assert.match(r.stderr, /--resume/);

  // Connecting to a Redis that accepts the connection and never answers.
  const hung = spawnCli([...args, '--resume'], { cwd: dir });
  t.after(() => hung.child.kill('SIGKILL'));
  await new Promise((r) => setTimeout(r, 1500));
  const again = performance.now();
  hung.child.kill('SIGTERM');
  const h = await hung.result;
  const hungS = (performance.now() - again) / 1000;
  t.diagnostic(`connecting to a frozen Redis: exit ${h.code} ${hungS.toFixed(1)} s after SIGTERM`);
  assert.ok(hungS < 5, `took ${hungS} s`);
  assert.notEqual(h.code, 0);
  assert.equal(h.signal, null, 'ended by the signal itself, not by the tool');
});

test('a turn booked far ahead (a killed run at --rate 0.01, or a Redis clock that stepped back an hour) is not waited for: the next run at --rate 50 goes at its own rate', { timeout: 90_000 }, async (t) => {
  if (!requireRedis(t)) return;
  const redis = await startRedis(t);
  const sandbox = await sandboxFor(t);
  const dir = tempDir(t);
  const input = writePayees(dir, 'payees.csv', 30, 4);
  const inspector = new Redis(redis.url, { lazyConnect: true });
  t.after(() => inspector.disconnect());
  await inspector.connect();
  const key = `vas-verify:${createHash('sha256').update(TOKEN).digest('hex').slice(0, 16)}:gcra`;
  const [seconds] = await inspector.time();
  // The next turn booked an hour ahead, as the GCRA of a --rate 1/3600 run (or a clock 1 h fast) leaves it.
  await inspector.set(key, String((Number(seconds) + 3600) * 1_000_000), 'PX', 3_600_000);
  const run = spawnCli(['bank', input, '-o', 'out.csv', '--state', 'state.sqlite', '--base-url', sandbox.url, '--rate', '50', '--redis', redis.url], { cwd: dir });
  t.after(() => run.child.kill('SIGKILL'));
  // Before: no call for the hour (the run sat waiting for the booked turn). Bounded here: 45 s.
  let timer: NodeJS.Timeout | undefined;
  const r = await Promise.race([run.result, new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), 45_000)))]);
  clearTimeout(timer);
  assert.ok(r, 'the run was still waiting for a turn booked an hour ahead');
  assert.equal(r.code, 0, r.stderr);
  assert.equal(readCsvObjects(path.join(dir, 'out.csv')).length, 30);
  assert.equal(sandbox.stats().requests['account-verification-pl'], 30);
});
