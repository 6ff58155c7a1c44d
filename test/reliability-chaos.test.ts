/**
 * The bank run (docs/ARCHITECTURE.md) under abuse: a long run SIGKILLed at many random moments and resumed each time
 * until done ends with every row once, in order, with the statuses of an uninterrupted run, and
 * never paid twice for one account. Real CLI processes against the sandbox on port 0.
 *
 * The UNCONFIRMED bound. A penny-drop row is marked IN_FLIGHT (committed, fsynced) just before
 * its request leaves; a kill can strand at most the rows whose request was under way, i.e. at
 * most --concurrency of them, and each honestly becomes UNCONFIRMED on resume. The tool marks
 * a row IN_FLIGHT only when the rate limiter and the pool have released it (never while it is
 * queued), so nothing widens that window. The penny-drop chaos run uses --concurrency 1, and
 * the test checks the exact accounting, not only the total: after every kill it reads the state
 * file and records which keys were IN_FLIGHT (at most one new key per kill), and at the end the
 * UNCONFIRMED keys must be a subset of those, so their number is at most the number of kills.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { startSandbox, type Sandbox } from '../src/sandbox/index.js';
import { createRandom } from '../src/sandbox/prng.js';
import { readCsv, readCsvObjects, runCli, spawnCli, tempDir, waitFor, type Spawned } from './helpers/cli.js';

const KILLS = 12;
/** Seed of the kill moments; printed with every failure so a run can be replayed. */
const SEED = Number(process.env.VAS_CHAOS_SEED ?? Date.now() % 100_000);

interface Payees {
  file: string;
  /** Input rows (header first), as the CSV reader of the tests sees them. */
  rows: string[][];
  /** Distinct account+IFSC keys that need a call. */
  keys: number;
}

/**
 * 2,000 distinct payees plus what a real list carries: copies of earlier rows, rows the local
 * checks reject, closed accounts (…90), accounts the API calls invalid (…91) and accounts whose
 * daily limit is spent (…92, deferred). Time-dependent test accounts (93/95/96/97) are left out:
 * their answers depend on the attempt, which is what a resume changes.
 */
function writePayees(dir: string, name: string, count: number): Payees {
  const banks = ['SBIN0001234', 'HDFC0000123', 'ICIC0001234', 'UTIB0000456'];
  const lines: string[] = ['Payee Name,Account Number,IFSC,Amount'];
  let keys = 0;
  for (let i = 0; i < count; i += 1) {
    const ending = i % 50 === 7 ? '90' : i % 50 === 19 ? '91' : i % 97 === 5 ? '92' : String(11 + (i % 70)).padStart(2, '0');
    const account = `9${String(1_000_000 + i).padStart(9, '0')}${ending}`;
    lines.push(`Payee ${i},${account},${banks[i % banks.length]},${i}`);
    keys += 1;
    if (i % 40 === 39) lines.push(`Payee ${i} copy,${account},${banks[i % banks.length]!.toLowerCase()},${i}`);
    if (i % 60 === 59) lines.push(`Damaged ${i},1.23457E+11,${banks[0]},${i}`);
  }
  const file = path.join(dir, name);
  fs.writeFileSync(file, lines.join('\n') + '\n');
  return { file, rows: readCsv(file), keys };
}

function inFlightKeys(statePath: string): string[] {
  if (!fs.existsSync(statePath)) return [];
  const db = new Database(statePath, { readonly: true, fileMustExist: true });
  try {
    const tables = db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'run_payees'").get() as { n: number };
    if (tables.n === 0) return [];
    return (db.prepare("SELECT account || '|' || ifsc AS key FROM run_payees WHERE status = 'IN_FLIGHT'").all() as Array<{ key: string }>).map((r) => r.key);
  } finally {
    db.close();
  }
}

interface ChaosOutcome {
  kills: number;
  strandedKeys: Set<string>;
  finalCode: number | null;
  maxNewStrandedPerKill: number;
}

/**
 * Spawns the run again and again, SIGKILLing it at a random moment each time — at a random
 * number of calls, or a random delay after start (which lands in start-up, lock taking, resume
 * recovery, the run itself or the final rename) — until KILLS kills are done; then lets it finish.
 */
