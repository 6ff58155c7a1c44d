/**
 * Bad connections and flags at the CLI: each is one clear line, no stack trace, the right exit
 * code. (Input and state errors are in bank.test.ts.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startSandbox } from '../src/sandbox/index.js';
import { runCli, tempDir } from './helpers/cli.js';
import { startTestServer } from './helpers/server.js';

function payees(dir: string): void {
  fs.writeFileSync(path.join(dir, 'p.csv'), 'name,account number,ifsc\nA,900000000011,SBIN0001234\nB,900000000012,SBIN0001234\nC,900000000013,SBIN0001234\nD,900000000014,SBIN0001234\n');
}

test('a hanging server: timeouts end the run with one clear line, exit 1, rows resumable', async (t) => {
  const url = await startTestServer(t, () => {
    // Never answers.
  });
  const dir = tempDir(t);
  payees(dir);
  const r = await runCli(['bank', 'p.csv', '-o', 'o.csv', '--base-url', url, '--timeout', '200ms', '--concurrency', '4'], { cwd: dir });
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /no answer from .* in time/);
  assert.match(r.stderr, /the service looks down/);
  assert.match(r.stderr, /Resume with: vas-verify bank p\.csv/);
  assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
  assert.ok(!fs.existsSync(path.join(dir, 'o.csv')));

  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const resumed = await runCli(['bank', 'p.csv', '-o', 'o.csv', '--base-url', sandbox.url, '--resume'], { cwd: dir });
  assert.equal(resumed.code, 0, resumed.stderr);
});

test('rejected credentials stop the run at once with exit 1 and never print the token', async (t) => {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  const dir = tempDir(t);
  payees(dir);
  const r = await runCli(['bank', 'p.csv', '-o', 'o.csv', '--base-url', sandbox.url], { cwd: dir, env: { VAS_TOKEN: 'wrong-token-123' } });
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /refused the token.*check VAS_TOKEN/);
  assert.doesNotMatch(r.stderr + r.stdout, /wrong-token-123/);
  assert.ok((sandbox.stats().requests['account-verification-pl'] ?? 0) <= 4);
});

test('usage errors: unknown flag, missing command, help', async (t) => {
  const dir = tempDir(t);
  const unknown = await runCli(['bank', 'p.csv', '--sandbox', '--colour'], { cwd: dir });
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /Unknown argument: colour/);
  const none = await runCli([], { cwd: dir });
  assert.equal(none.code, 2);
  assert.match(none.stderr, /name a command/);
  const help = await runCli(['bank', '--help'], { cwd: dir });
  assert.equal(help.code, 0);
  assert.match(help.stdout, /--resume/);
  assert.match(help.stdout, /Examples:/);
});
