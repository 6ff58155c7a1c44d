/**
 * 429s that persist pause the whole run until their Retry-After (src/limiter, RateLimiter.penalize;
 * a lone burst only cuts the rate, pace.ts pausesEveryone), over real HTTP:
 * the real CLI against the sandbox, everything counted and stamped by the sandbox
 * (/__sandbox/stats: answers by status, the first and the last API request), nothing mocked.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startSandbox, type Sandbox, type SandboxOptions } from '../src/sandbox/index.js';
import { readCsvObjects, runCli, sum, tempDir } from './helpers/cli.js';

/** `count` distinct ordinary payees (no test-account endings). */
function writePayees(dir: string, count: number): string {
  const lines = ['Payee Name,Account Number,IFSC'];
  for (let i = 0; i < count; i += 1) lines.push(`Payee ${i},6${String(300_000 + i).padStart(9, '0')}${String(11 + (i % 60)).padStart(2, '0')},SBIN0001234`);
  const file = path.join(dir, 'payees.csv');
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

async function sandboxFor(t: TestContext, options: SandboxOptions): Promise<Sandbox> {
  const sandbox = await startSandbox(options);
  t.after(() => sandbox.close());
  return sandbox;
}

test('429s with Retry-After: 1 that keep coming pause every caller for a second, not only the one that got it; the run then goes on and finishes', { timeout: 90_000 }, async (t) => {
  const dir = tempDir(t);
  const rows = 60;
  const input = writePayees(dir, rows);
  // Injected 429s (Retry-After: 1) on 15% of requests, drawn from a seeded stream in arrival
  // order: how many there are does not depend on timing. No quota: nothing else slows the run.
  const sandbox = await sandboxFor(t, { faultRate: 0.15, faults: ['429'], seed: 3 });
  const r = await runCli(['bank', input, '-o', 'out.csv', '--state', 'state.sqlite', '--base-url', sandbox.url, '--mode', 'pl', '--rate', '40', '--concurrency', '4'], { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(readCsvObjects(path.join(dir, 'out.csv')).length, rows);
  const stats = sandbox.stats();
  const too = stats.responses['429'] ?? 0;
  const spanS = (stats.lastApiRequestAt! - stats.firstApiRequestAt!) / 1000;
  t.diagnostic(`${sum(stats.requests)} requests, ${too} × 429, first to last request ${spanS.toFixed(1)} s`);
  assert.equal(stats.responses['200'], rows);
  assert.ok(too >= 6, `only ${too} × 429: the test needs more`);
  // Without the pause the run takes ~1.6 s at 40/s, plus the last retry's own wait (≤ 1.25 s).
  // With it, a 429 stops every caller for 1 s (all but the run's first burst, which only cuts the
  // rate); 4 callers can get a 429 within the same pause (sent before the first 429 came back),
  // but at 40/s and a few ms per answer, most pause alone.
  assert.ok(spanS >= (too - 1) * 0.6, `${too} × 429 in ${spanS.toFixed(1)} s: the others did not wait for the Retry-After`);
});

test('a quota far below --rate: its 429s pause the run until the quota has room, so few calls are wasted', { timeout: 90_000 }, async (t) => {
  const dir = tempDir(t);
  const rows = 30;
  const input = writePayees(dir, rows);
  // 5 calls in any second, --rate 100: each second's sixth call is answered 429 with Retry-After: 1.
  const sandbox = await sandboxFor(t, { rateLimit: 5 });
  const r = await runCli(['bank', input, '-o', 'out.csv', '--state', 'state.sqlite', '--base-url', sandbox.url, '--mode', 'pl', '--rate', '100', '--concurrency', '16'], { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  const stats = sandbox.stats();
  const too = stats.responses['429'] ?? 0;
  const spanS = (stats.lastApiRequestAt! - stats.firstApiRequestAt!) / 1000;
  t.diagnostic(`${sum(stats.requests)} requests, ${too} × 429, first to last request ${spanS.toFixed(1)} s`);
  assert.equal(stats.responses['200'], rows);
  // The first burst only cuts the rate (the callers already sent get their 429s); after that each
  // quota second costs one 429 or a few. Not paused, the 16 callers would keep calling at up to
  // 100/s and each get its own (62 × 429 measured with the pause removed).
  assert.ok(too <= rows, `${too} × 429 for ${rows} rows`);
});
