/**
 * Findings of a black-box review, through the real CLI:
 * - a reader that closes the pipe early (`| head -1`, `| true`) is normal shell use: the command
 *   drops the rest of its output and ends with its own exit code, with no `write EPIPE` stack —
 *   on stdout and on stderr;
 * - a --state that is not a state (a CSV, an empty file, another program's database) is refused
 *   by release, review and audit with exit 2 and one line, and left exactly as it was: same mode
 *   (never chmod'ed to 0600), same bytes, no -wal or -shm made beside it;
 * - release's -o and --exceptions may not name the state's -wal, -shm or -journal (SQLite deletes
 *   or rewrites them when it closes the state: the payout would vanish).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import Database from 'better-sqlite3';
import { cliOnPath, runCli, tempDir, type CliResult } from './helpers/cli.js';

const STACK = /\n\s+at /;


/** Runs `line` in bash; the line prints the CLI's exit status (PIPESTATUS) as `exit=N` on fd 3, captured here. */
function bash(line: string, cwd: string, bin: string): Promise<{ exit: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', line], { cwd, env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, VAS_TOKEN: 'sandbox-token' }, stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let status = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    (child.stdio[3] as NodeJS.ReadableStream).on('data', (d: Buffer) => (status += d.toString()));
    child.on('error', reject);
    child.on('close', () => {
      const exit = /exit=(\d+)/.exec(status)?.[1];
      if (exit === undefined) reject(new Error(`no exit status from: ${line}\n${stderr}`));
      else resolve({ exit: Number(exit), stdout, stderr });
    });
  });
}

/** A finished bank run against the sandbox: s.sqlite, its input p.csv and its output out.csv. */
async function bankRun(t: TestContext): Promise<string> {
  const dir = tempDir(t);
  const rows = Array.from({ length: 12 }, (_, i) => `Payee ${String.fromCharCode(65 + i)},86000000${String(i + 10).padStart(4, '0')},SBIN0001234`);
  fs.writeFileSync(path.join(dir, 'p.csv'), `Name,Account Number,IFSC\n${rows.join('\n')}\n`);
  const run = await runCli(['bank', 'p.csv', '-o', 'out.csv', '--state', 's.sqlite', '--sandbox'], { cwd: dir });
  assert.ok(run.code === 0 || run.code === 4, run.stderr);
  return dir;
}

/** One line on stderr, exit 2, no stack. */
function refused(result: CliResult, pattern: RegExp): void {
  assert.equal(result.code, 2, result.stderr);
  assert.doesNotMatch(result.stderr, STACK);
  assert.doesNotMatch(result.stderr, /internal error/);
  assert.equal(result.stderr.trimEnd().split('\n').length, 1, result.stderr);
  assert.match(result.stderr, pattern);
  assert.equal(result.stdout, '');
}

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

test('a reader that closes the pipe early: no EPIPE stack, the command ends with its own exit code (stdout and stderr)', async (t) => {
  const dir = await bankRun(t);
  const bin = cliOnPath(t);
  // More than a pipe's buffer (64 KiB) of output, so `head -1` closes the pipe while filter still writes.
  const many = Array.from({ length: 6000 }, (_, i) => `Payee ${i},${String(i).padStart(12, '0')},SBIN0001234,VERIFIED,HOLD,NAME_MISMATCH`);
  fs.writeFileSync(path.join(dir, 'big.csv'), `Name,Account Number,IFSC,verify_status,decision,decision_reason\n${many.join('\n')}\n`);

  const filtered = await bash('vas-verify filter big.csv --where decision=HOLD | head -1; echo "exit=${PIPESTATUS[0]}" >&3', dir, bin);
  assert.equal(filtered.stdout, 'Name,Account Number,IFSC,verify_status,decision,decision_reason\n');
  assert.doesNotMatch(filtered.stderr, /EPIPE/);
  assert.doesNotMatch(filtered.stderr, STACK);
  assert.equal(filtered.exit, 0, filtered.stderr);

  // `true` exits before node has loaded: the very first write meets a closed pipe.
  const audit = await bash('vas-verify audit --state s.sqlite | true; echo "exit=${PIPESTATUS[0]}" >&3', dir, bin);
  assert.doesNotMatch(audit.stderr, /EPIPE/);
  assert.doesNotMatch(audit.stderr, STACK);
  assert.match(audit.stderr, /hash chain verified/);
  assert.equal(audit.exit, 0, audit.stderr);

  // The same on stderr (the log): it cannot crash the command either.
  const quiet = await bash('vas-verify audit --state s.sqlite 2>&1 >/dev/null | true; echo "exit=${PIPESTATUS[0]}" >&3', dir, bin);
  assert.equal(quiet.exit, 0, quiet.stderr);
  const stderrClosed = await bash('{ vas-verify filter big.csv --where decision=NONE 2>&1 1>&4 | true; echo "exit=${PIPESTATUS[0]}" >&3; } 4>/dev/null', dir, bin);
  assert.equal(stderrClosed.exit, 0, stderrClosed.stderr);

  // Output lost otherwise (a full disk) is not success: one line, exit 1.
  if (fs.existsSync('/dev/full')) {
    const full = await bash('vas-verify audit --state s.sqlite >/dev/full; echo "exit=$?" >&3', dir, bin);
    assert.equal(full.exit, 1, full.stderr);
    assert.match(full.stderr, /^error: standard output failed \(ENOSPC\)/m);
    assert.doesNotMatch(full.stderr, STACK);
  }
});

