/**
 * The client over real HTTP against the sandbox on port 0; counts come from /__sandbox/stats.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { createClient, type Client, type ClientOptions } from '../src/api/client.js';
import { VasError } from '../src/api/errors.js';
import { startSandbox, type Sandbox, type SandboxOptions } from '../src/sandbox/index.js';
import { startTestServer, trickle } from './helpers/server.js';

const IFSC = 'SBIN0001234';
const FAST_RETRY = { baseMs: 5, capMs: 20 };

async function setup(t: TestContext, sandboxOptions: SandboxOptions = {}, clientOptions: Partial<ClientOptions> = {}): Promise<{ sandbox: Sandbox; client: Client }> {
  const sandbox = await startSandbox(sandboxOptions);
  t.after(() => sandbox.close());
  const client = createClient({ baseUrl: sandbox.url, token: 'sandbox-token', retry: FAST_RETRY, ...clientOptions });
  t.after(() => client.close());
  return { sandbox, client };
}

async function failure(promise: Promise<unknown>): Promise<VasError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof VasError, `expected a VasError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected the call to fail');
}

const sum = (record: Record<string, number>) => Object.values(record).reduce((a, b) => a + b, 0);

test('each operation answers its typed success shape', async (t) => {
  const { sandbox, client } = await setup(t);
  const pl = await client.verifyBankAccount({ accountNumber: '123456789012', ifsc: IFSC, mode: 'pl' });
  assert.equal(pl.result.verificationStatus, 'VERIFIED');
  assert.equal(pl.result.isPennyDrop, false);
  assert.match(pl.result.beneficiaryName ?? '', /^[A-Z][A-Z .&/]+$/);
  assert.equal(pl.result.ifscDetails?.name, 'State Bank of India');
  assert.match(pl.result.ifscDetails?.iso3166 ?? '', /^IN-[A-Z]{2}$/);
  assert.match(pl.requestId ?? '', /.+/);
  assert.equal(pl.attempts, 1);

  const pd = await client.verifyBankAccount({ accountNumber: '123456789012', ifsc: IFSC, mode: 'pd' });
  assert.equal(pd.result.isPennyDrop, true);
  assert.equal(pd.result.beneficiaryName, pl.result.beneficiaryName, 'the holder name is deterministic');

  const init = await client.docInit({ pinlessVerification: true });
  assert.match(init.result.sessionId, /^[0-9a-f-]{36}$/);
  assert.ok(init.result.url.startsWith(sandbox.url));
  const status = await client.docFetchStatus(init.result.sessionId);
  assert.equal(status.result.sessionId, init.result.sessionId);
  assert.notEqual(status.result.status, 'Completed');
  assert.deepEqual(status.result.documents, []);
  assert.equal(sandbox.stats().deposits['123456789012'], 1);
});

test('the interface error table, classified against the sandbox', async (t) => {
  const { client } = await setup(t);
  const cases: Array<[string, string, Partial<Record<'kind' | 'code' | 'status' | 'retryable', unknown>>]> = [
    ['12345', IFSC, { kind: 'invalid-input', code: 'invalid-account', status: 400 }],
    ['123456789091', IFSC, { kind: 'invalid-input', code: 'invalid-account', status: 200 }],
    ['123456789012', 'SBIN000123', { kind: 'invalid-input', code: 'ifsc-length', status: 200 }],
    ['123456789012', 'ZZZZ0001234', { kind: 'invalid-input', code: 'invalid-ifsc', status: 200 }],
    ['123456789092', IFSC, { kind: 'quota', code: 'daily-limit', status: 200, retryable: false }],
  ];
  for (const [account, ifsc, expected] of cases) {
    const error = await failure(client.verifyBankAccount({ accountNumber: account, ifsc, mode: 'pl' }));
    for (const [field, value] of Object.entries(expected)) {
      assert.equal((error as unknown as Record<string, unknown>)[field], value, `${account}/${ifsc}: ${field}`);
    }
    assert.match(error.requestId ?? '', /.+/, 'request id kept');
  }
  const expired = await failure(client.docFetchStatus('00000000-0000-4000-8000-000000000000'));
  assert.equal(expired.kind, 'session-expired');
});

test('401, 429, 500 and 503 from the sandbox are classified and, where retryable, retried to the limit', async (t) => {
  const { sandbox } = await setup(t);
  const wrong = createClient({ baseUrl: sandbox.url, token: 'not-the-token', retry: FAST_RETRY });
  t.after(() => wrong.close());
  const auth = await failure(wrong.verifyBankAccount({ accountNumber: '123456789012', ifsc: IFSC, mode: 'pl' }));
  assert.deepEqual([auth.kind, auth.status, auth.retryable], ['auth', 401, false]);
  assert.match(auth.message, /check VAS_TOKEN/);
  assert.doesNotMatch(auth.describe(), /not-the-token/, 'the token never appears in error text');

  for (const [fault, kind] of [['429', 'quota'], ['500', 'server'], ['503', 'unavailable']] as const) {
    const faulty = await startSandbox({ faultRate: 1, faults: [fault] });
    t.after(() => faulty.close());
    const client = createClient({ baseUrl: faulty.url, token: 'sandbox-token', retry: { ...FAST_RETRY, maxAttempts: 3, serverErrorMinMs: 1, serverErrorMaxMs: 5 } });
    t.after(() => client.close());
    const error = await failure(client.verifyBankAccount({ accountNumber: '123456789012', ifsc: IFSC, mode: 'pd' }));
    assert.equal(error.kind, kind, fault);
    assert.equal(error.status, Number(fault));
    assert.equal(sum(faulty.stats().requests), 3, `${fault}: three attempts`);
    assert.deepEqual(faulty.stats().deposits, {}, 'a fault injected before processing moves no money');
  }
});

test('account ending 93: 503 twice, then success — exactly 3 requests', async (t) => {
  const { sandbox, client } = await setup(t);
  const answer = await client.verifyBankAccount({ accountNumber: '500000000093', ifsc: IFSC, mode: 'pl' });
  assert.equal(answer.result.verificationStatus, 'VERIFIED');
  assert.equal(answer.attempts, 3);
  assert.equal(sandbox.stats().requests['account-verification-pl'], 3);
  assert.equal(sandbox.stats().responses['503'], 2);
});

test('account ending 95: a 500 waits at least 1 s before the retry', async (t) => {
  const { sandbox } = await setup(t);
  const client = createClient({ baseUrl: sandbox.url, token: 'sandbox-token' });
  t.after(() => client.close());
  const started = performance.now();
  const answer = await client.verifyBankAccount({ accountNumber: '500000000095', ifsc: IFSC, mode: 'pl' });
  assert.ok(performance.now() - started >= 1000, 'the interface asks 500s to wait 1–5 s');
  assert.equal(answer.attempts, 2);
  assert.equal(sandbox.stats().requests['account-verification-pl'], 2);
});

test('429 with Retry-After is honoured', async (t) => {
  const { sandbox } = await setup(t, { rateLimit: 1 });
  const client = createClient({ baseUrl: sandbox.url, token: 'sandbox-token' });
  t.after(() => client.close());
  const retries: number[] = [];
  const observed = createClient({ baseUrl: sandbox.url, token: 'sandbox-token', onRetry: (e) => retries.push(e.delayMs) });
  t.after(() => observed.close());
  await client.verifyBankAccount({ accountNumber: '123456789012', ifsc: IFSC, mode: 'pl' });
  const started = performance.now();
  const answer = await observed.verifyBankAccount({ accountNumber: '123456789013', ifsc: IFSC, mode: 'pl' });
  assert.equal(answer.result.verificationStatus, 'VERIFIED');
  assert.ok(sandbox.stats().responses['429']! >= 1);
  assert.ok(retries.length >= 1 && retries[0]! >= 1000, `waited per Retry-After: ${retries.join(',')}`);
  assert.ok(performance.now() - started >= 1000);
});

test('account ending 97: a penny-drop is never re-sent after the connection drops; penny-less is', async (t) => {
  const { sandbox, client } = await setup(t);
  const error = await failure(client.verifyBankAccount({ accountNumber: '500000000097', ifsc: IFSC, mode: 'pd' }));
  assert.equal(error.ambiguous, true);
  assert.equal(sandbox.stats().requests['account-verification-pd'], 1);
  assert.equal(sandbox.stats().deposits['500000000097'], 1, 'exactly one rupee moved');

  const pl = await client.verifyBankAccount({ accountNumber: '600000000097', ifsc: IFSC, mode: 'pl' });
  assert.equal(pl.result.verificationStatus, 'VERIFIED');
  assert.equal(pl.attempts, 2);
  assert.equal(sandbox.stats().requests['account-verification-pl'], 2);
});

test('OAuth: the token is cached, refreshed once after expiry, and 20 concurrent 401s share one refresh', async (t) => {
  const sandbox = await startSandbox({ clientId: 'cid', clientSecret: 'csecret', tokenTtlSeconds: 1 });
  t.after(() => sandbox.close());
  const client = createClient({ baseUrl: sandbox.url, clientId: 'cid', clientSecret: 'csecret', retry: FAST_RETRY });
  t.after(() => client.close());
  await client.verifyBankAccount({ accountNumber: '123456789012', ifsc: IFSC, mode: 'pl' });
  await client.verifyBankAccount({ accountNumber: '123456789013', ifsc: IFSC, mode: 'pl' });
  assert.equal(sandbox.stats().requests.token, 1, 'cached');
  await new Promise((r) => setTimeout(r, 1100));
  await client.verifyBankAccount({ accountNumber: '123456789014', ifsc: IFSC, mode: 'pl' });
  assert.equal(sandbox.stats().requests.token, 2, 'one refresh after expiry');

  // A client whose clock runs late believes its token is still good: the server's 401s decide.
  let lag = 0;
  const late = createClient({ baseUrl: sandbox.url, clientId: 'cid', clientSecret: 'csecret', retry: FAST_RETRY, now: () => Date.now() - lag });
  t.after(() => late.close());
  await late.verifyBankAccount({ accountNumber: '123456789012', ifsc: IFSC, mode: 'pl' });
  const before = sandbox.stats().requests.token ?? 0;
  lag = 60_000;
  await new Promise((r) => setTimeout(r, 1100));
  const answers = await Promise.all(
    Array.from({ length: 20 }, (_, i) => late.verifyBankAccount({ accountNumber: String(223456789000 + i), ifsc: IFSC, mode: 'pl' })),
  );
  assert.equal(answers.length, 20);
  assert.ok(sandbox.stats().responses['401']! >= 20, 'all twenty saw the expired token');
  assert.equal((sandbox.stats().requests.token ?? 0) - before, 1, 'one shared refresh');
});

for (const [account, failure] of [['500000000095', 'a 500'], ['600000000097', 'a dropped connection']] as const) {
  test(`OAuth: a token that expires again within one call's retries (after ${failure}) is refreshed again (a fresh token refused at once stays fatal: the next test)`, async (t) => {
    // The sandbox's clock jumps past each token's minute while the client's does not: the token
    // looks good to the client and the server's 401s decide, with no sleeping.
    let skew = 0;
    const sandbox = await startSandbox({ clientId: 'cid', clientSecret: 'csecret', tokenTtlSeconds: 60, now: () => Date.now() + skew });
    t.after(() => sandbox.close());
    const client = createClient({
      baseUrl: sandbox.url, clientId: 'cid', clientSecret: 'csecret',
      retry: { ...FAST_RETRY, serverErrorMinMs: 5, serverErrorMaxMs: 5 },
      // Account 95 answers 500 once, 97 drops its first connection: while the call waits to
      // retry, its new token expires too.
      onRetry: () => {
        skew += 61_000;
      },
    });
    t.after(() => client.close());
    await client.verifyBankAccount({ accountNumber: '123456789012', ifsc: IFSC, mode: 'pl' });
    skew += 61_000;
    // 401 (expired) → new token → the failure → 401 (expired again) → new token → the answer.
    const answer = await client.verifyBankAccount({ accountNumber: account, ifsc: IFSC, mode: 'pl' });
    assert.equal(answer.result.verificationStatus, 'VERIFIED');
    assert.equal(answer.attempts, 2, 'the failure cost an attempt; the two refreshes did not');
    assert.equal(sandbox.stats().responses['401'], 2);
    assert.equal(sandbox.stats().requests.token, 3, 'the first token and two refreshes');
  });
}

test('OAuth: a 401 right after a fresh token is fatal; rejected credentials say so', async (t) => {
  const sandbox = await startSandbox({ clientId: 'cid', clientSecret: 'csecret' });
  t.after(() => sandbox.close());
  const bad = createClient({ baseUrl: sandbox.url, clientId: 'cid', clientSecret: 'wrong', retry: FAST_RETRY });
  t.after(() => bad.close());
  const rejected = await failure(bad.verifyBankAccount({ accountNumber: '123456789012', ifsc: IFSC, mode: 'pl' }));
  assert.equal(rejected.kind, 'auth');
  assert.match(rejected.message, /rejected the client credentials/);
  assert.doesNotMatch(rejected.describe(), /wrong/);

  // A token endpoint on another server hands out tokens the API does not accept.
  const other = await startSandbox({ clientId: 'cid', clientSecret: 'csecret' });
  t.after(() => other.close());
  const mismatched = createClient({ baseUrl: sandbox.url, tokenUrl: `${other.url}/oauth/v1/token`, clientId: 'cid', clientSecret: 'csecret', retry: FAST_RETRY });
  t.after(() => mismatched.close());
  const fatal = await failure(mismatched.verifyBankAccount({ accountNumber: '123456789012', ifsc: IFSC, mode: 'pl' }));
  assert.equal(fatal.kind, 'auth');
  assert.match(fatal.message, /freshly issued token/);
  assert.equal(sandbox.stats().requests['account-verification-pl'], 2, 'one refresh, then it gives up');
});

/** A server that misbehaves in the ways proxies and broken deployments do. */
function misbehavingServer(t: TestContext): Promise<string> {
  return startTestServer(t, (req, res) => {
    req.resume();
    req.on('end', () => {
      const mode = req.url?.split('/')[1];
      res.setHeader('x-request-id', `bad-${mode}`);
      if (mode === 'hang') return;
      if (mode === 'malformed') res.end('{"ok": true, "responseCode": 200, "body": {');
      else if (mode === 'html') {
        res.setHeader('content-type', 'text/html');
        res.end('<html><body><h1>Corporate proxy: please log in</h1></body></html>');
      } else if (mode === 'huge' || mode === 'huge503') {
        // Two megabytes of JSON-looking bytes, in chunks.
        res.statusCode = mode === 'huge' ? 200 : 503;
        res.setHeader('content-type', 'application/json');
        res.write('{"ok": true, "padding": "');
        for (let i = 0; i < 32; i += 1) res.write('x'.repeat(64 * 1024));
        res.end('"}');
      } else if (mode === 'bom') {
        // A gateway that starts its JSON with a UTF-8 byte-order mark.
        res.writeHead(400, { 'content-type': 'application/json; charset=utf-8' });
        res.end(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify({ ok: false, responseCode: 400, message: 'Invalid Account Number' }))]));
      } else if (mode === 'cut') {
        // Headers promise a body that never comes whole: the connection is cut mid-answer.
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
        res.write('{"ok": true,', () => res.destroy());
      } else if (mode === 'schema') {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ ok: true, responseCode: 200, message: 'Transmission OK', body: { accountNumber: 1 } }));
      } else res.end('{}');
    });
  });
}

