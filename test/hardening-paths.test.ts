/**
 * Two flags naming one file (#26, "Paths collide"): the input, -o, --state, --summary and
 * --report (and their temporary files and SQLite sidecars) are compared as real files, so
 * `./payees.csv` and `payees.csv`, a symbolic link and a hard link are the same file. Any clash
 * ends in exit 2 with one line naming both flags, before anything is written: the real CLI is
 * run in a temp folder, and every file in it is byte-identical afterwards.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';
import { findCollision, type ResolvedFile } from '../src/safe-path.js';

const PAYEES = 'name,account number,ifsc\nA,900000000011,SBIN0001234\nB,900000000012,SBIN0001234\nC,900000000013,SBIN0001234\n';

/** Every file under `dir` (links as their target text) with a hash of its bytes. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of fs.readdirSync(dir).sort()) {
    const file = path.join(dir, name);
    const stat = fs.lstatSync(file);
    out[name] = stat.isSymbolicLink() ? `link:${fs.readlinkSync(file)}` : crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
  }
  return out;
}

let template: Promise<string> | undefined;

/** A folder with the payees, and the state and output of one finished run in it (made once, copied for each test). */
async function finishedRun(t: TestContext): Promise<string> {
  template ??= (async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vas-paths-template-'));
    process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
    fs.writeFileSync(path.join(dir, 'payees.csv'), PAYEES);
    const r = await runCli(['bank', 'payees.csv', '-o', 'out.csv', '--state', 'state.sqlite', '--sandbox'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    return dir;
  })();
  const dir = tempDir(t);
  fs.cpSync(await template, dir, { recursive: true });
  return dir;
}

const CASES: Array<{ name: string; args: string[]; flags: [RegExp, RegExp]; setup?: (dir: string) => void }> = [
  { name: '-o ./payees.csv for payees.csv', args: ['bank', 'payees.csv', '-o', './payees.csv', '--state', 'state.sqlite'], flags: [/the input payees\.csv/, /-o \.\/payees\.csv/] },
  { name: '--report naming the input', args: ['bank', 'payees.csv', '-o', 'out.csv', '--state', 'state.sqlite', '--report', 'payees.csv'], flags: [/the input/, /--report/] },
  { name: '--summary naming the input', args: ['bank', 'payees.csv', '-o', 'out.csv', '--state', 'state.sqlite', '--summary', 'payees.csv'], flags: [/the input/, /--summary/] },
  { name: '-o naming the state file', args: ['bank', 'payees.csv', '-o', 'state.sqlite', '--state', 'state.sqlite'], flags: [/-o state\.sqlite/, /--state state\.sqlite/] },
  { name: '--summary naming the state file', args: ['bank', 'payees.csv', '-o', 'out.csv', '--state', 'state.sqlite', '--summary', './state.sqlite'], flags: [/--state/, /--summary/] },
  { name: '--report naming the output', args: ['bank', 'payees.csv', '-o', 'out.csv', '--state', 'state.sqlite', '--report', 'out.csv'], flags: [/-o out\.csv/, /--report out\.csv/] },
  { name: 'the default state file given as -o', args: ['bank', 'payees.csv', '-o', 'vas-verify.sqlite'], flags: [/-o vas-verify\.sqlite/, /the state file vas-verify\.sqlite/], setup: (dir) => fs.copyFileSync(path.join(dir, 'state.sqlite'), path.join(dir, 'vas-verify.sqlite')) },
  { name: '--summary naming the state\'s write-ahead log', args: ['bank', 'payees.csv', '-o', 'out.csv', '--state', 'state.sqlite', '--summary', 'state.sqlite-wal'], flags: [/--summary state\.sqlite-wal/, /write-ahead log of --state state\.sqlite/] },
  { name: '--summary naming the output\'s temporary file', args: ['bank', 'payees.csv', '-o', 'out.csv', '--state', 'state.sqlite', '--summary', '.out.csv.4242.tmp'], flags: [/--summary \.out\.csv\.4242\.tmp/, /-o out\.csv writes its temporary file/] },
  {
    name: 'an input that is a symbolic link to the output',
    args: ['bank', 'alias.csv', '-o', 'out.csv', '--state', 'state.sqlite'],
    flags: [/the input alias\.csv/, /-o out\.csv/],
    setup: (dir) => fs.symlinkSync('out.csv', path.join(dir, 'alias.csv')),
  },
  {
    name: 'an input that is a hard link of the output',
    args: ['bank', 'hard.csv', '-o', 'out.csv', '--state', 'state.sqlite'],
    flags: [/the input hard\.csv/, /-o out\.csv/],
    setup: (dir) => fs.linkSync(path.join(dir, 'out.csv'), path.join(dir, 'hard.csv')),
  },
  {
    name: 'an output through a linked folder',
    args: ['bank', 'payees.csv', '-o', 'same/payees.csv', '--state', 'state.sqlite'],
    flags: [/the input payees\.csv/, /-o same\/payees\.csv/],
    setup: (dir) => fs.symlinkSync('.', path.join(dir, 'same')),
  },
  { name: 'report -o naming the state it reads', args: ['report', '--state', 'state.sqlite', '-o', 'state.sqlite'], flags: [/-o state\.sqlite/, /--state state\.sqlite/] },
  { name: 'report -o naming its --csv', args: ['report', '--state', 'state.sqlite', '--csv', 'out.csv', '-o', './out.csv'], flags: [/-o \.\/out\.csv/, /--csv out\.csv/] },
];

for (const c of CASES) {
  test(`paths collide: ${c.name} → exit 2 naming both, every file unchanged`, async (t) => {
    const dir = await finishedRun(t);
    c.setup?.(dir);
    const before = snapshot(dir);
    const r = await runCli([...c.args, '--sandbox'].filter((a) => c.args[0] === 'bank' || a !== '--sandbox'), { cwd: dir });
    assert.equal(r.code, 2, r.stderr);
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, r.stderr);
    for (const flag of c.flags) assert.match(lines[0]!, flag);
    assert.match(lines[0]!, /nothing was written/);
    assert.deepEqual(snapshot(dir), before);
  });
}

