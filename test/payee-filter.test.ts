/**
 * The planner's filter of the payees a new run has started (src/pipeline/bank-run/plan.ts,
 * PayeeFilter): a payee it says it never saw is looked up nowhere, so it must never miss one it
 * holds; its false positives only cost a lookup, and stay rare at a large run's size.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PayeeFilter } from '../src/pipeline/bank-run/plan.js';

test('the payee filter holds every payee added, and few others', () => {
  const filter = new PayeeFilter();
  const payee = (i: number) => `${String(500_000_000_000 + i * 7_919)}|${['SBIN', 'HDFC', 'ICIC', 'UTIB'][i % 4]}0${String(i % 100_000).padStart(6, '0')}`;
  const added = 500_000;
  for (let i = 0; i < added; i += 1) filter.add(payee(i));
  for (let i = 0; i < added; i += 1) assert.ok(filter.mayHold(payee(i)), payee(i));
  let falsePositives = 0;
  const others = 200_000;
  for (let i = added; i < added + others; i += 1) if (filter.mayHold(payee(i))) falsePositives += 1;
  // Two bits of 16 Mi per payee: about 0.35% at half a million.
  assert.ok(falsePositives / others < 0.01, `${falsePositives} false positives of ${others}`);
  assert.ok(!new PayeeFilter().mayHold(payee(1)), 'an empty filter holds nothing');
});
