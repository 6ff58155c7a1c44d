/**
 * Disks and files that fight back: unwritable output paths (as root, where permission bits do
 * not help), damaged state files, a disk that fills up mid-run. Each ends in a clear error, no
 * stack trace, no partial output, and a state that a later --resume continues from.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { startSandbox } from '../src/sandbox/index.js';
import { readCsvObjects, runCli, spawnCli, sum, tempDir, waitFor, type CliResult } from './helpers/cli.js';

function writePayees(dir: string, name: string, count: number): string {
  const lines = ['Payee Name,Account Number,IFSC'];
  for (let i = 0; i < count; i += 1) lines.push(`Payee ${i},7${String(3_000_000 + i).padStart(9, '0')}${String(11 + (i % 60))},SBIN0001234`);
  fs.writeFileSync(path.join(dir, name), lines.join('\n') + '\n');
  return name;
}

function assertClean(r: CliResult, what: string): void {
  assert.doesNotMatch(r.stderr, /\n\s+at |this is a bug/, `${what}: no stack trace\n${r.stderr}`);
}

const sha = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

/**
 * A temp directory whose clean-ups run last-in first-out, so a tmpfs mounted inside it is
 * unmounted before the directory is removed.
 */
function scratchDir(t: TestContext, prefix: string): { dir: string; cleanups: Array<() => void> } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const cleanups: Array<() => void> = [() => fs.rmSync(dir, { recursive: true, force: true })];
  t.after(() => {
    for (const cleanup of cleanups.reverse()) cleanup();
  });
  return { dir, cleanups };
}

/** Mounts a tmpfs at `dir` (root only); a reason when this machine does not allow it. */
function mountTmpfs(scratch: { cleanups: Array<() => void> }, dir: string, options: string): string | undefined {
  fs.mkdirSync(dir, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (error) {
    return `cannot mount a tmpfs here (${(error as Error).message.split('\n')[0]}): needs root with CAP_SYS_ADMIN`;
  }
  scratch.cleanups.push(() => execFileSync('umount', [dir], { stdio: 'pipe' }));
  return undefined;
}

test('unwritable output and summary paths are refused before any call (exit 2), even as root', { timeout: 120_000 }, async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const scratch = scratchDir(t, 'vas-disk-out-');
  const { dir } = scratch;
  writePayees(dir, 'p.csv', 5);
  fs.writeFileSync(path.join(dir, 'plain-file'), 'x');
  const base = ['--base-url', sandbox.url];
  const cases: Array<[string[], RegExp]> = [
    [['-o', 'plain-file/out.csv'], /output directory .*plain-file is not a directory/],
    // Root passes every permission check on /proc, but nothing can be created there.
    [['-o', '/proc/out.csv'], /output directory \/proc is not writable \(E[A-Z]+\): choose another -o path/],
    [['-o', 'out.csv', '--summary', 'missing/run.json'], /output directory .*missing does not exist: create it or choose another --summary path/],
    [['-o', 'out.csv', '--summary', '/proc/run.json'], /output directory \/proc is not writable .*--summary/],
  ];
  const cannotMount = mountTmpfs(scratch, path.join(dir, 'ro'), 'ro,size=64k');
  if (!cannotMount) cases.push([['-o', 'ro/out.csv'], /output directory .*ro is not writable \(EROFS\)/]);
  else t.diagnostic(`read-only mount case skipped: ${cannotMount}`);
  for (const [args, pattern] of cases) {
    const r = await runCli(['bank', 'p.csv', ...args, ...base, '--state', 'out-cases.sqlite'], { cwd: dir });
    assert.equal(r.code, 2, `${args.join(' ')}\n${r.stderr}`);
    assert.match(r.stderr, pattern);
    assertClean(r, args.join(' '));
  }
  assert.equal(sum(sandbox.stats().requests), 0, 'no call was made');
  assert.ok(!fs.existsSync(path.join(dir, 'out.csv')), 'nothing was written');
  assert.deepEqual(fs.readdirSync(dir).filter((f) => f.endsWith('.probe') || f.endsWith('.tmp')), [], 'no probe left behind');
});

