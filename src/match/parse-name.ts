/**
 * Turns one raw name (as typed by a finance team or as returned by a bank) into weighted,
 * classified tokens. Pure and cached: the same payee name is parsed once per process.
 */
import {
  ALIASES,
  BARE_RELATION_MARKERS,
  BUSINESS_DESCRIPTORS,
  FILLERS,
  GENERATIONS,
  HONORIFICS,
  KNOWN_NAMES,
  LEGAL_FORMS,
  RELATION_WORDS,
  SLASH_RELATION_LETTERS,
  STOP_WORDS,
} from './lexicon.js';
import { toPhoneticKey } from './phonetic.js';

/** Weight of a distinctive word (given name, surname) and of an initial. */
export const WORD_WEIGHT = 1;
/** Weight of a filler word (Kumar, Devi, Singh …): present in too many names to tell people apart. */
export const FILLER_WEIGHT = 0.3;
/** Weight of a business descriptor (Traders, Enterprises …): tells businesses apart, weakly. */
export const DESCRIPTOR_WEIGHT = 0.3;

export type TokenKind = 'word' | 'initial' | 'filler' | 'descriptor';
export type Generation = 'senior' | 'junior' | 'third';
export type EntityKind = 'person' | 'business' | 'unknown';

export interface NameToken {
  /** Lower-case ASCII text after alias expansion (`mohd` → `muhammad`), or the canonical descriptor. */
  readonly text: string;
  /** Phonetic key (see phonetic.ts); equal keys are the same name. */
  readonly key: string;
  readonly kind: TokenKind;
  readonly weight: number;
  /** The key is a common name from KNOWN_NAMES: no typo tolerance against another known name. */
  readonly known: boolean;
  /** The word as written (lower-case), before alias expansion. */
  readonly source: string;
  /** True when an alias table, not the text as written, produced `text`. */
  readonly aliased: boolean;
  /** Offset in `ParsedName.plain` of the word this token came from (truncation needs it). */
  readonly start: number;
  /** End offset (exclusive) in `ParsedName.plain` of that word. */
  readonly end: number;
}

export interface ParsedName {
  readonly tokens: readonly NameToken[];
  /** Remaining words as written (lower-case, single spaces), legal forms included: a bank truncates this. */
  readonly plain: string;
  /** `plain` without spaces: equal for names that differ only in case, punctuation or spacing. */
  readonly compact: string;
  readonly entity: EntityKind;
  readonly generation: Generation | null;
  readonly hadHonorific: boolean;
  readonly hadRelation: boolean;
  readonly hadLegalForm: boolean;
}

const APOSTROPHES = new Set(["'", '\u2019', '\u2018', '`', '\u00b4']);
const NON_ASCII = /[^\u0000-\u007f]/;
const COMBINING_MARKS = /[\u0300-\u036f]/g;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const VOWELS = /[aeiou]/;
const DIGITS_ONLY = /^\d+$/;

const KNOWN_KEYS: ReadonlySet<string> = new Set(
  KNOWN_NAMES.map((name) => toPhoneticKey(ALIASES.get(name) ?? name)),
);

/** Honorifics that say "a person" (all but the firm prefixes). */
const FIRM_PREFIXES: ReadonlySet<string> = new Set(['m/s', 'messrs', 'messers']);

interface RawWords {
  words: string[];
  /** slashBefore[i]: a '/' separated word i from word i-1 (S/o, M/s). */
  slashBefore: boolean[];
}

function isWordCode(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 48 && code <= 57);
}

function tokenize(raw: string): RawWords {
  let text = raw.toLowerCase();
  if (NON_ASCII.test(text)) text = text.normalize('NFKD').replace(COMBINING_MARKS, '');
  const words: string[] = [];
  const slashBefore: boolean[] = [];
  // Words are sliced out of `text`; `pending` only holds the part before an apostrophe.
  let start = -1;
  let pending = '';
  let slash = false;
  const length = text.length;
  for (let i = 0; i <= length; i += 1) {
    const code = i < length ? text.charCodeAt(i) : 32;
    if (isWordCode(code) || (code > 127 && LETTER_OR_DIGIT.test(text[i] as string))) {
      if (start === -1) start = i;
      continue;
    }
    if (start !== -1 && APOSTROPHES.has(text[i] as string)) {
      // D'Souza and DSOUZA are one surname; joining is the common bank form.
      pending += text.slice(start, i);
      start = i + 1;
      continue;
    }
    if (start !== -1 || pending !== '') {
      const word = pending + (start === -1 ? '' : text.slice(start, i));
      if (word !== '') {
        words.push(word);
        slashBefore.push(slash);
        slash = false;
      }
      start = -1;
      pending = '';
    }
    if (code === 38) {
      words.push('&');
      slashBefore.push(false);
    } else if (code === 47) {
      slash = true;
    }
  }
  return { words, slashBefore };
}

