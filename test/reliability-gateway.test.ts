/**
 * A gateway between the tool and the service (docs/ARCHITECTURE.md, "The remote interface"): a
 * 502 or 504 comes from something in between that passed the request on and lost the answer — the
 * upstream may have done the work. For a penny-drop that is a rupee that may have moved, like a
 * timeout: never re-sent by itself (UNCONFIRMED). A penny-less call is simply retried. And a
 * gateway whose clock is not ours: a Retry-After given as an HTTP-date is read against its Date.
 * Real CLI processes; a real HTTP gateway on port 0 that forwards to the sandbox, which counts.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import Database from 'better-sqlite3';
import { startSandbox, type Sandbox } from '../src/sandbox/index.js';
import { readCsvObjects, runCli, tempDir } from './helpers/cli.js';
import { startTestServer } from './helpers/server.js';

const ACCOUNT = '710000012345';

/**
 * Forwards every request to `upstream`; the first bank call it forwards is answered `status`
 * after the upstream's answer arrived (the work done, the answer lost on the way back).
 */
async function startGateway(t: TestContext, upstream: string, status: number): Promise<{ url: string; failed: () => number }> {
  let failed = 0;
  const url = await startTestServer(t, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const forward = http.request(`${upstream}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
        const body: Buffer[] = [];
        answer.on('data', (c: Buffer) => body.push(c));
        answer.on('end', () => {
          if (failed === 0 && req.url?.includes('account-verification')) {
            failed += 1;
            res.writeHead(status, { 'content-type': 'text/html' }).end(`<html><body><h1>${status} from the gateway</h1></body></html>`);
            return;
          }
          res.writeHead(answer.statusCode ?? 502, answer.headers).end(Buffer.concat(body));
        });
      });
      forward.on('error', () => res.writeHead(502).end());
      forward.end(Buffer.concat(chunks));
    });
  });
  return { url, failed: () => failed };
}

async function sandboxFor(t: TestContext): Promise<Sandbox> {
  const sandbox = await startSandbox();
  t.after(() => sandbox.close());
  return sandbox;
}

function payeeFile(dir: string): string {
  const file = path.join(dir, 'payees.csv');
  fs.writeFileSync(file, `Payee Name,Account Number,IFSC\nAsha Rao,${ACCOUNT},SBIN0001234\n`);
  return file;
}

for (const status of [502, 504]) {
  test(`a penny-drop answered ${status} by a gateway after the service took it: not re-sent (one deposit), UNCONFIRMED, exit 3`, async (t) => {
    const sandbox = await sandboxFor(t);
    const gateway = await startGateway(t, sandbox.url, status);
    const dir = tempDir(t);
    const r = await runCli(['bank', payeeFile(dir), '-o', 'out.csv', '--state', 's.sqlite', '--base-url', gateway.url, '--mode', 'pd'], { cwd: dir });
    assert.equal(gateway.failed(), 1);
    assert.equal(sandbox.stats().deposits[ACCOUNT], 1, `deposits: ${JSON.stringify(sandbox.stats().deposits)}; ${r.stderr}`);
    assert.equal(r.code, 3, r.stderr);
    assert.equal(readCsvObjects(path.join(dir, 'out.csv'))[0]!.verify_status, 'UNCONFIRMED');
  });
}

test('a penny-less call answered 504 by a gateway is retried and answered', async (t) => {
  const sandbox = await sandboxFor(t);
  const gateway = await startGateway(t, sandbox.url, 504);
  const dir = tempDir(t);
  const r = await runCli(['bank', payeeFile(dir), '-o', 'out.csv', '--state', 's.sqlite', '--base-url', gateway.url], { cwd: dir });
  assert.equal(gateway.failed(), 1);
  assert.equal(readCsvObjects(path.join(dir, 'out.csv'))[0]!.verify_status, 'VERIFIED', r.stderr);
  assert.equal(sandbox.stats().requests['account-verification-pl'], 2);
});

test('a gateway whose clock runs 10 minutes ahead answers 429 with Retry-After as an HTTP-date 1 s after its Date: the run waits a second, not ten minutes; every row answered', { timeout: 60_000 }, async (t) => {
  const sandbox = await sandboxFor(t);
  const skewMs = 10 * 60_000;
  const refused = new Set<string>();
  const gateway = await startTestServer(t, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      // The first call of each payee is refused, the second passed on.
      if (req.url?.includes('account-verification') && !refused.has(body.toString())) {
        refused.add(body.toString());
        const serverNow = Date.now() + skewMs;
        res.writeHead(429, { date: new Date(serverNow).toUTCString(), 'retry-after': new Date(serverNow + 1000).toUTCString(), 'content-type': 'application/json' });
        res.end(JSON.stringify({ errorCode: 429, errorType: 'proxy', errorMessage: 'Quota Violation' }));
        return;
      }
      const forward = http.request(`${sandbox.url}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
        const out: Buffer[] = [];
        answer.on('data', (c: Buffer) => out.push(c));
        answer.on('end', () => res.writeHead(answer.statusCode ?? 502, answer.headers).end(Buffer.concat(out)));
      });
      forward.end(body);
    });
  });
  const dir = tempDir(t);
  const file = path.join(dir, 'payees.csv');
  fs.writeFileSync(file, ['Payee Name,Account Number,IFSC', ...[11, 12, 13, 14].map((e) => `Payee ${e},7100000123${e},SBIN0001234`)].join('\n') + '\n');
  const r = await runCli(['bank', file, '-o', 'out.csv', '--state', 's.sqlite', '--base-url', gateway, '--rate', '10'], { cwd: dir });
  assert.equal(refused.size, 4);
  assert.deepEqual(readCsvObjects(path.join(dir, 'out.csv')).map((row) => row.verify_status), ['VERIFIED', 'VERIFIED', 'VERIFIED', 'VERIFIED'], r.stderr);
  assert.equal(r.code, 0, r.stderr);
});

