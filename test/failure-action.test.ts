/** What a failed call comes to (src/pipeline/bank-run/failure.ts): one pure decision, in a fixed order, row by row. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { failureAction, type FailureAction } from '../src/pipeline/bank-run/failure.js';
import type { VasError } from '../src/api/errors.js';

type Case = [string, Pick<VasError, 'kind' | 'code' | 'ambiguous'> & { retryAfterMs?: number }, 'pl' | 'pd', FailureAction];

const CASES: Case[] = [
  ['a daily limit defers, whatever the mode', { kind: 'invalid-input', code: 'daily-limit', ambiguous: false }, 'pd', 'defer'],
  ['an account the API refused is INVALID', { kind: 'invalid-input', code: 'invalid-account', ambiguous: false }, 'pl', 'refuse'],
  ['a penny-drop whose answer may be lost is UNCONFIRMED', { kind: 'timeout', code: 'body-timeout', ambiguous: true }, 'pd', 'unconfirm'],
  ['a penny-drop reset after it was sent is UNCONFIRMED', { kind: 'network', code: 'reset', ambiguous: true }, 'pd', 'unconfirm'],
  ['a penny-drop cancelled mid-flight is UNCONFIRMED (the rupee may have moved)', { kind: 'network', code: 'aborted', ambiguous: true }, 'pd', 'unconfirm'],
  ['a penny-less call lost the same way is a service failure (it was retried)', { kind: 'timeout', code: 'body-timeout', ambiguous: true }, 'pl', 'service'],
  ['cancelled before an answer: released, nothing in doubt', { kind: 'network', code: 'aborted', ambiguous: false }, 'pl', 'release'],
  ['refused credentials stop the run', { kind: 'auth', code: 'token-rejected', ambiguous: false }, 'pd', 'stop-auth'],
  ['an untrusted TLS certificate stops the run, even a penny-drop (nothing was sent)', { kind: 'network', code: 'tls-certificate', ambiguous: false }, 'pd', 'stop-tls'],
  ['503 after retries counts towards the breaker', { kind: 'unavailable', code: undefined, ambiguous: false }, 'pl', 'service'],
  ['429 after retries counts towards the breaker', { kind: 'quota', code: 'rate-limit', ambiguous: false }, 'pl', 'service'],
  ['429 whose Retry-After (60 s) was waited counts towards the breaker', { kind: 'quota', code: 'rate-limit', ambiguous: false, retryAfterMs: 60_000 }, 'pl', 'service'],
  ['429 asking for a longer wait than a run waits stops the run, the row pending', { kind: 'quota', code: 'rate-limit', ambiguous: false, retryAfterMs: 3_600_000 }, 'pd', 'stop-wait'],
  ['503 asking for a longer wait than a run waits stops the run, the row pending', { kind: 'unavailable', code: undefined, ambiguous: false, retryAfterMs: 7_200_000 }, 'pl', 'stop-wait'],
  ['a schema failure counts towards the breaker', { kind: 'protocol', code: 'schema', ambiguous: false }, 'pd', 'service'],
  ['a session error is simply FAILED', { kind: 'session-expired', code: undefined, ambiguous: false }, 'pl', 'fail'],
];

for (const [name, error, mode, expected] of CASES) {
  test(`failureAction: ${name}`, () => assert.equal(failureAction(error, mode), expected));
}
