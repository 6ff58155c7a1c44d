/**
 * Hostile upstreams (README, Security): an API, token endpoint or document host that echoes
 * request headers into its error bodies, answers hundreds of MB, trickles its answer one byte at a
 * time, or sends control characters and undecodable names. Each server here is started by the test
 * on 127.0.0.1, port 0; the CLI is the real one, and every byte it wrote is searched.
 */
import { trickle } from './helpers/server.js';
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { readCsvObjects, runCli, spawnCli, tempDir, type CliResult } from './helpers/cli.js';
import { startTestServer } from './helpers/server.js';

const MB = 1024 * 1024;
const API = '/vas-api/v1/';
const SESSION = '3f6c2a9e-8d1b-4c7a-9e2f-5b6d7c8e9f01';

/** A JSON answer of the bank operations, as the interface defines it. */
function bankAnswer(accountNumber: string, beneficiaryName: string): string {
  return JSON.stringify({
    ok: true,
    responseCode: 200,
    message: 'Transmission OK',
    body: { accountNumber, beneficiaryName, verificationStatus: 'VERIFIED', transactionRemark: null, isPennyDrop: false, ifscDetails: null },
  });
}

function fetchAnswer(base: string, pdfPath: string): string {
  return JSON.stringify({
    ok: true,
    responseCode: 200,
    message: 'Transmission OK',
    body: {
      sessionId: SESSION,
      status: 'Completed',
      documents: [{ docType: 'pan', idNumber: 'ABCDE1234F', name: 'Asha Rao', dob: '01011990', gender: 'F', pdfUrl: `${base}${pdfPath}`, xmlUrl: `${base}${pdfPath}` }],
    },
  });
}

async function readBody(req: http.IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text;
}

/** Every header of the request, as a proxy's error page shows them. */
function echoHeaders(req: http.IncomingMessage): string {
  return Object.entries(req.headers).map(([k, v]) => `${k}: ${String(v)}`).join('\n');
}

/** Writes `total` bytes of `fill` with backpressure, stopping when the client goes away; resolves with what was written. */
async function stream(res: http.ServerResponse, total: number, fill = 'x'): Promise<number> {
  const chunk = Buffer.alloc(64 * 1024, fill);
  let sent = 0;
  let closed = false;
  res.on('close', () => (closed = true));
  while (sent < total && !closed) {
    const ok = res.write(chunk);
    sent += chunk.length;
    if (!ok) await new Promise<void>((r) => {
      const done = () => {
        res.off('drain', done);
        res.off('close', done);
        r();
      };
      res.on('drain', done);
      res.on('close', done);
    });
  }
  if (!closed) res.end();
  return sent;
}

/** Every file under dir (the input excluded), as bytes. */
function everyWrittenFile(dir: string, input: string): Array<[string, Buffer]> {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name !== input)
    .map((e) => {
      const file = path.join(e.parentPath, e.name);
      return [path.relative(dir, file), fs.readFileSync(file)] as [string, Buffer];
    });
}

function assertNoSecret(what: string, bytes: Buffer | string, secrets: readonly string[]): void {
  const buf = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
  for (const secret of secrets) {
    assert.equal(buf.indexOf(secret), -1, `${what} contains the secret ${secret.slice(0, 6)}…`);
    assert.equal(buf.indexOf(encodeURIComponent(secret)), -1, `${what} contains the secret URL-encoded`);
  }
}

