/**
 * docs/ARCHITECTURE.md, "Security": the token and the client secret never appear in anything the tool writes;
 * account numbers in logs show only their last four digits; the files that hold personal data
 * are mode 0600 whatever the umask. Every byte the tool wrote is searched: stdout, stderr (text
 * and JSON logs), the output CSV, the state file with its -wal and -shm (also as a SIGKILL
 * leaves them), the summary JSON, and anything else left in the directory.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startSandbox, type SandboxOptions } from '../src/sandbox/index.js';
import { readCsvObjects, runCli, spawnCli, tempDir, waitFor, type CliResult } from './helpers/cli.js';

const CLIENT_ID = 'vas-client-7c1e';
const CLIENT_SECRET = 'cs_Z9q2XkP4-secret-4be1f0a7';
const STATIC_TOKEN = 'tok_H8s3LmQ1-static-93d2c5e0';
/** Tokens the sandbox issues: `sbx_` and 32 base64url characters. */
const ISSUED_TOKEN = /sbx_[A-Za-z0-9_-]{32}/;

/** Rows that make the tool log about accounts: retries, deferral, UNCONFIRMED, failures. */
function writePayees(dir: string): { file: string; accounts: string[] } {
  const accounts: string[] = [];
  const lines = ['Payee Name,Account Number,IFSC'];
  const endings = ['11', '90', '91', '92', '93', '95', '97', '12', '13', '14'];
  for (let i = 0; i < 60; i += 1) {
    const account = `55${String(4_000_000 + i).padStart(8, '0')}${endings[i % endings.length]}`;
    accounts.push(account);
    lines.push(`Payee ${i},${account},${['SBIN0001234', 'HDFC0000123'][i % 2]}`);
  }
  lines.push('Damaged,1.23457E+11,SBIN0001234');
  fs.writeFileSync(path.join(dir, 'payees.csv'), lines.join('\n') + '\n');
  return { file: 'payees.csv', accounts };
}

/** Every file under dir, as bytes (the input excluded: it is the user's, not the tool's). */
function everyWrittenFile(dir: string): Array<[string, Buffer]> {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name !== 'payees.csv')
    .map((e) => {
      const file = path.join(e.parentPath, e.name);
      return [path.relative(dir, file), fs.readFileSync(file)] as [string, Buffer];
    });
}

function assertNoSecrets(what: string, bytes: Buffer | string, secrets: readonly string[]): void {
  const buf = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
  for (const secret of secrets) {
    assert.equal(buf.indexOf(secret), -1, `${what} contains the secret ${secret.slice(0, 6)}…`);
    // UTF-16 too, in case anything wrote it that way.
    assert.equal(buf.indexOf(Buffer.from(secret, 'utf16le')), -1, `${what} contains the secret (UTF-16)`);
  }
  assert.doesNotMatch(buf.toString('latin1'), ISSUED_TOKEN, `${what} contains an issued access token`);
}

function assertMasked(what: string, stderr: string, accounts: readonly string[]): void {
  for (const account of accounts) assert.ok(!stderr.includes(account), `${what}: full account number ${account} in the logs`);
}

async function withUmask<T>(mask: number, task: () => Promise<T>): Promise<T> {
  const previous = process.umask(mask);
  try {
    return await task();
  } finally {
    process.umask(previous);
  }
}