test('a CSV, an empty file or another program\'s database as --state: exit 2, one line, the file left as it was', async (t) => {
  const dir = await bankRun(t);
  fs.writeFileSync(path.join(dir, 'edited.csv'), fs.readFileSync(path.join(dir, 'out.csv')));
  fs.chmodSync(path.join(dir, 'p.csv'), 0o644);
  fs.writeFileSync(path.join(dir, 'empty.sqlite'), '');
  fs.chmodSync(path.join(dir, 'empty.sqlite'), 0o644);
  const other = new Database(path.join(dir, 'other.db'));
  other.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT); INSERT INTO notes (text) VALUES (\'x\')');
  other.close();
  fs.chmodSync(path.join(dir, 'other.db'), 0o644);

  const commands = (state: string): string[][] => [
    ['audit', '--state', state],
    ['release', '-o', 'payout.csv', '--state', state],
    ['review', '--state', state],
    ['review', '--import', 'edited.csv', '--state', state],
  ];
  const cases: Array<[string, RegExp]> = [
    ['p.csv', /^error: p\.csv is not a vas-verify state file \(not an SQLite database\)/],
    ['empty.sqlite', /^error: state file empty\.sqlite is empty, not the state of a bank run/],
    ['other.db', /^error: other\.db is an SQLite database of another program, not a vas-verify state file/],
  ];
  for (const [state, pattern] of cases) {
    const before = fs.readFileSync(path.join(dir, state));
    for (const args of commands(state)) {
      const result = await runCli(args, { cwd: dir });
      refused(result, pattern);
      const what = `${args.join(' ')}`;
      assert.equal(modeOf(path.join(dir, state)), 0o644, `${what}: mode changed`);
      assert.deepEqual(fs.readFileSync(path.join(dir, state)), before, `${what}: bytes changed`);
      for (const suffix of ['-wal', '-shm', '-journal']) assert.equal(fs.existsSync(path.join(dir, state + suffix)), false, `${what}: ${suffix} created`);
      assert.equal(fs.existsSync(path.join(dir, 'payout.csv')), false);
    }
  }

  // A missing state is not created.
  for (const args of commands('missing.sqlite')) {
    refused(await runCli(args, { cwd: dir }), /^error: state file missing\.sqlite does not exist/);
    assert.equal(fs.existsSync(path.join(dir, 'missing.sqlite')), false);
  }

  // The real state still works, read-only for audit.
  const audit = await runCli(['audit', '--state', 's.sqlite'], { cwd: dir });
  assert.equal(audit.code, 0, audit.stderr);
  const release = await runCli(['release', '-o', 'payout.csv', '--state', 's.sqlite'], { cwd: dir });
  assert.equal(release.code, 0, release.stderr);
});

