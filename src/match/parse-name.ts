/**
 * Tokenises a payee or holder name into what a payments reviewer reads in it: the account
 * holder(s), each a list of given names, surnames and initials; the honorifics, legal forms and
 * respect suffixes that say nothing about who it is; the relation clause (S/O, D/O, W/O, C/O …)
 * that names somebody else; and whether it is a person or a firm.
 *
 * Pure: a string in, a fresh value out. Words already read are remembered (TOKEN_CACHE), which
 * changes no answer.
 */
import {
  ALIASES,
  BUSINESS_DESCRIPTORS,
  DESCRIPTOR_SPELLINGS,
  FILLERS,
  GENERATIONS,
  HONORIFICS,
  KNOWN_NAMES,
  LEGAL_FORMS,
  RESPECT_SUFFIXES,
  STOP_WORDS,
} from './lexicon.js';
import { toPhoneticKey, toSpellingKey } from './phonetic.js';
import { LONGEST_REMEMBERED_WORD } from './remembered.js';
import { easternReadings, hasIndicScript, scriptFoldOf, transliterateIndic, type ScriptFold } from './script.js';

export type TokenKind = 'word' | 'initial' | 'filler' | 'descriptor';
export type Generation = 'senior' | 'junior' | 'third';
export type EntityKind = 'person' | 'business';

export interface NameToken {
  /** The word as written, lower-case ASCII. */
  readonly text: string;
  /** Phonetic key (phonetic.ts) of the canonical spelling; descriptors: their canonical word. */
  readonly key: string;
  /** Spelling key (phonetic.ts toSpellingKey) of the word as written; initials and descriptors: their key. */
  readonly spelling: string;
  readonly kind: TokenKind;
  /** The spelling was replaced by a canonical one (Mohd → muhammad). */
  readonly aliased: boolean;
  /** Position among the holder's tokens. */
  readonly index: number;
  /** Read from an Indian script: the Latin letters are a transliteration's guess, not a spelling. */
  readonly fromScript?: boolean;
  /** Read from a script that writes two Latin spellings alike (Tamil k and g; Bengali b and v): they are no difference (script.ts foldAsScript). */
  readonly scriptFold?: ScriptFold;
  /** Every Latin spelling the word read from Bengali or Odia is printed in, `text` first (script.ts easternReadings). */
  readonly readings?: readonly string[];
}

export interface Holder {
  readonly tokens: readonly NameToken[];
  readonly generation: Generation | null;
  /** The title dropped from the front, which may belong to the name after all (Sri Devi / SRIDEVI). */
  readonly title: string | null;
}

export interface ParsedName {
  /** One holder, or several for a joint account ("A AND B", "A & B", "A / B"). */
  readonly holders: readonly Holder[];
  readonly entity: EntityKind;
  readonly honorifics: readonly string[];
  readonly legalForms: readonly string[];
  readonly respectSuffixes: readonly string[];
  /** The relation marker and the relative it names, or null. */
  readonly relation: { readonly marker: string; readonly relative: string } | null;
  /** Lower-case letters, digits and single spaces of the whole input, for truncation checks. */
  readonly plain: string;
  /** `plain` without the titles in front, for truncation checks. */
  readonly core: string;
  /** The Latin reading of a name written in an Indian script, or null. */
  readonly transliterated: string | null;
}

/** Legal forms also written with spaced letters (L L P, H U F) or run together. */
const SPACED_LEGAL = new Set(['llp', 'huf', 'pvt', 'ltd', 'pl', 'opc']);
// Malay and Arabic patronymics: Ahmad bin Ismail is Ahmad, son of Ismail.
const RELATION_RE = /\b(?:([sdwhc])\s*\/\s*o|(son|daughter|wife|husband|care|father|guardian)\s+of|bin|binti|bint)\b\.?/i;
const BARE_RELATION_RE = /\s(so|do|wo)\s/i;
/** Holders read from one name at most (joint accounts have two or three). */
export const MAX_HOLDERS = 6;
/** Words read from one holder at most. */
export const MAX_WORDS = 24;
/** Titles that are also given names or name parts. */
const NAME_LIKE_TITLES = new Set(['baby', 'kumari', 'selvi', 'sri', 'shri', 'shree', 'sree', 'master', 'sardar', 'pandit', 'haji', 'hafiz']);
/** Words that mark a firm although they are neither a legal form nor a descriptor. */
const FIRM_WORDS = new Set(['huf', 'bros', 'co', 'company', 'government', 'govt', 'polytechnic', 'university', 'municipal', 'corporation', 'bank', 'department', 'board', 'office', 'kendriya']);