/** Index of the first relation marker (S/o, son of, SO …) at position ≥ 1, or -1. */
function findRelation(words: readonly string[], slashBefore: readonly boolean[]): number {
  for (let i = 1; i < words.length; i += 1) {
    const word = words[i] as string;
    const next = words[i + 1];
    if (next === 'o' && slashBefore[i + 1] === true && SLASH_RELATION_LETTERS.has(word)) return i;
    if (next === 'of' && RELATION_WORDS.has(word)) return i;
    if (next !== undefined && BARE_RELATION_MARKERS.has(word)) return i;
  }
  return -1;
}

function classify(
  word: string,
  next: string | undefined,
  start: number,
  out: NameToken[],
): 'legal' | 'descriptor' | 'stop' | 'token' {
  if (STOP_WORDS.has(word)) return 'stop';
  // "(P) Ltd" — a lone p right before ltd is "Private".
  if (LEGAL_FORMS.has(word) || (word === 'p' && (next === 'ltd' || next === 'limited'))) return 'legal';
  const end = start + word.length;
  const descriptor = BUSINESS_DESCRIPTORS.get(word);
  if (descriptor !== undefined) {
    out.push({ text: descriptor, key: descriptor, kind: 'descriptor', weight: DESCRIPTOR_WEIGHT, known: false, source: word, aliased: false, start, end });
    return 'descriptor';
  }
  const alias = ALIASES.get(word);
  const text = alias ?? word;
  if (alias === undefined && text.length >= 2 && text.length <= 3 && !VOWELS.test(text) && !DIGITS_ONLY.test(text)) {
    // "RK Sharma": a short vowel-less word is run-together initials.
    for (const letter of text) {
      out.push({ text: letter, key: letter, kind: 'initial', weight: WORD_WEIGHT, known: false, source: letter, aliased: false, start, end });
    }
    return 'token';
  }
  if (text.length === 1) {
    out.push({ text, key: text, kind: 'initial', weight: WORD_WEIGHT, known: false, source: word, aliased: false, start, end });
    return 'token';
  }
  const key = toPhoneticKey(text);
  const filler = FILLERS.has(text);
  out.push({
    text,
    key,
    kind: filler ? 'filler' : 'word',
    weight: filler ? FILLER_WEIGHT : WORD_WEIGHT,
    known: KNOWN_KEYS.has(key),
    source: word,
    aliased: alias !== undefined,
    start,
    end,
  });
  return 'token';
}

function parseUncached(raw: string): ParsedName {
  const { words: allWords, slashBefore } = tokenize(raw);
  let words = allWords;

  // M/s is two words around a slash; fold it back so the honorific loop sees it.
  if (words.length >= 2 && words[0] === 'm' && words[1] === 's' && slashBefore[1] === true) {
    words = ['m/s', ...words.slice(2)];
    slashBefore.splice(0, 2, false);
  }

  let hadRelation = false;
  const relation = findRelation(words, slashBefore);
  if (relation > 0) {
    words = words.slice(0, relation);
    hadRelation = true;
  }

  let hadHonorific = false;
  let personTitle = false;
  let skip = 0;
  // Keep at least one word: "Sri Devi" should not vanish entirely.
  while (skip < words.length - 1) {
    const word = words[skip] as string;
    if (!HONORIFICS.has(word) && !FIRM_PREFIXES.has(word)) break;
    // "Sri Devi", "Kumari Bai": the title-like word is the only distinctive part; keep it.
    if (FILLERS.has(word) && words.slice(skip + 1).every((rest) => FILLERS.has(rest))) break;
    hadHonorific = true;
    if (!FIRM_PREFIXES.has(word)) personTitle = true;
    skip += 1;
  }
  if (skip > 0) words = words.slice(skip);
  if (words.length === 1 && (HONORIFICS.has(words[0] as string) || FIRM_PREFIXES.has(words[0] as string))) {
    // Only a title ("Mr."): there is no name.
    words = [];
    hadHonorific = true;
  }

  let generation: Generation | null = null;
  if (words.length > 1) {
    const kept: string[] = [words[0] as string];
    for (let i = 1; i < words.length; i += 1) {
      const word = words[i] as string;
      const found = GENERATIONS.get(word);
      if (found !== undefined) generation = found;
      else kept.push(word);
    }
    words = kept;
  }

  const plain = words.join(' ');
  const tokens: NameToken[] = [];
  let hadLegalForm = false;
  let business = false;
  let offset = 0;
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i] as string;
    const outcome = classify(word, words[i + 1], offset, tokens);
    if (outcome === 'legal') {
      hadLegalForm = true;
      business = true;
    } else if (outcome === 'descriptor') {
      business = true;
    }
    offset += word.length + 1;
  }

  let entity: EntityKind = 'unknown';
  if (business) entity = 'business';
  else if (personTitle || hadRelation || generation !== null || tokens.some((token) => token.kind === 'filler' || token.known)) {
    entity = 'person';
  }
  return { tokens, plain, compact: words.join(''), entity, generation, hadHonorific, hadRelation, hadLegalForm };
}

const CACHE_LIMIT = 50_000;
const cache = new Map<string, ParsedName>();

/** Parses a raw name; results are cached and must be treated as immutable. */
export function parseName(raw: string): ParsedName {
  const cached = cache.get(raw);
  if (cached !== undefined) return cached;
  const parsed = parseUncached(raw);
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(raw, parsed);
  return parsed;
}
