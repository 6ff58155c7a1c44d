/**
 * A damaged state (#26: "4 of 12 damaged files gave exit 0"): copies of real state files — one
 * from a finished penny-drop run (all in the main file), one from a run killed with SIGKILL
 * mid-way (its last writes in the -wal) — damaged in fourteen ways. Each is given to the real CLI
 * with --resume: none may exit 0, or call the API; each is refused with exit 2 in one line that
 * names the state file and says what to do, and the damaged files are left exactly as they were.
 * The undamaged copies resume normally (the control).
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { startSandbox, type Sandbox } from '../src/sandbox/index.js';
import { runCli, spawnCli, sum, tempDir, waitFor } from './helpers/cli.js';

const PAYEES = 1200;

function writePayees(dir: string): void {
  const lines = ['Payee Name,Account Number,IFSC'];
  for (let i = 0; i < PAYEES; i += 1) lines.push(`Payee ${i},7${String(3_000_000 + i).padStart(9, '0')}${String(11 + (i % 60))},SBIN0001234`);
  fs.writeFileSync(path.join(dir, 'p.csv'), `${lines.join('\n')}\n`);
}

const sha = (file: string) => (fs.existsSync(file) ? createHash('sha256').update(fs.readFileSync(file)).digest('hex') : 'absent');
const SIDECARS = ['', '-wal', '-shm'];

/** The state's three files as they are: what a damaged state must still be after the CLI saw it. */
function fingerprint(state: string): string[] {
  return SIDECARS.map((s) => sha(state + s));
}

function copyState(from: string, to: string): void {
  for (const s of SIDECARS) if (fs.existsSync(from + s)) fs.copyFileSync(from + s, to + s);
}

/** Deterministic "random" bytes: the same damage on every run. */
function noise(length: number, seed: number): Buffer {
  const out = Buffer.alloc(length);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < length; i += 1) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x & 0xff;
  }
  return out;
}

function patch(file: string, offset: number, bytes: Buffer): void {
  const fd = fs.openSync(file, 'r+');
  try {
    fs.writeSync(fd, bytes, 0, bytes.length, offset);
  } finally {
    fs.closeSync(fd);
  }
}

function flip(file: string, offsets: readonly number[]): void {
  const data = fs.readFileSync(file);
  for (const at of offsets) data[at] = data[at]! ^ 0xff;
  fs.writeFileSync(file, data);
}

const pageSizeOf = (file: string) => {
  const size = fs.readFileSync(file).readUInt16BE(16);
  return size === 1 ? 65536 : size;
};

interface Damage {
  name: string;
  /** Which state it damages: the finished run's or the killed run's. */
  from: 'finished' | 'killed';
  apply(state: string): void;
}

