/**
 * Compares the payee name a finance team expected with the beneficiary name a bank returned.
 *
 * Shape of the decision:
 * 1. both names are parsed into weighted tokens (parse-name.ts, cached);
 * 2. words written together on one side and apart on the other are joined;
 * 3. tokens are aligned greedily, best similarity first (same phonetic key 1, initial 0.75,
 *    one edit 0.75, two edits on long words 0.6), which makes word order irrelevant;
 * 4. the base score is the geometric mean of how much of each side's weight was matched, so a
 *    missing filler word costs little and a missing surname a lot;
 * 5. caps encode what a payments reviewer knows that weights cannot: two sides that each carry a
 *    name the other lacks are different people, Sr is not Jr, a firm is not a person;
 * 6. a bank name that is a cut-off prefix of the expected one is scored on what is visible.
 */
import { distance } from 'fastest-levenshtein';
import { GENERIC_DESCRIPTORS, LEGAL_FORMS } from './lexicon.js';
import { parseName, WORD_WEIGHT, type NameToken, type ParsedName } from './parse-name.js';
import { toPhoneticKey } from './phonetic.js';
import type { NameMatchRule } from './rules.js';
import { toNameMatchResult, type NameMatchResult } from './verdict.js';

export interface NameMatch {
  /** 0–100, integer. */
  score: number;
  result: NameMatchResult;
  /** Ids of the rules that fired (see NAME_MATCH_RULES), for `--explain`. */
  rules: string[];
}

/** Similarity of an initial to a full word starting with that letter: consistent, not proof. */
export const INITIAL_SIMILARITY = 0.75;
/** Similarity of two words one edit apart (after phonetic keys): a typo, most likely. */
export const ONE_EDIT_SIMILARITY = 0.75;
/** Similarity of two long words two edits apart (Bhattacharya/Bhattacharjee). */
export const TWO_EDIT_SIMILARITY = 0.6;
/** Similarity of words that differ by a final schwa `a` (Dutt/Dutta, Shiv/Shiva). */
export const SCHWA_SIMILARITY = 0.9;
/** Shortest key that may match with one edit: shorter names differ by one letter all the time. */
export const FUZZY_MIN_LENGTH = 4;
/** Longest key for which one extra final letter means a different name (Sneha/Snehal). */
export const SUFFIX_NAME_MAX_LENGTH = 6;
/** Shortest key that may match with two edits. */
export const TWO_EDIT_MIN_LENGTH = 8;
/** Similarity of a word the bank cut off to the full word it is a prefix of. */
export const TRUNCATED_WORD_SIMILARITY = 0.9;
/** Same, when two letters or fewer survived the cut. */
export const SHORT_TRUNCATED_WORD_SIMILARITY = 0.6;
/** Field widths at which banks are known to cut names (a trailing space may be trimmed off too). */
export const TRUNCATION_WIDTHS: ReadonlySet<number> = new Set([20, 25, 26, 30, 32, 35, 40, 45, 50, 60]);
/** A bank name shorter than this is never assumed to be truncated: too little to go on. */
export const MIN_TRUNCATED_LENGTH = 8;

/** Each side has a distinctive name the other lacks → at best POOR_PARTIAL_MATCH. */
export const CAP_DIFFERENT_NAMES = 45;
/** The sides disagree only on filler/middle words → at best MODERATE_PARTIAL_MATCH. */
export const CAP_FILLER_DIFFERS = 60;
/** Generic business descriptors disagree (Traders vs Enterprises) → at best MODERATE_PARTIAL_MATCH. */
export const CAP_BUSINESS_TYPE_DIFFERS = 60;
/** Lines of business disagree (Traders vs Motors) → at best POOR_PARTIAL_MATCH. */
export const CAP_BUSINESS_LINE_DIFFERS = 45;
/** A word was cut by the bank, so the name cannot be confirmed in full → at best GOOD. */
export const CAP_TRUNCATED_WORD = 88;
/** The bank name starts with an extra name (often the spouse's) → at best MODERATE. */
export const CAP_LEADING_NAME_DIFFERS = 65;
/** Only initials (and fillers) matched → at best MODERATE_PARTIAL_MATCH. */
export const CAP_INITIALS_ONLY = 60;
/** Sr vs Jr → at best POOR_PARTIAL_MATCH. */
export const CAP_GENERATION_DIFFERS = 45;
/** Sr/Jr on one side only → at best GOOD_PARTIAL_MATCH. */
export const CAP_GENERATION_MISSING = 80;
/** A business against a person → at best POOR_PARTIAL_MATCH. */
export const CAP_BUSINESS_VS_PERSON = 40;
/** Truncated, name words hidden, at least two distinctive words visible → at best GOOD. */
export const CAP_TRUNCATED_STRONG = 88;
/** Truncated, name words hidden, one distinctive word visible → at best MODERATE. */
export const CAP_TRUNCATED_WEAK = 70;

