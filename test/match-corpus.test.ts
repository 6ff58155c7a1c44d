/**
 * The targets of issues #14 and #28, held over the whole labelled corpus (test/fixtures/names/
 * corpus.csv, corpus-28.csv, corpus-affidavits.csv, corpus-public.csv and corpus-joint.csv, built by the scripts beside them from public data and vendors'
 * published examples; sources in test/fixtures/names/README.md). Labels say what is true — one
 * person/firm or two — and were never changed to make a target pass. The issue #28 targets are
 * asserted on the held-out part (a fixed hash of the pair, never read while tuning);
 * `npm run eval:names` prints both parts side by side.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { matchNames } from '../src/match/index.js';
import { classGroup, figures, isHeldOut, isVendorPair, loadCorpus, rankOf, type Scored } from './helpers/name-corpus.js';

const corpus = loadCorpus();
const scored: Scored[] = corpus.map((pair) => {
  const match = matchNames(pair.expectedName, pair.bankName);
  return { pair, result: match.result, score: match.score };
});
const heldOut = scored.filter((s) => isHeldOut(s.pair));
const held = figures(heldOut);

function list(rows: readonly Scored[]): string {
  return rows
    .slice(0, 20)
    .map((s) => `${s.pair.klass}: ${JSON.stringify(s.pair.expectedName)} ~ ${JSON.stringify(s.pair.bankName)} → ${s.result} ${s.score}`)
    .join('\n');
}

describe('name-match corpus (issue #14 and #28 targets, held-out part)', () => {
  it('has the classes of both issues, 2,000 pairs more than issue #14 left, and a held-out third', () => {
    assert.ok(corpus.length >= 2286 + 2000, `${corpus.length} pairs`);
    for (const klass of ['c1-gender-form', 'c6-transliteration', 'c10-relation-joint', 'vendor-table', 'i28-near-surname', 'i28-near-given', 'i28-typo', 'i28-huf', 'i28-proprietor', 'i28-relation', 'i28-script', 'i28-joint']) {
      assert.ok(corpus.some((p) => p.klass === klass), klass);
    }
    const hard = corpus.filter((p) => !p.same && /^i28-(near|huf)/.test(p.klass)).length;
    assert.ok(hard >= 800, `${hard} systematic hard different-person pairs`);
    assert.ok(heldOut.length >= 0.3 * corpus.length, `${heldOut.length} held out`);
  });

  it('rates no different-person pair GOOD_PARTIAL_MATCH or better', () => {
    const wrong = heldOut.filter((s) => !s.pair.same && rankOf(s.result) <= 1);
    // Issue #28's target exactly. The held-out pairs are counted, never listed: a failure names
    // only how many and in which classes.
    const classes = [...new Set(wrong.map((s) => classGroup(s.pair.klass)))].join(', ');
    assert.equal(wrong.length, 0, `${wrong.length} held-out different-person pairs ≥ GOOD (${classes})`);
  });

  it('rates at most 1% of different pairs MODERATE_PARTIAL_MATCH or better', () => {
    assert.ok(held.falseAcceptModerate <= 0.01, `${(100 * held.falseAcceptModerate).toFixed(2)}%`);
  });

  it('rates at least 97% of same pairs MODERATE or better and 90% GOOD or better', () => {
    assert.ok(held.recallModerate >= 0.97, `${(100 * held.recallModerate).toFixed(2)}%`);
    assert.ok(held.recallGood >= 0.9, `${(100 * held.recallGood).toFixed(2)}%`);
  });

  it('gets every class at least 90% on the right side of MODERATE', () => {
    const classes = new Set(heldOut.map((s) => classGroup(s.pair.klass)));
    for (const klass of classes) {
      const part = heldOut.filter((s) => classGroup(s.pair.klass) === klass);
      const right = part.filter((s) => (s.pair.same ? rankOf(s.result) <= 2 : rankOf(s.result) > 2)).length;
      assert.ok(right >= 0.9 * part.length, `${klass}: ${right}/${part.length}`);
    }
  });

  it('puts every vendor example in its published category or one step from it', () => {
    const off = scored.filter((s) => isVendorPair(s.pair) && Math.abs(rankOf(s.result) - rankOf(s.pair.expected)) > 1);
    assert.equal(off.length, 0, list(off));
  });
});
