import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decideRetry, DEFAULT_RETRY_POLICY } from '../src/api/retry.js';
import { parseRetryAfter } from '../src/api/retry-after.js';
import { serverTimeOf } from '../src/api/classify.js';
import { VasError, type VasErrorInit } from '../src/api/errors.js';

const err = (init: Partial<VasErrorInit>) => VasError.of({ kind: 'server', message: 'x', ...init });
const half = () => 0.5;
const max = () => 0.999999;

test('decideRetry: the table of the retry policy (docs/ARCHITECTURE.md, "The remote interface")', () => {
  const rows: Array<[string, VasError, number, boolean, boolean, string]> = [
    // name, error, attempt, pennyDrop, retry?, reason
    ['429 retried', err({ kind: 'quota', status: 429, retryable: true }), 1, false, true, 'backoff'],
    ['429 with Retry-After waits that long', err({ kind: 'quota', status: 429, retryable: true, retryAfterMs: 2000 }), 1, true, true, 'retry-after'],
    ['503 retried', err({ kind: 'unavailable', status: 503, retryable: true }), 2, false, true, 'backoff'],
    ['500 waits 1–5 s', err({ kind: 'server', status: 500, retryable: true }), 1, true, true, 'server-error'],
    ['refused retried, also penny-drop', err({ kind: 'network', code: 'refused', retryable: true }), 1, true, true, 'backoff'],
    ['timeout on penny-less retried', err({ kind: 'timeout', retryable: true, ambiguous: true }), 1, false, true, 'backoff'],
    ['timeout on penny-drop never retried', err({ kind: 'timeout', retryable: true, ambiguous: true }), 1, true, false, 'ambiguous-penny-drop'],
    ['reset after send on penny-drop never retried', err({ kind: 'network', code: 'reset', retryable: true, ambiguous: true }), 1, true, false, 'ambiguous-penny-drop'],
    ['400 final', err({ kind: 'invalid-input', status: 400 }), 1, false, false, 'not-retryable'],
    ['200-with-error final', err({ kind: 'invalid-input', status: 200, code: 'invalid-ifsc' }), 1, false, false, 'not-retryable'],
    ['daily limit final', err({ kind: 'quota', status: 200, code: 'daily-limit' }), 1, false, false, 'not-retryable'],
    ['protocol final', err({ kind: 'protocol', status: 200 }), 1, false, false, 'not-retryable'],
    ['attempts exhausted', err({ kind: 'unavailable', status: 503, retryable: true }), 5, false, false, 'attempts-exhausted'],
    ['Retry-After too long gives up', err({ kind: 'quota', status: 429, retryable: true, retryAfterMs: 3_600_000 }), 1, false, false, 'retry-after-too-long'],
  ];
  for (const [name, error, attempt, pennyDrop, retry, reason] of rows) {
    const d = decideRetry({ error, attempt, pennyDrop, random: half });
    assert.equal(d.retry, retry, name);
    assert.equal(d.reason, reason, name);
  }
});

test('decideRetry: full-jitter backoff stays within min(cap, base*2^n)', () => {
  const e = err({ kind: 'unavailable', status: 503, retryable: true });
  for (let attempt = 1; attempt <= 4; attempt += 1) {
    const ceiling = Math.min(DEFAULT_RETRY_POLICY.capMs, DEFAULT_RETRY_POLICY.baseMs * 2 ** (attempt - 1));
    assert.equal(decideRetry({ error: e, attempt, pennyDrop: false, random: () => 0 }).delayMs, 0);
    const top = decideRetry({ error: e, attempt, pennyDrop: false, random: max }).delayMs;
    assert.ok(top < ceiling && top >= ceiling - 1, `attempt ${attempt}: ${top} vs ${ceiling}`);
  }
  const capped = decideRetry({ error: e, attempt: 4, pennyDrop: false, random: max, policy: { ...DEFAULT_RETRY_POLICY, capMs: 300 } });
  assert.ok(capped.delayMs < 300);
});

test('decideRetry: 500 waits between 1 and 5 s; Retry-After is honoured', () => {
  const e500 = err({ kind: 'server', status: 500, retryable: true });
  assert.equal(decideRetry({ error: e500, attempt: 1, pennyDrop: false, random: () => 0 }).delayMs, 1000);
  assert.equal(decideRetry({ error: e500, attempt: 1, pennyDrop: false, random: () => 1 }).delayMs, 5000);
  const e429 = err({ kind: 'quota', status: 429, retryable: true, retryAfterMs: 1500 });
  const d = decideRetry({ error: e429, attempt: 1, pennyDrop: false, random: () => 0 });
  assert.equal(d.delayMs, 1500);
});

test('parseRetryAfter: seconds, HTTP-date, junk', () => {
  const now = Date.parse('2026-11-21T10:00:00Z');
  assert.equal(parseRetryAfter('2', now), 2000);
  assert.equal(parseRetryAfter(' 0 ', now), 0);
  assert.equal(parseRetryAfter('1.5', now), 1500);
  assert.equal(parseRetryAfter('Sat, 21 Nov 2026 10:00:05 GMT', now), 5000);
  assert.equal(parseRetryAfter('Sat, 21 Nov 2026 09:00:00 GMT', now), 0);
  assert.equal(parseRetryAfter('soon', now), undefined);
  assert.equal(parseRetryAfter(undefined, now), undefined);
  assert.equal(parseRetryAfter(['3', '9'], now), 3000);
  // An HTTP-date is read against the answer's own Date when it has one: the server's clock, not ours.
  const ahead = serverTimeOf({ date: 'Sat, 21 Nov 2026 10:10:00 GMT' }); // the server's clock runs 10 minutes ahead
  assert.equal(parseRetryAfter('Sat, 21 Nov 2026 10:10:02 GMT', now, ahead), 2000);
  assert.equal(parseRetryAfter('Sat, 21 Nov 2026 10:09:00 GMT', now, ahead), 0);
  assert.equal(parseRetryAfter('Sat, 21 Nov 2026 10:00:05 GMT', now, serverTimeOf({ date: 'not a date' })), 5000);
  assert.equal(parseRetryAfter('7', now, ahead), 7000);
});