/** The hostile API: one misbehaviour per account-number ending. */
function hostileApi(issued: string[]): http.RequestListener {
  return async (req, res) => {
    const url = req.url ?? '';
    const body = await readBody(req);
    if (url === '/oauth/v1/token') {
      const token = `iss_${randomBytes(16).toString('hex')}`;
      issued.push(token);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ access_token: token, token_type: 'Bearer', expires_in: 3600 }));
      return;
    }
    res.setHeader('x-request-id', `req-${url.length}`);
    if (url === `${API}doclocker-fetch-status`) {
      res.setHeader('content-type', 'application/json');
      res.end(fetchAnswer(`http://${req.headers.host}`, '/files/echo.pdf'));
      return;
    }
    if (url === '/files/echo.pdf') {
      // Same origin: the token is sent, and the error page echoes it (a 403 is not retried).
      res.statusCode = 403;
      res.end(`<html><body><h1>Upstream error</h1><pre>${echoHeaders(req)}</pre></body></html>`);
      return;
    }
    let account = '';
    try {
      account = (JSON.parse(body) as { accountNumber: string }).accountNumber;
    } catch {
      // Not ours: answered below like any other.
    }
    const echo = echoHeaders(req);
    res.setHeader('content-type', 'application/json');
    switch (account.slice(-2)) {
      case '01':
        res.statusCode = 500;
        res.end(`Internal Server Error while handling\n${echo}`);
        return;
      case '02':
        res.statusCode = 400;
        res.end(JSON.stringify({ errorCode: 400, errorType: 'proxy', errorMessage: `Invalid Request: ${echo}` }));
        return;
      case '03':
        res.statusCode = 422;
        res.end(`unprocessable: ${echo}`);
        return;
      case '04':
        res.end(JSON.stringify({ errorCode: 200, errorType: 'proxy', errorMessage: `Invalid Account Number (${echo})` }));
        return;
      case '05':
        res.setHeader('content-type', 'text/html');
        res.end(`<html><title>Gateway login</title><body><p>Your request:</p><pre>${echo}</pre></body></html>`);
        return;
      case '06': {
        // A success answer whose remark echoes the request (a gateway rewriting bodies).
        const answer = JSON.parse(bankAnswer(account, 'Asha Rao')) as { body: Record<string, unknown> };
        answer.body.verificationStatus = 'NOT_VERIFIED';
        answer.body.transactionRemark = `declined for ${echo}`;
        res.end(JSON.stringify(answer));
        return;
      }
      case '07':
        // A gateway that echoes a request header into the answer's request id, on a success answer...
        res.setHeader('x-request-id', `gw ${req.headers.authorization ?? ''}`);
        res.end(bankAnswer(account, 'Asha Rao'));
        return;
      case '08':
        // ...and on an error.
        res.setHeader('x-request-id', `gw ${req.headers.authorization ?? ''}`);
        res.statusCode = 422;
        res.end('{}');
        return;
      case '09': {
        // A success answer whose branch details echo the request, one of them far longer than a branch name.
        const answer = JSON.parse(bankAnswer(account, 'Asha Rao')) as { body: Record<string, unknown> };
        answer.body.ifscDetails = {
          ifsc: 'SBIN0001234', name: `State Bank ${echo}`, branch: `Fort ${echo}`, district: 'Mumbai', state: 'Maharashtra', city: 'x'.repeat(5000),
          imps: true, rtgs: true, neft: true, upi: true, micr: echo, iso3166: 'IN-MH', swift: null,
        };
        res.end(JSON.stringify(answer));
        return;
      }
      default:
        res.end(bankAnswer(account, 'Asha Rao'));
    }
  };
}

function writeEchoPayees(dir: string): string {
  const lines = ['Name,Account Number,IFSC'];
  // Each echo class between two good rows: the breaker (3 failures in a row) does not stop the run.
  for (const ending of ['01', '02', '03', '04', '05', '06', '07', '08', '09']) {
    lines.push(`Good ${ending},7100000000${ending}90,SBIN0001234`);
    lines.push(`Echo ${ending},71000000009${ending},SBIN0001234`);
  }
  fs.writeFileSync(path.join(dir, 'payees.csv'), `${lines.join('\n')}\n`);
  return 'payees.csv';
}