const MAX_TOKENS = 16;
const ABBREVIATION_MAX_RATIO = 0.6;
const EPSILON = 1e-9;

// How a pair of tokens matched; drives the rule ids.
const HOW_NONE = 0;
const HOW_EXACT = 1;
const HOW_ALIAS = 2;
const HOW_TRANSLITERATION = 3;
const HOW_INITIAL = 4;
const HOW_FUZZY = 5;
const HOW_KNOWN_DIFFER = 6;
const HOW_TRUNCATED = 7;

// Scratch buffers reused across calls: matching is synchronous, so one set is enough, and it
// keeps the hot path free of per-call allocations.
const simMatrix = new Float64Array(MAX_TOKENS * MAX_TOKENS);
const howMatrix = new Int8Array(MAX_TOKENS * MAX_TOKENS);
const matchOfE = new Int8Array(MAX_TOKENS);
const matchOfA = new Int8Array(MAX_TOKENS);
const simOfE = new Float64Array(MAX_TOKENS);
const simOfA = new Float64Array(MAX_TOKENS);
const howOfE = new Int8Array(MAX_TOKENS);

let lastHow = HOW_NONE;

/** One key is the other plus a final `a`: the inherent vowel, written or not. */
function isSchwaPair(kx: string, ky: string): boolean {
  const diff = kx.length - ky.length;
  if (diff === 1) return kx.charCodeAt(kx.length - 1) === 97 && kx.startsWith(ky);
  if (diff === -1) return ky.charCodeAt(ky.length - 1) === 97 && ky.startsWith(kx);
  return false;
}

/** Similarity of two tokens in [0, 1]; sets `lastHow`. */
function similarity(x: NameToken, y: NameToken): number {
  lastHow = HOW_NONE;
  if (x.kind === 'descriptor' || y.kind === 'descriptor') {
    if (x.kind === y.kind && x.key === y.key) {
      lastHow = x.source === y.source ? HOW_EXACT : HOW_ALIAS;
      return 1;
    }
    return 0;
  }
  if (x.kind === 'initial' || y.kind === 'initial') {
    if (x.kind === 'initial' && y.kind === 'initial') {
      if (x.key !== y.key) return 0;
      lastHow = HOW_EXACT;
      return 1;
    }
    const letter = x.kind === 'initial' ? x.text : y.text;
    const full = x.kind === 'initial' ? y : x;
    if (full.text[0] === letter || full.key[0] === letter || full.source[0] === letter) {
      lastHow = HOW_INITIAL;
      return INITIAL_SIMILARITY;
    }
    return 0;
  }
  if (x.key === y.key) {
    if (x.source === y.source) lastHow = HOW_EXACT;
    else if (x.aliased || y.aliased) lastHow = HOW_ALIAS;
    else lastHow = HOW_TRANSLITERATION;
    return 1;
  }
  const kx = x.key;
  const ky = y.key;
  const shorter = kx.length < ky.length ? kx.length : ky.length;
  if (shorter >= 3 && isSchwaPair(kx, ky)) {
    if (x.known && y.known) {
      lastHow = HOW_KNOWN_DIFFER;
      return 0;
    }
    lastHow = HOW_TRANSLITERATION;
    return SCHWA_SIMILARITY;
  }
  // Typos rarely hit the first letter, while different names often differ only there
  // (Naresh/Suresh, Harpreet/Gurpreet).
  if (shorter < FUZZY_MIN_LENGTH || kx.charCodeAt(0) !== ky.charCodeAt(0)) return 0;
  // A short name with one extra letter at the end is usually another name, often the other
  // gender's (Sneha/Snehal, Rajan/Rajani, Deepa/Deepak), not a typo.
  if (shorter <= SUFFIX_NAME_MAX_LENGTH && x.kind === 'word' && y.kind === 'word' && (kx.startsWith(ky) || ky.startsWith(kx))) {
    if (x.known && y.known) lastHow = HOW_KNOWN_DIFFER;
    return 0;
  }
  const allowed = shorter >= TWO_EDIT_MIN_LENGTH ? 2 : 1;
  if (Math.abs(kx.length - ky.length) > allowed) return 0;
  const edits = distance(kx, ky);
  if (edits > allowed) return 0;
  if (x.known && y.known) {
    lastHow = HOW_KNOWN_DIFFER;
    return 0;
  }
  lastHow = HOW_FUZZY;
  return edits === 1 ? ONE_EDIT_SIMILARITY : TWO_EDIT_SIMILARITY;
}