test('a misbehaving server gives clear protocol and timeout errors, never a crash', async (t) => {
  const base = await misbehavingServer(t);
  const unhandled: unknown[] = [];
  const onUnhandled = (e: unknown) => unhandled.push(e);
  process.on('unhandledRejection', onUnhandled);
  t.after(() => process.off('unhandledRejection', onUnhandled));
  // The first path segment of the base URL selects the misbehaviour.
  const call = (mode: string, options: Partial<ClientOptions> = {}) => {
    const client = createClient({ baseUrl: `${base}/${mode}`, token: 't0k3n-secret', retry: { ...FAST_RETRY, maxAttempts: 2 }, ...options });
    t.after(() => client.close());
    return failure(client.verifyBankAccount({ accountNumber: '123456789012', ifsc: IFSC, mode: 'pl' }));
  };
  const malformed = await call('malformed');
  assert.equal(malformed.kind, 'protocol');
  assert.match(malformed.message, /not JSON/);
  const html = await call('html');
  assert.equal(html.kind, 'protocol');
  assert.match(html.message, /text\/html.*Corporate proxy/);
  const schema = await call('schema');
  assert.equal(schema.kind, 'protocol');
  assert.match(schema.message, /field "body\.accountNumber"/);
  assert.equal(schema.requestId, 'bad-schema');
  const huge = await call('huge');
  assert.equal(huge.kind, 'protocol');
  assert.match(huge.message, /answer larger than 1048576 bytes/);
  assert.equal(huge.requestId, 'bad-huge');
  assert.equal(huge.ambiguous, true, 'a 200 that could not be read may have done its work');
  const huge503 = await call('huge503');
  assert.deepEqual([huge503.kind, huge503.status, huge503.ambiguous], ['unavailable', 503, false]);
  // An error body is read up to 64 KiB, no further, and only a short excerpt of it is kept.
  assert.match(huge503.message, /^\{"ok": true, "padding": "x+…$/);
  assert.ok(huge503.message.length <= 201, `an excerpt: ${huge503.message.length} characters`);
  const bom = await call('bom');
  assert.deepEqual([bom.kind, bom.code, bom.message], ['invalid-input', 'invalid-account', 'Invalid Account Number']);
  const cut = await call('cut');
  assert.deepEqual([cut.kind, cut.code, cut.ambiguous, cut.status, cut.requestId], ['network', 'reset', true, 200, 'bad-cut']);
  const hang = await call('hang', { headersTimeoutMs: 200, bodyTimeoutMs: 200 });
  assert.equal(hang.kind, 'timeout');
  assert.equal(hang.ambiguous, true);
  const nowhere = createClient({ baseUrl: 'http://127.0.0.1:9', token: 'x', retry: { ...FAST_RETRY, maxAttempts: 2 } });
  t.after(() => nowhere.close());
  const refused = await failure(nowhere.verifyBankAccount({ accountNumber: '123456789012', ifsc: IFSC, mode: 'pd' }));
  assert.deepEqual([refused.kind, refused.code, refused.ambiguous], ['network', 'refused', false]);
  assert.deepEqual(unhandled, []);
});

test('an AbortSignal cancels a call in flight', async (t) => {
  const { sandbox, client } = await setup(t);
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 100);
  const error = await failure(client.verifyBankAccount({ accountNumber: '500000000096', ifsc: IFSC, mode: 'pl' }, { signal: controller.signal }));
  assert.equal(error.code, 'aborted');
  // Many calls share one signal (a run's): all are cancelled, and a signal aborted before the
  // call sends nothing.
  const shared = new AbortController();
  const before = sandbox.stats().requests['account-verification-pl'] ?? 0;
  const calls = Array.from({ length: 5 }, (_, i) => failure(client.verifyBankAccount({ accountNumber: `50000000${i}096`, ifsc: IFSC, mode: 'pl' }, { signal: shared.signal })));
  // Aborted once all five are in flight at the sandbox (a fixed 100 ms was too short on a loaded
  // machine: calls still queued were, correctly, never sent). Bounded wait.
  for (const until = Date.now() + 10_000; (sandbox.stats().requests['account-verification-pl'] ?? 0) < before + 5 && Date.now() < until;) {
    await new Promise((r) => setTimeout(r, 10));
  }
  shared.abort();
  for (const cancelled of await Promise.all(calls)) assert.equal(cancelled.code, 'aborted');
  assert.equal(sandbox.stats().requests['account-verification-pl'], before + 5);
  const late = await failure(client.verifyBankAccount({ accountNumber: '123456789012', ifsc: IFSC, mode: 'pl' }, { signal: shared.signal }));
  assert.equal(late.code, 'aborted');
  assert.equal(sandbox.stats().requests['account-verification-pl'], before + 5, 'an aborted signal sends nothing');
});

test('no credentials and a base URL that is not a URL are clear errors', () => {
  assert.throws(() => createClient({ baseUrl: 'http://127.0.0.1:1' }), /no credentials: set VAS_TOKEN/);
  assert.throws(() => createClient({ baseUrl: 'not a url', token: 'x' }), /is not a URL/);
  assert.throws(() => createClient({ baseUrl: 'ftp://x', token: 'x' }), /http:\/\/ or https:\/\//);
});

test('a trickled answer (one byte every 100 ms, never silent for long) ends at the total deadline: a timeout, ambiguous, a penny-drop never re-sent', async (t) => {
  let requests = 0;
  const base = await startTestServer(t, (req, res) => {
    requests += 1;
    req.resume();
    res.setHeader('content-type', 'application/json');
    trickle(res, '{"ok": true, "responseCode": 200, "message": "Transmission OK", "body": {}}'.repeat(100), 100);
  });
  const client = createClient({ baseUrl: base, token: 't0k3n-secret', bodyTimeoutMs: 1_000, headersTimeoutMs: 1_000, deadlineMs: 800, retry: { ...FAST_RETRY, maxAttempts: 3 } });
  t.after(() => client.close());
  const started = Date.now();
  const error = await failure(client.verifyBankAccount({ accountNumber: '123456789012', ifsc: IFSC, mode: 'pd' }));
  assert.deepEqual([error.kind, error.code, error.ambiguous], ['timeout', 'deadline', true]);
  assert.match(error.message, /within the 800 ms deadline/);
  assert.equal(requests, 1, 'a penny-drop cut by the deadline is never sent again');
  assert.ok(Date.now() - started < 3_000, `ended by the deadline (${Date.now() - started} ms)`);
  // A penny-less call is retried like any timeout, and each attempt ends at its deadline.
  const pl = await failure(client.verifyBankAccount({ accountNumber: '123456789012', ifsc: IFSC, mode: 'pl' }));
  assert.equal(pl.code, 'deadline');
  assert.equal(requests, 4);
});

test('secrets echoed into error bodies are redacted where the error is created: static token, issued token, URL password', async (t) => {
  const issued = 'iss_9f8e7d6c5b4a39281706f5e4';
  const base = await startTestServer(t, (req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      if (req.url === '/oauth/v1/token') {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ access_token: issued, token_type: 'Bearer', expires_in: 3600 }));
        return;
      }
      res.statusCode = 400;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ errorCode: 400, errorType: 'proxy', errorMessage: `bad: ${req.headers.authorization} ${body}` }));
    });
  });
  const statics = createClient({ baseUrl: base, token: 'tok_static_5a4b3c2d1e', retry: FAST_RETRY });
  t.after(() => statics.close());
  const one = await failure(statics.verifyBankAccount({ accountNumber: '123456789012', ifsc: IFSC, mode: 'pl' }));
  assert.match(one.message, /^bad: Bearer \[redacted\] /);
  const oauth = createClient({ baseUrl: base, clientId: 'id', clientSecret: 'cs_secret_0a1b2c3d', retry: FAST_RETRY });
  t.after(() => oauth.close());
  const two = await failure(oauth.verifyBankAccount({ accountNumber: '123456789012', ifsc: IFSC, mode: 'pl' }));
  assert.match(two.message, /^bad: Bearer \[redacted\] /);
  assert.ok(!two.message.includes(issued), 'an issued token is a secret from the moment it is known');
  const withPassword = createClient({ baseUrl: 'http://user:pa55-w0rd-x@127.0.0.1:9', token: 'x1234', retry: { ...FAST_RETRY, maxAttempts: 1 } });
  t.after(() => withPassword.close());
  const refused = await failure(withPassword.verifyBankAccount({ accountNumber: '123456789012', ifsc: IFSC, mode: 'pl' }));
  assert.equal(refused.code, 'refused');
  assert.ok(!refused.message.includes('pa55-w0rd-x'), refused.message);
  assert.match(refused.message, /user:\[redacted\]@127\.0\.0\.1:9/);
});

