/**
 * The lexicon of Indian given names and surnames (src/match/data/names.tsv.gz, built by
 * test/fixtures/names/build-lexicon.ts from the public lists cited in src/match/data/README.md).
 * One question only: is this word attested as a name? Two different words that both are (Khan
 * and Khanna, Shah and Sah, Harish and Harsh) are two names, not one name misspelled — the
 * matcher never lets a spelling rule or the typo model join them (issue #28).
 *
 * Loaded once, lazily, on the first question: a run that never compares two differing words
 * never reads it. Read-only afterwards, so sharing it between calls keeps the matcher pure.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

/** A name seen at least this often in the frequency sources is attested without a curated list. */
export const MIN_ATTESTED_COUNT = 2;

/**
 * One name's facts packed in a small integer, so the 54,000 entries are no 54,000 objects for the
 * garbage collector to walk: bits 0–1 the sex (0 unknown, 1 'f', 2 'm'), bit 2 listed by a
 * curated list, the rest how often it stood as a given name plus as a surname.
 */
type Packed = number;
const FEMALE = 1;
const MALE = 2;
const SEX_BITS = 3;
const LISTED = 4;
const COUNT_UNIT = 8;
const countOf = (packed: Packed): number => Math.floor(packed / COUNT_UNIT);

let lexicon: ReadonlyMap<string, Packed> | null = null;
/** Curated variant groups (spellings a source gives for one name), for the few names in one. */
let variantGroups: ReadonlyMap<string, readonly number[]> = new Map();

function load(): ReadonlyMap<string, Packed> {
  if (lexicon !== null) return lexicon;
  const { names, groups } = parseLexicon(gunzipSync(readFileSync(new URL('./data/names.tsv.gz', import.meta.url))).toString('utf8'));
  variantGroups = groups;
  lexicon = names;
  return names;
}

/**
 * The lexicon's lines: name, count as a given name, count as a surname, listed (1/0), sex (f, m or
 * nothing) and, for a few, the variant groups (comma-separated). Each field is sliced from the text
 * where it stands: a split of every line into an array, 54,000 times, made the load twice as long
 * (93 → 49 ms), and every run that compares two differing words pays it once.
 */
export function parseLexicon(text: string): { names: Map<string, Packed>; groups: Map<string, readonly number[]> } {
  const names = new Map<string, Packed>();
  const groups = new Map<string, readonly number[]>();
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    let at = start;
    /** The line's next field; undefined past its last. */
    const field = (): string | undefined => {
      if (at > end) return undefined;
      const tab = text.indexOf('\t', at);
      const stop = tab < 0 || tab > end ? end : tab;
      const value = text.slice(at, stop);
      at = stop + 1;
      return value;
    };
    const name = field();
    const given = field();
    const surname = field();
    const listed = field();
    const sex = field();
    const group = field();
    start = end + 1;
    if (name === undefined || name === '') continue;
    const sexBits = sex === 'f' ? FEMALE : sex === 'm' ? MALE : 0;
    names.set(name, (Number(given) + Number(surname)) * COUNT_UNIT + (listed === '1' ? LISTED : 0) + sexBits);
    if (group !== undefined) groups.set(name, group.split(',').map(Number));
  }
  return { names, groups };
}

/** Whether `word` (lower-case ASCII) is attested as an Indian given name or surname. */
export function isAttestedName(word: string): boolean {
  const packed = load().get(word);
  return packed !== undefined && ((packed & LISTED) !== 0 || countOf(packed) >= MIN_ATTESTED_COUNT);
}

/** Whether a source lists the two words as spellings of one name (the CMU list's Devanagari). */
export function areListedVariants(a: string, b: string): boolean {
  load();
  const ga = variantGroups.get(a);
  if (ga === undefined) return false;
  const gb = variantGroups.get(b) ?? [];
  return ga.some((g) => gb.includes(g));
}

/** Whether the sources agree that `word` is a woman's given name. */
export function isFemaleName(word: string): boolean {
  const packed = load().get(word);
  return packed !== undefined && (packed & SEX_BITS) === FEMALE;
}

/** How often `word` stood as a given name plus as a surname in the frequency sources. */
export function nameFrequency(word: string): number {
  const packed = load().get(word);
  return packed === undefined ? 0 : countOf(packed);
}

/**
 * How many times more frequent the common spelling must be before an unlisted rare spelling one
 * slip from it is read as that slip (SHRMA beside SHARMA) rather than as a second name. Chosen on
 * the tuning part of the corpus with the lexicon grown to 48,000 names: between the largest
 * ratio of a pair it holds as two names (Kanwar / Kawar, 96) and the smallest of a slip it keeps
 * as one (Sharma / Shrama, 138); 30, right for the 26,000-name lexicon, joined Prasad / Prashad.
 */
export const SLIP_RATIO = 120;

/**
 * The ratio for two letters swapped (PIRYANKA beside PRIYANKA). A dropped letter or a
 * neighbouring key is often also a spelling a family keeps (the nasal of Kanwar / Kawar, the h
 * of Prasad / Prashad, m / n in Shambhu / Shanbhu); no spelling convention swaps two letters,
 * so a rare transposed spelling is a slip at the ratio that served the smaller lexicon.
 */
export const TRANSPOSITION_SLIP_RATIO = 30;

/**
 * Whether one of two attested words is most likely a slip of the other: no curated list names
 * the rarer one, and the other is at least SLIP_RATIO times as frequent. Frequency sources hold
 * their own typing slips (SHRMA twice beside SHARMA 427 times); a rare name the lists know, or
 * two names of like frequency (Khan / Khanna are both surnames), stay two names.
 */
export function isRareBeside(a: string, b: string, ratio: number = SLIP_RATIO): boolean {
  const [pa, pb] = [load().get(a), load().get(b)];
  if (pa === undefined || pb === undefined) return false;
  const [rare, common] = countOf(pa) <= countOf(pb) ? [pa, pb] : [pb, pa];
  return (rare & LISTED) === 0 && countOf(common) >= ratio * Math.max(1, countOf(rare));
}

/** Number of names in the lexicon (for the README and tests). */
export function lexiconSize(): number {
  return load().size;
}
