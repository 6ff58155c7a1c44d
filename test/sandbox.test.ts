import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { request } from 'undici';
import {
  BankResultSchema,
  dailyLimitMessage,
  EnvelopeErrorSchema,
  ErrorIn200Schema,
  MESSAGES,
  OPS,
  ProxyErrorSchema,
  successEnvelope,
  TokenResponseSchema,
} from '../src/api/schemas.js';
import { InputError, UsageError } from '../src/errors.js';
import { startSandbox, type Sandbox, type SandboxOptions } from '../src/sandbox/index.js';
import { waitFor } from './helpers/cli.js';

const BankEnvelope = successEnvelope(BankResultSchema);
const IFSC = 'SBIN0001234';

async function start(t: TestContext, options: SandboxOptions = {}): Promise<Sandbox> {
  const sandbox = await startSandbox(options);
  t.after(() => sandbox.close());
  return sandbox;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: unknown;
}

async function call(sandbox: Sandbox, path: string, body: unknown, init: { token?: string | null; method?: 'GET' | 'POST' } = {}): Promise<Answer> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const token = init.token === undefined ? 'sandbox-token' : init.token;
  if (token !== null) headers['authorization'] = `Bearer ${token}`;
  const method = init.method ?? 'POST';
  const res = await request(`${sandbox.url}${path}`, {
    method,
    headers,
    ...(method === 'POST' ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });
  const text = await res.body.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, headers: res.headers, text, json };
}

const verify = (sandbox: Sandbox, op: 'pl' | 'pd', accountNumber: string, ifscNumber = IFSC, token?: string | null) =>
  call(sandbox, `/vas-api/v1/${op === 'pl' ? OPS.pennyLess : OPS.pennyDrop}`, { accountNumber, ifscNumber }, token === undefined ? {} : { token });

test('penny-less and penny-drop successes match the schemas and count a deposit only for pd', async (t) => {
  const sandbox = await start(t);
  const pl = await verify(sandbox, 'pl', '123456789012');
  const pd = await verify(sandbox, 'pd', '123456789012');
  for (const answer of [pl, pd]) {
    assert.equal(answer.status, 200);
    assert.match(String(answer.headers['content-type']), /application\/json/);
    const envelope = BankEnvelope.parse(answer.json);
    assert.equal(envelope.message, MESSAGES.ok);
    assert.equal(envelope.body.verificationStatus, 'VERIFIED');
    assert.equal(envelope.body.accountNumber, '123456789012');
    assert.ok(envelope.body.beneficiaryName);
    assert.equal(envelope.body.ifscDetails?.name, 'State Bank of India');
  }
  assert.equal(BankEnvelope.parse(pl.json).body.isPennyDrop, false);
  assert.equal(BankEnvelope.parse(pd.json).body.isPennyDrop, true);
  // Same account, same holder on both ops.
  assert.equal(BankEnvelope.parse(pl.json).body.beneficiaryName, BankEnvelope.parse(pd.json).body.beneficiaryName);
  assert.match(String(pl.headers['x-request-id']), /^sbx-[0-9a-f]+$/);
  assert.notEqual(pl.headers['x-request-id'], pd.headers['x-request-id']);

  const { firstApiRequestAt, lastApiRequestAt, maxConcurrentApiRequests, ...counts } = sandbox.stats();
  assert.deepEqual(counts, {
    requests: { [OPS.pennyLess]: 1, [OPS.pennyDrop]: 1 },
    responses: { '200': 2 },
    deposits: { '123456789012': 1 },
    faults: 0,
  });
  assert.ok(firstApiRequestAt !== null && lastApiRequestAt !== null && firstApiRequestAt <= lastApiRequestAt);
  assert.equal(maxConcurrentApiRequests, 1, 'one request after the other');
});