async function runWithKills(t: TestContext, sandbox: Sandbox, args: string[], dir: string, op: string, totalCalls: number, statePath: string): Promise<ChaosOutcome> {
  const random = createRandom(SEED * 7 + op.length);
  const strandedKeys = new Set<string>();
  let kills = 0;
  let maxNewStrandedPerKill = 0;
  let current: Spawned | undefined;
  t.after(() => {
    if (current && current.child.exitCode === null && current.child.signalCode === null) current.child.kill('SIGKILL');
  });
  for (let round = 0; round < KILLS + 20; round += 1) {
    const run = spawnCli([...args, '--resume'], { cwd: dir });
    current = run;
    let exited = false;
    void run.result.then(() => (exited = true));
    if (kills >= KILLS) {
      const last = await run.result;
      return { kills, strandedKeys, finalCode: last.code, maxNewStrandedPerKill };
    }
    const callsNow = () => sandbox.stats().requests[op] ?? 0;
    const start = callsNow();
    // Each kill may let the run make at most `step` more calls, drawn from the calls still to make
    // shared among the kills still to do. (A fixed share of the whole, and a wall-time kill with
    // no bound, let a fast machine finish the run before the last kills: 9 of 12 once in CI.)
    const remaining = Math.max(0, totalCalls - start);
    const step = 1 + Math.floor(random() * Math.max(2, (remaining / (KILLS - kills + 2)) * 1.5));
    if (kills % 4 === 3) {
      // A random moment in wall time, often before the first call, and no later than `step` calls.
      const until = Date.now() + 50 + Math.floor(random() * 1500);
      await waitFor(() => exited || Date.now() >= until || callsNow() >= start + step, 60_000, `a moment (seed ${SEED})`);
    } else {
      await waitFor(() => exited || callsNow() >= start + step, 60_000, `${step} more calls (seed ${SEED})`);
      // …and a random point inside the request cycle, not just at a request's arrival.
      await new Promise((r) => setTimeout(r, Math.floor(random() * 15)));
    }
    if (exited) {
      const r = await run.result;
      assert.ok(r.code === 0 || r.code === 3, `a run that was not killed ends normally (seed ${SEED}): ${r.code}\n${r.stderr}`);
      return { kills, strandedKeys, finalCode: r.code, maxNewStrandedPerKill };
    }
    run.child.kill('SIGKILL');
    const killed = await run.result;
    if (killed.signal !== 'SIGKILL') {
      // It finished just before the signal arrived.
      assert.ok(killed.code === 0 || killed.code === 3, `seed ${SEED}: ${killed.code}\n${killed.stderr}`);
      return { kills, strandedKeys, finalCode: killed.code, maxNewStrandedPerKill };
    }
    kills += 1;
    const stranded = inFlightKeys(statePath);
    const fresh = stranded.filter((k) => !strandedKeys.has(k));
    maxNewStrandedPerKill = Math.max(maxNewStrandedPerKill, fresh.length);
    for (const k of stranded) strandedKeys.add(k);
  }
  throw new Error(`seed ${SEED}: the run never finished`);
}

/** The statuses column of an output, with the input columns checked against the input. */
function checkRowsAndStatuses(outputFile: string, payees: Payees): string[] {
  const out = readCsv(outputFile);
  const [inputHeader, ...inputRows] = payees.rows;
  const header = out[0]!;
  assert.deepEqual(header.slice(0, inputHeader!.length), inputHeader, 'input header unchanged');
  assert.equal(out.length - 1, inputRows.length, 'every input row exactly once');
  const status = header.indexOf('verify_status');
  for (let i = 0; i < inputRows.length; i += 1) {
    assert.deepEqual(out[i + 1]!.slice(0, inputHeader!.length), inputRows[i], `row ${i + 1} in input order, unchanged (seed ${SEED})`);
  }
  return out.slice(1).map((r) => r[status]!);
}

async function referenceStatuses(t: TestContext, dir: string, payees: Payees, mode: 'pl' | 'pd'): Promise<string[]> {
  const clean = await startSandbox();
  t.after(() => clean.close());
  const r = await runCli(['bank', path.basename(payees.file), '-o', `ref-${mode}.csv`, '--state', `ref-${mode}.sqlite`, '--base-url', clean.url, '--mode', mode, '--concurrency', '8'], { cwd: dir });
  assert.equal(r.code, 3, `the reference run defers the …92 rows\n${r.stderr}`);
  return checkRowsAndStatuses(path.join(dir, `ref-${mode}.csv`), payees);
}

function leftovers(dir: string, keep: (name: string) => boolean): string[] {
  return fs.readdirSync(dir).filter((name) => !keep(name));
}