/** Md/Mohd for Muhammad, Kr for Kumar: the written form is much shorter than the full word. */
function isAbbreviation(x: NameToken, y: NameToken): boolean {
  const shortest = Math.min(x.source.length, y.source.length);
  return shortest <= ABBREVIATION_MAX_RATIO * Math.max(x.text.length, y.text.length);
}

function hasKey(tokens: readonly NameToken[], key: string): boolean {
  for (const token of tokens) if (token.key === key) return true;
  return false;
}

function everyKeyIn(tokens: readonly NameToken[], other: readonly NameToken[]): boolean {
  for (const token of tokens) if (!hasKey(other, token.key)) return false;
  return true;
}

/**
 * Joins 2–3 adjacent words of `side` when together they spell a word of `other`
 * (Raj Kumar / RAJKUMAR, Abdul Rahman / ABDULRAHMAN). Returns null when nothing joined.
 */
function joinWords(side: readonly NameToken[], other: readonly NameToken[]): NameToken[] | null {
  for (let i = 0; i < side.length - 1; i += 1) {
    const first = side[i] as NameToken;
    if (first.kind === 'initial' || first.kind === 'descriptor' || hasKey(other, first.key)) continue;
    // Join the words as written: alias expansion (Narayana → Narayan) would break the spelling.
    let text = first.source;
    for (let span = 2; span <= 3 && i + span <= side.length; span += 1) {
      const last = side[i + span - 1] as NameToken;
      if (last.kind === 'initial' || last.kind === 'descriptor') break;
      text += last.source;
      const key = toPhoneticKey(text);
      for (const candidate of other) {
        if (candidate.kind !== 'word' || (candidate.key !== key && !isSchwaPair(candidate.key, key))) continue;
        const joined: NameToken = {
          text,
          key,
          kind: 'word',
          weight: candidate.weight,
          known: candidate.known,
          source: text,
          aliased: false,
          start: first.start,
          end: last.end,
        };
        return [...side.slice(0, i), joined, ...side.slice(i + span)];
      }
    }
  }
  return null;
}

class RuleList {
  readonly ids: string[] = [];
  add(rule: NameMatchRule): void {
    if (!this.ids.includes(rule)) this.ids.push(rule);
  }
}

function addParseRules(rules: RuleList, expected: ParsedName, actual: ParsedName): void {
  if (expected.hadHonorific || actual.hadHonorific) rules.add('honorific');
  if (expected.hadRelation || actual.hadRelation) rules.add('relation-marker');
  if (expected.hadLegalForm || actual.hadLegalForm) rules.add('legal-suffix');
}

function finish(score: number, rules: RuleList): { score: number; result: NameMatchResult; rules: string[] } {
  const rounded = Math.max(0, Math.min(100, Math.round(score)));
  return { score: rounded, result: toNameMatchResult(rounded), rules: rules.ids };
}

/** A generation cap (Sr/Jr), or 100 when none applies. */
function generationCap(expected: ParsedName, actual: ParsedName, rules: RuleList | null): number {
  if (expected.generation === actual.generation) return 100;
  if (expected.generation !== null && actual.generation !== null) {
    rules?.add('generation-differs');
    return CAP_GENERATION_DIFFERS;
  }
  rules?.add('generation-missing');
  return CAP_GENERATION_MISSING;
}

function onlyGenericLeft(tokens: readonly NameToken[], matchOf: Int8Array): boolean {
  for (let i = 0; i < tokens.length; i += 1) {
    const token = tokens[i] as NameToken;
    if (token.kind === 'descriptor' && matchOf[i] === -1 && !GENERIC_DESCRIPTORS.has(token.key)) return false;
  }
  return true;
}

function isLegalPrefix(text: string): boolean {
  if (text.length < 2) return false;
  for (const form of LEGAL_FORMS) if (form.length > text.length && form.startsWith(text)) return true;
  return false;
}

