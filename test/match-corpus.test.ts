/**
 * The targets of issue #14, held over the whole labelled corpus (test/fixtures/names/corpus.csv,
 * built by test/fixtures/names/build-corpus.ts from public data and vendors' published examples;
 * sources in test/fixtures/names/README.md). Labels say what is true — one person/firm or two —
 * and were never changed to make a target pass. `npm run eval:names` prints the same figures.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { matchNames } from '../src/match/index.js';
import { figures, isVendorPair, loadCorpus, rankOf, type Scored } from './helpers/name-corpus.js';

const corpus = loadCorpus();
const scored: Scored[] = corpus.map((pair) => {
  const match = matchNames(pair.expectedName, pair.bankName);
  return { pair, result: match.result, score: match.score };
});
const all = figures(scored);

function list(rows: readonly Scored[]): string {
  return rows
    .slice(0, 20)
    .map((s) => `${s.pair.klass}: ${JSON.stringify(s.pair.expectedName)} ~ ${JSON.stringify(s.pair.bankName)} → ${s.result} ${s.score}`)
    .join('\n');
}

describe('name-match corpus (issue #14 targets)', () => {
  it('has at least 1,500 labelled pairs with every class of the issue', () => {
    assert.ok(corpus.length >= 1500, `${corpus.length} pairs`);
    for (const klass of ['c1-gender-form', 'c2-near-given-name', 'c3-firms-sharing-words', 'c4-relatives', 'c5-initial-surname', 'c6-transliteration', 'c7-typo-truncation', 'c8-joined-honorific', 'c9-company-forms', 'c10-relation-joint', 'vendor-table']) {
      assert.ok(corpus.some((p) => p.klass === klass), klass);
    }
  });

  it('rates no different-person or different-firm pair GOOD_PARTIAL_MATCH or better', () => {
    const wrong = scored.filter((s) => !s.pair.same && rankOf(s.result) <= 1);
    assert.equal(wrong.length, 0, list(wrong));
  });

  it('rates at most 2% of different pairs MODERATE_PARTIAL_MATCH or better', () => {
    const wrong = scored.filter((s) => !s.pair.same && rankOf(s.result) <= 2);
    assert.ok(all.falseAcceptModerate <= 0.02, `${(100 * all.falseAcceptModerate).toFixed(2)}%\n${list(wrong)}`);
  });

  it('rates at least 97% of same pairs MODERATE or better and 90% GOOD or better', () => {
    const missed = scored.filter((s) => s.pair.same && rankOf(s.result) > 2);
    assert.ok(all.recallModerate >= 0.97, `${(100 * all.recallModerate).toFixed(2)}%\n${list(missed)}`);
    assert.ok(all.recallGood >= 0.9, `${(100 * all.recallGood).toFixed(2)}%`);
  });

  it('puts every vendor example in its published category or one step from it', () => {
    const off = scored.filter((s) => isVendorPair(s.pair) && Math.abs(rankOf(s.result) - rankOf(s.pair.expected)) > 1);
    assert.equal(off.length, 0, list(off));
  });
});
