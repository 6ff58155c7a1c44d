/**
 * The remote interface and the bank run (docs/ARCHITECTURE.md) under a hostile service: faults of every kind, a quota below the tool's
 * rate, tokens that expire every two seconds; and a service that goes away mid-run and comes
 * back. Real CLI processes against the sandbox.
 *
 * How the soak treats penny-drop. The sandbox's `reset` and `hang` faults come before it
 * processes anything, but a client cannot tell a reset or a timeout before processing from one
 * after: for a penny-drop both are ambiguous, so the tool must not re-send and the row is
 * UNCONFIRMED by design. So the soak is two runs:
 * - penny-less: every failure can be retried, so the run must end with exactly the statuses of
 *   a clean run;
 * - penny-drop: every row either has its clean status or is UNCONFIRMED; no account has two
 *   deposits; an UNCONFIRMED account has no deposit at all (its only request was faulted before
 *   processing — the tool lost nothing it could have known), and there are no more UNCONFIRMED
 *   rows than reset and hang faults (each strands at most one row).
 */
import { freePort } from './helpers/server.js';
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { startSandbox, type Sandbox, type SandboxOptions } from '../src/sandbox/index.js';
import { FaultInjector } from '../src/sandbox/faults.js';
import type { FaultKind } from '../src/sandbox/options.js';
import { BULK_RETRY } from '../src/cli/config.js';
import { readCsv, readCsvObjects, runCli, spawnCli, tempDir, waitFor } from './helpers/cli.js';

const CLIENT = { clientId: 'soak-client', clientSecret: 'soak-secret-6f1d2c' };
const OAUTH_ENV = { VAS_TOKEN: undefined, VAS_CLIENT_ID: CLIENT.clientId, VAS_CLIENT_SECRET: CLIENT.clientSecret };

/**
 * Plain payees and the test accounts whose answers do not depend on time: closed (90), invalid
 * (91), daily limit (92, deferred), 503 twice (93), 500 once (95), dropped once (97, penny-less
 * only: for a penny-drop it is UNCONFIRMED even in a clean run). 96 answers after 3 s, longer
 * than the short --timeout the soak needs for hangs, so it is left out.
 */