/** The ways a state file is found damaged: a crash, a bad disk, a careless copy or clean-up. */
const DAMAGES: Damage[] = [
  { name: 'main file truncated to half', from: 'finished', apply: (s) => fs.truncateSync(s, Math.floor(fs.statSync(s).size / 2 / 4096) * 4096) },
  { name: 'main file truncated to its first page', from: 'finished', apply: (s) => fs.truncateSync(s, pageSizeOf(s)) },
  { name: 'page 1 zeroed (header and schema)', from: 'finished', apply: (s) => patch(s, 0, Buffer.alloc(pageSizeOf(s))) },
  { name: 'a middle page zeroed', from: 'finished', apply: (s) => patch(s, Math.floor(fs.statSync(s).size / pageSizeOf(s) / 2) * pageSizeOf(s), Buffer.alloc(pageSizeOf(s))) },
  { name: 'the last page zeroed', from: 'finished', apply: (s) => patch(s, fs.statSync(s).size - pageSizeOf(s), Buffer.alloc(pageSizeOf(s))) },
  { name: 'header bytes flipped (page count, schema cookie, free list)', from: 'finished', apply: (s) => flip(s, [28, 29, 30, 31, 32, 33, 36, 37, 40, 41]) },
  { name: 'the schema page\'s b-tree header flipped', from: 'finished', apply: (s) => flip(s, [100, 103, 104, 105, 106]) },
  {
    name: 'b-tree page headers flipped on every tenth page',
    from: 'finished',
    apply: (s) => {
      const page = pageSizeOf(s);
      const pages = fs.statSync(s).size / page;
      const offsets: number[] = [];
      for (let p = 2; p < pages; p += 10) offsets.push((p - 1) * page, (p - 1) * page + 3, (p - 1) * page + 4);
      flip(s, offsets);
    },
  },
  { name: 'the middle half overwritten with noise', from: 'finished', apply: (s) => patch(s, Math.floor(fs.statSync(s).size / 4), noise(Math.floor(fs.statSync(s).size / 2), 7)) },
  { name: 'the -wal deleted (its -shm left)', from: 'killed', apply: (s) => fs.rmSync(`${s}-wal`) },
  { name: 'the -wal\'s header overwritten with noise', from: 'killed', apply: (s) => patch(`${s}-wal`, 0, noise(32, 11)) },
  { name: 'the -wal\'s frames overwritten with noise past its first', from: 'killed', apply: (s) => patch(`${s}-wal`, 32 + 24 + pageSizeOf(s), noise(Math.min(256 * 1024, fs.statSync(`${s}-wal`).size - 32 - 24 - pageSizeOf(s)), 13)) },
  { name: 'a -wal frame in the middle zeroed', from: 'killed', apply: (s) => { const frame = 24 + pageSizeOf(s); patch(`${s}-wal`, 32 + Math.floor((fs.statSync(`${s}-wal`).size - 32) / frame / 2) * frame, Buffer.alloc(frame)); } },
  { name: 'the main file truncated to nothing (its -wal kept)', from: 'killed', apply: (s) => fs.truncateSync(s, 0) },
];

interface Corpus {
  dir: string;
  sandbox: Sandbox;
  finished: string;
  killed: string;
}

/** The two real states: a finished penny-drop run, and one killed with SIGKILL mid-way. */
async function makeCorpus(t: TestContext): Promise<Corpus> {
  const dir = tempDir(t, 'vas-damage-');
  writePayees(dir);
  const sandbox = await startSandbox({ latencyMs: [2, 6] });
  t.after(() => sandbox.close());
  const done = await runCli(['bank', 'p.csv', '-o', 'finished.csv', '--state', 'finished.sqlite', '--base-url', sandbox.url, '--mode', 'pd', '--concurrency', '8'], { cwd: dir });
  assert.equal(done.code, 0, done.stderr);
  const run = spawnCli(['bank', 'p.csv', '-o', 'killed.csv', '--state', 'killed.sqlite', '--base-url', sandbox.url, '--mode', 'pd', '--concurrency', '4'], { cwd: dir });
  t.after(() => run.child.kill('SIGKILL'));
  const before = sum(sandbox.stats().deposits);
  await waitFor(() => sum(sandbox.stats().deposits) - before >= 150, 60_000, 'the second run to deposit 150 rupees');
  run.child.kill('SIGKILL');
  await run.result;
  assert.ok(fs.statSync(path.join(dir, 'killed.sqlite-wal')).size > 64 * 1024, 'the killed run left its last writes in the -wal');
  return { dir, sandbox, finished: path.join(dir, 'finished.sqlite'), killed: path.join(dir, 'killed.sqlite') };
}