function fold(text: string): string {
  // Most names are plain ASCII: skip the (costly) Unicode decomposition for them.
  if (/^[\x20-\x7e]*$/.test(text)) return text.toLowerCase();
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

/** Splits off a relation clause: "RAMESH KUMAR S/O MOHAN LAL" → main "ramesh kumar", relative "mohan lal". */
function splitRelation(text: string): { main: string; relation: ParsedName['relation'] } {
  const match = RELATION_RE.exec(text) ?? BARE_RELATION_RE.exec(` ${text} `);
  if (match === null || match.index === undefined) return { main: text, relation: null };
  const isBare = match[0].startsWith(' ');
  const index = isBare ? match.index - 1 : match.index;
  const main = text.slice(0, Math.max(0, index)).trim();
  if (main === '') return { main: text, relation: null };
  const relative = text.slice(index + match[0].length - (isBare ? 1 : 0)).trim();
  return { main, relation: { marker: match[0].trim(), relative } };
}

/** Lower-case letters, digits and single spaces only: most names, read without any rewriting. */
const PLAIN_WORDS = /^[a-z0-9]+(?: [a-z0-9]+)*$/;

function words(text: string): string[] {
  if (PLAIN_WORDS.test(text)) return text.split(' ');
  return text
    .replace(/\bm\s*\/\s*s\b\.?/g, ' messrs ')
    .replace(/&/g, ' & ')
    .replace(/['’`]/g, '')
    .replace(/[^a-z0-9&]+/g, ' ')
    .trim()
    .split(' ')
    .filter((w) => w !== '');
}

/** Joins runs of single letters: "l l p" → "llp"; for firms every run ("a b c industries" → "abc"). */
function joinLetterRuns(list: readonly string[], isFirm: boolean): string[] {
  const out: string[] = [];
  for (let i = 0; i < list.length; ) {
    if ((list[i] as string).length !== 1 || !/[a-z]/.test(list[i] as string)) {
      out.push(list[i] as string);
      i += 1;
      continue;
    }
    let j = i;
    while (j < list.length && (list[j] as string).length === 1 && /[a-z]/.test(list[j] as string)) j += 1;
    const run = list.slice(i, j).join('');
    if (j - i >= 2 && (SPACED_LEGAL.has(run) || isFirm)) out.push(run);
    else out.push(...list.slice(i, j));
    i = j;
  }
  return out;
}

/**
 * Every line-of-business word, singular or plural (Chemical, Chemicals, Industry, Industries): a
 * listed word, a listed word with an s more (the whole at least five letters), a listed word
 * ending in s without it, or a listed spelling. One lookup per word read.
 */
const DESCRIPTOR_WORDS: ReadonlySet<string> = (() => {
  const set = new Set<string>();
  for (const w of BUSINESS_DESCRIPTORS.keys()) {
    set.add(w);
    if (w.length >= 4) set.add(`${w}s`);
    if (w.endsWith('s')) set.add(w.slice(0, -1));
  }
  for (const w of DESCRIPTOR_SPELLINGS.keys()) set.add(w);
  return set;
})();

function isDescriptor(w: string): boolean {
  return DESCRIPTOR_WORDS.has(w);
}

/**
 * Lines of business that are also common surnames (Mandal: a society, and a Bengali surname).
 * Alone they mark no firm (Somnath Mandal is a person); beside another firm word they do
 * (Mahila Mandal Samiti), and in a person's name they are name words.
 */
const SURNAME_DESCRIPTORS: ReadonlySet<string> = new Set(KNOWN_NAMES.filter((w) => isDescriptor(w)));

function looksLikeFirm(list: readonly string[]): boolean {
  return list.some((w) => !SURNAME_DESCRIPTORS.has(w) && (LEGAL_FORMS.has(w) || isDescriptor(w) || FIRM_WORDS.has(w) || SPACED_LEGAL.has(w)));
}

/**
 * Tokens already read, by word (and whether it stood in a firm's name). A payee list repeats its
 * words (Kumar, Sharma, Traders) thousands of times; reading each once keeps the bank run's
 * matching off its critical path. A token is a pure function of these two inputs, so the cache
 * changes no answer; it is bounded and emptied when full, and keeps no word longer than
 * LONGEST_REMEMBERED_WORD (remembered.ts), whose tokens would make the bound mean nothing.
 */
const TOKEN_CACHE = new Map<string, Omit<NameToken, 'index'>>();
/** Words kept in TOKEN_CACHE at most. */
const TOKEN_CACHE_SIZE = 50_000;

function makeToken(text: string, index: number, isFirm: boolean): NameToken {
  if (text.length > LONGEST_REMEMBERED_WORD) return readToken(text, index, isFirm);
  const cacheKey = isFirm ? `f:${text}` : text;
  const cached = TOKEN_CACHE.get(cacheKey);
  if (cached !== undefined) return { ...cached, index };
  const token = readToken(text, index, isFirm);
  if (TOKEN_CACHE.size >= TOKEN_CACHE_SIZE) TOKEN_CACHE.clear();
  TOKEN_CACHE.set(cacheKey, token);
  return token;
}

function readToken(text: string, index: number, isFirm: boolean): NameToken {
  if (text.length === 1) return { text, key: text, spelling: text, kind: 'initial', aliased: false, index };
  const singular = text.length > 4 && text.endsWith('s') ? text.slice(0, -1) : text;
  if (isDescriptor(text) && (isFirm || !SURNAME_DESCRIPTORS.has(text))) {
    // Chemical / Chemicals, Polymer / Polymers: one key for both.
    const spelled = DESCRIPTOR_SPELLINGS.get(text) ?? (BUSINESS_DESCRIPTORS.has(text) ? text : BUSINESS_DESCRIPTORS.has(`${text}s`) ? `${text}s` : singular);
    const key = spelled.length > 4 && spelled.endsWith('s') ? spelled.slice(0, -1) : spelled;
    return { text, key, spelling: key, kind: 'descriptor', aliased: spelled !== text, index };
  }
  const alias = ALIASES.get(text);
  let base = alias ?? text;
  // Firms: Cement / Cements is one firm; a plural s says nothing about which.
  if (isFirm && base.length > 4 && base.endsWith('s') && !base.endsWith('ss')) base = base.slice(0, -1);
  const key = toPhoneticKey(base);
  const kind: TokenKind = FILLERS.has(alias ?? text) ? 'filler' : 'word';
  return { text, key, spelling: toSpellingKey(text), kind, aliased: alias !== undefined, index };
}

interface Collected {
  honorifics: string[];
  legalForms: string[];
  respect: string[];
}

function parseHolder(list: readonly string[], isFirm: boolean, collected: Collected, fromScript: boolean, scriptFold?: ScriptFold, readings?: Map<string, readonly string[]>): Holder {
  let rest = [...list];
  // Titles come first, possibly several ("Mr. Dr."); only there, since several are also names.
  let title: string | null = null;
  // A name made only of title-like words keeps those that are also names (Baby Kumari, Sri
  // Devi); "Mr." alone stays blank.
  const allTitles = rest.every((w) => HONORIFICS.has(w));
  if (allTitles && rest.some((w) => NAME_LIKE_TITLES.has(w))) rest = rest.filter((w) => NAME_LIKE_TITLES.has(w));
  else {
    while (rest.length > 0 && HONORIFICS.has(rest[0] as string)) {
      title = rest.shift() as string;
      collected.honorifics.push(title);
    }
  }
  let generation: Generation | null = null;
  const last = rest.at(-1);
  if (last !== undefined && rest.length > 1 && GENERATIONS.has(last)) {
    generation = GENERATIONS.get(last) ?? null;
    rest = rest.slice(0, -1);
  }
  const kept: string[] = [];
  for (let i = 0; i < rest.length; i += 1) {
    const w = rest[i] as string;
    const next = rest[i + 1];
    if (isFirm && (LEGAL_FORMS.has(w) || SPACED_LEGAL.has(w))) {
      collected.legalForms.push(w);
      continue;
    }
    // "P LTD": a lone p before ltd/limited is "private".
    if (isFirm && w === 'p' && (next === 'ltd' || next === 'limited')) {
      collected.legalForms.push(w);
      continue;
    }
    if (STOP_WORDS.has(w)) continue;
    if (!isFirm && RESPECT_SUFFIXES.includes(w) && kept.length > 0) {
      collected.respect.push(w);
      continue;
    }
    if (!isFirm) {
      const suffix = RESPECT_SUFFIXES.find((s) => w.length >= s.length + 3 && w.endsWith(s));
      if (suffix !== undefined) {
        collected.respect.push(suffix);
        kept.push(w.slice(0, -suffix.length));
        continue;
      }
    }
    // RK, AA: initials written together (two letters, or three without a vowel, and not a
    // known short form such as Md or Kr) are initials.
    if (!isFirm && !ALIASES.has(w) && !HONORIFICS.has(w) && !FILLERS.has(w) && w !== 'om' && /^[a-z]+$/.test(w) && (w.length === 2 || (w.length === 3 && !/[aeiouy]/.test(w)))) {
      kept.push(...w.split(''));
      continue;
    }
    kept.push(w);
  }
  const tokens = kept.map((w, i) => {
    if (!fromScript) return makeToken(w, i, isFirm);
    if (!scriptFold) return { ...makeToken(w, i, isFirm), fromScript };
    const spellings = readings?.get(w);
    return spellings ? { ...makeToken(w, i, isFirm), fromScript, scriptFold, readings: spellings } : { ...makeToken(w, i, isFirm), fromScript, scriptFold };
  });
  return { tokens, generation, title };
}

/** Parses one name as it appears in a payee list or a bank's answer. */
export function parseName(raw: string): ParsedName {
  // Before the Unicode fold, which would split vowel signs such as Bengali ৌ into two.
  const script = hasIndicScript(raw) ? fold(transliterateIndic(raw.normalize('NFC'))) : null;
  let folded = script ?? fold(raw);
  if (folded.includes('(')) folded = folded.replace(/\(\s*i\s*\)/g, ' india ');
  // Legal forms spelled out, read as their abbreviations (looked for only when the words are there).
  if (folded.includes('hindu')) folded = folded.replace(/\bhindu\s+undivided\s+family\b/g, ' huf ');
  if (folded.includes('liability')) folded = folded.replace(/\blimited\s+liability\s+partnership\b/g, ' llp ');
  if (folded.includes('person')) folded = folded.replace(/\bone\s+person\s+company\b/g, ' opc ');
  const { main: withMs, relation } = splitRelation(folded);
  // M/s (messrs) before the holder split, whose "/" would cut it in two.
  const main = withMs.replace(/\bm\s*\/\s*s\b\.?/g, ' messrs ');
  const all = words(main);
  const isFirm = looksLikeFirm(joinLetterRuns(all, false));
  const collected: Collected = { honorifics: [], legalForms: [], respect: [] };
  // Joint holders: persons only, since "&" and "and" belong to firm names (Sharma & Co,
  // Tours And Travels).
  const parts: string[][] = [];
  if (isFirm) parts.push(all);
  else {
    const holderTexts = main.split(/\s+(?:and|or)\s+|\s*[&/;+]\s*|,\s*(?=[a-z]{3,}\s)/);
    for (const text of holderTexts) {
      // One holder (most names): its words are the name's, already read.
      const list = holderTexts.length === 1 ? all : words(text);
      if (list.length > 0) parts.push(list);
    }
  }
  // Bounded work whatever the input: a real name has a few holders of a few words each.
  const scriptFold = script === null ? undefined : scriptFoldOf(raw);
  const readings = scriptFold === 'eastern' ? easternReadings(raw) : undefined;
  const holders = parts
    .slice(0, MAX_HOLDERS)
    .map((part) => parseHolder(joinLetterRuns(part, isFirm).slice(0, MAX_WORDS), isFirm, collected, script !== null, scriptFold, readings))
    .filter((h) => h.tokens.length > 0);
  const plain = PLAIN_WORDS.test(folded) ? folded : folded.replace(/['’`]/g, '').replace(/[^a-z0-9]+/g, ' ').trim();
  const plainWords = plain.split(' ');
  while (plainWords.length > 1 && HONORIFICS.has(plainWords[0] as string)) plainWords.shift();
  const core = plainWords.join(' ');
  return {
    holders,
    entity: isFirm ? 'business' : 'person',
    honorifics: collected.honorifics,
    legalForms: collected.legalForms,
    respectSuffixes: collected.respect,
    relation,
    plain,
    core,
    transliterated: script === null ? null : script.replace(/\s+/g, ' ').trim(),
  };
}