async function echoScenario(t: TestContext, env: Record<string, string | undefined>, staticSecrets: string[]): Promise<void> {
  const dir = tempDir(t, 'vas-upstream-echo-');
  const issued: string[] = [];
  const base = await startTestServer(t, hostileApi(issued));
  const input = writeEchoPayees(dir);
  const runs: Array<[string, CliResult]> = [];
  const bank = await runCli(['bank', input, '-o', 'out.csv', '--state', 'state.sqlite', '--base-url', base, '--summary', 'summary.json', '--report', 'report.html', '--retry-unconfirmed'], { cwd: dir, env });
  runs.push(['bank', bank]);
  const rows = readCsvObjects(path.join(dir, 'out.csv'));
  assert.equal(rows.length, 18, bank.stderr);
  const byName = Object.fromEntries(rows.map((r) => [r.Name, r]));
  // The echo reached the rows (so the test does test something), redacted.
  for (const ending of ['02', '03', '04', '05', '06']) {
    assert.match(byName[`Echo ${ending}`]!.verify_reason!, /\[redacted\]/, `Echo ${ending}: ${byName[`Echo ${ending}`]!.verify_reason}`);
    assert.ok(byName[`Echo ${ending}`]!.verify_reason!.length < 400, 'an echoed body is cut to an excerpt');
  }
  // The request id a gateway filled with the Authorization header: kept, redacted (output, state, report).
  for (const ending of ['07', '08']) assert.match(byName[`Echo ${ending}`]!.verify_request_id!, /^gw Bearer \[redacted\]$/);
  assert.ok(fs.existsSync(path.join(dir, 'report.html')), 'the report was searched');
  // The branch details a gateway echoed the request into: redacted, and cut like a name.
  const branch = byName['Echo 09']!;
  for (const column of ['bank_name', 'bank_branch', 'bank_micr']) assert.match(branch[column]!, /\[redacted\]/, `${column}: ${branch[column]}`);
  assert.equal(branch.bank_city!.length, 300);
  // A run of failures (HTML pages that echo the request) stops with the breaker's line on stderr,
  // which quotes the last failure.
  const failing = ['Name,Account Number,IFSC', ...[1, 2, 3, 4, 5].map((i) => `F${i},7200000${i}0005,SBIN0001234`)].join('\n');
  fs.writeFileSync(path.join(dir, 'failing.csv'), `${failing}\n`);
  const breaker = await runCli(['bank', 'failing.csv', '-o', 'failing.out.csv', '--state', 'state.sqlite', '--base-url', base, '--concurrency', '1'], { cwd: dir, env });
  assert.match(breaker.stderr, /error: \d call\(s\) in a row failed \(last: .*\[redacted\]/, breaker.stderr);
  runs.push(['breaker', breaker]);
  // Documents: the error page of a document URL echoes the token; --json and text.
  for (const json of [true, false]) {
    const docs = await runCli(['docs', 'fetch', SESSION, '--state', 'state.sqlite', '--base-url', base, '--download', 'docs', ...(json ? ['--json'] : [])], { cwd: dir, env });
    assert.equal(docs.code, 1, docs.stderr);
    assert.match(json ? docs.stdout : docs.stderr, /download failed/);
    runs.push([`docs fetch${json ? ' --json' : ''}`, docs]);
  }
  const secrets = [...staticSecrets, ...issued];
  if (env.VAS_CLIENT_ID) assert.ok(issued.length >= 1, 'tokens were issued');
  for (const [what, r] of runs) {
    assert.doesNotMatch(r.stderr, /\n\s+at |this is a bug/, `${what}: no stack trace`);
    assertNoSecret(`${what} stdout`, r.stdout, secrets);
    assertNoSecret(`${what} stderr`, r.stderr, secrets);
  }
  const written = everyWrittenFile(dir, input);
  assert.ok(written.some(([name]) => name === 'state.sqlite-wal' || name === 'state.sqlite'), 'the state file was searched');
  assert.ok(written.some(([name]) => name === 'summary.json'), 'the summary was searched');
  for (const [name, bytes] of written) assertNoSecret(name, bytes, secrets);
}

test('echoed Authorization headers (500, 400, 422, a 200 error, an HTML page, a success remark, the request id header, branch details, a document error page): the static token is nowhere in CSV, state, WAL, summary, report, stdout, stderr', { timeout: 120_000 }, async (t) => {
  const token = `tok_${randomBytes(12).toString('hex')}`;
  await echoScenario(t, { VAS_TOKEN: token }, [token]);
});

test('the same echoes with OAuth client credentials: neither the client secret nor any issued access token is written anywhere', { timeout: 120_000 }, async (t) => {
  const secret = `cs_${randomBytes(12).toString('hex')}`;
  await echoScenario(t, { VAS_TOKEN: undefined, VAS_CLIENT_ID: 'client-1', VAS_CLIENT_SECRET: secret }, [secret]);
});

/** Peak resident memory of a running process in MB (VmHWM), polled until it exits. */
function watchPeakRss(pid: number): { stop(): number } {
  let peak = 0;
  const read = () => {
    try {
      const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
      const kb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
      peak = Math.max(peak, kb / 1024);
    } catch {
      // Gone: the last reading stands.
    }
  };
  const timer = setInterval(read, 25);
  return {
    stop() {
      clearInterval(timer);
      read();
      return peak;
    },
  };
}

test('bodies of hundreds of MB (an API error, a 200 answer, the token endpoint, a document error page and a document) are cut at their caps: bounded peak RSS, bounded bytes read', { timeout: 180_000 }, async (t) => {
  const dir = tempDir(t, 'vas-upstream-big-');
  const sent: Record<string, number> = {};
  const base = await startTestServer(t, async (req, res) => {
    const url = req.url ?? '';
    const body = await readBody(req);
    const key = url.startsWith(API) ? `${url}:${body.includes('0000000001') ? 'error' : body.includes('0000000002') ? 'answer' : 'other'}` : url;
    const record = (n: number) => (sent[key] = (sent[key] ?? 0) + n);
    if (url === '/oauth/v1/token') {
      res.setHeader('content-type', 'application/json');
      record(await stream(res, 300 * MB, ' '));
      return;
    }
    if (url === `${API}doclocker-fetch-status`) {
      res.setHeader('content-type', 'application/json');
      res.end(fetchAnswer(`http://${req.headers.host}`, '/files/big.pdf').replace('/files/big.pdf"', '/files/missing.pdf"'));
      return;
    }
    if (url === '/files/missing.pdf') {
      res.statusCode = 404;
      record(await stream(res, 300 * MB));
      return;
    }
    if (url === '/files/big.pdf') {
      res.setHeader('content-type', 'application/pdf');
      res.write('%PDF-1.4\n');
      record(await stream(res, 300 * MB));
      return;
    }
    res.setHeader('content-type', 'application/json');
    if (body.includes('0000000001')) {
      res.statusCode = 503;
      record(await stream(res, 300 * MB));
    } else {
      record(await stream(res, 300 * MB));
    }
  });
  fs.writeFileSync(path.join(dir, 'payees.csv'), 'Name,Account Number,IFSC\nA,610000000001,SBIN0001234\nB,610000000002,SBIN0001234\n');

  const measure = async (args: string[], env: Record<string, string | undefined> = {}): Promise<{ result: CliResult; peakMb: number; seconds: number }> => {
    const started = Date.now();
    const spawned = spawnCli(args, { cwd: dir, env });
    const watcher = watchPeakRss(spawned.child.pid!);
    const result = await spawned.result;
    return { result, peakMb: watcher.stop(), seconds: (Date.now() - started) / 1000 };
  };
  // The API: a 503 whose body never ends (retried: each attempt cut at 64 KiB) and a 200 of 300 MB.
  const bank = await measure(['bank', 'payees.csv', '-o', 'out.csv', '--state', 'state.sqlite', '--base-url', base, '--mode', 'pd']);
  const rows = readCsvObjects(path.join(dir, 'out.csv'));
  assert.deepEqual(rows.map((r) => r.verify_status), ['FAILED', 'UNCONFIRMED'], bank.result.stderr);
  assert.match(rows[1]!.verify_reason!, /answer larger than 1048576 bytes/);
  // The token endpoint answering 300 MB.
  const token = await measure(['bank', 'payees.csv', '-o', 'out2.csv', '--state', 'state2.sqlite', '--base-url', base], { VAS_TOKEN: undefined, VAS_CLIENT_ID: 'c', VAS_CLIENT_SECRET: 'secret-1234' });
  assert.equal(token.result.code, 3, token.result.stderr);
  for (const row of readCsvObjects(path.join(dir, 'out2.csv'))) assert.match(row.verify_reason!, /token endpoint's answer larger than 65536 bytes/);
  // A document URL answering 404 with 300 MB.
  const notFound = await measure(['docs', 'fetch', SESSION, '--state', 'state3.sqlite', '--base-url', base, '--download', 'docs']);
  assert.equal(notFound.result.code, 1, notFound.result.stderr);
  assert.match(notFound.result.stderr, /pan PDF: download failed: API endpoint not found/);
  assert.match(notFound.result.stderr, /pan XML: download failed: document larger than 20971520 bytes/);
  for (const [what, run] of [['bank', bank], ['token', token], ['docs 404', notFound]] as const) {
    assert.doesNotMatch(run.result.stderr, /\n\s+at |this is a bug|Cannot create a string/, `${what}: ${run.result.stderr}`);
    // tsx and the CLI alone take about 100 MB; the bodies would take 300 MB to 1 GB.
    assert.ok(run.peakMb < 220, `${what}: peak RSS ${run.peakMb.toFixed(0)} MB`);
    t.diagnostic(`${what}: peak RSS ${run.peakMb.toFixed(0)} MB, ${run.seconds.toFixed(1)} s`);
  }
  for (const [key, bytes] of Object.entries(sent)) assert.ok(bytes < 64 * MB, `${key}: ${bytes / MB} MB written before the client hung up`);
});

test('trickled answers (a byte a second) end by --deadline with a clear status: a penny-drop is UNCONFIRMED and never re-sent; a trickled document fails docs fetch', { timeout: 120_000 }, async (t) => {
  const dir = tempDir(t, 'vas-upstream-trickle-');
  const requests: Record<string, number> = {};
  const base = await startTestServer(t, async (req, res) => {
    const url = req.url ?? '';
    requests[url] = (requests[url] ?? 0) + 1;
    await readBody(req);
    if (url === `${API}doclocker-fetch-status`) {
      res.setHeader('content-type', 'application/json');
      res.end(fetchAnswer(`http://${req.headers.host}`, '/files/slow.pdf'));
      return;
    }
    res.setHeader('content-type', url.startsWith('/files/') ? 'application/pdf' : 'application/json');
    trickle(res, url.startsWith('/files/') ? `%PDF-1.4\n${'x'.repeat(1000)}` : bankAnswer('610000000011', 'Asha Rao'), 1_000);
  });
  fs.writeFileSync(path.join(dir, 'payees.csv'), 'Name,Account Number,IFSC\nA,610000000011,SBIN0001234\n');
  let started = Date.now();
  const bank = await runCli(['bank', 'payees.csv', '-o', 'out.csv', '--state', 'state.sqlite', '--base-url', base, '--mode', 'pd', '--timeout', '5s', '--deadline', '3s'], { cwd: dir });
  const bankSeconds = (Date.now() - started) / 1000;
  const rows = readCsvObjects(path.join(dir, 'out.csv'));
  assert.equal(rows[0]!.verify_status, 'UNCONFIRMED', bank.stderr);
  assert.match(rows[0]!.verify_reason!, /within the 3 s deadline/);
  assert.equal(requests[`${API}account-verification-pd`], 1, 'never re-sent');
  assert.ok(bankSeconds < 20, `the run ended by the deadline (${bankSeconds} s)`);

  started = Date.now();
  const docs = await runCli(['docs', 'fetch', SESSION, '--state', 'state.sqlite', '--base-url', base, '--download', 'docs', '--deadline', '2s'], { cwd: dir });
  const docsSeconds = (Date.now() - started) / 1000;
  assert.equal(docs.code, 1, docs.stderr);
  assert.match(docs.stderr, /pan PDF: download failed: no complete answer from http:\/\/127\.0\.0\.1:\d+\/files\/slow\.pdf in time: .*2 s deadline/);
  assert.equal(requests['/files/slow.pdf'], 2, 'a trickled document is not retried (one PDF, one XML)');
  assert.ok(docsSeconds < 20, `docs fetch ended by the deadline (${docsSeconds} s)`);
  const usage = await runCli(['bank', 'payees.csv', '-o', 'out.csv', '--state', 'state.sqlite', '--base-url', base, '--deadline', 'soon'], { cwd: dir });
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /^error: --deadline: /);
});

test('symbolic links are refused before anything is touched: --state (to a file, dangling), -o, --summary, --download', { timeout: 60_000 }, async (t) => {
  const dir = tempDir(t, 'vas-upstream-links-');
  fs.writeFileSync(path.join(dir, 'payees.csv'), 'Name,Account Number,IFSC\nA,610000000011,SBIN0001234\n');
  fs.writeFileSync(path.join(dir, 'notes.txt'), 'not a database\n', { mode: 0o644 });
  fs.chmodSync(path.join(dir, 'notes.txt'), 0o644);
  fs.symlinkSync('notes.txt', path.join(dir, 'state-link.sqlite'));
  fs.symlinkSync('nowhere.sqlite', path.join(dir, 'dangling.sqlite'));
  fs.symlinkSync('notes.txt', path.join(dir, 'out-link.csv'));
  fs.mkdirSync(path.join(dir, 'real-docs'));
  fs.symlinkSync('real-docs', path.join(dir, 'docs-link'));
  const base = await startTestServer(t, async (req, res) => {
    await readBody(req);
    res.setHeader('content-type', 'application/json');
    res.end(fetchAnswer(`http://${req.headers.host}`, '/files/pan.pdf'));
  });
  const run = (args: string[]) => runCli(args, { cwd: dir, env: { VAS_TOKEN: 'sandbox-token' } });
  const cases: Array<[string[], RegExp]> = [
    [['bank', 'payees.csv', '-o', 'out.csv', '--state', 'state-link.sqlite', '--sandbox'], /state file state-link\.sqlite is a symbolic link: refusing to follow it/],
    [['bank', 'payees.csv', '-o', 'out.csv', '--state', 'dangling.sqlite', '--sandbox'], /state file dangling\.sqlite is a symbolic link/],
    [['bank', 'payees.csv', '-o', 'out-link.csv', '--state', 'ok.sqlite', '--sandbox'], /-o path out-link\.csv is a symbolic link/],
    [['bank', 'payees.csv', '-o', 'out.csv', '--state', 'ok.sqlite', '--summary', 'out-link.csv', '--sandbox'], /--summary path out-link\.csv is a symbolic link/],
    [['docs', 'fetch', SESSION, '--state', 'docs.sqlite', '--base-url', base, '--download', 'docs-link'], /download directory docs-link is a symbolic link/],
  ];
  for (const [args, pattern] of cases) {
    const r = await run(args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, pattern);
    assert.doesNotMatch(r.stderr, /\n\s+at |this is a bug/);
  }
  assert.equal(fs.statSync(path.join(dir, 'notes.txt')).mode & 0o777, 0o644, 'the link target was not chmod\'ed');
  assert.equal(fs.readFileSync(path.join(dir, 'notes.txt'), 'utf8'), 'not a database\n');
  assert.ok(!fs.existsSync(path.join(dir, 'nowhere.sqlite')), 'a dangling link did not create its target');
  assert.deepEqual(fs.readdirSync(path.join(dir, 'real-docs')), []);
});

test('control characters from outside (a webhook sessionId with ESC and BEL, an API message) never reach the terminal', { timeout: 60_000 }, async (t) => {
  const dir = tempDir(t, 'vas-upstream-ctrl-');
  const hostile = 'abc\u001b[2J\u001b]0;owned\u0007\rdef\u009b31m';
  const base = await startTestServer(t, async (req, res) => {
    await readBody(req);
    res.statusCode = 401;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ ok: false, responseCode: 401, message: `Invalid Credentials ${hostile}` }));
  });
  const listener = spawnCli(['docs', 'listen', '--port', '0', '--state', 'state.sqlite'], { cwd: dir });
  t.after(() => listener.child.kill('SIGTERM'));
  const until = Date.now() + 20_000;
  while (!/^success webhook: /m.test(listener.stdout()) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  const successUrl = /^success webhook: (\S+)$/m.exec(listener.stdout())?.[1];
  assert.ok(successUrl, listener.stderr());
  const payload = JSON.stringify({ event: 'doclocker.success', sessionId: hostile, status: 'Completed' });
  for (let i = 0; i < 2; i += 1) {
    const res = await fetch(successUrl, { method: 'POST', body: payload, headers: { 'content-type': 'application/json' } });
    assert.equal(res.status, 200);
  }
  while (!/repeated success callback/.test(listener.stderr()) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  listener.child.kill('SIGTERM');
  const done = await listener.result;
  assert.match(done.stderr, /repeated success callback for session abc\ufffd\[2J/);
  // A bank run whose failure message carries escape sequences: its log lines are clean too.
  fs.writeFileSync(path.join(dir, 'payees.csv'), 'Name,Account Number,IFSC\nA,610000000011,SBIN0001234\n');
  const bank = await runCli(['bank', 'payees.csv', '-o', 'out.csv', '--state', 'bank.sqlite', '--base-url', base, '--mode', 'pd', '--log-format', 'text'], { cwd: dir });
  assert.match(bank.stderr, /the API refused the token \(Invalid Credentials abc\ufffd\[2J/, bank.stderr);
  for (const [what, text] of [['listener stdout', done.stdout], ['listener stderr', done.stderr], ['bank stdout', bank.stdout], ['bank stderr', bank.stderr]] as const) {
    assert.doesNotMatch(text, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/, `${what}: ${JSON.stringify(text.slice(0, 500))}`);
  }
});

test('documents from a host the API names: the output says where each came from; --docs-allow-host refuses other hosts', { timeout: 60_000 }, async (t) => {
  const dir = tempDir(t, 'vas-upstream-hosts-');
  const pdf = '%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n';
  let fileRequests = 0;
  const files = await startTestServer(t, (req, res) => {
    fileRequests += 1;
    assert.equal(req.headers.authorization, undefined, 'no token to another origin');
    res.end(req.url?.endsWith('.xml') ? '<?xml version="1.0"?><doc/>' : pdf);
  });
  const base = await startTestServer(t, async (req, res) => {
    await readBody(req);
    res.setHeader('content-type', 'application/json');
    res.end(fetchAnswer(files.replace('127.0.0.1', 'localhost'), '/files/pan.pdf').replace(/("xmlUrl":"[^"]*)\.pdf"/, '$1.xml"'));
  });
  const filesHost = new URL(files).host.replace('127.0.0.1', 'localhost');
  const open = await runCli(['docs', 'fetch', SESSION, '--state', 'state.sqlite', '--base-url', base, '--download', 'docs'], { cwd: dir });
  assert.equal(open.code, 0, open.stderr);
  assert.match(open.stdout, new RegExp(`saved: .*pan\\.pdf \\(from http://${filesHost}\\)`));
  const json = await runCli(['docs', 'fetch', SESSION, '--state', 'state.sqlite', '--base-url', base, '--download', 'docs', '--json'], { cwd: dir });
  assert.equal((JSON.parse(json.stdout) as { files: Array<{ source: string }> }).files[0]!.source, `http://${filesHost}`);
  const before = fileRequests;
  const refused = await runCli(['docs', 'fetch', SESSION, '--state', 'state.sqlite', '--base-url', base, '--download', 'docs2', '--docs-allow-host', 'docs.example.com'], { cwd: dir });
  assert.equal(refused.code, 1, refused.stderr);
  assert.match(refused.stderr, new RegExp(`document host ${filesHost} is not in --docs-allow-host: not fetched`));
  assert.equal(fileRequests, before, 'nothing fetched from a host not allowed');
  const allowed = await runCli(['docs', 'fetch', SESSION, '--state', 'state.sqlite', '--base-url', base, '--download', 'docs3', '--docs-allow-host', filesHost], { cwd: dir });
  assert.equal(allowed.code, 0, allowed.stderr);
});

test('beneficiary names through the CLI: a 900,000-character name is stored cut; an undecodable name is NOT_VERIFIED with a reason', { timeout: 60_000 }, async (t) => {
  const dir = tempDir(t, 'vas-upstream-names-');
  const base = await startTestServer(t, async (req, res) => {
    const account = (JSON.parse(await readBody(req)) as { accountNumber: string }).accountNumber;
    const name = account.endsWith('11') ? Buffer.from('N'.repeat(900_000)) : Buffer.from([0x52, 0x61, 0x6f, 0x20, 0xff, 0xfe]);
    res.setHeader('content-type', 'application/json');
    const [head, tail] = bankAnswer(account, '@@NAME@@').split('@@NAME@@');
    res.end(Buffer.concat([Buffer.from(head!), name, Buffer.from(tail!)]));
  });
  fs.writeFileSync(path.join(dir, 'payees.csv'), 'Name,Account Number,IFSC\nN,610000000011,SBIN0001234\nRao,610000000012,SBIN0001234\n');
  const r = await runCli(['bank', 'payees.csv', '-o', 'out.csv', '--state', 'state.sqlite', '--base-url', base], { cwd: dir });
  assert.ok(r.code === 0 || r.code === 3, r.stderr);
  const rows = readCsvObjects(path.join(dir, 'out.csv'));
  assert.equal(rows[0]!.beneficiary_name!.length, 300);
  assert.equal(rows[1]!.verify_status, 'NOT_VERIFIED');
  assert.match(rows[1]!.verify_reason!, /not valid UTF-8/);
  const stored = fs.statSync(path.join(dir, 'state.sqlite')).size + (fs.existsSync(path.join(dir, 'state.sqlite-wal')) ? fs.statSync(path.join(dir, 'state.sqlite-wal')).size : 0);
  assert.ok(stored < 800_000, `the state file does not hold the whole name (${stored} bytes)`);
});

test('a fetch-status answer about another session than the one asked is refused: nothing saved, exit 1, one line', async (t) => {
  const dir = tempDir(t, 'vas-upstream-session-');
  const other = '../../../../tmp/escaped';
  const base = await startTestServer(t, async (req, res) => {
    await readBody(req);
    res.setHeader('content-type', 'application/json');
    if (req.url === `${API}doclocker-fetch-status`) {
      res.end(fetchAnswer(`http://${req.headers.host}`, '/files/doc.pdf').replace(JSON.stringify(SESSION), JSON.stringify(other)));
      return;
    }
    if (req.url === '/files/doc.pdf') {
      res.setHeader('content-type', 'application/pdf');
      res.end('%PDF-1.4\n%%EOF\n');
      return;
    }
    res.statusCode = 404;
    res.end('{}');
  });
  const docs = await runCli(['docs', 'fetch', SESSION, '--state', 'state.sqlite', '--base-url', base, '--download', 'docs'], { cwd: dir, env: { VAS_TOKEN: 'sandbox-token' } });
  assert.equal(docs.code, 1, docs.stderr);
  assert.match(docs.stderr, /^error: .*the API answered about another session \("\.\.\/\.\.\/\.\.\/\.\.\/tmp\/escaped"\) than [0-9a-f-]+: nothing was saved/m);
  assert.doesNotMatch(docs.stderr, /\n\s+at /);
  assert.ok(!fs.existsSync(path.join(dir, 'docs')) || fs.readdirSync(path.join(dir, 'docs'), { recursive: true }).length === 0, 'no document saved');
});

test('a document-locker answer that echoes the Authorization header (the consent URL of docs init, the status of docs fetch): the token is not in the state file', { timeout: 60_000 }, async (t) => {
  const dir = tempDir(t, 'vas-upstream-docs-echo-');
  const token = `tok_${randomBytes(12).toString('hex')}`;
  const base = await startTestServer(t, async (req, res) => {
    const body = await readBody(req);
    const auth = encodeURIComponent(req.headers.authorization ?? '');
    res.setHeader('content-type', 'application/json');
    const answer = req.url === `${API}doclocker-init`
      ? { sessionId: SESSION, url: `http://${req.headers.host}/consent?echo=${auth}` }
      : { sessionId: (JSON.parse(body) as { sessionId: string }).sessionId, status: `Pending ${req.headers.authorization ?? ''}`, documents: [] };
    res.end(JSON.stringify({ ok: true, responseCode: 200, message: 'Transmission OK', body: answer }));
  });
  const env = { VAS_TOKEN: token };
  const init = await runCli(['docs', 'init', '--state', 'state.sqlite', '--base-url', base], { cwd: dir, env });
  assert.equal(init.code, 0, init.stderr);
  const fetched = await runCli(['docs', 'fetch', SESSION, '--state', 'state.sqlite', '--base-url', base], { cwd: dir, env });
  assert.match(fetched.stdout, /Pending Bearer \[redacted\]/, 'the echo reached the answer (so the test tests something)');
  for (const [what, text] of [['init', init.stdout + init.stderr], ['fetch', fetched.stdout + fetched.stderr]] as const) assertNoSecret(what, text, [token]);
  for (const [name, bytes] of everyWrittenFile(dir, '')) assertNoSecret(name, bytes, [token]);
});
