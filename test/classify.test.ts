import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classifyResponse, classifyTransportError } from '../src/api/classify.js';
import { BankResultSchema, successEnvelope } from '../src/api/schemas.js';
import { decideRetry } from '../src/api/retry.js';

const ENVELOPE = successEnvelope(BankResultSchema);
const NOW = Date.parse('2026-11-21T10:00:00Z');
const json = (v: unknown) => JSON.stringify(v);
const res = (status: number, text: string, headers: Record<string, string> = {}) => ({
  status,
  text,
  headers: { 'x-request-id': 'req-1', ...headers },
});

const GOOD = {
  ok: true,
  responseCode: 200,
  message: 'Transmission OK',
  body: {
    accountNumber: '123456789012',
    beneficiaryName: 'RAVI KUMAR',
    verificationStatus: 'VERIFIED',
    transactionRemark: 'Transaction Successful',
    isPennyDrop: false,
    ifscDetails: {
      ifsc: 'SBIN0001234', name: 'State Bank of India', branch: 'MG ROAD', district: 'Bengaluru Urban', state: 'Karnataka',
      city: 'Bengaluru', imps: true, rtgs: true, neft: true, upi: true, micr: '560002001', iso3166: 'IN-KA', swift: null,
    },
  },
};

test('classifyResponse: the success envelope parses and is typed', () => {
  const out = classifyResponse(res(200, json(GOOD)), ENVELOPE, NOW);
  assert.ok(out.ok);
  if (out.ok) {
    assert.equal(out.value.beneficiaryName, 'RAVI KUMAR');
    assert.equal(out.value.ifscDetails?.iso3166, 'IN-KA');
    assert.equal(out.requestId, 'req-1');
  }
});

test('classifyResponse: every row of the error table', () => {
  const rows: Array<[string, ReturnType<typeof res>, Partial<Record<'kind' | 'code' | 'retryable' | 'status' | 'message' | 'retryAfterMs' | 'ambiguous', unknown>>]> = [
    ['400 Invalid Account Number', res(400, json({ ok: false, responseCode: 400, message: 'Invalid Account Number' })), { kind: 'invalid-input', code: 'invalid-account', retryable: false, status: 400 }],
    ['400 Invalid Request', res(400, json({ ok: false, responseCode: 400, message: 'Invalid Request' })), { kind: 'invalid-input', code: 'invalid-request' }],
    ['400 failed to read request body', res(400, json({ ok: false, responseCode: 400, message: 'failed to read request body' })), { kind: 'invalid-input', code: 'bad-body' }],
    ['400 sessionId expired or invalid', res(400, json({ ok: false, responseCode: 400, message: 'sessionId expired or invalid' })), { kind: 'session-expired' }],
    ['401 Invalid Credentials', res(401, json({ ok: false, responseCode: 401, message: 'Invalid Credentials' })), { kind: 'auth', retryable: false, status: 401 }],
    ['429 proxy shape', res(429, json({ errorCode: 429, errorType: 'proxy', errorMessage: 'Quota Violation' }), { 'retry-after': '1' }), { kind: 'quota', retryable: true, message: 'Quota Violation', retryAfterMs: 1000 }],
    ['500 envelope', res(500, json({ ok: false, responseCode: 500, message: 'Internal Server Error' })), { kind: 'server', retryable: true, message: 'Internal Server Error' }],
    ['503 plain text', res(503, 'Service Not Available', { 'content-type': 'text/plain' }), { kind: 'unavailable', retryable: true, message: 'Service Not Available' }],
    ['502 HTML from a proxy', res(502, '<html><body><h1>502 Bad Gateway</h1></body></html>'), { kind: 'unavailable', retryable: true, ambiguous: true }],
    ['504 from a gateway', res(504, 'Gateway Timeout'), { kind: 'unavailable', retryable: true, ambiguous: true }],
    ['503 from the service is not in doubt', res(503, 'Service Not Available'), { ambiguous: false }],
    ['500 from the service is not in doubt', res(500, 'Internal Server Error'), { ambiguous: false }],
    ['404 wrong base URL', res(404, 'Not Found'), { kind: 'protocol', code: 'not-found', retryable: false }],
    ['200 Invalid Account Number', res(200, json({ errorCode: 200, errorType: 'proxy', errorMessage: 'Invalid Account Number' })), { kind: 'invalid-input', code: 'invalid-account', retryable: false }],
    ['200 Invalid IFSC', res(200, json({ errorCode: 200, errorType: 'proxy', errorMessage: 'Invalid IFSC' })), { kind: 'invalid-input', code: 'invalid-ifsc' }],
    ['200 IFSC length', res(200, json({ errorCode: 200, errorType: 'proxy', errorMessage: 'Bank IFSC must be 11 characters' })), { kind: 'invalid-input', code: 'ifsc-length' }],
    ['200 daily limit', res(200, json({ errorCode: 200, errorType: 'proxy', errorMessage: 'Daily transaction limit exhausted for account number 123456789092' })), { kind: 'quota', code: 'daily-limit', retryable: false }],
    ['200 not JSON (HTML proxy page)', res(200, '<!doctype html><title>Login</title>', { 'content-type': 'text/html' }), { kind: 'protocol', code: 'bad-json', ambiguous: false }],
    ['200 schema violation', res(200, json({ ...GOOD, body: { ...GOOD.body, verificationStatus: 'MAYBE' } })), { kind: 'protocol', code: 'schema', ambiguous: true }],
  ];
  for (const [name, response, expected] of rows) {
    const out = classifyResponse(response, ENVELOPE, NOW);
    assert.equal(out.ok, false, name);
    if (out.ok) continue;
    assert.equal(out.error.requestId, 'req-1', `${name}: request id kept`);
    for (const [field, value] of Object.entries(expected)) {
      assert.equal((out.error as unknown as Record<string, unknown>)[field], value, `${name}: ${field}`);
    }
  }
});