test('validation answers with the service messages', async (t) => {
  const sandbox = await start(t);
  const path = `/vas-api/v1/${OPS.pennyLess}`;
  const envelopeError = (answer: Answer, status: number, message: string) => {
    assert.equal(answer.status, status);
    assert.deepEqual(EnvelopeErrorSchema.parse(answer.json), { ok: false, responseCode: status, message });
  };
  const error200 = (answer: Answer, message: string) => {
    assert.equal(answer.status, 200);
    assert.deepEqual(ErrorIn200Schema.parse(answer.json), { errorCode: 200, errorType: 'proxy', errorMessage: message });
  };

  envelopeError(await call(sandbox, path, '{not json'), 400, MESSAGES.invalidRequest);
  envelopeError(await call(sandbox, path, { accountNumber: '123456789012' }), 400, MESSAGES.invalidRequest);
  envelopeError(await call(sandbox, path, { accountNumber: 123456789012, ifscNumber: IFSC }), 400, MESSAGES.invalidRequest);
  envelopeError(await call(sandbox, path, ''), 400, MESSAGES.invalidRequest);
  envelopeError(await verify(sandbox, 'pl', '12345678'), 400, MESSAGES.invalidAccount);
  envelopeError(await verify(sandbox, 'pl', '1234567890123456789'), 400, MESSAGES.invalidAccount);
  envelopeError(await verify(sandbox, 'pl', '12345 67890'), 400, MESSAGES.invalidAccount);
  error200(await verify(sandbox, 'pl', '123456789012', 'SBIN000123'), MESSAGES.ifscLength);
  error200(await verify(sandbox, 'pl', '123456789012', 'SBIN00012345'), MESSAGES.ifscLength);
  error200(await verify(sandbox, 'pl', '123456789012', 'sbin0001234'), MESSAGES.invalidIfsc);
  error200(await verify(sandbox, 'pl', '123456789012', 'SBIN1001234'), MESSAGES.invalidIfsc);
  error200(await verify(sandbox, 'pl', '123456789012', 'ZZZZ0001234'), MESSAGES.invalidIfsc);
  // A 9-digit and an 18-digit account are both fine.
  assert.equal(BankEnvelope.parse((await verify(sandbox, 'pl', '123456789')).json).body.verificationStatus, 'VERIFIED');
  assert.equal(BankEnvelope.parse((await verify(sandbox, 'pl', '123456789012345678')).json).body.verificationStatus, 'VERIFIED');
  assert.deepEqual(sandbox.stats().deposits, {});
});

test('auth: missing or unknown bearer is 401 Invalid Credentials', async (t) => {
  const sandbox = await start(t, { token: 'secret-1' });
  for (const token of [null, 'sandbox-token']) {
    const answer = await verify(sandbox, 'pd', '123456789012', IFSC, token);
    assert.equal(answer.status, 401);
    assert.deepEqual(EnvelopeErrorSchema.parse(answer.json), { ok: false, responseCode: 401, message: MESSAGES.invalidCredentials });
  }
  assert.equal((await verify(sandbox, 'pd', '123456789012', IFSC, 'secret-1')).status, 200);
  assert.deepEqual(sandbox.stats().responses, { '401': 2, '200': 1 });
  assert.deepEqual(sandbox.stats().deposits, { '123456789012': 1 });
});

test('test accounts 90, 91, 92 and 94', async (t) => {
  const sandbox = await start(t);
  const closed = BankEnvelope.parse((await verify(sandbox, 'pd', '500000000090')).json).body;
  assert.equal(closed.verificationStatus, 'NOT_VERIFIED');
  assert.equal(closed.transactionRemark, 'Account closed or does not exist');
  assert.equal(closed.beneficiaryName, null);

  const invalid = await verify(sandbox, 'pd', '500000000091');
  assert.equal(invalid.status, 200);
  assert.equal(ErrorIn200Schema.parse(invalid.json).errorMessage, MESSAGES.invalidAccount);

  for (let i = 0; i < 2; i += 1) {
    const limited = await verify(sandbox, 'pd', '500000000092');
    assert.equal(limited.status, 200);
    assert.equal(ErrorIn200Schema.parse(limited.json).errorMessage, dailyLimitMessage('500000000092'));
  }

  const formula = BankEnvelope.parse((await verify(sandbox, 'pl', '500000000094')).json).body;
  assert.equal(formula.verificationStatus, 'VERIFIED');
  assert.ok(formula.beneficiaryName?.startsWith('='), formula.beneficiaryName ?? 'null');

  // NOT_VERIFIED still moved a rupee; errors did not.
  assert.deepEqual(sandbox.stats().deposits, { '500000000090': 1 });
});