test('distinct files pass: a resumed run with -o, --state, --summary and --report all apart', async (t) => {
  const dir = await finishedRun(t);
  const r = await runCli(['bank', 'payees.csv', '-o', 'out.csv', '--state', 'state.sqlite', '--summary', 'run.json', '--report', 'run.html', '--resume', '--sandbox'], { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  assert.ok(fs.existsSync(path.join(dir, 'run.json')) && fs.existsSync(path.join(dir, 'run.html')));
});

test('findCollision: same resolved path, same inode, a temporary file, a sidecar; a near miss is no clash', () => {
  const at = (flag: string, p: string, role: ResolvedFile['role'], extra: Partial<ResolvedFile['id']> = {}): ResolvedFile => ({ flag, path: p, role, id: { resolved: p, ...extra } });
  assert.match(findCollision([at('the input', '/d/a.csv', 'plain'), at('-o', '/d/a.csv', 'writer')])!, /the input \/d\/a\.csv and -o \/d\/a\.csv are the same file/);
  assert.match(findCollision([at('the input', '/d/a.csv', 'plain', { dev: 1, ino: 7 }), at('-o', '/d/b.csv', 'writer', { dev: 1, ino: 7 })])!, /same file/);
  assert.equal(findCollision([at('the input', '/d/a.csv', 'plain', { dev: 1, ino: 7 }), at('-o', '/d/b.csv', 'writer', { dev: 2, ino: 7 })]), undefined);
  assert.match(findCollision([at('-o', '/d/o.csv', 'writer'), at('--summary', '/d/.o.csv.12.tmp', 'plain')])!, /writes its temporary file/);
  assert.equal(findCollision([at('-o', '/d/o.csv', 'writer'), at('--summary', '/d/.o.csv.x12.tmp', 'plain')]), undefined);
  assert.equal(findCollision([at('-o', '/d/o.csv', 'writer'), at('--summary', '/e/.o.csv.12.tmp', 'plain')]), undefined);
  const state: ResolvedFile = { ...at('--state', '/d/s', 'state'), sidecars: [{ suffix: '-wal', id: { resolved: '/d/s-wal' } }] };
  assert.match(findCollision([state, at('-o', '/d/s-wal', 'writer')])!, /-o \/d\/s-wal is the write-ahead log of --state \/d\/s/);
  assert.equal(findCollision([state, at('-o', '/d/s-wal2', 'writer')]), undefined);
});

test('a link or a file already at a writer\'s temporary name (.<name>.<pid>.tmp) is replaced, never written through: -o (CSV, .xlsx, a re-emitted copy), --summary, --report', { timeout: 120_000 }, async (t) => {
  const dir = tempDir(t, 'vas-paths-temp-');
  fs.writeFileSync(path.join(dir, 'payees.csv'), PAYEES);
  fs.writeFileSync(path.join(dir, 'victim.txt'), 'precious\n', { mode: 0o644 });
  fs.chmodSync(path.join(dir, 'victim.txt'), 0o644);
  // What someone who can write in the folder plants before the run starts: `exec` keeps the shell's
  // pid ($$) for node, so the names are the ones the run's writers use. A loose file (0666) for the summary.
  const plant = (names: string[]) => [
    'sh', '-c',
    `${names.map((n) => `ln -s victim.txt .${n}.$$.tmp;`).join(' ')} : > .summary.json.$$.tmp; chmod 666 .summary.json.$$.tmp; exec "$@"`,
    'sh',
  ];
  const run = (args: string[], names: string[]) => runCli(['bank', 'payees.csv', '--state', 'state.sqlite', '--sandbox', '--summary', 'summary.json', ...args], { cwd: dir, wrapper: plant(names) });

  const first = await run(['-o', 'out.csv', '--report', 'run.html'], ['out.csv', 'run.html']);
  assert.equal(first.code, 0, first.stderr);
  // A finished run again: its output is copied into place, not written row by row.
  const copied = await run(['-o', 'copy.csv', '--resume'], ['copy.csv']);
  assert.equal(copied.code, 0, copied.stderr);
  const workbook = await run(['-o', 'out.xlsx', '--resume'], ['out.xlsx']);
  assert.equal(workbook.code, 0, workbook.stderr);

  assert.equal(fs.readFileSync(path.join(dir, 'victim.txt'), 'utf8'), 'precious\n', 'the file the links point at is untouched');
  assert.equal(fs.statSync(path.join(dir, 'victim.txt')).mode & 0o777, 0o644, 'and keeps its mode');
  for (const name of ['out.csv', 'run.html', 'copy.csv', 'out.xlsx', 'summary.json']) {
    const stat = fs.lstatSync(path.join(dir, name));
    assert.ok(stat.isFile(), `${name} is a file of its own, not a link`);
    assert.equal(stat.mode & 0o777, 0o600, `${name} is 0600`);
  }
  assert.match(fs.readFileSync(path.join(dir, 'out.csv'), 'utf8'), /verify_status/);
  assert.deepEqual(fs.readdirSync(dir).filter((n) => n.endsWith('.tmp')), [], 'no temporary file left behind');
});