function writePayees(dir: string, name: string, count: number, withDrop: boolean): string {
  const lines = ['Payee Name,Account Number,IFSC'];
  const specials = ['90', '91', '92', '93', '95', ...(withDrop ? ['97'] : [])];
  for (let i = 0; i < count; i += 1) {
    const ending = i % 25 === 3 ? specials[(i / 25) % specials.length | 0]! : String(11 + (i % 60)).padStart(2, '0');
    const account = `8${String(2_000_000 + i).padStart(9, '0')}${ending}`;
    lines.push(`Payee ${i},${account},${['SBIN0001234', 'HDFC0000123', 'ICIC0001234'][i % 3]}`);
    if (i % 30 === 29) lines.push(`Payee ${i} copy,${account},${['SBIN0001234', 'HDFC0000123', 'ICIC0001234'][i % 3]}`);
  }
  lines.push('Damaged,1.23457E+11,SBIN0001234');
  const file = path.join(dir, name);
  fs.writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

function statusesOf(file: string): string[] {
  return readCsvObjects(file).map((r) => r.verify_status!);
}

async function cleanReference(t: TestContext, dir: string, input: string, mode: 'pl' | 'pd'): Promise<{ statuses: string[]; code: number | null; calls: number }> {
  const clean = await startSandbox();
  t.after(() => clean.close());
  const r = await runCli(
    ['bank', input, '-o', `clean-${mode}.csv`, '--state', `clean-${mode}.sqlite`, '--base-url', clean.url, '--mode', mode, '--summary', `clean-${mode}.json`],
    { cwd: dir },
  );
  assert.ok(r.code === 0 || r.code === 3, r.stderr);
  const summary = JSON.parse(fs.readFileSync(path.join(dir, `clean-${mode}.json`), 'utf8')) as { callsMade: number };
  return { statuses: statusesOf(path.join(dir, `clean-${mode}.csv`)), code: r.code, calls: summary.callsMade };
}

function answeredKeys(statePath: string): number {
  const db = new Database(statePath, { readonly: true });
  try {
    return (db.prepare("SELECT count(*) AS n FROM run_payees WHERE status IN ('DONE', 'DEFERRED')").get() as { n: number }).n;
  } finally {
    db.close();
  }
}

const SOAK = {
  faultRate: 0.2,
  faults: ['429', '500', '503', 'reset', 'hang'],
  // Below the tool's --rate: the service, not the tool, decides the pace.
  rateLimit: 10,
  tokenTtlSeconds: 2,
  latencyMs: [1, 5],
  seed: 56,
  ...CLIENT,
} satisfies SandboxOptions;

/**
 * The fewest consecutive requests of a seed's fault stream that hold `count` faults of `kinds`.
 * The soak's last rows are alone and take the stream's draws one after another, so a cluster as
 * tight as a row's attempts fails that row for the stream's sake, not the tool's: seed 6 put 8
 * unambiguous faults into 10 requests near request 290, where its runs ended, and a lone last
 * row ran out of its 8 attempts in about one run in three.
 */
function tightestCluster(seed: number, kinds: readonly FaultKind[], count: number, requests = 1000): number {
  const stream = new FaultInjector(SOAK.faultRate, SOAK.faults, seed, undefined as never);
  const at: number[] = [];
  for (let i = 0; i < requests; i += 1) {
    const fault = stream.draw();
    if (fault !== null && kinds.includes(fault)) at.push(i);
  }
  let tightest = Infinity;
  for (let i = 0; i + count <= at.length; i += 1) tightest = Math.min(tightest, at[i + count - 1]! - at[i]! + 1);
  return tightest;
}

test('the soak seeds have no cluster of faults as tight as the attempts of one row', () => {
  // Penny-less: every fault but a 429 (which waits without using an attempt) costs an attempt.
  assert.ok(tightestCluster(SOAK.seed, ['500', '503', 'reset', 'hang'], BULK_RETRY.maxAttempts) >= 3 * BULK_RETRY.maxAttempts);
  // Penny-drop: a reset or a hang ends the row at once (UNCONFIRMED); only 500 and 503 are retried.
  assert.ok(tightestCluster(SOAK.seed, ['500', '503'], BULK_RETRY.maxAttempts) >= 3 * BULK_RETRY.maxAttempts);
});

const TOOL = ['--rate', '25', '--concurrency', '6', '--timeout', '2s'];
/**
 * A penny-drop commits each claim with an fsync on the run's own thread: on a busy shared disk an
 * answer already in the socket could outwait a 2 s timeout and make its row UNCONFIRMED although
 * it deposited. The penny-drop soak gives its hangs 4 s (about 3 s more of run).
 */
const TOOL_PD = ['--rate', '25', '--concurrency', '6', '--timeout', '4s'];

test('fault soak, penny-less: 20% faults of every kind, a quota below --rate, 2 s tokens: the statuses of a clean run; retries counted by cause', { timeout: 240_000 }, async (t) => {
  const dir = tempDir(t, 'vas-soak-pl-');
  const input = path.basename(writePayees(dir, 'payees.csv', 200, true));
  const reference = await cleanReference(t, dir, input, 'pl');
  const sandbox = await startSandbox(SOAK);
  t.after(() => sandbox.close());
  const r = await runCli(
    ['bank', input, '-o', 'out.csv', '--state', 'soak.sqlite', '--base-url', sandbox.url, '--mode', 'pl', ...TOOL, '--summary', 'summary.json'],
    { cwd: dir, env: OAUTH_ENV },
  );
  assert.equal(r.code, reference.code, r.stderr);
  const rows = readCsv(path.join(dir, 'out.csv'));
  const input2 = readCsv(path.join(dir, input));
  assert.equal(rows.length, input2.length, 'nothing lost');
  for (let i = 1; i < input2.length; i += 1) assert.deepEqual(rows[i]!.slice(0, 3), input2[i], `row ${i} in order`);
  const out = readCsvObjects(path.join(dir, 'out.csv'));
  const differing = out.flatMap((row, i) => (row.verify_status === reference.statuses[i] ? [] : [`row ${i + 1}: ${row.verify_status} (${row.verify_reason}) where a clean run says ${reference.statuses[i]}`]));
  assert.deepEqual(differing, [], 'the statuses of a clean run');

  const stats = sandbox.stats();
  assert.ok(stats.faults >= 30, `faults were injected: ${stats.faults}`);
  assert.ok((stats.requests.token ?? 0) >= 2, `tokens were refreshed: ${stats.requests.token}`);
  const summary = JSON.parse(fs.readFileSync(path.join(dir, 'summary.json'), 'utf8')) as { retries: Record<string, number> };
  for (const cause of ['429', '500', '503', 'reset', 'headers-timeout']) {
    assert.ok((summary.retries[cause] ?? 0) > 0, `retries by cause include ${cause}: ${JSON.stringify(summary.retries)}`);
  }
  assert.match(r.stderr, /retries: .*429 \d+/);
});

test('fault soak, penny-drop: every row has its clean status or is UNCONFIRMED with no deposit; never two deposits', { timeout: 240_000 }, async (t) => {
  const dir = tempDir(t, 'vas-soak-pd-');
  const input = path.basename(writePayees(dir, 'payees.csv', 200, false));
  const reference = await cleanReference(t, dir, input, 'pd');
  const sandbox = await startSandbox(SOAK);
  t.after(() => sandbox.close());
  const r = await runCli(
    ['bank', input, '-o', 'out.csv', '--state', 'soak.sqlite', '--base-url', sandbox.url, '--mode', 'pd', ...TOOL_PD, '--summary', 'summary.json'],
    { cwd: dir, env: OAUTH_ENV },
  );
  assert.equal(r.code, 3, r.stderr);
  const rows = readCsvObjects(path.join(dir, 'out.csv'));
  assert.equal(rows.length, reference.statuses.length, 'nothing lost');
  const deposits = sandbox.stats().deposits;
  for (const [account, n] of Object.entries(deposits)) assert.equal(n, 1, `at most one deposit for ${account}`);
  let unconfirmed = 0;
  for (let i = 0; i < rows.length; i += 1) {
    const row = rows[i]!;
    if (row.verify_status === reference.statuses[i]) continue;
    assert.equal(row.verify_status, 'UNCONFIRMED', `row ${i + 1}: ${row.verify_status} where a clean run says ${reference.statuses[i]}`);
    assert.match(row.verify_reason!, /a rupee may have moved/);
    assert.equal(deposits[row['Account Number']!], undefined, `row ${i + 1}: faulted before processing, so no deposit`);
    unconfirmed += 1;
  }
  const summary = JSON.parse(fs.readFileSync(path.join(dir, 'summary.json'), 'utf8')) as { statuses: Record<string, number>; retries: Record<string, number> };
  assert.equal(summary.statuses.UNCONFIRMED, unconfirmed);
  assert.ok(unconfirmed <= sandbox.stats().faults, 'each UNCONFIRMED row goes back to a fault');
  assert.equal(summary.retries.reset ?? 0, 0, 'an ambiguous penny-drop is never re-sent');
  assert.equal(summary.retries['headers-timeout'] ?? 0, 0, 'an ambiguous penny-drop is never re-sent');
  for (const cause of ['429', '500', '503']) assert.ok((summary.retries[cause] ?? 0) > 0, `unambiguous failures are retried: ${cause}`);
});

test('service down mid-run: the breaker ends the run (exit 1, one clear line), rows stay resumable; the service back on the same port, --resume completes', { timeout: 180_000 }, async (t) => {
  const dir = tempDir(t, 'vas-down-');
  const input = path.basename(writePayees(dir, 'payees.csv', 200, true));
  const reference = await cleanReference(t, dir, input, 'pl');
  const port = await freePort();
  let sandbox: Sandbox = await startSandbox({ port, latencyMs: [5, 15] });
  t.after(() => sandbox.close());
  const args = ['bank', input, '-o', 'out.csv', '--state', 'down.sqlite', '--base-url', sandbox.url, '--concurrency', '4', '--summary', 'summary.json'];
  const run = spawnCli(args, { cwd: dir });
  t.after(() => run.child.kill('SIGKILL'));
  await waitFor(() => (sandbox.stats().requests['account-verification-pl'] ?? 0) >= 60, 60_000, 'sixty calls');
  await sandbox.close();
  const down = await run.result;
  assert.equal(down.code, 1, down.stderr);
  assert.match(down.stderr, /error: cannot reach the API: connection refused/);
  assert.match(down.stderr, /Resume with: vas-verify bank payees\.csv -o out\.csv --mode pl --resume/);
  assert.doesNotMatch(down.stderr, /\n\s+at |this is a bug/);
  assert.ok(!fs.existsSync(path.join(dir, 'out.csv')), 'no partial output presented as complete');
  const stopped = JSON.parse(fs.readFileSync(path.join(dir, 'summary.json'), 'utf8')) as { stopped: string; statuses: Record<string, number> };
  assert.equal(stopped.stopped, 'breaker');
  assert.equal(stopped.statuses.FAILED, 0, 'the breaker stops the run instead of failing rows');

  // Back, on the same address; this time it answers 503 to everything: the breaker again.
  sandbox = await startSandbox({ port, faultRate: 1, faults: ['503'] });
  const unavailable = await runCli([...args, '--resume'], { cwd: dir });
  assert.equal(unavailable.code, 1, unavailable.stderr);
  assert.match(unavailable.stderr, /error: \d+ call\(s\) in a row failed \(last: .*Service Not Available.*\): the service looks down/);
  assert.ok(!fs.existsSync(path.join(dir, 'out.csv')));
  await sandbox.close();

  // Healthy again: the resume finishes, and no account that was answered is called again.
  const answered = answeredKeys(path.join(dir, 'down.sqlite'));
  assert.ok(answered > 0 && answered < reference.calls, `${answered} of ${reference.calls} keys answered before the outage`);
  sandbox = await startSandbox({ port, latencyMs: [1, 5] });
  const resumed = await runCli([...args, '--resume'], { cwd: dir });
  assert.equal(resumed.code, reference.code, resumed.stderr);
  assert.deepEqual(statusesOf(path.join(dir, 'out.csv')), reference.statuses);
  const final = JSON.parse(fs.readFileSync(path.join(dir, 'summary.json'), 'utf8')) as { callsMade: number };
  assert.equal(final.callsMade, reference.calls - answered, 'the resume called only the keys left');
});