test('a damaged, foreign or misplaced state file is refused with a clear error (exit 2), untouched, before any call', { timeout: 120_000 }, async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t, 'vas-disk-state-');
  writePayees(dir, 'p.csv', 300);
  const ok = await runCli(['bank', 'p.csv', '-o', 'good.csv', '--state', 'good.sqlite', '--base-url', sandbox.url], { cwd: dir });
  assert.equal(ok.code, 0, ok.stderr);
  const good = fs.readFileSync(path.join(dir, 'good.sqlite'));
  assert.ok(good.length > 64 * 1024, 'a state file with some pages to damage');
  fs.writeFileSync(path.join(dir, 'truncated.sqlite'), good.subarray(0, 40_000));
  const scrambled = Buffer.from(good);
  for (let i = 8192; i < scrambled.length; i += 1) scrambled[i] = (i * 31 + 7) & 0xff;
  fs.writeFileSync(path.join(dir, 'scrambled.sqlite'), scrambled);
  fs.writeFileSync(path.join(dir, 'random.sqlite'), Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 131 + 17) & 0xff)));
  fs.writeFileSync(path.join(dir, 'text.sqlite'), 'account,ifsc\n1,2\n');
  fs.mkdirSync(path.join(dir, 'dir.sqlite'));
  fs.copyFileSync(path.join(dir, 'good.sqlite'), path.join(dir, 'newer.sqlite'));
  const newer = new Database(path.join(dir, 'newer.sqlite'));
  newer.pragma(`user_version = ${(newer.pragma('user_version', { simple: true }) as number) + 1}`);
  newer.close();
  sandbox.reset();

  const cases: Array<[string, RegExp]> = [
    ['truncated.sqlite', /state file truncated\.sqlite is damaged \(database disk image is malformed\): restore it \(with its -wal, if any\) from a backup, or start a new state with --state NEW\.sqlite/],
    ['scrambled.sqlite', /state file scrambled\.sqlite is damaged/],
    ['random.sqlite', /random\.sqlite is not a vas-verify state file \(not an SQLite database\)/],
    ['text.sqlite', /text\.sqlite is not a vas-verify state file/],
    ['dir.sqlite', /cannot create state file dir\.sqlite/],
    ['missing/state.sqlite', /cannot create state file missing\/state\.sqlite: its directory does not exist/],
    ['newer.sqlite', /written by a newer vas-verify \(schema \d+, this tool knows \d+\): upgrade vas-verify/],
  ];
  for (const [state, pattern] of cases) {
    const file = path.join(dir, state);
    const before = fs.existsSync(file) && fs.statSync(file).isFile() ? sha(file) : undefined;
    const r = await runCli(['bank', 'p.csv', '-o', 'out.csv', '--state', state, '--base-url', sandbox.url, '--resume'], { cwd: dir });
    assert.equal(r.code, 2, `${state}\n${r.stderr}`);
    assert.match(r.stderr, pattern, state);
    assert.equal(r.stderr.trim().split('\n').length, 1, `${state}: one line`);
    assertClean(r, state);
    if (before) assert.equal(sha(file), before, `${state} was not modified`);
  }
  assert.equal(sum(sandbox.stats().requests), 0, 'no call was made');
  assert.ok(!fs.existsSync(path.join(dir, 'out.csv')));
});

test('an intact state that cannot be written (a read-only folder, a read-only file) is exit 2 naming the permission, never "damaged" nor "start a new state"', { timeout: 120_000 }, async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t, 'vas-disk-perm-');
  writePayees(dir, 'p.csv', 20);
  fs.mkdirSync(path.join(dir, 'st'));
  const first = await runCli(['bank', 'p.csv', '-o', 'out.csv', '--state', 'st/s.sqlite', '--base-url', sandbox.url], { cwd: dir });
  assert.equal(first.code, 0, first.stderr);
  const calls = sum(sandbox.stats().requests);
  // Root writes whatever the permissions say: the runs below drop that power (setpriv, util-linux).
  const asUser = process.getuid?.() === 0 ? ['setpriv', '--bounding-set', '-dac_override,-dac_read_search', '--inh-caps', '-dac_override,-dac_read_search', '--'] : [];
  const before = sha(path.join(dir, 'st', 's.sqlite'));
  fs.chmodSync(path.join(dir, 'st'), 0o555);
  const folder = await runCli(['bank', 'p.csv', '-o', 'out2.csv', '--state', 'st/s.sqlite', '--base-url', sandbox.url, '--resume'], { cwd: dir, wrapper: asUser });
  fs.chmodSync(path.join(dir, 'st'), 0o755);
  assert.equal(folder.code, 2, folder.stderr);
  assert.match(folder.stderr, /^error: state file st\/s\.sqlite is not usable: it cannot be written: .*; give this user write access to it and to its folder \(SQLite keeps its -wal and -shm files beside it\)$/m);
  fs.chmodSync(path.join(dir, 'st', 's.sqlite'), 0o400);
  const file = await runCli(['bank', 'p.csv', '-o', 'out2.csv', '--state', 'st/s.sqlite', '--base-url', sandbox.url, '--resume'], { cwd: dir, wrapper: asUser });
  assert.equal(file.code, 2, file.stderr);
  assert.match(file.stderr, /^error: state file st\/s\.sqlite cannot be opened for writing \(permission denied\): a run records every answer in it; give this user write access to it and its folder$/m);
  for (const r of [folder, file]) {
    assert.doesNotMatch(r.stderr, /damaged|NEW\.sqlite/);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assertClean(r, 'unwritable state');
  }
  assert.equal(sum(sandbox.stats().requests), calls, 'no call was made');
  assert.equal(sha(path.join(dir, 'st', 's.sqlite')), before, 'the state is as it was');
});