test('classifyResponse: a schema error names the field', () => {
  const broken = { ...GOOD, body: { ...GOOD.body, ifscDetails: { ...GOOD.body.ifscDetails, state: 42 } } };
  const out = classifyResponse(res(200, json(broken)), ENVELOPE, NOW);
  assert.ok(!out.ok && /body\.ifscDetails\.state/.test(out.error.message), !out.ok ? out.error.message : '');
});

test('classifyTransportError: refused is safe to retry, a reset or a timeout is ambiguous', () => {
  const refused = classifyTransportError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), 'http://x', false);
  assert.deepEqual([refused.kind, refused.retryable, refused.ambiguous], ['network', true, false]);
  const reset = classifyTransportError(Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }), 'http://x', false);
  assert.deepEqual([reset.kind, reset.retryable, reset.ambiguous], ['network', true, true]);
  const timeout = classifyTransportError(Object.assign(new Error('Headers Timeout Error'), { code: 'UND_ERR_HEADERS_TIMEOUT' }), 'http://x', false);
  assert.deepEqual([timeout.kind, timeout.retryable, timeout.ambiguous], ['timeout', true, true]);
  const aborted = classifyTransportError(new Error('aborted'), 'http://x', true);
  assert.deepEqual([aborted.code, aborted.retryable], ['aborted', false]);
});

test('classifyTransportError: a certificate that fails verification is final and not ambiguous, one line naming the host and what to do', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate; if the root CA is installed locally, try running Node.js with --use-system-ca', /^the TLS certificate of api\.example\.com is not trusted \(self-signed certificate\): .*NODE_EXTRA_CA_CERTS/],
    ['UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'unable to get local issuer certificate', /is not trusted \(unable to get local issuer certificate\): .*NODE_EXTRA_CA_CERTS/],
    ['SELF_SIGNED_CERT_IN_CHAIN', 'self-signed certificate in certificate chain', /is not trusted/],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'unable to verify the first certificate', /is not trusted/],
    ['CERT_HAS_EXPIRED', 'certificate has expired', /is not valid now \(certificate has expired\): check this machine's clock/],
    ['CERT_NOT_YET_VALID', 'certificate is not yet valid', /is not valid now/],
    ['ERR_TLS_CERT_ALTNAME_INVALID', "Hostname/IP does not match certificate's altnames: Host: api.example.com. is not in the cert's list: other.example", /is not for that host name .*: check the host name/],
  ];
  for (const [code, text, message] of cases) {
    const error = classifyTransportError(Object.assign(new Error(text), { code }), 'https://api.example.com/vas-api/v1/account-verification-pd', false);
    assert.deepEqual([error.kind, error.code, error.retryable, error.ambiguous], ['network', 'tls-certificate', false, false], code);
    assert.match(error.message, message, code);
    assert.match(error.message, /; TLS verification is never turned off$/, code);
    assert.doesNotMatch(error.message, /use-system-ca|REJECT_UNAUTHORIZED|\n/, code);
    assert.equal(decideRetry({ error, attempt: 1, pennyDrop: false, random: () => 0 }).retry, false, code);
  }
  // The token endpoint is named as such, with its host.
  const token = classifyTransportError(Object.assign(new Error('certificate has expired'), { code: 'CERT_HAS_EXPIRED' }), 'the token endpoint (auth.example.com)', false);
  assert.match(token.message, /^the TLS certificate of the token endpoint \(auth\.example\.com\) is not valid now/);
});
