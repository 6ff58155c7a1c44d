/**
 * A phonetic key for Indian names written in Latin letters. Romanisation of Indian scripts is not
 * standardised, so one name reaches a bank in many spellings: aspirates written or not (Bharat /
 * Barat, Sudhir / Sudir), long vowels doubled or not (Deepak / Dipak, Pooja / Puja), v or w
 * (Vasudev / Wasudev), sh or s (Shrikant / Srikant), x for ksh (Laxmi / Lakshmi), q or k, z or j,
 * doubled consonants (Mohammed / Mohamed), au / ou / ow (Chaudhari / Choudhury / Chowdhury).
 * The key folds exactly those choices and nothing that tells two names apart: b stays apart from
 * v (Vipin is not Bipin), and the final vowel stays (Vimal is not Vimala: the matcher decides
 * what a final vowel means, since it marks gender on given names but not on surnames).
 *
 * Pure string functions. The answers for words already seen are remembered (remembered.ts), which
 * changes none.
 */
import { remembered } from './remembered.js';

/** One pass over the letter-level spellings; longer alternatives first (chh before ch before c). */
const LETTERS = /chh?|ph|ck|([kgjtdbps])h|x|q|z|ow|w|c|ee|ii|ie|oo|uu|aa|au|ou/g;

function letter(match: string, aspirated: string | undefined): string {
  if (aspirated !== undefined) return aspirated; // kh gh jh th dh bh ph sh: aspiration is written or not
  switch (match) {
    case 'ch':
    case 'chh':
      return 'c'; // one sound, however written
    case 'ph':
      return 'f';
    case 'ck':
    case 'c':
    case 'q':
      return 'k'; // Cauvery / Kaveri, Chacko, Qureshi / Kureshi
    case 'x':
      return 'ks'; // Laxmi / Lakshmi
    case 'z':
      return 'j';
    case 'w':
      return 'v';
    case 'ee':
    case 'ii':
    case 'ie':
      return 'i';
    case 'oo':
    case 'uu':
      return 'u';
    case 'aa':
      return 'a';
    default:
      return 'o'; // au, ou, ow: Chaudhari / Choudhury / Chowdhury
  }
}

/** The phonetic key of one lower-case ASCII word. */
export const toPhoneticKey: (word: string) => string = remembered(phoneticKeyOf);

function phoneticKeyOf(word: string): string {
  let w = /^[a-z]+$/.test(word) ? word : word.replace(/[^a-z]/g, '');
  if (w.length === 0) return w;
  w = w.replace(/([^aeiou])\1+/g, '$1');
  if (/[hxqzwceiou]/.test(w)) w = w.replace(LETTERS, letter);
  // The vowel r is written ri or ru (Kripa / Krupa, Amrita / Amrutha).
  if (w.includes('ru')) w = w.replace(/([^aeiou])ru/g, '$1ri');
  // Anusvara: m or n before a consonant (Hamsa / Hansa, Priyamvada / Priyanvada).
  if (w.includes('m')) w = w.replace(/m(?=[^aeiouy])/g, 'n');
  if (w.includes('a')) {
    // Jaipal / Jayapal, Jaysukh / Jaisukh: "aya" and "ay" before a consonant are written "ai" too.
    w = w.replace(/aya?(?=[^aeiouy])/g, 'ai').replace(/ai(?=[^aeiouy])/g, 'e');
    if (w.endsWith('ai')) w = `${w.slice(0, -2)}ay`;
  }
  // Tamil -iam / -ian / -yam (Subramaniam / Subramanian / Subramanyam, Balasubramaniam).
  if (w.endsWith('m')) w = w.replace(/([iy])am$/, '$1an');
  // Punjabi -inder / -ender and Sanskrit -endra are one ending (Rajinder / Rajendra).
  if (w.includes('nd')) w = w.replace(/[ei]nd[ae]?ra?$/, 'endr');
  // Pandey / Pande / Pand: -ey is -e, and a final e after a consonant is not pronounced
  // (Kishore / Kishor, Ghose / Ghosh).
  if (w.endsWith('ey')) w = w.slice(0, -1);
  else if (w.endsWith('y')) w = w.replace(/([^aeiou])y$/, '$1i');
  if (w.endsWith('e')) w = w.replace(/([^aeiou])e$/, '$1');
  // A final h after a vowel is silent (Sumaiyah / Sumaiya).
  else if (w.endsWith('h')) w = w.replace(/([aeiou])h$/, '$1');
  return w.replace(/(.)\1+/g, '$1');
}

/**
 * The key without its inner vowels: first letter, inner consonants, last letter. Two keys with
 * the same skeleton differ only in vowels (Tewari / Tiwari, Choudhury / Chaudhari).
 */
export function toSkeleton(key: string): string {
  if (key.length <= 2) return key;
  return key[0] + key.slice(1, -1).replace(/[aeiou]/g, '') + key.slice(-1);
}

/** The key without the inner a's (the schwa, written or not: Navaneet / Navnit, Dalajit / Daljeet). */
export function withoutInnerSchwa(key: string): string {
  if (key.length <= 3) return key;
  return key[0] + key.slice(1, -1).replace(/a/g, '') + key.slice(-1);
}

/** Letter-level spellings with one sound, longer alternatives first; sh stays (Shah is not Sah). */
const SPELLINGS = /shr|x|ph|ck|([kgcjtdbp])h|q|w|ee|ii|ie|oo|uu|aa|ou|au|ow/g;