test('the state file\'s disk fills up mid-run (penny-drop): exit 1 with one clear line; after space is freed --resume completes, never two deposits', { timeout: 180_000 }, async (t) => {
  const scratch = scratchDir(t, 'vas-disk-full-state-');
  const { dir } = scratch;
  const small = path.join(dir, 'small');
  // Small enough to fill within a few dozen rows (the WAL grows with every commit).
  const cannotMount = mountTmpfs(scratch, small, 'size=1m,mode=0700');
  if (cannotMount) {
    t.skip(cannotMount);
    return;
  }
  writePayees(dir, 'p.csv', 1500);
  const sandbox = await startSandbox({ latencyMs: [1, 4] });
  t.after(() => sandbox.close());
  const args = ['bank', 'p.csv', '-o', 'out.csv', '--state', 'small/s.sqlite', '--base-url', sandbox.url, '--mode', 'pd', '--concurrency', '4'];
  const full = await runCli(args, { cwd: dir });
  assert.equal(full.code, 1, full.stderr);
  assert.match(full.stderr, /error: the state file small\/s\.sqlite failed \(its disk is full\); the run stopped, rows checkpointed before this are kept\. Free some space, then resume with: vas-verify bank p\.csv -o out\.csv --mode pd --resume --state small\/s\.sqlite/);
  assertClean(full, 'disk full');
  assert.ok(!fs.existsSync(path.join(dir, 'out.csv')), 'no partial output presented as complete');
  const paidBefore = sum(sandbox.stats().deposits);
  assert.ok(paidBefore > 0 && paidBefore < 1500, `it stopped part-way (${paidBefore} deposits)`);

  // Room for the write-ahead log, which may grow to 16 MB before it is checkpointed
  // (WAL_CHECKPOINT_PAGES) and is cut back to 64 MB at most; a penny-drop also writes its deposit's row and index.
  execFileSync('mount', ['-o', 'remount,size=128m', small]);
  const resumed = await runCli([...args, '--resume'], { cwd: dir });
  assert.ok(resumed.code === 0 || resumed.code === 3, resumed.stderr);
  const rows = readCsvObjects(path.join(dir, 'out.csv'));
  assert.equal(rows.length, 1500, 'every row once');
  const deposits = sandbox.stats().deposits;
  for (const [account, n] of Object.entries(deposits)) assert.equal(n, 1, `one deposit at most for ${account}`);
  const unconfirmed = rows.filter((r) => r.verify_status === 'UNCONFIRMED');
  // Answers that arrived after the failed commit could not be recorded: those rows were
  // IN_FLIGHT and are honestly UNCONFIRMED — at most the calls in flight, never re-sent.
  assert.ok(unconfirmed.length <= 4, `${unconfirmed.length} UNCONFIRMED`);
  assert.ok(rows.every((r) => r.verify_status === 'VERIFIED' || r.verify_status === 'UNCONFIRMED'));
  assert.equal(resumed.code, unconfirmed.length > 0 ? 3 : 0);
});