test('test accounts 93 and 95 fail first, per op, then succeed; reset() starts them over', async (t) => {
  const sandbox = await start(t);
  const first = await verify(sandbox, 'pd', '500000000093');
  assert.equal(first.status, 503);
  assert.match(String(first.headers['content-type']), /^text\/plain/);
  assert.equal(first.text, MESSAGES.unavailable);
  assert.equal((await verify(sandbox, 'pd', '500000000093')).status, 503);
  assert.equal((await verify(sandbox, 'pd', '500000000093')).status, 200);
  // Attempts are counted per op: penny-less starts its own count.
  assert.equal((await verify(sandbox, 'pl', '500000000093')).status, 503);

  const server = await verify(sandbox, 'pd', '500000000095');
  assert.equal(server.status, 500);
  assert.deepEqual(EnvelopeErrorSchema.parse(server.json), { ok: false, responseCode: 500, message: MESSAGES.internal });
  assert.equal((await verify(sandbox, 'pd', '500000000095')).status, 200);
  assert.deepEqual(sandbox.stats().deposits, { '500000000093': 1, '500000000095': 1 });

  sandbox.reset();
  assert.deepEqual(sandbox.stats(), { requests: {}, responses: {}, deposits: {}, faults: 0, firstApiRequestAt: null, lastApiRequestAt: null, maxConcurrentApiRequests: 0 });
  assert.equal((await verify(sandbox, 'pd', '500000000095')).status, 500);
});

test('test account 96 answers after about three seconds', async (t) => {
  const sandbox = await start(t);
  const started = Date.now();
  const answer = await verify(sandbox, 'pl', '500000000096');
  assert.equal(answer.status, 200);
  BankEnvelope.parse(answer.json);
  // A lower bound only: the delay is a timer, it cannot be shorter.
  assert.ok(Date.now() - started >= 2500);
});

test('test account 97: first attempt is processed then dropped, later attempts answer', async (t) => {
  const sandbox = await start(t);
  await assert.rejects(verify(sandbox, 'pd', '500000000097'));
  assert.deepEqual(sandbox.stats().deposits, { '500000000097': 1 });
  assert.deepEqual(sandbox.stats().responses, {});
  const second = await verify(sandbox, 'pd', '500000000097');
  assert.equal(second.status, 200);
  assert.equal(BankEnvelope.parse(second.json).body.verificationStatus, 'VERIFIED');
  assert.deepEqual(sandbox.stats().deposits, { '500000000097': 2 });
});

test('stats and reset over HTTP, with the first and last API request times; control routes are not counted', async (t) => {
  let clock = Date.UTC(2026, 0, 5, 6);
  const first = clock;
  const sandbox = await start(t, { now: () => clock });
  await verify(sandbox, 'pd', '111122223333');
  clock += 400;
  await verify(sandbox, 'pd', '111122223333');
  clock += 850;
  await verify(sandbox, 'pl', '12');
  clock += 5000;
  const stats = await call(sandbox, '/__sandbox/stats', undefined, { method: 'GET' });
  assert.equal(stats.status, 200);
  assert.ok(stats.headers['x-request-id']);
  assert.deepEqual(stats.json, {
    requests: { [OPS.pennyDrop]: 2, [OPS.pennyLess]: 1 },
    responses: { '200': 2, '400': 1 },
    deposits: { '111122223333': 2 },
    faults: 0,
    firstApiRequestAt: first,
    lastApiRequestAt: first + 1250,
    maxConcurrentApiRequests: 1,
  });
  assert.deepEqual(stats.json, sandbox.stats());
  const reset = await call(sandbox, '/__sandbox/reset', undefined);
  assert.equal(reset.status, 200);
  assert.deepEqual(sandbox.stats(), { requests: {}, responses: {}, deposits: {}, faults: 0, firstApiRequestAt: null, lastApiRequestAt: null, maxConcurrentApiRequests: 0 });
});