test(`penny-less: ${KILLS} SIGKILLs at random moments, resumed until done: the output of an uninterrupted run, no UNCONFIRMED`, { timeout: 240_000 }, async (t) => {
  const dir = tempDir(t, 'vas-chaos-pl-');
  const payees = writePayees(dir, 'payees.csv', 2000);
  const expected = await referenceStatuses(t, dir, payees, 'pl');
  const sandbox = await startSandbox({ latencyMs: [1, 8] });
  t.after(() => sandbox.close());
  const statePath = path.join(dir, 'chaos.sqlite');
  const args = ['bank', 'payees.csv', '-o', 'out.csv', '--state', 'chaos.sqlite', '--base-url', sandbox.url, '--mode', 'pl', '--concurrency', '8'];
  const outcome = await runWithKills(t, sandbox, args, dir, 'account-verification-pl', payees.keys, statePath);
  assert.ok(outcome.kills >= 10, `killed ${outcome.kills} times (seed ${SEED})`);
  assert.equal(outcome.finalCode, 3, 'done: only the deferred rows are not final');
  const statuses = checkRowsAndStatuses(path.join(dir, 'out.csv'), payees);
  assert.deepEqual(statuses, expected, `statuses equal those of the uninterrupted run (seed ${SEED})`);
  assert.ok(!statuses.includes('UNCONFIRMED'));
  assert.deepEqual(leftovers(dir, (n) => /^(payees|out|ref-pl)\.csv$|\.sqlite(-wal|-shm)?$/.test(n)), [], 'no temporary output left behind by the killed runs');
});

test(`penny-drop, --concurrency 1: ${KILLS} SIGKILLs, resumed until done: clean statuses but for at most one UNCONFIRMED per kill; never two deposits`, { timeout: 300_000 }, async (t) => {
  const dir = tempDir(t, 'vas-chaos-pd-');
  const payees = writePayees(dir, 'payees.csv', 2000);
  const expected = await referenceStatuses(t, dir, payees, 'pd');
  const sandbox = await startSandbox({ latencyMs: [1, 8] });
  t.after(() => sandbox.close());
  const statePath = path.join(dir, 'chaos.sqlite');
  const args = ['bank', 'payees.csv', '-o', 'out.csv', '--state', 'chaos.sqlite', '--base-url', sandbox.url, '--mode', 'pd', '--concurrency', '1'];
  const outcome = await runWithKills(t, sandbox, args, dir, 'account-verification-pd', payees.keys, statePath);
  assert.ok(outcome.kills >= 10, `killed ${outcome.kills} times (seed ${SEED})`);
  assert.equal(outcome.finalCode, 3);
  assert.ok(outcome.maxNewStrandedPerKill <= 1, `a kill strands at most the one call in flight: ${outcome.maxNewStrandedPerKill} (seed ${SEED})`);

  const statuses = checkRowsAndStatuses(path.join(dir, 'out.csv'), payees);
  const out = readCsvObjects(path.join(dir, 'out.csv'));
  const unconfirmed = new Set<string>();
  for (let i = 0; i < statuses.length; i += 1) {
    if (statuses[i] === 'UNCONFIRMED') {
      // Any row whose request was under way can be stranded: VERIFIED or NOT_VERIFIED, but also a
      // daily-limit (DEFERRED) or API-INVALID answer that was lost with the process.
      // It must have been IN_FLIGHT at a kill: checked below.
      unconfirmed.add(out[i]!['Account Number']!);
    } else {
      assert.equal(statuses[i], expected[i], `row ${i + 1} as in the uninterrupted run (seed ${SEED})`);
    }
  }
  assert.ok(unconfirmed.size <= outcome.kills, `${unconfirmed.size} UNCONFIRMED accounts for ${outcome.kills} kills (seed ${SEED})`);
  const strandedAccounts = new Set([...outcome.strandedKeys].map((k) => k.split('|')[0]!));
  for (const account of unconfirmed) assert.ok(strandedAccounts.has(account), `${account} was IN_FLIGHT at a kill (seed ${SEED})`);

  const deposits = sandbox.stats().deposits;
  for (const [account, n] of Object.entries(deposits)) assert.equal(n, 1, `one deposit at most for ${account} (seed ${SEED})`);
  for (let i = 0; i < statuses.length; i += 1) {
    const account = out[i]!['Account Number']!;
    if (statuses[i] === 'VERIFIED' || statuses[i] === 'NOT_VERIFIED') assert.equal(deposits[account], 1, `answered penny-drop ${account} deposited once`);
    if (statuses[i] === 'INVALID' || statuses[i] === 'DEFERRED') assert.equal(deposits[account], undefined, `no deposit for ${account} (${statuses[i]})`);
  }
  assert.deepEqual(leftovers(dir, (n) => /^(payees|out|ref-pd)\.csv$|\.sqlite(-wal|-shm)?$/.test(n)), [], 'no temporary output left behind by the killed runs');
  assert.equal(fs.statSync(path.join(dir, 'out.csv')).mode & 0o777, 0o600);
});
