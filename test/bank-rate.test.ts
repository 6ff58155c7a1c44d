/**
 * `vas-verify bank --rate R` with the defaults: the requests in flight follow R × the answer time
 * (src/limiter/concurrency.ts), up to --concurrency. The real CLI against the sandbox on port 0 at
 * a latency; what is asserted is the sandbox's own count of the requests it handled at once.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startSandbox } from '../src/sandbox/index.js';
import { readCsvObjects, runCli, spawnCli, tempDir } from './helpers/cli.js';

function payees(dir: string, count: number): string {
  const lines = ['Payee Name,Account Number,IFSC'];
  for (let i = 0; i < count; i += 1) lines.push(`Payee ${i},${400000000011 + i * 100},SBIN0001234`);
  const file = path.join(dir, 'p.csv');
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

const CAP_LINE = /raise --concurrency to (\d+) to reach --rate 100/g;

test('--rate 100 at 400 ms answers, default flags: ~40 requests in flight (the old default allowed 8)', async (t) => {
  const sandbox = await startSandbox({ latencyMs: 400 });
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  payees(dir, 300);
  const r = await runCli(['bank', 'p.csv', '-o', 'out.csv', '--base-url', sandbox.url, '--rate', '100'], { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  const stats = sandbox.stats();
  // 100/s (paced at 0.97 × R) × 0.4 s = 39 in flight on average.
  assert.ok(stats.maxConcurrentApiRequests >= 30, `in flight at most ${stats.maxConcurrentApiRequests}: the concurrency did not follow the rate`);
  assert.equal(stats.requests['account-verification-pl'], 300);
  assert.equal(readCsvObjects(path.join(dir, 'out.csv')).length, 300);
  assert.doesNotMatch(r.stderr, CAP_LINE, 'the default cap does not limit 100/s at 400 ms');
});

test('--rate with --concurrency: the cap is kept, and the run says once what would reach the rate', async (t) => {
  const sandbox = await startSandbox({ latencyMs: 400 });
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  payees(dir, 80);
  const r = await runCli(['bank', 'p.csv', '-o', 'out.csv', '--base-url', sandbox.url, '--rate', '100', '--concurrency', '10'], { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  assert.ok(sandbox.stats().maxConcurrentApiRequests <= 10, `in flight at most ${sandbox.stats().maxConcurrentApiRequests}, above the cap of 10`);
  const said = [...r.stderr.matchAll(CAP_LINE)];
  assert.equal(said.length, 1, `said once:\n${r.stderr}`);
  // 100/s × ~0.4 s × 1.25 + 16 ≈ 66; on a loaded machine the answers take longer than the
  // sandbox's 0.4 s (114 was seen with other processes on both cores): up to ~1.5 s is the rate's.
  const n = Number(said[0]![1]);
  assert.ok(n >= 50 && n <= 200, `raise to ${n}`);
});

test('--rate far above the quota: the 429s show the quota and the rate goes under it (a few 429s, not one request in two)', async (t) => {
  // The plan allows 10/s; the user asked for 50/s. Cutting a tenth per burst took some twenty
  // bursts, each a crowded second of 429s: 160 of them for 300 payees at --rate 20.
  const sandbox = await startSandbox({ latencyMs: 100, rateLimit: 10 });
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  payees(dir, 150);
  const r = await runCli(['bank', 'p.csv', '-o', 'out.csv', '--base-url', sandbox.url, '--rate', '50'], { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  const { responses, requests } = sandbox.stats();
  const refused = responses['429'] ?? 0;
  assert.equal(readCsvObjects(path.join(dir, 'out.csv')).length, 150);
  // 101–104 of ~250 requests before (two in five); now 27 of 177 on a quiet machine (2026-12-02),
  // most of them in the first second, before any measure, and 31 of 181 in CI beside the other
  // rate tests. The bound is the difference the test is about: under one in four, not two in five.
  const sent = requests['account-verification-pl'] ?? 0;
  t.diagnostic(`${refused} 429s of ${sent} requests`);
  assert.ok(refused <= sent / 4, `${refused} 429s of ${sent} requests`);
});

test('without --rate: today\'s behaviour, --concurrency (default 8) requests in flight', async (t) => {
  const sandbox = await startSandbox({ latencyMs: 100 });
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  payees(dir, 60);
  const r = await runCli(['bank', 'p.csv', '-o', 'out.csv', '--base-url', sandbox.url], { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(sandbox.stats().maxConcurrentApiRequests, 8);
});

test('a --rate that is not a finite number of requests per second is refused before anything is opened (exit 2, one line), never a run that sends nothing', async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  for (const rate of ['Infinity', '0', '-5', 'NaN']) {
    const dir = tempDir(t);
    payees(dir, 3);
    const run = spawnCli(['bank', 'p.csv', '-o', 'out.csv', '--state', 's.sqlite', '--base-url', sandbox.url, '--rate', rate], { cwd: dir });
    // A run that hangs is killed after 20 s: its exit is then not 2.
    const timer = setTimeout(() => run.child.kill('SIGKILL'), 20_000);
    const r = await run.result;
    clearTimeout(timer);
    assert.equal(r.code, 2, `--rate ${rate}: ${r.stderr}`);
    assert.match(r.stderr, /--rate must be/, rate);
    assert.deepEqual(fs.readdirSync(dir), ['p.csv'], rate);
  }
  assert.deepEqual(sandbox.stats().requests, {});
});

test('a quota below --rate is not blamed on --concurrency: its 429s\' Retry-After waits are not answer times, so no "raise --concurrency" line', { timeout: 120_000 }, async (t) => {
  // 20 calls a second at 50 ms answers: 16 in flight would carry 100/s, the quota is what holds the run back.
  const sandbox = await startSandbox({ latencyMs: 50, rateLimit: 20 });
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  payees(dir, 300);
  const r = await runCli(['bank', 'p.csv', '-o', 'out.csv', '--base-url', sandbox.url, '--rate', '100', '--concurrency', '16'], { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  assert.ok((sandbox.stats().responses['429'] ?? 0) > 0, 'the quota never refused: nothing tested');
  assert.doesNotMatch(r.stderr, /raise --concurrency/);
  assert.equal(readCsvObjects(path.join(dir, 'out.csv')).filter((row) => row.verify_status === 'VERIFIED').length, 300);
});
