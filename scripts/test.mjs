/**
 * `npm test`: every test/*.test.ts, in two phases, each under node's own test runner.
 *
 * 1. Everything but the rate tests, three files at a time, the longest first. On a 2-core machine
 *    two at a time left the cores idle over a quarter of the time (1,153 s of wall for 1,653 s of
 *    CPU): many tests wait on timeouts, latencies and kills rather than compute. Started longest
 *    first, no long file starts last and runs alone at the end.
 * 2. The rate tests (RATE_FILES), two at a time, with nothing else running. They assert what the
 *    sandbox counted against a quota (≥ 0.9 × R, ≤ 0.5% 429s) and hold only while the CLI and the
 *    sandbox get the CPU when their timers fire: beside two CPU-bound tests a shared Redis quota saw
 *    0.66% 429s.
 *
 * Both phases run even when the first fails; the exit code is the first failure's. Files named
 * as arguments (`node scripts/test.mjs test/bank.test.ts …`, as .ci/run does on Node 22) run the
 * same way, alone. Run one file with `node --import tsx --test test/<name>.test.ts` (after
 * `npm run build`).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const TEST_DIR = path.join(ROOT, 'test');

/** Files whose assertions are rates the sandbox measured: phase 2, alone. */
const RATE_FILES = ['bank-rate.test.ts', 'redis-quota.test.ts', 'limiter-retry-after.test.ts'];

/** The longest files (seconds of their tests, measured 2026-12-02, three at a time), started first. */
const LONGEST_FIRST = [
  'reliability-faults.test.ts', // 191
  'runtime-exits.test.ts', // ~80
  'review-import.test.ts', // 102
  'reliability-chaos.test.ts', // ~100
  'reliability-upstream.test.ts', // 93
  'review-page-stale.test.ts', // 83
  'never-pay-twice.test.ts', // 82
  'review-identity.test.ts', // 80
  'bank.test.ts', // 77
  'input-xlsx-limits.test.ts', // 72
  'cli-errors.test.ts', // 70
  'output-discard.test.ts', // 67
  'input-cli.test.ts', // 60
  'review-page.test.ts', // 47
  'hardening-state-damage.test.ts', // 46
  'reliability-concurrency.test.ts', // 46
  'docs-cli.test.ts', // 45
  'review-page-keyboard.test.ts', // 45
  'hardening-redis.test.ts', // 44
  'reliability-hostile.test.ts', // 44
  'cli-pipes-paths.test.ts', // 43
  'docs-upstream.test.ts', // 43
  'reliability-secrets.test.ts', // 42
];

const named = process.argv.slice(2).map((f) => path.basename(f));
const missing = named.filter((f) => !fs.existsSync(path.join(TEST_DIR, f)));
if (missing.length > 0) {
  process.stderr.write(`no such test file in test/: ${missing.join(', ')}\n`);
  process.exit(2);
}
const all = named.length > 0 ? [...named].sort() : fs.readdirSync(TEST_DIR).filter((f) => f.endsWith('.test.ts')).sort();
const rest = all.filter((f) => !RATE_FILES.includes(f));
const first = LONGEST_FIRST.filter((f) => rest.includes(f));
const phases = [
  { name: 'tests', concurrency: 3, files: [...first, ...rest.filter((f) => !first.includes(f))] },
  { name: 'rate tests', concurrency: 2, files: RATE_FILES.filter((f) => all.includes(f)) },
];

let failed = 0;
for (const phase of phases) {
  if (phase.files.length === 0) continue;
  process.stdout.write(`\n== ${phase.name}: ${phase.files.length} files, ${phase.concurrency} at a time\n`);
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--test', `--test-concurrency=${phase.concurrency}`, '--test-timeout=600000', ...phase.files.map((f) => path.join('test', f))],
    { cwd: ROOT, stdio: 'inherit' },
  );
  const code = run.status ?? 1;
  if (code !== 0 && failed === 0) failed = code;
}
process.exitCode = failed;