for (const [status, retryAfter, wait, body] of [
  [429, '3600', '1 h', { errorCode: 429, errorType: 'proxy', errorMessage: 'Quota Violation' }],
  [503, '7200', '2 h', { ok: false, responseCode: 503, message: 'Service Not Available' }],
  [429, '9'.repeat(400), 'more than a year', { errorCode: 429, errorType: 'proxy', errorMessage: 'Quota Violation' }],
] as const) {
  test(`every call answered ${status} with a Retry-After of ${wait} (${retryAfter.slice(0, 6)}): the run stops at once (exit 1) with one line that names the wait, no row FAILED; --resume later answers them all`, { timeout: 60_000 }, async (t) => {
    const sandbox = await sandboxFor(t);
    let refused = 0;
    const gateway = await startTestServer(t, (req, res) => {
      req.resume();
      req.on('end', () => {
        refused += 1;
        res.writeHead(status, { 'retry-after': retryAfter, 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      });
    });
    const dir = tempDir(t);
    const file = path.join(dir, 'payees.csv');
    fs.writeFileSync(file, ['Payee Name,Account Number,IFSC', ...Array.from({ length: 30 }, (_, i) => `Payee ${i},7100000${String(10_000 + i)}11,SBIN0001234`)].join('\n') + '\n');
    const args = ['bank', file, '-o', 'out.csv', '--state', 's.sqlite', '--rate', '10'];
    const stopped = await runCli([...args, '--base-url', gateway], { cwd: dir });
    assert.equal(stopped.code, 1, stopped.stderr);
    const errors = stopped.stderr.split('\n').filter((l) => l.startsWith('error'));
    assert.equal(errors.length, 1, stopped.stderr);
    assert.match(errors[0]!, /Retry-After/);
    assert.ok(errors[0]!.includes(`wait ${wait}`), errors[0]);
    assert.doesNotMatch(errors[0]!, /looks down/);
    assert.ok(refused >= 1 && refused < 30, `${refused} calls refused`);
    const db = new Database(path.join(dir, 's.sqlite'), { readonly: true });
    const failed = (db.prepare("SELECT count(*) AS n FROM run_payees WHERE status = 'FAILED'").get() as { n: number }).n;
    db.close();
    assert.equal(failed, 0, 'rows FAILED for a service that said when to come back');
    const resumed = await runCli([...args, '--base-url', sandbox.url, '--resume'], { cwd: dir });
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.ok(readCsvObjects(path.join(dir, 'out.csv')).every((row) => row.verify_status === 'VERIFIED'));
  });
}
