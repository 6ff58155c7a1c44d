/**
 * The send log (src/limiter/send-log.ts): the limiter counts requests where they leave, so that
 * no window of the quota's second plus the jitter margin holds more than the quota, however late
 * the requests leave after their turn. The pure log with a clock passed in, then the embedded
 * limiter on the real clock with an event loop that stalls and requests that leave late.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JITTER_MARGIN_MS, RateLimiter, SendLog, START_MARGIN_MS } from '../src/limiter/index.js';

test('SendLog: a quota of R holds R turns; a turn counts from its grant, from its send once sent, not at all once cancelled', () => {
  const log = new SendLog(3);
  assert.equal(log.cap, 3);
  assert.equal(log.windowMs, 1000 + JITTER_MARGIN_MS);
  log.cancel(log.grant(-1000)); // the run started a second ago: past its wider start margin
  assert.equal(log.room(0), 3);
  const a = log.grant(0);
  const b = log.grant(0);
  const c = log.grant(10);
  assert.equal(log.room(10), 0, 'three granted, none sent: full');
  log.cancel(c);
  log.cancel(c);
  assert.equal(log.room(10), 1, 'a cancelled turn gives its place back, once');
  log.markSent(a, 40);
  log.markSent(a, 900);
  assert.equal(log.room(41), 1, 'sending moves a turn, it does not free it');
  // b never settles: it counts as sent when granted, so it leaves the window first.
  assert.equal(log.freeInMs(41), 0 + log.windowMs - 41);
  assert.equal(log.room(log.windowMs - 1), 1);
  assert.equal(log.room(log.windowMs), 2, 'b (granted at 0, never settled) left the window');
  assert.equal(log.room(40 + log.windowMs - 1), 2, 'a counts from its send at 40');
  assert.equal(log.room(40 + log.windowMs), 3);
  assert.equal(log.freeInMs(5000), 0, 'an empty log has room at once');
  // A request that waited more than a window to leave (a stalled disk) is counted when it leaves.
  const late = log.grant(5000);
  assert.equal(log.room(5000 + log.windowMs), 3, 'pending for a whole window: no longer counted');
  log.markSent(late, 5000 + log.windowMs + 5);
  assert.equal(log.room(5000 + log.windowMs + 6), 2, 'counted again from its send');
  log.cancel(late);
  assert.equal(log.room(5000 + log.windowMs + 6), 2, 'settled once: a later cancel changes nothing');
});

test('SendLog: below 1/s the window stretches (0.5/s: one request per 2 s, plus the margin)', () => {
  const log = new SendLog(0.5);
  assert.equal(log.cap, 1);
  assert.equal(log.windowMs, 2000 + JITTER_MARGIN_MS);
  log.cancel(log.grant(-1000));
  log.markSent(log.grant(0), 0);
  assert.equal(log.room(2000), 0);
  assert.equal(log.room(2000 + JITTER_MARGIN_MS), 1);
});

test('SendLog: a run\'s first requests count START_MARGIN_MS longer, the margin shrinking a ms every ms down to JITTER_MARGIN_MS', () => {
  const log = new SendLog(2);
  log.markSent(log.grant(0), 0); // the first: leaves the window at 1000 + 150
  log.markSent(log.grant(100), 100); // 100 ms on: margin 50, leaves at 1150 too
  assert.equal(START_MARGIN_MS, 150);
  assert.equal(log.room(1149), 0);
  assert.equal(log.room(1150), 2);
  log.grant(500); // past the start: margin 30, leaves at 1530
  assert.equal(log.freeInMs(1200), 330);
});

test('SendLog: turns granted while there is room, sent after any delay, never put more than R into a window of 1 s + margin', () => {
  for (const rate of [7, 100, 3000]) {
    const log = new SendLog(rate);
    const sends: number[] = [];
    const inFlight: Array<{ at: number; turn: ReturnType<SendLog['grant']> }> = [];
    let seed = rate;
    const random = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
    // Greedy callers: every ms they take what room there is; each request leaves 0-80 ms later
    // (a commit on a busy loop), one in ten never leaves (cancelled).
    for (let now = 0; now < 5000; now += 1) {
      for (const due of inFlight.filter((f) => f.at <= now)) {
        inFlight.splice(inFlight.indexOf(due), 1);
        if (random() < 0.1) log.cancel(due.turn);
        else {
          log.markSent(due.turn, now);
          sends.push(now);
        }
      }
      for (let room = log.room(now); room > 0; room -= 1) inFlight.push({ at: now + Math.floor(random() * 80), turn: log.grant(now) });
    }
    let j = 0;
    for (let i = 0; i < sends.length; i += 1) {
      while (sends[i]! - sends[j]! >= log.windowMs) j += 1;
      assert.ok(i - j + 1 <= rate, `rate ${rate}: ${i - j + 1} sends within ${log.windowMs} ms`);
    }
    assert.ok(sends.length >= rate * 4, `rate ${rate}: only ${sends.length} sends in 5 s`);
  }
});

/** Blocks the event loop for `ms`, as a bunch of answers or a garbage collection does. */
function stall(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

test('RateLimiter: on an event loop that stalls 20-45 ms every 100 ms, with half the requests leaving 40 ms after their turn, no window of 1 s + margin holds more than the rate', async () => {
  const rate = 500;
  const limiter = new RateLimiter({ rate });
  const sends: number[] = [];
  const until = performance.now() + 2500;
  let seed = 1;
  const random = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
  const callers = Array.from({ length: 64 }, async () => {
    while (performance.now() < until) {
      const turn = await limiter.acquire();
      // The IN_FLIGHT commit before the request leaves: half at once, half 40 ms late. (Without
      // the send log, 516-522 requests left within one window here.)
      await new Promise((resolve) => setTimeout(resolve, random() < 0.5 ? 0 : 40));
      turn.sent();
      sends.push(performance.now());
    }
  });
  const stalls = setInterval(() => stall(20 + random() * 25), 100);
  await Promise.all(callers);
  clearInterval(stalls);
  await limiter.close();
  let j = 0;
  let most = 0;
  for (let i = 0; i < sends.length; i += 1) {
    while (sends[i]! - sends[j]! >= 1000 + JITTER_MARGIN_MS) j += 1;
    most = Math.max(most, i - j + 1);
  }
  assert.ok(most <= rate, `${most} requests left within ${1000 + JITTER_MARGIN_MS} ms at --rate ${rate}`);
  // Loosely from below (a shared machine): the stalls' lateness is caught up, not lost.
  assert.ok(sends.length >= rate * 2.5 * 0.8, `only ${sends.length} sends in 2.5 s`);
});
