/**
 * The rate limiter alone (src/limiter): the GCRA and AIMD arithmetic (pure, table-driven), and
 * the embedded limiter against the real clock, with margins: the upper bound is the GCRA's own
 * guarantee (rate × (elapsed + catch-up) + 1), the lower bounds are loose because the machine is shared.
 * Speed figures belong to `npm run bench:rate`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Aimd, BURST_MS, CATCH_UP_MS, FINISH_SHARE, QUOTA_EDGE_SHARE, atQuotaEdge, LimiterClosedError, LimiterLostError, MAX_PAUSE_MS, PERSISTENT_WITHIN_MS, RATE_HEADROOM, RateLimiter, SendLog, JITTER_MARGIN_MS, SHARED_HEADROOM, checkRedisUrl, maskRedisUrl, maxInWindow, pausesEveryone, takeTokens, toPace, type TokenSource } from '../src/limiter/index.js';

test('takeTokens: one token when idle, what accrued when late (up to the catch-up), a wait when early', () => {
  const pace = { intervalMs: 10, catchUpMs: 25 };
  const cases: Array<[string, number, number, number, { granted: number; tat: number; waitMs: number }]> = [
    ['idle for long: what the catch-up allows, nothing more', 0, 1000, 10, { granted: 3, tat: 1005, waitMs: 0 }],
    ['due now: one', 1000, 1000, 10, { granted: 1, tat: 1010, waitMs: 0 }],
    ['late by 21 ms: the three due meanwhile', 979, 1000, 10, { granted: 3, tat: 1009, waitMs: 0 }],
    ['asks for fewer than are due', 979, 1000, 2, { granted: 2, tat: 999, waitMs: 0 }],
    ['early: wait for it', 1030, 1000, 1, { granted: 0, tat: 1030, waitMs: 30 }],
    ['want 0 takes nothing', 1000, 1000, 0, { granted: 0, tat: 1000, waitMs: 0 }],
  ];
  for (const [name, tat, now, want, expected] of cases) {
    const got = takeTokens(tat, now, want, pace);
    assert.equal(got.granted, expected.granted, name);
    assert.ok(Math.abs(got.tat - expected.tat) < 1e-6, `${name}: tat ${got.tat}`);
    assert.ok(Math.abs(got.waitMs - expected.waitMs) < 1e-6, `${name}: waitMs ${got.waitMs}`);
  }
});

test('takeTokens: over any window, never more than rate × (window + catch-up) + 1, i.e. within a quota of R', () => {
  for (const rate of [5, 50, 500, 3000]) {
    const pace = toPace(rate);
    let tat = 0;
    const grants: number[] = [];
    // Asked at irregular moments (a late timer), always with more callers waiting than tokens.
    for (let now = 0; now < 5000; now += 0.3 + ((now * 7919) % 13) / 2) {
      const t = takeTokens(tat, now, 1000, pace);
      tat = t.tat;
      for (let i = 0; i < t.granted; i += 1) grants.push(now);
    }
    let j = 0;
    for (let i = 0; i < grants.length; i += 1) {
      while (grants[i]! - grants[j]! >= 1000) j += 1;
      assert.ok(i - j + 1 <= rate, `rate ${rate}: ${i - j + 1} in one second`);
    }
    assert.ok(grants.length >= rate * RATE_HEADROOM * 5 * 0.99 - 1, `rate ${rate}: ${grants.length} in 5 s`);
  }
});

test('the margin, in arithmetic: a shared quota (GCRA alone) holds for every R from 1 to 3,000 with arrivals bunched by up to 40 ms; the embedded pace stays under what the send log allows', () => {
  for (let rate = 1; rate <= 3000; rate += 1) {
    const shared = maxInWindow(toPace(rate, true), 1000, 40);
    assert.ok(shared <= rate, `rate ${rate}, shared: ${shared} in one second`);
    // A steady stream at the embedded pace fits the send log's window (R per 1 s + margin):
    // the log trims only what a catch-up brings.
    const log = new SendLog(rate);
    const steady = log.windowMs / toPace(rate).intervalMs;
    assert.ok(steady <= log.cap, `rate ${rate}: a steady stream puts ${steady} into the log's ${log.windowMs} ms`);
  }
  // The shared margin is no wider than it needs to be: 30 ms more bunching would overrun the quota.
  assert.ok(maxInWindow(toPace(3000, true), 1000, 70) > 3000);
  assert.ok(RATE_HEADROOM >= 0.97 && SHARED_HEADROOM >= 0.95);
  assert.equal(JITTER_MARGIN_MS, 30);
});

test('takeTokens: maxInWindow bounds what it grants however late it is asked', () => {
  for (const rate of [1, 7, 100, 1499, 3000]) {
    const pace = toPace(rate);
    const bound = maxInWindow(pace);
    let tat = 0;
    const grants: number[] = [];
    // Asked every 0.1–60 ms (a timer that fires on time, late, or very late).
    let step = 1;
    for (let now = 0; now < 4000; now += 0.1 + (step % 600) / 10) {
      step = (step * 48271) % 2147483647;
      const t = takeTokens(tat, now, 10_000, pace);
      tat = t.tat;
      for (let i = 0; i < t.granted; i += 1) grants.push(now);
    }
    let j = 0;
    for (let i = 0; i < grants.length; i += 1) {
      while (grants[i]! - grants[j]! >= 1000) j += 1;
      assert.ok(i - j + 1 <= bound, `rate ${rate}: ${i - j + 1} in one second, bound ${bound}`);
    }
  }
});

test('Aimd: after a pause (Retry-After), the cut rate holds until dispatch resumes, then recovers', () => {
  const aimd = new Aimd({ target: 100 });
  assert.equal(aimd.onViolation(1000, 2000), true);
  assert.equal(aimd.rate(1500), 90, 'no recovery while paused');
  assert.equal(aimd.rate(2000), 90);
  assert.ok(aimd.rate(2500) > 90 && aimd.rate(2500) < 100);
  assert.equal(aimd.rate(3000), 100);
});

test('Aimd: a 429 cuts the rate once per hold, it recovers to the target and never above', () => {
  const aimd = new Aimd({ target: 100, decrease: 0.8, recoverPerSecond: 0.1, holdMs: 250 });
  assert.equal(aimd.rate(0), 100);
  assert.equal(aimd.onViolation(1000), true);
  assert.equal(aimd.rate(1000), 80);
  assert.equal(aimd.onViolation(1100), false, 'same crowded second');
  assert.ok(Math.abs(aimd.rate(1100) - 80.8) < 1e-9);
  assert.equal(aimd.onViolation(1300), true);
  assert.ok(Math.abs(aimd.rate(1300) - 0.8 * 82.4) < 1e-9);
  assert.equal(aimd.rate(60_000), 100);
});

test('Aimd: a quota far below the target is converged on (violations only above it)', () => {
  for (const quota of [10, 400]) {
    const aimd = new Aimd({ target: 1000 });
    let sum = 0;
    let n = 0;
    for (let t = 0; t < 60_000; t += 50) {
      if (aimd.rate(t) > quota) aimd.onViolation(t);
      if (t >= 30_000) {
        sum += aimd.rate(t);
        n += 1;
      }
    }
    const mean = sum / n;
    assert.ok(mean >= quota * 0.7 && mean <= quota * 1.1, `quota ${quota}: mean rate ${mean}`);
  }
});

test('Aimd: a measured quota below the rate cuts straight under it (even within an edge cut\'s hold), and the rate probes past it slowly', () => {
  const aimd = new Aimd({ target: 100 });
  // The burst's first 429 looked like the edge: a tenth off, held for the quota's window.
  assert.equal(aimd.onViolation(1000, 1000, 1030), true);
  assert.equal(aimd.rate(1000), 90);
  // Its later 429s show what the quota let through (10/s): under that, at once.
  assert.equal(aimd.onViolation(1100, 1100, undefined, 10), true);
  assert.ok(Math.abs(aimd.rate(1100) - 9.7) < 1e-9, `${aimd.rate(1100)}`);
  assert.equal(aimd.onViolation(1200, 1200, undefined, 9), false, 'one measured cut per burst');
  // Back to the quota found in a fraction of a second, then past it slowly at first.
  const second = aimd.rate(2100);
  assert.ok(second > 10 && second < 10.3, `${second}`);
  assert.ok(aimd.rate(4100) < 11.5, 'three seconds on, still near the quota');
  assert.ok(aimd.rate(11_100) > 15, 'a quota measured too low is found again within seconds');
  // Met again: the quota is below that rate; a tenth off, and the probe starts again from there.
  const before = aimd.rate(6100);
  assert.equal(aimd.onViolation(6100), true);
  const met = aimd.rate(6100);
  assert.ok(Math.abs(met - 0.9 * before) < 1e-9 && aimd.rate(7100) < met * 1.04, `${before} ${met} ${aimd.rate(7100)}`);
  // A measure above the rate says nothing new: the usual cut.
  const other = new Aimd({ target: 100 });
  assert.equal(other.onViolation(1000, 1000, undefined, 95), true);
  assert.equal(other.rate(1000), 90);
  assert.equal(other.rate(3000), 100, 'recovered at the usual pace');
});

test('RateLimiter: the rate is kept at 200/s and 3,000/s (within the GCRA bound, loosely from below)', async () => {
  for (const rate of [200, 3000]) {
    const limiter = new RateLimiter({ rate });
    const started = performance.now();
    let granted = 0;
    const windowMs = 1000;
    // 64 callers, as a --concurrency 64 pool: each takes a turn, then asks again.
    const workers = Array.from({ length: 64 }, async () => {
      for (;;) {
        await limiter.acquire();
        if (performance.now() - started >= windowMs) return;
        granted += 1;
      }
    });
    await Promise.all(workers);
    const elapsed = performance.now() - started;
    assert.ok(granted <= ((elapsed + CATCH_UP_MS) / 1000) * rate * RATE_HEADROOM + 1, `rate ${rate}: ${granted} in ${elapsed} ms`);
    assert.ok(granted >= rate * 0.5, `rate ${rate}: only ${granted} in ${elapsed} ms`);
    await limiter.close();
  }
});

test('RateLimiter: finishing() paces the last requests at FINISH_SHARE of the rate, and only those', async () => {
  const rate = 1000;
  const limiter = new RateLimiter({ rate });
  // Past the slow start: the full rate.
  await new Promise((r) => setTimeout(r, 800));
  assert.equal(limiter.currentRate(), rate);
  limiter.finishing();
  assert.equal(limiter.currentRate(), rate * FINISH_SHARE);
  const started = performance.now();
  let granted = 0;
  const workers = Array.from({ length: 64 }, async () => {
    for (;;) {
      const turn = await limiter.acquire();
      turn.sent();
      if (performance.now() - started >= 500) return;
      granted += 1;
    }
  });
  await Promise.all(workers);
  // Turns counted only within the 500 ms window: at the full pace about 534 would fit (the bound is 481).
  assert.ok(granted <= ((500 + CATCH_UP_MS) / 1000) * rate * FINISH_SHARE * RATE_HEADROOM + 1, `${granted} turns in 500 ms`);
  await limiter.close();
});

test('RateLimiter: an aborted waiter leaves the queue; close rejects the rest and is idempotent', async () => {
  const limiter = new RateLimiter({ rate: 1 });
  await limiter.acquire(); // the one token an idle limiter has
  const abort = new AbortController();
  const first = limiter.acquire(abort.signal);
  const second = limiter.acquire();
  abort.abort(new Error('stop'));
  await assert.rejects(first, /stop/);
  const closing = limiter.close();
  await assert.rejects(second, LimiterClosedError);
  await closing;
  await limiter.close();
  await assert.rejects(limiter.acquire(), LimiterClosedError);
});

test('pausesEveryone: a lone burst only cuts the rate; a burst again within 2 s, or a Retry-After over a second, stops everyone', () => {
  assert.equal(pausesEveryone(undefined, 100), false, 'no Retry-After: cut only');
  assert.equal(pausesEveryone(1000, Number.POSITIVE_INFINITY), false, 'the first burst of a run');
  assert.equal(pausesEveryone(1000, PERSISTENT_WITHIN_MS + 1), false, 'a burst after a quiet spell');
  assert.equal(pausesEveryone(1000, PERSISTENT_WITHIN_MS), true, 'the cut did not suffice');
  assert.equal(pausesEveryone(1001, Number.POSITIVE_INFINITY), true, 'the service asks for a break');
});

test('pausesEveryone: a burst again within 2 s at the quota\'s edge (a share of the last second\'s requests one cut absorbs) only cuts; a larger share pauses', () => {
  assert.ok(Math.abs(QUOTA_EDGE_SHARE - 0.1) < 1e-12);
  // 1,450 requests in the last second: 100 refused is arrivals bunched on their way (or a quota
  // one cut reaches); 200 is a quota one cut cannot reach.
  assert.equal(atQuotaEdge(100, 1450), true);
  assert.equal(pausesEveryone(1000, 500, 100, 1450), false, 'bunched arrivals: the quota refills by itself');
  assert.equal(atQuotaEdge(200, 1450), false);
  assert.equal(pausesEveryone(1000, 500, 200, 1450), true, 'a quota well below --rate');
  assert.equal(pausesEveryone(1000, PERSISTENT_WITHIN_MS + 1, 200, 1450), false, 'a burst after a quiet spell still only cuts');
  // At a few requests a second one 429 is a large share: recurrence pauses as before.
  assert.equal(pausesEveryone(1000, 500, 2, 4), true);
  assert.equal(pausesEveryone(2000, Number.POSITIVE_INFINITY, 1, 1450), true, 'a Retry-After over a second pauses whatever the share');
});

test('Aimd: a hold given with the violation replaces the default (one cut per quota window at its edge)', () => {
  const aimd = new Aimd({ target: 100, holdMs: 250 });
  assert.equal(aimd.onViolation(1000, 1000, 1030), true);
  assert.equal(aimd.onViolation(1500, 1500, 1030), false, 'the window has not slid past the first cut yet');
  assert.equal(aimd.onViolation(1500), true, 'the default hold has passed');
  assert.equal(aimd.onViolation(2600, 2600, 1030), true);
});

test('RateLimiter: 429s at the quota\'s edge of a busy run neither pause the callers nor cut twice within the quota\'s window', async () => {
  const limiter = new RateLimiter({ rate: 2000 });
  // Half a second of requests sent: the share of two 429s among them is the quota's edge.
  const turns = await Promise.all(Array.from({ length: 600 }, () => limiter.acquire()));
  for (const turn of turns) turn.sent();
  const before = limiter.currentRate();
  limiter.penalize(1000);
  const cut = limiter.currentRate();
  assert.ok(cut < before, 'the rate is cut');
  await new Promise((r) => setTimeout(r, BURST_MS + 50));
  limiter.penalize(1000);
  // A second burst within 2 s: at the edge it neither pauses nor cuts again (the rate has only recovered since).
  assert.ok(limiter.currentRate() >= cut, 'cut twice within the window');
  const start = performance.now();
  await limiter.acquire();
  assert.ok(performance.now() - start < 900, 'a caller waited for the Retry-After');
  await limiter.close();
});

test('RateLimiter: a lone 429 cuts the rate only; a second burst within 2 s lets nobody through until its Retry-After, and the rate recovers only from then', async () => {
  const limiter = new RateLimiter({ rate: 1000 });
  await limiter.acquire();
  const before = limiter.currentRate();
  limiter.penalize(300);
  assert.ok(limiter.currentRate() < before, 'the rate is cut');
  let lone = false;
  const afterLone = limiter.acquire().then(() => (lone = true));
  await new Promise((r) => setTimeout(r, 100));
  assert.ok(lone, 'a lone burst stopped the callers');
  await afterLone;

  await new Promise((r) => setTimeout(r, BURST_MS + 50));
  const cutAt = performance.now();
  limiter.penalize(300);
  const rate = limiter.currentRate();
  let through = 0;
  const waiting = Array.from({ length: 5 }, () => limiter.acquire().then(() => (through += 1)));
  await new Promise((r) => setTimeout(r, 150));
  assert.equal(through, 0, 'a caller went through during the pause');
  assert.equal(limiter.currentRate(), rate, 'the rate recovered during the pause');
  await Promise.all(waiting);
  // A timer never fires early: the lower bound is safe on a busy machine.
  assert.ok(performance.now() - cutAt >= 299, 'released before the Retry-After');
  await limiter.close();
});

test('RateLimiter: a Retry-After over a second stops everyone at once, capped at MAX_PAUSE_MS', async () => {
  const limiter = new RateLimiter({ rate: 1000 });
  await limiter.acquire();
  limiter.penalize(10 * MAX_PAUSE_MS);
  let through = false;
  const capped = limiter.acquire().then(() => (through = true));
  await new Promise((r) => setTimeout(r, 150));
  assert.equal(through, false);
  await limiter.close();
  await assert.rejects(capped, LimiterClosedError);
});

test('RateLimiter: penalize slows the rate and it comes back', async () => {
  const limiter = new RateLimiter({ rate: 100 });
  assert.ok(limiter.currentRate() >= 89 && limiter.currentRate() <= 100, 'a slow start from 0.9 × the rate');
  limiter.penalize();
  assert.ok(limiter.currentRate() < 85);
  await new Promise((r) => setTimeout(r, 300));
  assert.ok(limiter.currentRate() > 83);
  await limiter.close();
});

test('RateLimiter: a source that fails briefly is waited for; one that stays down is lost, once', async () => {
  let failing = true;
  let tat = 0;
  const source: TokenSource = {
    describe: 'test source',
    take: async (want, pace) => {
      if (failing) throw new Error('connection lost');
      const t = takeTokens(tat, performance.now(), want, pace);
      tat = t.tat;
      return t;
    },
    close: async () => {},
  };
  const lostCalls: LimiterLostError[] = [];
  const blip = new RateLimiter({ rate: 50, source, lostAfterMs: 2000, onLost: (e) => lostCalls.push(e) });
  setTimeout(() => (failing = false), 400);
  await blip.acquire();
  assert.equal(lostCalls.length, 0);
  await blip.close();

  failing = true;
  const down = new RateLimiter({ rate: 50, source, lostAfterMs: 600, onLost: (e) => lostCalls.push(e) });
  const started = performance.now();
  const waits = [down.acquire(), down.acquire()];
  for (const w of waits) await assert.rejects(w, (e: unknown) => e instanceof LimiterLostError && /test source/.test(e.message));
  assert.ok(performance.now() - started < 3000);
  assert.equal(lostCalls.length, 1);
  await assert.rejects(down.acquire(), LimiterLostError);
  await down.close();
});

test('Redis URLs: checked before connecting, credentials masked in every message', () => {
  assert.equal(maskRedisUrl('redis://user:sekrit@db.example:6379/2'), 'redis://***:***@db.example:6379/2');
  assert.equal(maskRedisUrl('redis://:sekrit@db.example:6379'), 'redis://:***@db.example:6379');
  assert.ok(!maskRedisUrl('//user:sekrit@host').includes('sekrit'));
  assert.equal(maskRedisUrl('redis://db.example:6379/0?password=sekrit'), 'redis://db.example:6379/0?***');
  assert.equal(checkRedisUrl('rediss://h:1').hostname, 'h');
  assert.equal(checkRedisUrl('redis://h:1/15').pathname, '/15');
  for (const bad of ['not-a-url', 'http://h:6379', 'redis://', 'user:sekrit@host:6379', 'redis://h:1?password=sekrit', 'redis://h:1/abc', 'redis://h:1/-1', 'redis://h:1/0#sekrit']) {
    assert.throws(() => checkRedisUrl(bad), (e: Error) => e.name === 'LimiterSetupError' && !e.message.includes('sekrit'), bad);
  }
});

test('RateLimiter: 429s before any answer came back (slow answers, no Retry-After) are no measure of the quota: the rate is cut a tenth, not to its floor', async () => {
  let t = 0;
  const limiter = new RateLimiter({ rate: 100, now: () => t });
  // Answers take a second; the quota's 429s come at once, with no Retry-After to pause on.
  t = 600;
  for (let i = 0; i < 20; i += 1) limiter.penalize();
  assert.ok(limiter.currentRate() > 50, `rate cut to ${limiter.currentRate()} before any answer came`);
  // Once answers come, they are measured: a 50/s quota, the rate goes under what passed.
  for (t = 1000; t <= 1700; t += 20) limiter.passed();
  t = 1700;
  for (let i = 0; i < 20; i += 1) limiter.penalize();
  const rate = limiter.currentRate();
  assert.ok(rate > 20 && rate < 50, `measured cut to ${rate} for a 50/s quota`);
  await limiter.close();
});