test('unknown paths are 404, wrong methods 405, both with a request id and counted', async (t) => {
  const sandbox = await start(t);
  const missing = await call(sandbox, '/vas-api/v1/nope', {});
  assert.equal(missing.status, 404);
  assert.ok(missing.headers['x-request-id']);
  const elsewhere = await call(sandbox, '/somewhere', undefined, { method: 'GET' });
  assert.equal(elsewhere.status, 404);
  const wrong = await call(sandbox, `/vas-api/v1/${OPS.pennyLess}`, undefined, { method: 'GET' });
  assert.equal(wrong.status, 405);
  assert.equal(wrong.headers['allow'], 'POST');
  assert.ok(wrong.headers['x-request-id']);
  // Without client credentials there is no token endpoint.
  assert.equal((await call(sandbox, '/oauth/v1/token', 'grant_type=client_credentials')).status, 404);
  assert.deepEqual(sandbox.stats().responses, { '404': 3, '405': 1 });
});

test('rate limit: beyond N per second is 429 Quota Violation with Retry-After', async (t) => {
  let now = Date.UTC(2024, 0, 10, 6, 0, 0);
  const sandbox = await start(t, { rateLimit: 2, now: () => now });
  assert.equal((await verify(sandbox, 'pl', '123456789012')).status, 200);
  assert.equal((await verify(sandbox, 'pl', '123456789012')).status, 200);
  const limited = await verify(sandbox, 'pd', '123456789012');
  assert.equal(limited.status, 429);
  assert.equal(limited.headers['retry-after'], '1');
  assert.deepEqual(ProxyErrorSchema.parse(limited.json), { errorCode: 429, errorType: 'proxy', errorMessage: MESSAGES.quota });
  now += 1000;
  assert.equal((await verify(sandbox, 'pd', '123456789012')).status, 200);
  const stats = sandbox.stats();
  assert.deepEqual(stats.responses, { '200': 3, '429': 1 });
  assert.deepEqual(stats.deposits, { '123456789012': 1 });
  assert.equal(stats.faults, 0);
});

test('rate limit: a fractional quota is kept, not rounded down (2.5/s is 10 requests in 4 s)', async (t) => {
  let now = Date.UTC(2024, 0, 10, 6, 0, 0);
  const sandbox = await start(t, { rateLimit: 2.5, now: () => now });
  let answered = 0;
  for (let i = 0; i < 40; i += 1) {
    if ((await verify(sandbox, 'pl', '123456789012')).status === 200) answered += 1;
    now += 100;
  }
  assert.equal(answered, 10);
  assert.deepEqual(sandbox.stats().responses, { '200': 10, '429': 30 });
});

test('daily limit per account resets at midnight Asia/Kolkata', async (t) => {
  // 23:50 IST on 1 Jan 2024 is 18:20 UTC.
  let now = Date.UTC(2024, 0, 1, 18, 20, 0);
  const sandbox = await start(t, { dailyLimit: 2, now: () => now });
  const account = '222233334444';
  assert.equal((await verify(sandbox, 'pl', account)).status, 200);
  assert.equal(BankEnvelope.safeParse((await verify(sandbox, 'pd', account)).json).success, true);
  const limited = await verify(sandbox, 'pd', account);
  assert.equal(limited.status, 200);
  assert.equal(ErrorIn200Schema.parse(limited.json).errorMessage, dailyLimitMessage(account));
  // Another account has its own allowance.
  assert.equal(BankEnvelope.safeParse((await verify(sandbox, 'pd', '999988887777')).json).success, true);

  now = Date.UTC(2024, 0, 1, 18, 29, 59); // 23:59:59 IST: still the same day
  assert.equal(ErrorIn200Schema.safeParse((await verify(sandbox, 'pl', account)).json).success, true);
  now = Date.UTC(2024, 0, 1, 18, 30, 0); // 00:00 IST, 2 Jan
  assert.equal(BankEnvelope.parse((await verify(sandbox, 'pd', account)).json).body.isPennyDrop, true);
  assert.deepEqual(sandbox.stats().deposits, { [account]: 2, '999988887777': 1 });
});

