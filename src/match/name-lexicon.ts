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

interface Entry {
  readonly given: number;
  readonly surname: number;
  readonly listed: boolean;
  /** 'f' or 'm' where the sources agree on a given name's sex, else ''. */
  readonly sex: string;
  /** Curated variant groups (spellings a source gives for one name); empty for most names. */
  readonly groups: readonly number[];
}

let lexicon: ReadonlyMap<string, Entry> | null = null;
/** Most names are in no variant group: one shared empty list for them. */
const NO_GROUPS: readonly number[] = [];

function load(): ReadonlyMap<string, Entry> {
  if (lexicon !== null) return lexicon;
  const text = gunzipSync(readFileSync(new URL('./data/names.tsv.gz', import.meta.url))).toString('utf8');
  const map = new Map<string, Entry>();
  for (const line of text.split('\n')) {
    const [name, given, surname, listed, sex, groups] = line.split('\t');
    if (name === undefined || name === '') continue;
    map.set(name, { given: Number(given), surname: Number(surname), listed: listed === '1', sex: sex ?? '', groups: groups === undefined ? NO_GROUPS : groups.split(',').map(Number) });
  }
  lexicon = map;
  return map;
}

/** Whether `word` (lower-case ASCII) is attested as an Indian given name or surname. */
export function isAttestedName(word: string): boolean {
  const entry = load().get(word);
  return entry !== undefined && (entry.listed || entry.given + entry.surname >= MIN_ATTESTED_COUNT);
}

/** Whether a source lists the two words as spellings of one name (the CMU list's Devanagari). */
export function areListedVariants(a: string, b: string): boolean {
  const ga = load().get(a)?.groups;
  if (ga === undefined || ga.length === 0) return false;
  const gb = load().get(b)?.groups ?? [];
  return ga.some((g) => gb.includes(g));
}

/** Whether the sources agree that `word` is a woman's given name. */
export function isFemaleName(word: string): boolean {
  return load().get(word)?.sex === 'f';
}

/** How often `word` stood as a given name plus as a surname in the frequency sources. */
export function nameFrequency(word: string): number {
  const entry = load().get(word);
  return entry === undefined ? 0 : entry.given + entry.surname;
}

/**
 * How many times more frequent the common spelling must be before an unlisted rare spelling one
 * slip from it is read as that slip (SHRMA beside SHARMA) rather than as a second name.
 */
export const SLIP_RATIO = 30;

/**
 * Whether one of two attested words is most likely a slip of the other: no curated list names
 * the rarer one, and the other is at least SLIP_RATIO times as frequent. Frequency sources hold
 * their own typing slips (SHRMA twice beside SHARMA 427 times); a rare name the lists know, or
 * two names of like frequency (Khan / Khanna are both surnames), stay two names.
 */
export function isRareBeside(a: string, b: string): boolean {
  const [ea, eb] = [load().get(a), load().get(b)];
  if (ea === undefined || eb === undefined) return false;
  const [rare, common] = ea.given + ea.surname <= eb.given + eb.surname ? [ea, eb] : [eb, ea];
  return !rare.listed && common.given + common.surname >= SLIP_RATIO * Math.max(1, rare.given + rare.surname);
}

/** Number of names in the lexicon (for the README and tests). */
export function lexiconSize(): number {
  return load().size;
}