test('the output\'s disk fills up mid-run: exit 1 with the resume command, no partial output; --resume completes with no account called twice', { timeout: 180_000 }, async (t) => {
  const scratch = scratchDir(t, 'vas-disk-full-out-');
  const { dir } = scratch;
  const small = path.join(dir, 'small');
  const cannotMount = mountTmpfs(scratch, small, 'size=160k,mode=0700');
  if (cannotMount) {
    t.skip(cannotMount);
    return;
  }
  writePayees(dir, 'p.csv', 1500);
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const args = ['bank', 'p.csv', '-o', 'small/out.csv', '--state', 's.sqlite', '--base-url', sandbox.url];
  const full = await runCli(args, { cwd: dir });
  assert.equal(full.code, 1, full.stderr);
  assert.match(full.stderr, /error: cannot write the output small\/out\.csv: its disk is full; free some space \(ENOSPC, write\); every answered row is checkpointed in s\.sqlite\. Resume with: vas-verify bank p\.csv -o small\/out\.csv --mode pl --resume --state s\.sqlite/);
  assertClean(full, 'output disk full');
  assert.deepEqual(fs.readdirSync(small), [], 'the temporary output is removed, nothing is presented');

  execFileSync('mount', ['-o', 'remount,size=32m', small]);
  const resumed = await runCli([...args, '--resume'], { cwd: dir });
  assert.equal(resumed.code, 0, resumed.stderr);
  const rows = readCsvObjects(path.join(small, 'out.csv'));
  assert.equal(rows.length, 1500);
  assert.ok(rows.every((r) => r.verify_status === 'VERIFIED'));
  assert.equal(sandbox.stats().requests['account-verification-pl'], 1500, 'every account called exactly once over both runs');
});

test('the output\'s folder removed or made read-only mid-run (CSV, .xlsx): exit 1, one line naming the output and the resume command; --resume writes it with no call repeated', { timeout: 180_000 }, async (t) => {
  const sandbox = await startSandbox({ latencyMs: [20, 80] });
  t.after(() => sandbox.close());
  const dir = tempDir(t, 'vas-disk-gone-');
  writePayees(dir, 'p.csv', 600);
  // Root writes whatever the permissions say: the read-only case drops that power (setpriv, util-linux).
  const asUser = process.getuid?.() === 0 ? ['setpriv', '--bounding-set', '-dac_override,-dac_read_search', '--inh-caps', '-dac_override,-dac_read_search', '--'] : [];
  const cases = [
    { output: 'od/out.csv', spoil: (folder: string) => fs.rmSync(folder, { recursive: true }), repair: (folder: string) => fs.mkdirSync(folder), wrapper: [] as string[], what: /its folder .*od was removed during the run; create it again \(ENOENT, rename\)/ },
    { output: 'ox/out.xlsx', spoil: (folder: string) => fs.rmSync(folder, { recursive: true }), repair: (folder: string) => fs.mkdirSync(folder), wrapper: [] as string[], what: /its folder .*ox was removed during the run; create it again \(ENOENT, rename\)/ },
    { output: 'ro/out.csv', spoil: (folder: string) => fs.chmodSync(folder, 0o555), repair: (folder: string) => fs.chmodSync(folder, 0o755), wrapper: asUser, what: /permission denied; give this user write access to it and its folder \(EACCES, rename\)/ },
  ];
  for (const { output, spoil, repair, wrapper, what } of cases) {
    const folder = path.join(dir, path.dirname(output));
    fs.mkdirSync(folder);
    const state = `${path.dirname(output)}.sqlite`;
    const args = ['bank', 'p.csv', '-o', output, '--state', state, '--base-url', sandbox.url, '--concurrency', '8'];
    sandbox.reset();
    const run = spawnCli(args, { cwd: dir, wrapper });
    t.after(() => run.child.kill('SIGKILL'));
    await waitFor(() => fs.readdirSync(folder).some((f) => f.endsWith('.tmp')), 30_000, `${output}: its temporary file`);
    spoil(folder);
    const r = await run.result;
    assert.equal(r.code, 1, `${output}\n${r.stderr}`);
    const errors = r.stderr.split('\n').filter((l) => l.startsWith('error:'));
    assert.equal(errors.length, 1, r.stderr);
    assert.match(errors[0]!, new RegExp(`^error: cannot write the output ${output.replace('.', '\\.')}: ${what.source}; every answered row is checkpointed in ${state.replace('.', '\\.')}\\. Resume with: vas-verify bank p\\.csv -o ${output.replace('.', '\\.')} --mode pl --resume --state ${state.replace('.', '\\.')}`));
    assertClean(r, output);
    const calls = sum(sandbox.stats().requests);
    assert.equal(calls, 600, `${output}: every payee answered once`);

    repair(folder);
    const resumed = await runCli([...args, '--resume'], { cwd: dir });
    assert.equal(resumed.code, 0, `${output}\n${resumed.stderr}`);
    assert.equal(sum(sandbox.stats().requests), calls, `${output}: the answers kept in the state, no call repeated`);
    assert.ok(fs.existsSync(path.join(dir, output)), `${output} written`);
    assert.deepEqual(fs.readdirSync(folder).filter((f) => f.endsWith('.tmp')), [], `${output}: no temporary file left`);
  }
});