test('OAuth client credentials: form or Basic auth, tokens expire', async (t) => {
  let now = Date.UTC(2024, 5, 1, 12, 0, 0);
  const sandbox = await start(t, { clientId: 'client-1', clientSecret: 's3cret', tokenTtlSeconds: 60, now: () => now });
  const tokenCall = async (body: string, authorization?: string) => {
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
    if (authorization !== undefined) headers['authorization'] = authorization;
    const res = await request(`${sandbox.url}/oauth/v1/token`, { method: 'POST', headers, body });
    return { status: res.statusCode, headers: res.headers, json: (await res.body.json()) as unknown };
  };

  const issued = await tokenCall('grant_type=client_credentials&client_id=client-1&client_secret=s3cret');
  assert.equal(issued.status, 200);
  assert.ok(issued.headers['x-request-id']);
  const token = TokenResponseSchema.parse(issued.json);
  assert.equal(token.token_type, 'Bearer');
  assert.equal(token.expires_in, 60);

  const basic = `Basic ${Buffer.from('client-1:s3cret').toString('base64')}`;
  const viaBasic = await tokenCall('grant_type=client_credentials', basic);
  assert.equal(viaBasic.status, 200);

  const wrong = await tokenCall('grant_type=client_credentials&client_id=client-1&client_secret=nope');
  assert.equal(wrong.status, 401);
  assert.deepEqual(wrong.json, { error: 'invalid_client' });
  assert.equal((await tokenCall('grant_type=password', basic)).status, 400);

  assert.equal((await verify(sandbox, 'pl', '123456789012', IFSC, token.access_token)).status, 200);
  // The static token keeps working next to issued ones.
  assert.equal((await verify(sandbox, 'pl', '123456789012', IFSC, 'sandbox-token')).status, 200);
  now += 61_000;
  const expired = await verify(sandbox, 'pl', '123456789012', IFSC, token.access_token);
  assert.equal(expired.status, 401);
  assert.equal(EnvelopeErrorSchema.parse(expired.json).message, MESSAGES.invalidCredentials);
  assert.equal(sandbox.stats().requests['token'], 4);
});

test('faults: each kind with faultRate 1', async (t) => {
  const statusOf = async (kind: '429' | '500' | '503') => {
    const sandbox = await start(t, { faultRate: 1, faults: [kind] });
    const answer = await verify(sandbox, 'pd', '123456789012');
    // Faults come before processing: nothing was deposited.
    assert.deepEqual(sandbox.stats().deposits, {});
    assert.equal(sandbox.stats().faults, 1);
    return answer;
  };
  const quota = await statusOf('429');
  assert.equal(quota.status, 429);
  assert.equal(quota.headers['retry-after'], '1');
  assert.equal(ProxyErrorSchema.parse(quota.json).errorMessage, MESSAGES.quota);
  const internal = await statusOf('500');
  assert.equal(internal.status, 500);
  assert.equal(EnvelopeErrorSchema.parse(internal.json).message, MESSAGES.internal);
  const unavailable = await statusOf('503');
  assert.equal(unavailable.status, 503);
  assert.equal(unavailable.text, MESSAGES.unavailable);

  const reset = await start(t, { faultRate: 1, faults: ['reset'] });
  await assert.rejects(verify(reset, 'pd', '123456789012'));
  const { firstApiRequestAt, lastApiRequestAt, ...counts } = reset.stats();
  assert.deepEqual(counts, { requests: { [OPS.pennyDrop]: 1 }, responses: {}, deposits: {}, faults: 1, maxConcurrentApiRequests: 1 });
  assert.ok(firstApiRequestAt !== null && firstApiRequestAt === lastApiRequestAt, 'a request that got a fault is stamped too');

  const hang = await start(t, { faultRate: 1, faults: ['hang'] });
  await assert.rejects(
    request(`${hang.url}/vas-api/v1/${OPS.pennyLess}`, {
      method: 'POST',
      headers: { authorization: 'Bearer sandbox-token', 'content-type': 'application/json' },
      body: JSON.stringify({ accountNumber: '123456789012', ifscNumber: IFSC }),
      headersTimeout: 200,
    }),
  );
  assert.equal(hang.stats().faults, 1);
});

