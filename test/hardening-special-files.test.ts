/**
 * Paths that are not plain files, and values that are not what they claim (black-box review):
 * an output path that is a FIFO or a device is refused before it is renamed over; `filter` and
 * `review --import` refuse a directory, a device and an endless line; a listen address that is not
 * this machine's, a blank or two-line VAS_TOKEN are usage errors; a plain-http API that is not this
 * machine is warned about; `filter --where` with no condition is refused.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';
import { plainHttpRemoteHost } from '../src/cli/config.js';
import { defaultOutputPath } from '../src/output/sink.js';

const PAYEES = 'name,account number,ifsc\nAsha Rao,900000000011,SBIN0001234\nRavi Iyer,900000000012,SBIN0001234\n';

function mkfifo(file: string): void {
  const made = spawnSync('mkfifo', [file]);
  assert.equal(made.status, 0, String(made.stderr));
}

/** One line on stderr, exit 2, no stack. */
function usageError(r: { code: number | null; stderr: string }, pattern: RegExp): void {
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, pattern);
  assert.doesNotMatch(r.stderr, /\n\s+at |internal error/);
}

test('an output path that is a FIFO is refused before any call, and stays a FIFO (bank -o, --report, --summary; release -o, --exceptions; report -o)', async (t) => {
  const dir = tempDir(t);
  fs.writeFileSync(path.join(dir, 'p.csv'), PAYEES);
  mkfifo(path.join(dir, 'pipe'));
  const isFifo = () => fs.lstatSync(path.join(dir, 'pipe')).isFIFO();
  for (const flags of [['-o', 'pipe'], ['-o', 'out.csv', '--report', 'pipe'], ['-o', 'out.csv', '--summary', 'pipe']]) {
    const r = await runCli(['bank', 'p.csv', '--sandbox', '--state', 's.sqlite', ...flags], { cwd: dir });
    usageError(r, /pipe is not a regular file \(a pipe, a device or a socket\)/);
    assert.ok(isFifo(), flags.join(' '));
  }
  const run = await runCli(['bank', 'p.csv', '--sandbox', '--state', 's.sqlite', '-o', 'out.csv'], { cwd: dir });
  assert.equal(run.code, 0, run.stderr);
  usageError(await runCli(['release', '--state', 's.sqlite', '-o', 'pipe'], { cwd: dir }), /is not a regular file/);
  usageError(await runCli(['release', '--state', 's.sqlite', '-o', 'pay.csv', '--exceptions', 'pipe'], { cwd: dir }), /is not a regular file/);
  usageError(await runCli(['report', '--state', 's.sqlite', '-o', 'pipe'], { cwd: dir }), /is not a regular file/);
  assert.ok(isFifo());
  assert.ok(!fs.existsSync(path.join(dir, 'pay.csv')));
});

test('filter and review --import refuse a directory, a device and a file of one endless line: one line, exit 2, bounded', async (t) => {
  const dir = tempDir(t);
  fs.writeFileSync(path.join(dir, 'p.csv'), PAYEES);
  assert.equal((await runCli(['bank', 'p.csv', '--sandbox', '--state', 's.sqlite', '-o', 'out.csv'], { cwd: dir })).code, 0);
  // 9 MiB without a line break: past the 8 MiB a record may have.
  fs.writeFileSync(path.join(dir, 'long.csv'), `a,b${'x'.repeat(9 * 1024 * 1024)}`);
  // …and 9 MiB inside one quoted cell over many lines.
  fs.writeFileSync(path.join(dir, 'open.csv'), `name,verify_status,decision\n"${'line\n'.repeat(2 * 1024 * 1024)}`);
  for (const file of [dir, '/dev/zero']) {
    usageError(await runCli(['filter', file, '--where', 'decision=HOLD'], { cwd: dir }), file === dir ? /is a directory: give the output file of a run/ : /is not a regular file \(a pipe or a device\)/);
    usageError(await runCli(['review', '--state', 's.sqlite', '--import', file], { cwd: dir }), /is a directory|is not a regular file/);
  }
  usageError(await runCli(['filter', 'long.csv', '--where', 'decision=HOLD'], { cwd: dir }), /long\.csv is not an output of vas-verify: the record at line 1 is larger than 8 MiB/);
  usageError(await runCli(['filter', 'open.csv', '--where', 'decision=HOLD'], { cwd: dir }), /the record at line 2 is larger than 8 MiB/);
  usageError(await runCli(['review', '--state', 's.sqlite', '--import', 'long.csv'], { cwd: dir }), /larger than 8 MiB/);
  // No condition (`--where "$UNSET"` gives none): refused, not every row.
  const none = await runCli(['filter', 'out.csv', '--where'], { cwd: dir });
  usageError(none, /--where needs COLUMN=VALUE/);
  assert.equal(none.stdout, '');
});

