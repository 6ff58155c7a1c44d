/**
 * A gateway between the tool and the service (docs/ARCHITECTURE.md, "The remote interface"): a
 * 502 or 504 comes from something in between that passed the request on and lost the answer — the
 * upstream may have done the work. For a penny-drop that is a rupee that may have moved, like a
 * timeout: never re-sent by itself (UNCONFIRMED). A penny-less call is simply retried. Real CLI
 * processes; a real HTTP gateway on port 0 that forwards to the sandbox, which counts deposits.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
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