async function scenario(t: TestContext, options: SandboxOptions, env: Record<string, string | undefined>, secrets: string[]): Promise<{ tokenFetches: number }> {
  const dir = tempDir(t, 'vas-secrets-');
  const { file, accounts } = writePayees(dir);
  const sandbox = await startSandbox({ latencyMs: [40, 60], ...options });
  t.after(() => sandbox.close());
  // A summary file that already exists with loose permissions must end up 0600 too.
  fs.writeFileSync(path.join(dir, 'summary.json'), '{}', { mode: 0o644 });
  fs.chmodSync(path.join(dir, 'summary.json'), 0o644);
  const args = ['bank', file, '-o', 'out.csv', '--state', 'state.sqlite', '--base-url', sandbox.url, '--mode', 'pd', '--concurrency', '2', '--summary', 'summary.json', '--log-format', 'json'];
  const outputs: Array<[string, CliResult]> = [];
  await withUmask(0, async () => {
    // Killed mid-run: the -wal and -shm files and the temporary output stay behind to be read.
    const victim = spawnCli(args, { cwd: dir, env });
    await waitFor(() => (sandbox.stats().requests['account-verification-pd'] ?? 0) >= 15, 30_000, 'fifteen calls');
    victim.child.kill('SIGKILL');
    outputs.push(['killed run', await victim.result]);
    for (const [name, bytes] of everyWrittenFile(dir)) assertNoSecrets(`${name} after SIGKILL`, bytes, secrets);
    assert.ok(fs.existsSync(path.join(dir, 'state.sqlite-wal')), 'a -wal file was searched');
    for (const suffix of ['', '-wal', '-shm']) assert.equal(fs.statSync(path.join(dir, `state.sqlite${suffix}`)).mode & 0o777, 0o600, `state.sqlite${suffix} is 0600`);

    outputs.push(['resumed run', await runCli([...args, '--resume'], { cwd: dir, env })]);
    outputs.push(['text log run', await runCli(['bank', file, '-o', 'out.csv', '--state', 'state.sqlite', '--base-url', sandbox.url, '--mode', 'pd', '--resume'], { cwd: dir, env })]);
  });
  const resumed = outputs[1]![1];
  assert.equal(resumed.code, 3, resumed.stderr);
  const rows = readCsvObjects(path.join(dir, 'out.csv'));
  assert.equal(rows.length, 61);
  assert.ok(rows.some((r) => r.verify_status === 'DEFERRED') && rows.some((r) => r.verify_status === 'UNCONFIRMED'), 'rows that log about their account');
  assert.match(resumed.stderr, /"level":"info","message":"account x+\d{4}: daily limit reached/, 'a deferral is logged, masked, as JSON');

  for (const [what, r] of outputs) {
    assertNoSecrets(`${what} stdout`, r.stdout, secrets);
    assertNoSecrets(`${what} stderr`, r.stderr, secrets);
    assertMasked(what, r.stderr + r.stdout, accounts);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
  }
  for (const line of resumed.stderr.trim().split('\n')) assert.doesNotThrow(() => JSON.parse(line), `--log-format json: every line is JSON: ${line}`);
  for (const [name, bytes] of everyWrittenFile(dir)) assertNoSecrets(name, bytes, secrets);
  for (const name of ['state.sqlite', 'out.csv', 'summary.json']) {
    assert.equal(fs.statSync(path.join(dir, name)).mode & 0o777, 0o600, `${name} is 0600 under umask 000`);
  }
  return { tokenFetches: sandbox.stats().requests.token ?? 0 };
}

test('OAuth client credentials (2 s tokens, refreshed many times): neither the client secret nor any issued token is written anywhere; accounts masked; files 0600', { timeout: 180_000 }, async (t) => {
  const { tokenFetches } = await scenario(
    t,
    { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, tokenTtlSeconds: 2 },
    { VAS_TOKEN: undefined, VAS_CLIENT_ID: CLIENT_ID, VAS_CLIENT_SECRET: CLIENT_SECRET },
    [CLIENT_SECRET],
  );
  assert.ok(tokenFetches >= 4, `tokens were issued and refreshed: ${tokenFetches}`);
});

test('a static token: never written anywhere; accounts masked; files 0600', { timeout: 180_000 }, async (t) => {
  await scenario(t, { token: STATIC_TOKEN }, { VAS_TOKEN: STATIC_TOKEN }, [STATIC_TOKEN]);
});

test('refused credentials and a refused token: one clear line, exit 1, no secret in it', { timeout: 120_000 }, async (t) => {
  const dir = tempDir(t, 'vas-secrets-refused-');
  const { file } = writePayees(dir);
  const sandbox = await startSandbox({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, token: STATIC_TOKEN });
  t.after(() => sandbox.close());
  const wrongSecret = `${CLIENT_SECRET}-wrong`;
  const wrongToken = `${STATIC_TOKEN}-wrong`;
  const cases: Array<[Record<string, string | undefined>, RegExp, string]> = [
    [{ VAS_TOKEN: undefined, VAS_CLIENT_ID: CLIENT_ID, VAS_CLIENT_SECRET: wrongSecret }, /token endpoint rejected the client credentials: check VAS_CLIENT_ID and VAS_CLIENT_SECRET/, wrongSecret],
    [{ VAS_TOKEN: wrongToken }, /the API refused the token .*check VAS_TOKEN/, wrongToken],
  ];
  for (const [env, pattern, secret] of cases) {
    const r = await runCli(['bank', file, '-o', 'out.csv', '--state', 'refused.sqlite', '--base-url', sandbox.url, '--resume', '--summary', 'refused.json'], { cwd: dir, env });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, pattern);
    assert.doesNotMatch(r.stderr, /\n\s+at |this is a bug/);
    assertNoSecrets('stderr', r.stderr + r.stdout, [secret, CLIENT_SECRET, STATIC_TOKEN]);
    for (const [name, bytes] of everyWrittenFile(dir)) assertNoSecrets(name, bytes, [secret, CLIENT_SECRET, STATIC_TOKEN]);
  }
});
