/**
 * README, Security: "TLS verification is never turned off". Node's own default follows
 * NODE_TLS_REJECT_UNAUTHORIZED, and =0 in the environment (a cron file, a shell profile) made the
 * client send the bearer token to a server whose certificate nobody checked, and a rediss:// Redis
 * likewise. The servers here are the test's own on 127.0.0.1, port 0, with a self-signed
 * certificate (test/fixtures/tls, valid until 2126); the CLI is the real one.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import path from 'node:path';
import tls from 'node:tls';
import type { AddressInfo } from 'node:net';
import { ROOT, readCsvObjects, runCli, tempDir } from './helpers/cli.js';
import { startSandbox } from '../src/sandbox/index.js';

const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'tls');
const CERT = path.join(FIXTURES, 'cert.pem');
const KEY = path.join(FIXTURES, 'key.pem');
const TOKEN = 'tok_tls-check-7d41c9a2e5';

/**
 * An API on https://127.0.0.1 with the self-signed certificate: every request it is sent, the
 * Authorization it carried, and the TCP connections opened to it (each one a TLS handshake).
 */
async function selfSignedApi(t: TestContext): Promise<{ url: string; authorizations: string[]; connections: () => number }> {
  const authorizations: string[] = [];
  let connections = 0;
  const server = https.createServer({ key: fs.readFileSync(KEY), cert: fs.readFileSync(CERT) }, (req, res) => {
    authorizations.push(req.headers.authorization ?? '');
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const { accountNumber } = JSON.parse(body) as { accountNumber: string };
      const isPennyDrop = (req.url ?? '').endsWith('-pd');
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({
        ok: true,
        responseCode: 200,
        message: 'Transmission OK',
        body: { accountNumber, beneficiaryName: 'ASHA RAO', verificationStatus: 'VERIFIED', transactionRemark: null, isPennyDrop, ifscDetails: null },
      }));
    });
  });
  server.on('connection', () => (connections += 1));
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`, authorizations, connections: () => connections };
}

function payees(dir: string): void {
  fs.writeFileSync(path.join(dir, 'p.csv'), 'Payee Name,Account Number,IFSC\nAsha Rao,550000000101,SBIN0001234\n');
}

const WARNING = /warn: NODE_TLS_REJECT_UNAUTHORIZED=0 is ignored: vas-verify always verifies TLS certificates/;

test('NODE_TLS_REJECT_UNAUTHORIZED=0 does not turn certificate checks off: a self-signed API is never sent the token; NODE_EXTRA_CA_CERTS trusts it', { timeout: 120_000 }, async (t) => {
  const dir = tempDir(t, 'vas-tls-');
  payees(dir);
  const api = await selfSignedApi(t);
  const args = ['bank', 'p.csv', '-o', 'o.csv', '--state', 's.sqlite', '--base-url', api.url, '--timeout', '1s'];

  const refused = await runCli(args, { cwd: dir, env: { VAS_TOKEN: TOKEN, NODE_TLS_REJECT_UNAUTHORIZED: '0' } });
  assert.deepEqual(api.authorizations, [], 'no request reached the server whose certificate nobody vouches for');
  assert.equal(refused.code, 1, refused.stderr);
  assert.match(refused.stderr, /the TLS certificate of 127\.0\.0\.1:\d+ is not trusted \(self-signed certificate\)/);
  assert.match(refused.stderr, WARNING);
  // Node's own warning would say that certificates go unchecked: they do not.
  assert.doesNotMatch(refused.stderr, /makes TLS connections and HTTPS requests insecure/);

  // The way to trust a private CA: the same server, its certificate given to Node.
  const trusted = await runCli([...args, '--resume'], { cwd: dir, env: { VAS_TOKEN: TOKEN, NODE_EXTRA_CA_CERTS: CERT } });
  assert.equal(trusted.code, 0, trusted.stderr);
  assert.deepEqual(api.authorizations, [`Bearer ${TOKEN}`]);
  assert.equal(readCsvObjects(path.join(dir, 'o.csv'))[0]!.verify_status, 'VERIFIED');
});

const UNTRUSTED_LINE = /^error: the TLS certificate of 127\.0\.0\.1:\d+ is not trusted \(self-signed certificate\): if a proxy or a private CA signs it, point NODE_EXTRA_CA_CERTS at that CA's certificate file \(PEM\); TLS verification is never turned off; .*Resume with: vas-verify bank .*--resume/m;

test('an untrusted certificate stops the run at once: exit 1, one line naming the host and NODE_EXTRA_CA_CERTS, no retries, no row FAILED or UNCONFIRMED, no call or spend counted; --resume once the CA is trusted completes every row', { timeout: 120_000 }, async (t) => {
  const dir = tempDir(t, 'vas-tls-stop-');
  const accounts = Array.from({ length: 30 }, (_, i) => `5500000002${String(i + 10)}`);
  fs.writeFileSync(path.join(dir, 'p.csv'), `Payee Name,Account Number,IFSC\n${accounts.map((a) => `Asha Rao,${a},SBIN0001234`).join('\n')}\n`);
  const api = await selfSignedApi(t);
  // Penny-drop: a row left IN_FLIGHT would come back UNCONFIRMED on the resume; nothing was sent, so none may.
  const args = ['bank', 'p.csv', '-o', 'o.csv', '--state', 's.sqlite', '--base-url', api.url, '--mode', 'pd', '--concurrency', '4'];

  const stopped = await runCli([...args, '--summary', 'stopped.json'], { cwd: dir, env: { VAS_TOKEN: TOKEN } });
  assert.equal(stopped.code, 1, stopped.stderr);
  assert.match(stopped.stderr, UNTRUSTED_LINE);
  // Nothing left, so nothing is counted: no call and no spend (the deposits were never made).
  const summary = JSON.parse(fs.readFileSync(path.join(dir, 'stopped.json'), 'utf8')) as { calls: { pl: number; pd: number }; spend: number };
  assert.deepEqual([summary.calls, summary.spend], [{ pl: 0, pd: 0 }, 0]);
  assert.equal(stopped.stderr.split('\n').filter((line) => /TLS certificate/.test(line)).length, 1, stopped.stderr);
  assert.doesNotMatch(stopped.stderr, /^\s+at /m, 'no stack trace');
  assert.doesNotMatch(stopped.stderr, /NODE_TLS_REJECT_UNAUTHORIZED|rejectUnauthorized|use-system-ca/, 'never the advice to turn verification off');
  assert.ok(!stopped.stderr.includes(TOKEN));
  assert.deepEqual(api.authorizations, [], 'no request was sent');
  // One handshake per call in flight when the first one failed (--concurrency 4), none retried: 30 rows × 8 tries before.
  assert.ok(api.connections() >= 1 && api.connections() <= 4, `${api.connections()} TLS handshakes`);

  const resumed = await runCli([...args, '--resume'], { cwd: dir, env: { VAS_TOKEN: TOKEN, NODE_EXTRA_CA_CERTS: CERT } });
  assert.equal(resumed.code, 0, resumed.stderr);
  const rows = readCsvObjects(path.join(dir, 'o.csv'));
  assert.equal(rows.length, accounts.length);
  assert.deepEqual(new Set(rows.map((row) => row.verify_status)), new Set(['VERIFIED']));
  assert.equal(api.authorizations.length, accounts.length, 'each payee sent once, after the CA was trusted');
});

test('docs: an untrusted certificate is one line naming the host, exit 1, not retried', { timeout: 60_000 }, async (t) => {
  const dir = tempDir(t, 'vas-tls-docs-');
  const api = await selfSignedApi(t);
  const result = await runCli(['docs', 'init', '--base-url', api.url], { cwd: dir, env: { VAS_TOKEN: TOKEN } });
  assert.equal(result.code, 1, result.stderr);
  assert.equal(result.stderr.trim(), `error: the TLS certificate of ${new URL(api.url).host} is not trusted (self-signed certificate): if a proxy or a private CA signs it, point NODE_EXTRA_CA_CERTS at that CA's certificate file (PEM); TLS verification is never turned off`);
  assert.equal(api.connections(), 1, 'one handshake, no retry');
  assert.deepEqual(api.authorizations, []);
});

