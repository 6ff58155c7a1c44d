/**
 * ConcurrencyTarget (src/limiter/concurrency.ts): the requests in flight for a rate, from the
 * answer times observed (Little's law, with headroom, within [1, cap]). Pure: a table of cases.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ASSUMED_LATENCY_MS, CAP_EVIDENCE_ANSWERS, CONCURRENCY_HEADROOM, CONCURRENCY_SPARE, ConcurrencyTarget, DEFAULT_RATE_CONCURRENCY_CAP } from '../src/limiter/index.js';

const need = (rate: number, ms: number) => Math.ceil((rate * ms * CONCURRENCY_HEADROOM) / 1000 + CONCURRENCY_SPARE);

test('the target is R × the mean answer time × headroom + spare, within [1, cap]', () => {
  const cases: Array<{ rate: number; cap: number; answersMs: number[]; target: number; capLimits: boolean }> = [
    // Before any answer: the assumed answer time (a real API's, 1 s).
    { rate: 10, cap: 2048, answersMs: [], target: need(10, ASSUMED_LATENCY_MS), capLimits: false },
    // The cases: 1,500/s at 1 s fits the default cap; at 20 ms a few dozen suffice.
    { rate: 1500, cap: DEFAULT_RATE_CONCURRENCY_CAP, answersMs: Array(64).fill(1000), target: 1891, capLimits: false },
    { rate: 1500, cap: DEFAULT_RATE_CONCURRENCY_CAP, answersMs: Array(64).fill(20), target: 54, capLimits: false },
    // Uniform 300–1,500 ms: the mean (900 ms) is what Little's law needs.
    { rate: 100, cap: 2048, answersMs: Array.from({ length: 64 }, (_, i) => 300 + (1200 * i) / 63), target: need(100, 900), capLimits: false },
    { rate: 2, cap: 2048, answersMs: Array(64).fill(1500), target: need(2, 1500), capLimits: false },
    // Today's default of 8 as the cap: 100/s at 1 s needs 141; the cap limits, and says so.
    { rate: 100, cap: 8, answersMs: Array(64).fill(1000), target: 8, capLimits: true },
    // Too few answers to say the cap limits.
    { rate: 100, cap: 8, answersMs: Array(CAP_EVIDENCE_ANSWERS - 1).fill(1000), target: 8, capLimits: false },
    { rate: 100, cap: 8, answersMs: Array(CAP_EVIDENCE_ANSWERS).fill(1000), target: 8, capLimits: true },
    // A cap of 1 is kept; negative and non-finite times are ignored.
    { rate: 50, cap: 1, answersMs: [-5, Number.NaN, Number.POSITIVE_INFINITY], target: 1, capLimits: false },
  ];
  for (const c of cases) {
    const t = new ConcurrencyTarget({ rate: c.rate, cap: c.cap });
    for (const ms of c.answersMs) t.observe(ms);
    assert.equal(t.target(), c.target, `R ${c.rate}, cap ${c.cap}, ${c.answersMs.length} answers`);
    assert.equal(t.capLimits(), c.capLimits, `capLimits: R ${c.rate}, cap ${c.cap}, ${c.answersMs.length} answers`);
  }
});

test('the mean is over the last answers only: the target follows an API that slows down, then speeds up', () => {
  const t = new ConcurrencyTarget({ rate: 100, cap: 4096, window: 8 });
  for (let i = 0; i < 8; i += 1) t.observe(20);
  assert.equal(t.target(), need(100, 20));
  for (let i = 0; i < 8; i += 1) t.observe(2000);
  assert.equal(t.latencyMs(), 2000, 'the fast answers left the window');
  assert.equal(t.target(), need(100, 2000));
  for (let i = 0; i < 4; i += 1) t.observe(20);
  assert.equal(t.latencyMs(), (4 * 2000 + 4 * 20) / 8);
  assert.equal(t.needed(), need(100, 1010));
});

test('a rate or cap that is not usable is refused', () => {
  assert.throws(() => new ConcurrencyTarget({ rate: 0, cap: 8 }), RangeError);
  assert.throws(() => new ConcurrencyTarget({ rate: 10, cap: 0 }), RangeError);
  assert.throws(() => new ConcurrencyTarget({ rate: 10, cap: 2.5 }), RangeError);
});
