/**
 * The labelled name-pair corpus (test/fixtures/names/corpus.csv) and the figures issue #14 asks
 * for: shared by the corpus test (which holds the targets) and `npm run eval:names` (which
 * prints them), so both always count the same way.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { NAME_MATCH_RESULTS, type NameMatchResult } from '../../src/match/index.js';

export const CORPUS_PATH = fileURLToPath(new URL('../fixtures/names/corpus.csv', import.meta.url));
/** The pairs issue #28 added (test/fixtures/names/build-corpus-28.ts). */
export const CORPUS_28_PATH = fileURLToPath(new URL('../fixtures/names/corpus-28.csv', import.meta.url));
/** Pairs from election affidavits of the South and the East (test/fixtures/names/build-corpus-affidavits.ts). */
export const CORPUS_AFFIDAVITS_PATH = fileURLToPath(new URL('../fixtures/names/corpus-affidavits.csv', import.meta.url));
/** Near-name pairs from five more public lists of people (test/fixtures/names/build-corpus-public.ts). */
export const CORPUS_PUBLIC_PATH = fileURLToPath(new URL('../fixtures/names/corpus-public.csv', import.meta.url));
/** Joint accounts: one holder a near name, or the same holders (test/fixtures/names/build-corpus-joint.ts). */
export const CORPUS_JOINT_PATH = fileURLToPath(new URL('../fixtures/names/corpus-joint.csv', import.meta.url));

export interface CorpusPair {
  expectedName: string;
  bankName: string;
  /** The truth: one person or firm (true) or two (false). */
  same: boolean;
  /** Published vendor category, or the category the class calls for (constructed rows). */
  expected: NameMatchResult;
  klass: string;
  source: string;
}

/**
 * The held-out part (issue #28): a fixed hash of the pair, the first byte of sha1 of
 * "expected|bank" mod 3 == 0 (about a third). Rules are tuned on the rest only; the targets are
 * asserted on this part, which nobody reads while changing rules.
 */
export function isHeldOut(pair: Pick<CorpusPair, 'expectedName' | 'bankName'>): boolean {
  const digest = createHash('sha1').update(`${pair.expectedName}|${pair.bankName}`).digest();
  return (digest[0] as number) % 3 === 0;
}

/** The whole corpus (every file), or one file. */
export function loadCorpus(path?: string): CorpusPair[] {
  if (path === undefined) return [CORPUS_PATH, CORPUS_28_PATH, CORPUS_AFFIDAVITS_PATH, CORPUS_PUBLIC_PATH, CORPUS_JOINT_PATH].flatMap((p) => loadCorpus(p));
  const records = parse(readFileSync(path, 'utf8'), { columns: true, skip_empty_lines: true }) as Record<string, string>[];
  return records.map((r) => ({
    expectedName: r.expected_name ?? '',
    bankName: r.bank_name ?? '',
    same: r.same === 'true',
    expected: r.expected as NameMatchResult,
    klass: r.class ?? '',
    source: r.source ?? '',
  }));
}

/** Rank of a verdict: 0 = DIRECT_MATCH … 4 = NO_MATCH. */
export function rankOf(result: NameMatchResult): number {
  return NAME_MATCH_RESULTS.indexOf(result);
}

export function isVendorPair(pair: CorpusPair): boolean {
  return pair.source.startsWith('vendor:');
}

/** A short name for the source, for grouping: "constructed", or the source up to its address. */
export function sourceGroup(source: string): string {
  if (source.startsWith('constructed:')) return 'constructed';
  return source.replace(/ \(.*$/, '');
}

/** Class as issue #14 numbers it; the legacy rows keep their own sub-labels under one group. */
export function classGroup(klass: string): string {
  return klass.startsWith('legacy:') ? 'legacy' : klass;
}

export interface Scored {
  pair: CorpusPair;
  result: NameMatchResult;
  score: number;
}

export interface Figures {
  pairs: number;
  samePairs: number;
  differentPairs: number;
  /** Different pairs rated ≥ GOOD_PARTIAL_MATCH (a wrong payee reported as fine). */
  falseAcceptGood: number;
  /** Different pairs rated ≥ MODERATE_PARTIAL_MATCH. */
  falseAcceptModerate: number;
  /** Same pairs rated ≥ MODERATE_PARTIAL_MATCH. */
  recallModerate: number;
  /** Same pairs rated ≥ GOOD_PARTIAL_MATCH. */
  recallGood: number;
  /** Pairs in exactly their expected category. */
  exact: number;
  /** Pairs within one category of the expected one. */
  withinOne: number;
}

export function figures(scored: readonly Scored[]): Figures {
  const same = scored.filter((s) => s.pair.same);
  const different = scored.filter((s) => !s.pair.same);
  const rate = (part: number, whole: number): number => (whole === 0 ? Number.NaN : part / whole);
  return {
    pairs: scored.length,
    samePairs: same.length,
    differentPairs: different.length,
    falseAcceptGood: rate(different.filter((s) => rankOf(s.result) <= 1).length, different.length),
    falseAcceptModerate: rate(different.filter((s) => rankOf(s.result) <= 2).length, different.length),
    recallModerate: rate(same.filter((s) => rankOf(s.result) <= 2).length, same.length),
    recallGood: rate(same.filter((s) => rankOf(s.result) <= 1).length, same.length),
    exact: rate(scored.filter((s) => s.result === s.pair.expected).length, scored.length),
    withinOne: rate(scored.filter((s) => Math.abs(rankOf(s.result) - rankOf(s.pair.expected)) <= 1).length, scored.length),
  };
}

/** counts[expected][actual]. */
export function confusion(scored: readonly Scored[]): number[][] {
  const matrix = NAME_MATCH_RESULTS.map(() => NAME_MATCH_RESULTS.map(() => 0));
  for (const s of scored) {
    const row = matrix[rankOf(s.pair.expected)];
    if (row !== undefined) row[rankOf(s.result)] = (row[rankOf(s.result)] ?? 0) + 1;
  }
  return matrix;
}