test('a rediss:// Redis: its certificate is checked whatever NODE_TLS_REJECT_UNAUTHORIZED says, and REDISS:// in capitals is TLS too, never clear text', { timeout: 60_000 }, async (t) => {
  const dir = tempDir(t, 'vas-tls-redis-');
  payees(dir);
  const sandbox = await startSandbox({});
  t.after(() => sandbox.close());

  // A TLS server with the self-signed certificate: a client that checks it never completes the handshake.
  let handshakes = 0;
  const tlsServer = tls.createServer({ key: fs.readFileSync(KEY), cert: fs.readFileSync(CERT) }, (socket) => {
    handshakes += 1;
    socket.destroy();
  });
  tlsServer.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => tlsServer.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => tlsServer.close(() => resolve())));
  const tlsPort = (tlsServer.address() as AddressInfo).port;

  const bank = ['bank', 'p.csv', '-o', 'o.csv', '--state', 's.sqlite', '--base-url', sandbox.url, '--rate', '5'];
  const env = { NODE_TLS_REJECT_UNAUTHORIZED: '0', VAS_REDIS_PASSWORD: 'redis-pass-91f3' };
  const unchecked = await runCli([...bank, '--redis', `rediss://127.0.0.1:${tlsPort}`], { cwd: dir, env });
  assert.equal(unchecked.code, 2, unchecked.stderr);
  assert.equal(handshakes, 0, 'the client refused the certificate');
  assert.equal(sandbox.stats().requests['account-verification-pl'] ?? 0, 0);

  // What a client sends first: a TLS ClientHello starts with 0x16; Redis's protocol with an ASCII letter or '*'.
  const firstBytes: number[] = [];
  const raw = net.createServer((socket) => {
    socket.once('data', (chunk: Buffer) => {
      firstBytes.push(chunk[0]!);
      socket.destroy();
    });
  });
  await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => raw.close(() => resolve())));
  const rawPort = (raw.address() as AddressInfo).port;
  const capitals = await runCli([...bank, '--redis', `REDISS://127.0.0.1:${rawPort}`], { cwd: dir, env });
  assert.equal(capitals.code, 2, capitals.stderr);
  assert.ok(firstBytes.length > 0, 'the client connected');
  assert.ok(firstBytes.every((b) => b === 0x16), `every connection began a TLS handshake, not clear text (first bytes ${firstBytes.join(', ')})`);
});