test("release's -o or --exceptions on the state's -wal, -shm or -journal: exit 2 before anything is written", async (t) => {
  const dir = await bankRun(t);
  const listing = () => fs.readdirSync(dir).sort().map((name) => `${name}:${fs.readFileSync(path.join(dir, name)).toString('base64')}`);
  const before = listing();
  const cases: Array<[string[], RegExp]> = [
    [['-o', 's.sqlite-wal'], /^error: -o s\.sqlite-wal is the write-ahead log of --state s\.sqlite: nothing was written/],
    [['-o', 's.sqlite-shm'], /^error: -o s\.sqlite-shm is the shared-memory file of --state s\.sqlite/],
    [['-o', 's.sqlite-journal'], /^error: -o s\.sqlite-journal is the journal of --state s\.sqlite/],
    [['-o', 'payout.csv', '--exceptions', 's.sqlite-wal'], /^error: --exceptions s\.sqlite-wal is the write-ahead log of --state s\.sqlite/],
    [['-o', 'payout.csv', '--exceptions', './s.sqlite-shm'], /^error: --exceptions \.\/s\.sqlite-shm is the shared-memory file of --state s\.sqlite/],
    [['-o', 'payout.csv', '--exceptions', 'payout.csv'], /^error: -o payout\.csv and --exceptions payout\.csv are the same file/],
    [['-o', 'p.csv'], /^error: -o p\.csv and --input p\.csv are the same file/],
  ];
  for (const [flags, pattern] of cases) {
    const args = ['release', ...flags, '--state', 's.sqlite'];
    if (flags.includes('p.csv')) args.push('--input', 'p.csv');
    refused(await runCli(args, { cwd: dir }), pattern);
    assert.deepEqual(listing(), before, `${args.join(' ')}: the folder changed`);
  }
  // With VAS_STATE instead of --state, the message says "the state file".
  refused(await runCli(['release', '-o', 's.sqlite-wal'], { cwd: dir, env: { VAS_STATE: 's.sqlite' } }), /^error: -o s\.sqlite-wal is the write-ahead log of the state file s\.sqlite/);
});

test('an empty -o, --exceptions or report -o: exit 2, one line, before anything is written (no release recorded in the audit trail)', async (t) => {
  const dir = await bankRun(t);
  const listing = () => fs.readdirSync(dir).sort().map((name) => `${name}:${fs.readFileSync(path.join(dir, name)).toString('base64')}`);
  const before = listing();
  const cases: Array<[string[], RegExp]> = [
    [['release', '-o', '', '--state', 's.sqlite'], /^error: -o is empty: give a file name/],
    [['release', '-o', 'payout.csv', '--exceptions', '', '--state', 's.sqlite'], /^error: --exceptions is empty: give a file name/],
    [['report', '-o', '', '--state', 's.sqlite'], /^error: -o is empty: give a file name/],
  ];
  for (const [args, pattern] of cases) {
    refused(await runCli(args, { cwd: dir }), pattern);
    assert.deepEqual(listing(), before, `${args.join(' ')}: the folder changed`);
  }
});

test('an empty path flag (an unset shell variable) is refused before anything is read or written: exit 2, one line naming the flag', async (t) => {
  const dir = tempDir(t);
  fs.writeFileSync(path.join(dir, 'payees.csv'), 'Name,Account Number,IFSC\nAsha Rao,123456789012,SBIN0001234\n');
  const listing = () => fs.readdirSync(dir).sort();
  const before = listing();
  const cases: Array<[string[], RegExp]> = [
    [['bank', 'payees.csv', '--sandbox', '--summary', ''], /^error: --summary is empty: give a file name/],
    [['bank', 'payees.csv', '--sandbox', '--report', ''], /^error: --report is empty: give a file name/],
    [['bank', 'payees.csv', '--sandbox', '--state', ''], /^error: --state is empty: give a file name/],
    [['bank', 'payees.csv', '--sandbox', '--policy', ''], /^error: --policy is empty: give a file name/],
    [['bank', '', '--sandbox'], /^error: the payee file is empty: give a file name/],
    [['review', '--import', ''], /^error: --import is empty: give a file name/],
    [['sandbox', '--accounts', ''], /^error: --accounts is empty: give a file name/],
  ];
  for (const [args, pattern] of cases) {
    const result = await runCli(args, { cwd: dir });
    assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
    assert.match(result.stderr, pattern);
    assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
    assert.deepEqual(listing(), before, `${args.join(' ')}: the folder changed`);
  }
});