test('fourteen damaged copies of real state files: none exits 0 or calls the API; each is refused (exit 2) naming the file and what to do, and left as it was; the undamaged states resume', { timeout: 600_000 }, async (t) => {
  const corpus = await makeCorpus(t);
  const { dir, sandbox } = corpus;
  const requests = () => sum(sandbox.stats().requests);
  const results: string[] = [];
  const failures: string[] = [];
  for (const [i, damage] of DAMAGES.entries()) {
    const state = path.join(dir, `damaged-${i}.sqlite`);
    copyState(damage.from === 'finished' ? corpus.finished : corpus.killed, state);
    damage.apply(state);
    const before = fingerprint(state);
    const calls = requests();
    const r = await runCli(['bank', 'p.csv', '-o', `out-${i}.csv`, '--state', path.basename(state), '--base-url', sandbox.url, '--mode', 'pd', '--resume'], { cwd: dir });
    results.push(`${damage.name}: exit ${r.code}, ${requests() - calls} calls: ${r.stderr.trim().split('\n').at(-1)}`);
    const problems = [
      r.code !== 2 && `exit ${r.code}`,
      r.stderr.trim().split('\n').length !== 1 && 'more than one line',
      !r.stderr.includes(`damaged-${i}.sqlite`) && 'does not name the file',
      !/(damaged|not an SQLite database).*restore it .*from a backup/.test(r.stderr) && 'does not say what to do',
      /\n\s+at |this is a bug|free (the|some) space/i.test(r.stderr) && 'a stack or a wrong cause',
      requests() !== calls && 'called the API',
      JSON.stringify(fingerprint(state)) !== JSON.stringify(before) && 'changed the files',
    ].filter(Boolean);
    if (problems.length > 0) failures.push(`${damage.name}: ${problems.join(', ')}`);
  }
  t.diagnostic(results.join('\n'));
  assert.deepEqual(failures, [], results.join('\n'));

  // The control: the undamaged states resume (the finished one re-emitted, the killed one completed).
  const finished = await runCli(['bank', 'p.csv', '-o', 'again.csv', '--state', 'finished.sqlite', '--base-url', sandbox.url, '--mode', 'pd', '--resume'], { cwd: dir });
  assert.equal(finished.code, 0, finished.stderr);
  const killed = await runCli(['bank', 'p.csv', '-o', 'killed.csv', '--state', 'killed.sqlite', '--base-url', sandbox.url, '--mode', 'pd', '--resume'], { cwd: dir });
  assert.ok(killed.code === 0 || killed.code === 3, killed.stderr);
  // Two runs of one file on two states: each account deposited at most once per state.
  for (const [account, n] of Object.entries(sandbox.stats().deposits)) assert.ok(n <= 2, `${account}: ${n} deposits`);
});

test('a state another process holds locked: the run says so ("holds it locked"), never "free the space"; no call is made, and it resumes once the lock is gone', { timeout: 120_000 }, async (t) => {
  const dir = tempDir(t, 'vas-locked-');
  writePayees(dir);
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const args = ['bank', 'p.csv', '-o', 'out.csv', '--state', 's.sqlite', '--base-url', sandbox.url, '--mode', 'pd', '--resume', '--max-calls', '10'];
  const first = await runCli(args, { cwd: dir });
  assert.equal(first.code, 3, first.stderr);
  const { default: Database } = await import('better-sqlite3');
  const holder = new Database(path.join(dir, 's.sqlite'));
  t.after(() => holder.close());
  // Another program (a backup tool, an sqlite3 shell) in the middle of a write transaction.
  holder.prepare('BEGIN IMMEDIATE').run();
  const calls = sum(sandbox.stats().requests);
  const locked = await runCli(args, { cwd: dir });
  assert.equal(locked.code, 1, locked.stderr);
  assert.match(locked.stderr, /s\.sqlite .*another process holds it locked: database is locked.*Wait for that process to finish/);
  assert.doesNotMatch(locked.stderr, /free (the|some) space|damaged|\n\s+at /i);
  assert.equal(sum(sandbox.stats().requests), calls, 'no call while the state is locked');
  holder.prepare('ROLLBACK').run();
  const resumed = await runCli(args, { cwd: dir });
  assert.equal(resumed.code, 3, resumed.stderr);
});
