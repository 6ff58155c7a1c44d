/**
 * The client over real HTTP against the sandbox on port 0; counts come from /__sandbox/stats.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createClient, type Client, type ClientOptions } from '../src/api/client.js';
import { VasError } from '../src/api/errors.js';
import { startSandbox, type Sandbox, type SandboxOptions } from '../src/sandbox/index.js';
import { startTestServer } from './helpers/server.js';

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
  assert.match(huge503.message, /answer larger than 1048576 bytes, not read/);
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
  setTimeout(() => shared.abort(), 100);
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