/**
 * Score of the hypothesis "the bank cut the expected name at a fixed width", or -1 when the
 * actual name is not a cut-off prefix of the expected one.
 */
function truncatedScore(expected: ParsedName, actual: ParsedName, actualLength: number): number {
  const cut = actual.plain.length;
  if (cut < MIN_TRUNCATED_LENGTH || cut >= expected.plain.length || !expected.plain.startsWith(actual.plain)) return -1;
  const midWord = expected.plain.charCodeAt(cut) !== 32;
  if (!midWord && !TRUNCATION_WIDTHS.has(actualLength) && !TRUNCATION_WIDTHS.has(actualLength + 1)) return -1;

  // Everything before the cut is the same text on both sides; only the cut word is uncertain.
  const fragmentStart = midWord ? actual.plain.lastIndexOf(' ') + 1 : cut;
  const fragmentLength = cut - fragmentStart;
  const fragmentSimilarity = fragmentLength >= 3 ? TRUNCATED_WORD_SIMILARITY : SHORT_TRUNCATED_WORD_SIMILARITY;

  let expectedWeight = 0;
  let expectedMatched = 0;
  let hiddenTokens = 0;
  let visibleDistinctive = 0;
  let partialIsToken = false;
  for (const token of expected.tokens) {
    if (token.end <= cut) {
      expectedWeight += token.weight;
      expectedMatched += token.weight;
      if (token.kind === 'word') visibleDistinctive += 1;
    } else if (token.start < cut) {
      partialIsToken = true;
      hiddenTokens += 1;
      expectedWeight += token.weight;
      expectedMatched += token.weight * fragmentSimilarity;
      if (token.kind === 'word' && fragmentLength >= 3) visibleDistinctive += 1;
    } else {
      hiddenTokens += 1;
    }
  }
  let actualWeight = 0;
  let actualMatched = 0;
  for (const token of actual.tokens) {
    if (token.start < fragmentStart) {
      actualWeight += token.weight;
      actualMatched += token.weight;
    } else if (partialIsToken) {
      actualWeight += token.weight;
      actualMatched += token.weight * fragmentSimilarity;
    }
    // else: the fragment is a cut legal form ("PRIVATE LIMI") and says nothing.
  }
  if (expectedWeight === 0 || actualWeight === 0) return -1;
  let score = 100 * Math.sqrt((expectedMatched / expectedWeight) * (actualMatched / actualWeight));
  if (hiddenTokens > 0) score = Math.min(score, visibleDistinctive >= 2 ? CAP_TRUNCATED_STRONG : CAP_TRUNCATED_WEAK);
  if (actual.generation !== null && actual.generation !== expected.generation) {
    score = Math.min(score, generationCap(expected, actual, null));
  }
  return score;
}

/**
 * Compares an expected payee name with the name the bank returned.
 * Pure; safe to call millions of times (parsing is cached per distinct name).
 */
