/**
 * Runs of one credential that share a quota through Redis at different --rate values (README,
 * "Sharing one quota across hosts"): each says so once, naming the other's rate; runs at the
 * same rate, and a run after another has ended, say nothing. Real CLI processes, the sandbox on
 * port 0 and Debian's redis-server (helpers/redis.ts); without it the test skips outside CI.
 */
import { test, type TestContext } from 'node:test';
import { Redis } from 'ioredis';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startSandbox, type Sandbox } from '../src/sandbox/index.js';
import { readCsvObjects, runCli, spawnCli, sum, tempDir } from './helpers/cli.js';
import { requireRedis, startRedis } from './helpers/redis.js';

/** `count` distinct ordinary payees, unique to `seed`. */
function writePayees(dir: string, name: string, count: number, seed: number): string {
  const lines = ['Payee Name,Account Number,IFSC'];
  for (let i = 0; i < count; i += 1) lines.push(`Payee ${seed}-${i},8${seed}${String(200_000 + i).padStart(8, '0')}3${i % 10},SBIN0001234`);
  const file = path.join(dir, name);
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

async function sandboxFor(t: TestContext): Promise<Sandbox> {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  return sandbox;
}

/** Rows of each run: enough for two runs started together to overlap on a loaded machine. */
const ROWS = 100;

const WARNING = /another run is taking turns of this Redis quota at --rate (\S+), this one at --rate (\S+): .*give every run of one credential the same --rate/g;

/** The two runs' stderr, run at once on one Redis at the two rates. */
async function together(t: TestContext, dir: string, sandbox: Sandbox, redisUrl: string, rates: [string, string], tag: string): Promise<[string, string]> {
  const runs = rates.map((rate, i) => {
    const input = writePayees(dir, `${tag}-${i}.csv`, ROWS, i + 1 + (tag === 'same' ? 2 : 0));
    return spawnCli(['bank', input, '-o', `${tag}-${i}-out.csv`, '--state', `${tag}-${i}.sqlite`, '--base-url', sandbox.url, '--rate', rate, '--redis', redisUrl], { cwd: dir });
  });
  t.after(() => runs.forEach((r) => r.child.kill('SIGKILL')));
  const results = await Promise.all(runs.map((r) => r.result));
  for (const [i, r] of results.entries()) {
    assert.equal(r.code, 0, r.stderr);
    assert.equal(readCsvObjects(path.join(dir, `${tag}-${i}-out.csv`)).length, ROWS);
  }
  return [results[0]!.stderr, results[1]!.stderr];
}

test('two runs sharing a Redis quota at --rate 20 and --rate 40 each say once that the other asks at its rate; at one rate, or one after the other, nothing is said', { timeout: 90_000 }, async (t) => {
  if (!requireRedis(t)) return;
  const redis = await startRedis(t);
  const dir = tempDir(t);
  const sandbox = await sandboxFor(t);

  const [slow, fast] = await together(t, dir, sandbox, redis.url, ['20', '40'], 'mixed');
  const slowSays = [...slow.matchAll(WARNING)];
  const fastSays = [...fast.matchAll(WARNING)];
  // The runs overlap for seconds (100 rows at 40/s take 2.5 s, at 20/s 5 s), so each finds the other's rate beside the bucket.
  assert.equal(slowSays.length, 1, slow);
  assert.deepEqual([slowSays[0]![1], slowSays[0]![2]], ['40', '20']);
  assert.equal(fastSays.length, 1, fast);
  assert.deepEqual([fastSays[0]![1], fastSays[0]![2]], ['20', '40']);
  assert.match(slow, /^warn: another run is taking turns/m);

  // The same rate: one quota, rightly shared; nothing to say.
  for (const stderr of await together(t, dir, sandbox, redis.url, ['30', '30'], 'same')) assert.doesNotMatch(stderr, WARNING);

  // A run that starts after another at another rate has ended (its rate gone a second after its last turn).
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const later = await runCli(['bank', writePayees(dir, 'later.csv', 20, 9), '-o', 'later-out.csv', '--state', 'later.sqlite', '--base-url', sandbox.url, '--rate', '10', '--redis', redis.url], { cwd: dir });
  assert.equal(later.code, 0, later.stderr);
  assert.doesNotMatch(later.stderr, WARNING);
  assert.equal(sum(sandbox.stats().responses), ROWS * 4 + 20);
});

test('a cluster-mode Redis (one node holding every slot) shares the quota: the bucket and the rate beside it hash to one slot, so the script is no CROSSSLOT', { timeout: 60_000 }, async (t) => {
  if (!requireRedis(t)) return;
  const dir = tempDir(t);
  const redis = await startRedis(t, ['--cluster-enabled', 'yes', '--cluster-config-file', path.join(dir, 'nodes.conf'), '--dir', dir]);
  const admin = new Redis(redis.url, { lazyConnect: true });
  t.after(() => admin.disconnect());
  await admin.connect();
  await admin.call('CLUSTER', 'ADDSLOTSRANGE', '0', '16383');
  for (let i = 0; i < 100 && !String(await admin.call('CLUSTER', 'INFO')).includes('cluster_state:ok'); i += 1) await new Promise((resolve) => setTimeout(resolve, 100));
  // What the keys of one script must do there: two keys of different slots are refused.
  await assert.rejects(admin.eval("return redis.call('GET', KEYS[2])", 2, 'vas-verify:0:gcra', 'vas-verify:0:rate'), /CROSSSLOT/);
  const sandbox = await sandboxFor(t);
  const r = await runCli(['bank', writePayees(dir, 'cluster.csv', 20, 7), '-o', 'cluster-out.csv', '--state', 'cluster.sqlite', '--base-url', sandbox.url, '--rate', '20', '--redis', redis.url], { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(readCsvObjects(path.join(dir, 'cluster-out.csv')).map((row) => row.verify_status), new Array<string>(20).fill('VERIFIED'));
});