function spelled(match: string, aspirated: string | undefined): string {
  if (aspirated !== undefined) return aspirated;
  switch (match) {
    case 'shr':
      return 'sr'; // Shrikant / Srikant, Shrivastava / Srivastava
    case 'x':
      return 'ksh'; // Laxmi / Lakshmi
    case 'ph':
      return 'f';
    case 'ck':
    case 'q':
      return 'k';
    case 'w':
      return 'v';
    case 'ee':
    case 'ii':
    case 'ie':
      return 'i';
    case 'oo':
    case 'uu':
      return 'u';
    case 'aa':
      return 'a';
    default:
      return 'o'; // ou, au, ow
  }
}

/** Letter-level spellings only (no doubled letters folded), for the checks below. */
const spellLetters: (word: string) => string = remembered(spellingLettersOf);

function spellingLettersOf(word: string): string {
  let w = word.replace(SPELLINGS, spelled);
  // Each rule below is tried only when its letters are there: this runs for every word read.
  // The vowel r written ri or ru (Kripa / Krupa, Amrita / Amrutha); -iya / -ia (Aaliya / Aalia).
  if (w.includes('ru')) w = w.replace(/([^aeiou])ru/g, '$1ri');
  if (w.includes('iya')) w = w.replace(/iya/g, 'ia');
  // Jaipal / Jayapal, Jay / Jai: "aya" and "ay" before a consonant or at the end are "ai".
  if (w.includes('ay')) w = w.replace(/aya?(?=[^aeiouy])/g, 'ai').replace(/ay$/, 'ai');
  // Anusvara: m or n before a consonant other than a labial (Hamsa / Hansa).
  if (w.includes('m')) w = w.replace(/(?<=.)m(?=[^aeiouybpmvn])/g, 'n');
  // Tamil -iam / -ian (Subramaniam / Subramanian); Punjabi -inder / -ender and Sanskrit -endra
  // are one ending (Jitender / Jitendra, Rajinder / Rajendra).
  if (w.endsWith('m')) w = w.replace(/([iy])am$/, '$1an');
  if (w.includes('nd')) w = w.replace(/[ei]nd[ae]?ra?$/, 'endr');
  // Reddy / Reddi, Pandey / Pande, Kishore / Kishor.
  if (w.endsWith('y')) {
    if (/[^aeiou]y$/.test(w)) w = `${w.slice(0, -1)}i`;
    else if (/[^aeiou]ey$/.test(w)) w = w.slice(0, -1);
  }
  if (w.endsWith('e') && w.length > 3 && /[^aeiou]e$/.test(w)) w = w.slice(0, -1);
  return w;
}

/**
 * The spelling key (issue #28): only the romanisation choices that never separate two names —
 * long vowels doubled or not (Deepak / Dipak, Pooja / Puja), doubled consonants, aspiration
 * written or not after k g c j t d b p (Sudhir / Sudir), w / v, ph / f, q / k, x / ksh, shr / sr,
 * au / ou / ow, ri / ru, aya / ai, the anusvara, -iam / -ian, -inder / -endra, and a final
 * -y / -ey / -e. Unlike toPhoneticKey
 * it keeps sh apart from s (Shah / Sah, Das / Dash) and keeps every vowel that is written as a
 * different letter (Dev / Dave, Rana / Rane, Harish / Harsh).
 */
export const toSpellingKey: (word: string) => string = remembered((word) => spellLetters(word).replace(/(.)\1+/g, '$1'));

const CONSONANT = /[^aeiou]/;

/** `long` is `short` with one or more inner a's between consonants (Bhavana / Bhavna, Dinakar / Dinkar). */
function differsByInnerSchwa(short: string, long: string): boolean {
  if (long.length <= short.length) return false;
  let i = 0;
  for (let j = 0; j < long.length; j += 1) {
    if (short[i] === long[j]) {
      i += 1;
      continue;
    }
    const inner = long[j] === 'a' && j > 0 && j < long.length - 1 && CONSONANT.test(long[j - 1] as string) && CONSONANT.test(long[j + 1] as string);
    if (!inner) return false;
  }
  return i === short.length;
}

/**
 * Whether two words are one name spelled two ways by the rules above, or by the schwa: an inner
 * a written or not between consonants (Bhardwaj / Bharadwaj), or a final a after two consonants
 * (Dutt / Dutta, Gupt / Gupta, never Gupte / Gupta) where `finalA` allows it — on surnames; on given names a final
 * -a may be the feminine form (Laksh / Laksha). Never a final a after one consonant: Khan /
 * Khanna, Sen / Sena, Chetan / Chetana are two names.
 */
export function isSpellingVariant(a: string, b: string, finalA: boolean): boolean {
  const ka = toSpellingKey(a);
  const kb = toSpellingKey(b);
  if (ka === kb) return true;
  const [short, long] = ka.length < kb.length ? [ka, kb] : [kb, ka];
  if (differsByInnerSchwa(short, long)) return true;
  if (!finalA) return false;
  // sh is one consonant (Amish / Amisha is not a cluster).
  const [la, lb] = [spellLetters(a).replace(/sh/g, 'S'), spellLetters(b).replace(/sh/g, 'S')];
  const [s, l, written] = la.length < lb.length ? [la, lb, a] : [lb, la, b];
  // The shorter word must end on its consonants as written: a final -e is a written vowel, not a
  // schwa left out (Gupte / Gupta are two surnames).
  return l === `${s}a` && /[^aeiou]{2}$/.test(s) && !/[aeiou]$/.test(written);
}