export function matchNames(expected: string, actual: string): NameMatch {
  const rules = new RuleList();
  const expectedName = parseName(expected);
  const actualName = parseName(actual);
  if (expectedName.tokens.length === 0) {
    rules.add('blank-expected');
    return finish(0, rules);
  }
  if (actualName.tokens.length === 0) {
    rules.add('blank-actual');
    return finish(0, rules);
  }

  const expectedTrimmed = expected.trim();
  const actualTrimmed = actual.trim();
  if (expectedTrimmed === actualTrimmed) rules.add('identical');
  else if (expectedName.compact === actualName.compact) rules.add('case-punctuation');
  addParseRules(rules, expectedName, actualName);

  // Fast path: the same words after titles and punctuation are gone.
  if (expectedName.plain === actualName.plain && expectedName.generation === actualName.generation) {
    return finish(100, rules);
  }

  let eTokens: readonly NameToken[] = expectedName.tokens;
  let aTokens: readonly NameToken[] = actualName.tokens;
  if (!everyKeyIn(eTokens, aTokens) && !everyKeyIn(aTokens, eTokens)) {
    for (let round = 0; round < 4; round += 1) {
      const joinedE = joinWords(eTokens, aTokens);
      if (joinedE !== null) eTokens = joinedE;
      const joinedA = joinWords(aTokens, eTokens);
      if (joinedA !== null) aTokens = joinedA;
      if (joinedE === null && joinedA === null) break;
      rules.add('joined-words');
    }
  }
  if (eTokens.length > MAX_TOKENS) eTokens = eTokens.slice(0, MAX_TOKENS);
  if (aTokens.length > MAX_TOKENS) aTokens = aTokens.slice(0, MAX_TOKENS);
  const n = eTokens.length;
  const m = aTokens.length;

  let knownDiffer = false;
  for (let i = 0; i < n; i += 1) {
    const e = eTokens[i] as NameToken;
    for (let j = 0; j < m; j += 1) {
      simMatrix[i * m + j] = similarity(e, aTokens[j] as NameToken);
      howMatrix[i * m + j] = lastHow;
    }
  }
  matchOfE.fill(-1, 0, n);
  matchOfA.fill(-1, 0, m);
  simOfE.fill(0, 0, n);
  simOfA.fill(0, 0, m);
  howOfE.fill(HOW_NONE, 0, n);

  // Greedy alignment, best pair first; ties go to the pair closest in position.
  for (;;) {
    let best = 0;
    let bestI = -1;
    let bestJ = -1;
    let bestGap = Number.POSITIVE_INFINITY;
    for (let i = 0; i < n; i += 1) {
      if (matchOfE[i] !== -1) continue;
      for (let j = 0; j < m; j += 1) {
        if (matchOfA[j] !== -1) continue;
        const sim = simMatrix[i * m + j] as number;
        if (sim <= 0) continue;
        const gap = Math.abs(i - j);
        if (sim > best + EPSILON || (sim > best - EPSILON && gap < bestGap)) {
          best = sim;
          bestI = i;
          bestJ = j;
          bestGap = gap;
        }
      }
    }
    if (bestI === -1) break;
    matchOfE[bestI] = bestJ;
    matchOfA[bestJ] = bestI;
    simOfE[bestI] = best;
    simOfA[bestJ] = best;
    howOfE[bestI] = howMatrix[bestI * m + bestJ] as number;
  }

  // The bank's last word may be cut mid-word: a prefix of an expected word still unmatched.
  const lastA = aTokens[m - 1] as NameToken;
  let ignoredLastA = false;
  if (matchOfA[m - 1] === -1 && lastA.kind !== 'initial') {
    for (let i = 0; i < n; i += 1) {
      const e = eTokens[i] as NameToken;
      if (matchOfE[i] !== -1 || e.kind === 'initial') continue;
      if (lastA.source.length >= 3 && e.source.length > lastA.source.length && e.source.startsWith(lastA.source)) {
        matchOfE[i] = m - 1;
        matchOfA[m - 1] = i;
        simOfE[i] = TRUNCATED_WORD_SIMILARITY;
        simOfA[m - 1] = TRUNCATED_WORD_SIMILARITY;
        howOfE[i] = HOW_TRUNCATED;
        break;
      }
    }
    if (matchOfA[m - 1] === -1 && expectedName.hadLegalForm && isLegalPrefix(lastA.source)) ignoredLastA = true;
  }

  for (let i = 0; i < n; i += 1) {
    if (matchOfE[i] !== -1) continue;
    for (let j = 0; j < m; j += 1) {
      if (matchOfA[j] === -1 && howMatrix[i * m + j] === HOW_KNOWN_DIFFER) knownDiffer = true;
    }
  }

  // Coverage of each side and what is left over.
  let eWeight = 0;
  let eMatched = 0;
  let eLeftWord = false;
  let eLeftFiller = false;
  let eLeftDescriptor = false;
  let fullWordMatches = 0;
  let anyMatch = false;
  let previousJ = -1;
  let outOfOrder = false;
  let cutWord = false;
  // A filler that ends both names is doing a surname's job ("Suresh KUMAR", "Harpreet KAUR"):
  // weigh it as one, so that sharing it counts like sharing a surname.
  const lastE = eTokens[n - 1] as NameToken;
  const surnameFiller = lastE.kind === 'filler' && matchOfE[n - 1] === m - 1 && (aTokens[m - 1] as NameToken).kind === 'filler';
  for (let i = 0; i < n; i += 1) {
    const token = eTokens[i] as NameToken;
    const weight = surnameFiller && i === n - 1 ? WORD_WEIGHT : token.weight;
    eWeight += weight;
    eMatched += weight * (simOfE[i] as number);
    const j = matchOfE[i] as number;
    if (j === -1) {
      if (token.kind === 'word' || token.kind === 'initial') eLeftWord = true;
      else if (token.kind === 'filler') eLeftFiller = true;
      else eLeftDescriptor = true;
      continue;
    }
    anyMatch = true;
    if (j < previousJ) outOfOrder = true;
    previousJ = j;
    const how = howOfE[i] as number;
    const other = aTokens[j] as NameToken;
    if (how === HOW_INITIAL) rules.add('initials');
    else if (how === HOW_ALIAS) rules.add(isAbbreviation(token, other) ? 'abbreviation' : 'transliteration');
    else if (how === HOW_TRANSLITERATION) rules.add('transliteration');
    else if (how === HOW_FUZZY) rules.add('fuzzy-spelling');
    else if (how === HOW_TRUNCATED) {
      rules.add('truncated');
      cutWord = true;
    }
    if (how !== HOW_INITIAL && token.kind === 'word' && other.kind === 'word') fullWordMatches += 1;
  }
  let aWeight = 0;
  let aMatched = 0;
  let aLeftWord = false;
  let aLeftFiller = false;
  let aLeftDescriptor = false;
  for (let j = 0; j < m; j += 1) {
    if (j === m - 1 && ignoredLastA) {
      rules.add('truncated');
      continue;
    }
    const token = aTokens[j] as NameToken;
    const weight = surnameFiller && j === m - 1 ? WORD_WEIGHT : token.weight;
    aWeight += weight;
    aMatched += weight * (simOfA[j] as number);
    if (matchOfA[j] !== -1) continue;
    if (token.kind === 'word' || token.kind === 'initial') aLeftWord = true;
    else if (token.kind === 'filler') aLeftFiller = true;
    else aLeftDescriptor = true;
  }
  if (outOfOrder) rules.add('word-order');
  if (knownDiffer) rules.add('known-names-differ');

  let score = eWeight > 0 && aWeight > 0 ? 100 * Math.sqrt((eMatched / eWeight) * (aMatched / aWeight)) : 0;

  if (eLeftWord && aLeftWord) {
    rules.add('different-names');
    score = Math.min(score, CAP_DIFFERENT_NAMES);
  } else if ((eLeftWord || eLeftFiller) && (aLeftWord || aLeftFiller)) {
    rules.add('filler-differs');
    score = Math.min(score, CAP_FILLER_DIFFERS);
  } else if (eLeftWord || aLeftWord) {
    rules.add('missing-word');
    // An extra first name in front of a fully matched name is usually another person whose
    // record carries this one as father's or husband's name (SUNITA RAMESH GUPTA).
    const leadingE = matchOfE[0] === -1 && eTokens[0]?.kind === 'word' && matchOfA[0] !== -1;
    const leadingA = matchOfA[0] === -1 && aTokens[0]?.kind === 'word' && matchOfE[0] !== -1;
    if (leadingE || leadingA) {
      rules.add('leading-name-differs');
      score = Math.min(score, CAP_LEADING_NAME_DIFFERS);
    }
  }
  if ((eLeftFiller || aLeftFiller) && !(eLeftWord && aLeftWord)) rules.add('filler-word');
  if (eLeftDescriptor && aLeftDescriptor) {
    rules.add('business-type-differs');
    score = Math.min(score, onlyGenericLeft(eTokens, matchOfE) && onlyGenericLeft(aTokens, matchOfA) ? CAP_BUSINESS_TYPE_DIFFERS : CAP_BUSINESS_LINE_DIFFERS);
  }
  if (cutWord) score = Math.min(score, CAP_TRUNCATED_WORD);
  if (anyMatch && fullWordMatches === 0 && rules.ids.includes('initials')) {
    rules.add('initials-only');
    score = Math.min(score, CAP_INITIALS_ONLY);
  }
  score = Math.min(score, generationCap(expectedName, actualName, rules));
  const entities = `${expectedName.entity}/${actualName.entity}`;
  const businessVsPerson = entities === 'business/person' || entities === 'person/business';
  if (businessVsPerson) score = Math.min(score, CAP_BUSINESS_VS_PERSON);

  const truncated = truncatedScore(expectedName, actualName, actualTrimmed.length);
  if (truncated > score) {
    // The cut explains the differences: report the cut, not the symptoms it caused.
    const cutRules = new RuleList();
    for (const id of rules.ids) {
      if (id === 'identical' || id === 'case-punctuation' || id === 'honorific' || id === 'relation-marker' || id === 'legal-suffix' || id === 'generation-missing') {
        cutRules.add(id);
      }
    }
    cutRules.add('truncated');
    return finish(truncated, cutRules);
  }
  if (businessVsPerson) rules.add('business-vs-person');
  return finish(score, rules);
}