test('faults are chosen by the seeded PRNG: same seed, same sequence', async (t) => {
  const run = async (seed: number) => {
    const sandbox = await start(t, { faultRate: 0.5, faults: ['429', '500', '503'], seed });
    const statuses: number[] = [];
    for (let i = 0; i < 30; i += 1) statuses.push((await verify(sandbox, 'pl', '123456789012')).status);
    return { statuses, faults: sandbox.stats().faults };
  };
  const a = await run(42);
  const b = await run(42);
  assert.deepEqual(a, b);
  assert.ok(a.faults > 3 && a.faults < 27, `faults ${a.faults}`);
  assert.equal(a.statuses.filter((s) => s !== 200).length, a.faults);
});

test('latency option delays but does not change answers', async (t) => {
  const sandbox = await start(t, { latencyMs: [1, 20] });
  const answer = await verify(sandbox, 'pl', '123456789012');
  assert.equal(answer.status, 200);
  BankEnvelope.parse(answer.json);
});

test('registry entries override names and statuses; test endings still apply', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'sandbox-registry-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'accounts.csv');
  await writeFile(
    file,
    [
      'accountNumber,ifsc,name,status',
      '100000000001,SBIN0001234,ACME SUPPLIES PVT LTD,',
      '100000000001,HDFC0000001,SOMEONE AT HDFC,VERIFIED',
      '100000000002,,,NOT_VERIFIED',
      '100000000094,,RAVI KUMAR,',
      '100000000090,,ANITA DESAI,VERIFIED',
    ].join('\n'),
  );
  const sandbox = await start(t, { accounts: file });
  const bodyOf = async (account: string, ifsc = IFSC) => BankEnvelope.parse((await verify(sandbox, 'pl', account, ifsc)).json).body;
  assert.equal((await bodyOf('100000000001')).beneficiaryName, 'ACME SUPPLIES PVT LTD');
  assert.equal((await bodyOf('100000000001', 'HDFC0000001')).beneficiaryName, 'SOMEONE AT HDFC');
  // An IFSC-specific entry does not match other branches.
  assert.notEqual((await bodyOf('100000000001', 'ICIC0000001')).beneficiaryName, 'SOMEONE AT HDFC');
  assert.equal((await bodyOf('100000000002')).verificationStatus, 'NOT_VERIFIED');
  const formula = await bodyOf('100000000094');
  assert.ok(formula.beneficiaryName?.startsWith('='));
  assert.ok(formula.beneficiaryName?.includes('RAVI KUMAR'));
  assert.equal((await bodyOf('100000000090')).verificationStatus, 'NOT_VERIFIED');

  const fromEntries = await start(t, { accounts: [{ accountNumber: '100000000003', ifsc: 'sbin0001234', name: 'PRIYA NAIR' }] });
  const answer = await verify(fromEntries, 'pd', '100000000003');
  assert.equal(BankEnvelope.parse(answer.json).body.beneficiaryName, 'PRIYA NAIR');

  await writeFile(file, '100000000001,SBIN0001234,OK NAME\n12AB,SBIN0001234,BAD\n');
  // The library's errors are one family (README, "As a library"): an input error, exit 2.
  await assert.rejects(startSandbox({ accounts: file }), (error: unknown) => error instanceof InputError && /line 2/.test(error.message) && error.exitCode === 2);
  await assert.rejects(startSandbox({ accounts: join(dir, 'missing.csv') }), (error: unknown) => error instanceof InputError && /cannot read accounts file/.test(error.message));
  await assert.rejects(startSandbox({ accounts: [{ accountNumber: '12AB', ifsc: '', name: 'X' }] }), (error: unknown) => error instanceof InputError && /accounts\[0\]/.test(error.message));
});