test('listen addresses that are not this machine, and a VAS_TOKEN that is blank or holds a line break, are usage errors before any call', async (t) => {
  const dir = tempDir(t);
  fs.writeFileSync(path.join(dir, 'p.csv'), PAYEES);
  // 192.0.2.1 is TEST-NET-1: never an address of this machine.
  usageError(await runCli(['sandbox', '--host', '192.0.2.1', '--port', '0'], { cwd: dir }), /^error: cannot bind --host 192\.0\.2\.1: no such local address$/m);
  usageError(await runCli(['docs', 'listen', '--host', '192.0.2.1', '--port', '0', '--state', 's.sqlite'], { cwd: dir }), /cannot bind --host 192\.0\.2\.1: no such local address/);
  const base = ['bank', 'p.csv', '--base-url', 'http://127.0.0.1:9', '--state', 's.sqlite'];
  usageError(await runCli(base, { cwd: dir, env: { VAS_TOKEN: '   ' } }), /no credentials: set VAS_TOKEN/);
  const twoLines = await runCli(base, { cwd: dir, env: { VAS_TOKEN: 'tok\nevil: 1' } });
  usageError(twoLines, /VAS_TOKEN holds a space or a line break/);
  assert.doesNotMatch(twoLines.stderr, /evil/);
});

test('a plain-http API that is not this machine is warned about (the token would cross the network in clear); loopback and https are not', async (t) => {
  assert.equal(plainHttpRemoteHost('http://api.example.com/v1'), 'api.example.com');
  assert.equal(plainHttpRemoteHost('http://ops:secret@10.0.0.5:8080'), '10.0.0.5:8080');
  assert.equal(plainHttpRemoteHost('http://[2001:db8::1]:80'), '[2001:db8::1]');
  for (const local of ['http://127.0.0.1:8080', 'http://localhost:1', 'http://[::1]:9', 'http://sandbox.localhost', 'https://api.example.com', 'not a url']) {
    assert.equal(plainHttpRemoteHost(local), undefined, local);
  }
  const dir = tempDir(t);
  fs.writeFileSync(path.join(dir, 'p.csv'), PAYEES);
  // --max-calls 0: connected, nothing sent.
  const remote = await runCli(['bank', 'p.csv', '--max-calls', '0', '--base-url', 'http://api.example.invalid', '--state', 's.sqlite'], { cwd: dir });
  assert.match(remote.stderr, /warn: the API at api\.example\.invalid is reached over plain http: the token and the account numbers cross the network unencrypted; use https:\/\//);
  assert.doesNotMatch(remote.stderr, /sandbox-token/);
  const local = await runCli(['bank', 'p.csv', '--max-calls', '0', '--base-url', 'http://127.0.0.1:9', '--state', 's2.sqlite'], { cwd: dir });
  assert.equal(local.code, 3, local.stderr);
  assert.doesNotMatch(local.stderr, /plain http/);
});

test('the default output of a macro workbook (.xlsm) is an .xlsm (its copy keeps the macros, which Excel refuses under .xlsx)', async () => {
  assert.equal(defaultOutputPath('pay/Vendors.xlsm'), 'pay/Vendors.verified.xlsm');
  assert.equal(defaultOutputPath('pay/Vendors.XLSM'), 'pay/Vendors.verified.xlsm');
  assert.equal(defaultOutputPath('pay/Vendors.xlsx'), 'pay/Vendors.verified.xlsx');
  assert.equal(defaultOutputPath('pay/Vendors.xls'), 'pay/Vendors.verified.xlsx');
  assert.equal(defaultOutputPath('pay/vendors.csv'), 'pay/vendors.verified.csv');
});

test('an output named for a spreadsheet format vas-verify does not write (.xls, .ods), or .xlsm from an input that is not one, is refused before any call (exit 2)', async (t) => {
  const dir = tempDir(t);
  fs.writeFileSync(path.join(dir, 'p.csv'), 'Name,Account Number,IFSC\nAsha Verma,500100010011,SBIN0000001\n');
  for (const [output, words] of [['out.xls', /writes CSV or \.xlsx, not \.xls: name the output \.xlsx/], ['out.ods', /not \.ods/], ['out.xlsm', /\.xlsm \(macro-enabled\) output is written only from an \.xlsm input/]] as const) {
    const r = await runCli(['bank', 'p.csv', '-o', output, '--sandbox', '--state', 's.sqlite'], { cwd: dir });
    assert.equal(r.code, 2, `${output}: ${r.stderr}`);
    assert.match(r.stderr, words);
    assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack');
    assert.equal(fs.existsSync(path.join(dir, output)), false);
  }
  const csv = await runCli(['bank', 'p.csv', '-o', 'out.xlsx', '--sandbox', '--state', 's.sqlite'], { cwd: dir });
  assert.equal(csv.code, 0, csv.stderr);
});