test('beneficiary names: cut at 300 characters; invalid UTF-8 is not passed off as VERIFIED', async (t) => {
  const base = await startTestServer(t, (req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      const account = (JSON.parse(body) as { accountNumber: string }).accountNumber;
      const name = account.endsWith('1') ? Buffer.from('N'.repeat(900_000)) : Buffer.from([0x41, 0x73, 0x68, 0x61, 0x20, 0xff, 0xfe, 0xc3]);
      res.setHeader('content-type', 'application/json');
      res.end(Buffer.concat([
        Buffer.from(`{"ok":true,"responseCode":200,"message":"Transmission OK","body":{"accountNumber":"${account}","beneficiaryName":"`),
        name,
        Buffer.from('","verificationStatus":"VERIFIED","transactionRemark":null,"isPennyDrop":false,"ifscDetails":null}}'),
      ]));
    });
  });
  const client = createClient({ baseUrl: base, token: 't0k3n-secret', retry: FAST_RETRY });
  t.after(() => client.close());
  const long = await client.verifyBankAccount({ accountNumber: '123456789011', ifsc: IFSC, mode: 'pl' });
  assert.equal(long.result.beneficiaryName!.length, 300);
  assert.match(long.result.beneficiaryName!, /^N+…$/);
  assert.equal(long.result.verificationStatus, 'VERIFIED');
  const broken = await client.verifyBankAccount({ accountNumber: '123456789012', ifsc: IFSC, mode: 'pl' });
  assert.equal(broken.result.verificationStatus, 'NOT_VERIFIED');
  assert.match(broken.result.transactionRemark!, /not valid UTF-8/);
  assert.match(broken.result.beneficiaryName!, /^Asha \ufffd/);
});

test('the Agent the client loads alone (undici/lib/dispatcher/agent.js) is the one the package exports: an undici that moved it would fall back to the export', () => {
  const require = createRequire(import.meta.url);
  assert.equal(require('undici/lib/dispatcher/agent.js'), require('undici').Agent);
});
