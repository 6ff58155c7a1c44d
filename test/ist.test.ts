/**
 * README: "Times shown to people are in IST; files keep ISO-8601 UTC." A nightly run at 01:30 IST
 * is still the previous day in UTC: every message, page and report says the Indian date.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatIst, formatIstDate } from '../src/ist.js';

test('a time at 01:30 IST is said as that Indian date and time, not the UTC day before', () => {
  const nightly = Date.parse('2026-11-30T20:00:00Z');
  assert.equal(formatIst(nightly), '1 Dec 2026, 01:30 IST');
  assert.equal(formatIstDate(nightly), '1 Dec 2026');
  assert.equal(formatIst(Date.parse('2026-12-31T18:29:00Z')), '31 Dec 2026, 23:59 IST');
  assert.equal(formatIst(Date.parse('2026-12-31T18:30:00Z')), '1 Jan 2027, 00:00 IST');
});