test('options are checked', async () => {
  // A usage error of the one family (exit 2), not a bare RangeError.
  await assert.rejects(startSandbox({ port: -1 }), (error: unknown) => error instanceof UsageError && /port/.test(error.message) && error.exitCode === 2);
  await assert.rejects(startSandbox({ faultRate: 2 }), /faultRate/);
  await assert.rejects(startSandbox({ clientId: 'only-id' }), /clientSecret/);
  await assert.rejects(startSandbox({ latencyMs: [10, 5] }), /latencyMs/);
  await assert.rejects(startSandbox({ dailyLimit: 0 }), /dailyLimit/);
  // Past a Node timer's longest delay (about 24.8 days) the wait would end after 1 ms: a session
  // meant to approve itself in a month approved at once, a huge latency answered at once.
  await assert.rejects(startSandbox({ autoAuthorizeMs: 3_000_000_000 }), /autoAuthorizeMs must be 0 to 2147483647/);
  await assert.rejects(startSandbox({ latencyMs: [0, 3_000_000_000] }), /latencyMs must be 0 to 2147483647/);
});

test('close() with a hung request outstanding finishes and is idempotent', async (t) => {
  const sandbox = await startSandbox({ faultRate: 1, faults: ['hang'], latencyMs: 10 });
  t.after(() => sandbox.close());
  const pending = request(`${sandbox.url}/vas-api/v1/${OPS.pennyDrop}`, {
    method: 'POST',
    headers: { authorization: 'Bearer sandbox-token', 'content-type': 'application/json' },
    body: JSON.stringify({ accountNumber: '123456789012', ifscNumber: IFSC }),
  });
  const outcome = pending.then(
    () => 'answered',
    () => 'failed',
  );
  await waitFor(() => sandbox.stats().faults > 0, 30_000, 'the hang fault');
  await Promise.all([sandbox.close(), sandbox.close()]);
  await sandbox.close();
  assert.equal(await outcome, 'failed');
});

test('close() also cuts a slow (96) answer that is still waiting', async () => {
  const sandbox = await startSandbox();
  const outcome = verify(sandbox, 'pl', '500000000096').then(
    () => 'answered',
    () => 'failed',
  );
  await waitFor(() => (sandbox.stats().requests[OPS.pennyLess] ?? 0) > 0, 30_000, 'the slow request');
  await new Promise((resolve) => setTimeout(resolve, 20));
  await sandbox.close();
  assert.equal(await outcome, 'failed');
});

test('maxConcurrentApiRequests: the most API requests handled at once, counted from a reset', async (t) => {
  const sandbox = await start(t, { latencyMs: 100 });
  await Promise.all(Array.from({ length: 5 }, (_, i) => verify(sandbox, 'pl', `40000000${String(i).padStart(2, '0')}11`)));
  assert.equal(sandbox.stats().maxConcurrentApiRequests, 5);
  await verify(sandbox, 'pl', '400000009911');
  assert.equal(sandbox.stats().maxConcurrentApiRequests, 5, 'a peak is kept');
  sandbox.reset();
  await Promise.all([verify(sandbox, 'pl', '400000009811'), verify(sandbox, 'pl', '400000009711')]);
  assert.equal(sandbox.stats().maxConcurrentApiRequests, 2);
});
