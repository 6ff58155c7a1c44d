/**
 * Names written in an Indian script, read into the Latin letters a bank would print (issue #28):
 * "राम कुमार शर्मा" → "ram kumar sharma". Devanagari, Bengali, Gurmukhi, Gujarati, Odia, Telugu,
 * Kannada and Malayalam go through @indic-transliteration/sanscript (ISO 15919), then the
 * diacritics are folded the way Indian names are spelled in English (ś/ṣ → sh, c → ch, ṛ → ri)
 * and the inherent vowel at the end of a word is dropped (राम is Ram, not Rama). Tamil is read
 * with its own small table: sanscript writes Tamil's unvoiced letters as voiced aspirates
 * (செந்தில் → "jhendhil"), which is no name a bank prints.
 *
 * Pure: a string in, a string out.
 */
import SanscriptModule from '@indic-transliteration/sanscript';

/** The package is CommonJS whose module object is the library; its types describe a namespace. */
const Sanscript = SanscriptModule as unknown as { t(data: string, from: string, to: string): string };

/** Unicode blocks of the scripts read here, with sanscript's name for each. */
const BLOCKS: readonly { from: number; to: number; scheme: string }[] = [
  { from: 0x0900, to: 0x097f, scheme: 'devanagari' },
  { from: 0x0980, to: 0x09ff, scheme: 'bengali' },
  { from: 0x0a00, to: 0x0a7f, scheme: 'gurmukhi' },
  { from: 0x0a80, to: 0x0aff, scheme: 'gujarati' },
  { from: 0x0b00, to: 0x0b7f, scheme: 'oriya' },
  { from: 0x0b80, to: 0x0bff, scheme: 'tamil' },
  { from: 0x0c00, to: 0x0c7f, scheme: 'telugu' },
  { from: 0x0c80, to: 0x0cff, scheme: 'kannada' },
  { from: 0x0d00, to: 0x0d7f, scheme: 'malayalam' },
];

const INDIC_RE = /[\u0900-\u0d7f]/;

/**
 * What a script leaves open, so that its reading cannot tell two spellings apart (foldAsScript).
 * `tamil`: one letter for k and g, t and d, p and b, s and ch. `eastern` (Bengali, Assamese, Odia):
 * ব is b or v.
 */
export type ScriptFold = 'tamil' | 'eastern';

/** The fold of the script a name is written in (Tamil, or Bengali / Odia); undefined for the others and for Latin. */
export function scriptFoldOf(text: string): ScriptFold | undefined {
  if (/[\u0b80-\u0bff]/.test(text)) return 'tamil';
  if (/[\u0980-\u09ff\u0b00-\u0b7f]/.test(text)) return 'eastern';
  return undefined;
}

/**
 * A Latin word as the script would write it, for comparing a name read from that script with a
 * bank's spelling; both sides are folded.
 *
 * Tamil has one letter where the Latin alphabet has two: க is k or g (Murugan, Sekar), ட and த are
 * t or d (Pandian, Anandan / Ananthan), ப is p or b, ச is s or ch (ஜ, written apart, stays j: Jaya
 * is not Chhaya or Saya); aspiration is not written; ழ is printed zh or l (Azhagu / Alagu); a
 * cluster of a borrowed word takes a vowel (சுப்பிரமணியன்: Subramanian), the vowel r is written ru
 * (கிருஷ்ணன்: Krishnan), and ஜெ before y is Ja or Je (ஜெயா: Jaya / Jeya).
 *
 * Bengali has one letter for b and v (বিকাশ: Bikash / Vikash), and three for s and sh that it
 * speaks alike and banks print either way (শুভজিৎ: Subhajit / Shubhajit). Its inherent vowel,
 * spoken o and printed a or o, is not folded here: once read into Latin letters it cannot be told
 * from a written ā or o (Rani / Roni are two names); the word's readings carry it (easternReadings).
 */
export function foldAsScript(fold: ScriptFold, word: string): string {
  if (fold === 'eastern') return word.replace(/v/g, 'b').replace(/sh/g, 's');
  return word
    .replace(/zh/g, 'l')
    .replace(/ch/g, 's')
    .replace(/([kgtdpbcj])h/g, '$1')
    .replace(/[gc]/g, 'k')
    .replace(/d/g, 't')
    .replace(/[bf]/g, 'p')
    .replace(/([kptsm])i(?=r[aeiou])/g, '$1')
    .replace(/([^aeiou])ru/g, '$1ri')
    .replace(/ey/g, 'ay')
    .replace(/iy(?=[aeiou])/g, 'i')
    .replace(/([^aeiou])\1+/g, '$1');
}

/** Whether the text has a letter of one of the Indian scripts read here. */
export function hasIndicScript(text: string): boolean {
  return INDIC_RE.test(text);
}

function schemeOf(ch: string): string | null {
  const code = ch.codePointAt(0) ?? 0;
  for (const block of BLOCKS) if (code >= block.from && code <= block.to) return block.scheme;
  return null;
}

/** ISO 15919 letters as Indian names are spelled in English; the rest lose their diacritics. */
const ISO_FOLDS: readonly [RegExp, string][] = [
  [/[śṣ]/g, 'sh'],
  [/r̥|ṛ/g, 'ri'],
  [/c(?!h)/g, 'ch'],
  [/ṁ|ṃ/g, 'n'],
  [/ḻ/g, 'zh'],
  [/ẏ/g, 'y'],
];

/** Malayalam chillu letters: a consonant with no vowel, written as one sign. */
const CHILLU: Readonly<Record<string, string>> = { 'ൺ': 'ണ്', 'ൻ': 'ന്', 'ർ': 'ര്', 'ൽ': 'ല്', 'ൾ': 'ള്', 'ൿ': 'ക്' };

/** A syllable that starts with a cluster (a consonant, then r, y, l or v) and has the inherent vowel (bra in সুব্রত), then one consonant and the word's final inherent vowel. */
const CLUSTER_BEFORE_FINAL = /[^\saeiouāīūēōṃṁ]h?[rylv]a[^\saeiouāīūēōṃṁ]h?a$/;

function foldIso(iso: string, dropFinalSchwa: boolean, eastern = false): string {
  let out = iso.toLowerCase().normalize('NFC');
  // The inherent vowel at the end of a word is not pronounced in the north (राम: Ram), except
  // after two consonants (नरेन्द्र: Narendra). Long ā is a written vowel and stays (शर्मा: Sharma).
  // Bengali and Odia also speak it after a syllable that starts with a cluster (সুব্রত: Subrata,
  // দেবব্রত: Debabrata; but অমিত: Amit, সঞ্জীব: Sanjib, মণ্ডল: Mondal).
  if (dropFinalSchwa) {
    out = out.replace(/([aeiouāīūēōṃṁ])([^\saeiouāīūēōṃṁ]h?)a(?=\s|$)/g, (word, vowel: string, consonant: string, at: number) =>
      eastern && CLUSTER_BEFORE_FINAL.test(out.slice(Math.max(0, at - 6), at + word.length)) ? word : `${vowel}${consonant}`);
  }
  for (const [re, to] of ISO_FOLDS) out = out.replace(re, to);
  out = out.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  return out.replace(/[^a-z\s]/g, '');
}

const TAMIL_CONSONANTS: Readonly<Record<string, string>> = {
  'க': 'k', 'ங': 'ng', 'ச': 's', 'ஞ': 'nj', 'ட': 't', 'ண': 'n', 'த': 'th', 'ந': 'n', 'ப': 'p', 'ம': 'm',
  'ய': 'y', 'ர': 'r', 'ல': 'l', 'வ': 'v', 'ழ': 'zh', 'ள': 'l', 'ற': 'r', 'ன': 'n', 'ஜ': 'j', 'ஷ': 'sh',
  'ஸ': 's', 'ஹ': 'h',
};
const TAMIL_VOWELS: Readonly<Record<string, string>> = {
  'அ': 'a', 'ஆ': 'a', 'இ': 'i', 'ஈ': 'i', 'உ': 'u', 'ஊ': 'u', 'எ': 'e', 'ஏ': 'e', 'ஐ': 'ai', 'ஒ': 'o', 'ஓ': 'o', 'ஔ': 'au',
};
const TAMIL_SIGNS: Readonly<Record<string, string>> = {
  'ா': 'a', 'ி': 'i', 'ீ': 'i', 'ு': 'u', 'ூ': 'u', 'ெ': 'e', 'ே': 'e', 'ை': 'ai', 'ொ': 'o', 'ோ': 'o', 'ௌ': 'au', '்': '',
};

/** Tamil, letter by letter: a consonant carries "a" unless a vowel sign or the pulli follows. */
function tamilToLatin(text: string): string {
  let out = '';
  const chars = [...text];
  for (let i = 0; i < chars.length; i += 1) {
    const ch = chars[i] as string;
    const consonant = TAMIL_CONSONANTS[ch];
    if (consonant !== undefined) {
      const sign = TAMIL_SIGNS[chars[i + 1] ?? ''];
      out += consonant + (sign ?? 'a');
      if (sign !== undefined) i += 1;
    } else out += TAMIL_VOWELS[ch] ?? (ch === 'ஃ' ? 'h' : /\s/.test(ch) ? ch : '');
  }
  return out;
}

/** A run of Bengali, Devanagari… as ISO 15919 letters, with what the script's reading needs first. */
function isoOf(run: string, scheme: string): string {
  // Nukta signs (য়, ड़) mark a sound close to the letter's own; a bank prints the letter.
  const bare = run.replace(/[\u093c\u09bc\u0a3c\u0abc\u0b3c\u0cbc]/g, '');
  const source = scheme === 'malayalam' ? bare.replace(/[ൺൻർൽൾൿ]/g, (c) => CHILLU[c] ?? c) : bare;
  const iso = Sanscript.t(scheme === 'bengali' ? source.replace(/ৎ/g, 'ত্') : source, scheme, 'iso');
  // Bengali has one letter for b and v: ব is b, and w as the second of a cluster (বিশ্বজিৎ:
  // Biswajit, সাত্ত্বিক: Satwik) except after r or m (অনির্বাণ: Anirban, অম্বিকা: Ambika).
  return scheme === 'bengali' ? iso.replace(/([^aeiouāīūēōṛṝḷḹṃṁḥ\srm])v/g, '$1w').replace(/v/g, 'b') : iso;
}

/** Most inherent vowels of one word whose readings are all spelled out (2 × 2 × … for each). */
const MAX_INHERENT_VOWELS = 5;
/** An inherent vowel in ISO 15919: an a that is not ā, nor the first letter of ai or au. */
const INHERENT_A = /a(?![iu])/g;

/**
 * The Latin spellings a Bengali or Odia word is printed in (issue #28): its inherent vowel is
 * spoken o and printed a or o (মণ্ডল: Mandal / Mondal, ମହାନ୍ତି: Mahanti / Mohanty, সুব্রত: Subrata
 * / Subroto), and at the end of a word it is spoken or not (বিপ্লব: Biplab, সুব্রত: Subrata) — the
 * script does not say which, so each reading is one the name has. A written ā or o is no inherent
 * vowel and is read one way only (রানী is Rani, never Roni). Keyed by the word as transliterateIndic
 * reads it; words of other scripts, and words with no inherent vowel, have none.
 */
export function easternReadings(text: string): Map<string, readonly string[]> {
  const readings = new Map<string, readonly string[]>();
  // Words as the name's tokens are: punctuation apart (মণ্ডল, বিপ্লব is read মণ্ডল and বিপ্লব).
  for (const word of text.normalize('NFC').split(/[^\p{L}\p{M}\u200c\u200d]+/u)) {
    const scheme = schemeOf(word[0] ?? '');
    if ((scheme !== 'bengali' && scheme !== 'oriya') || [...word].some((ch) => schemeOf(ch) !== scheme)) continue;
    const iso = isoOf(word, scheme).toLowerCase().normalize('NFC');
    const plain = foldIso(iso, true, true);
    const at = [...iso.matchAll(INHERENT_A)].map((m) => m.index);
    if (at.length === 0 || at.length > MAX_INHERENT_VOWELS || plain === '') continue;
    // A final inherent vowel the reading keeps (after a cluster: সুব্রত, Subrata) may go unspoken
    // (বিপ্লব, Biplab); one it drops is not added (কমল is Kamal, never Kamala).
    const final = iso.length > 1 && at[at.length - 1] === iso.length - 1;
    const keptFinal = final && plain === foldIso(iso, false);
    const spelled = new Set<string>();
    for (let choice = 0; choice < 1 << at.length; choice += 1) {
      const letters = [...iso];
      at.forEach((index, i) => {
        if (choice & (1 << i)) letters[index] = 'o';
      });
      const spelling = letters.join('');
      if (!final || keptFinal) spelled.add(foldIso(spelling, false));
      if (final) spelled.add(foldIso(spelling.slice(0, -1), false));
    }
    spelled.delete(plain);
    readings.set(plain, [plain, ...spelled]);
  }
  return readings;
}

/** Each run of one Indian script in `text` read into Latin letters; other characters are kept. */
export function transliterateIndic(text: string): string {
  if (!hasIndicScript(text)) return text;
  let out = '';
  let run = '';
  let runScheme: string | null = null;
  const flush = (): void => {
    if (runScheme === null) return;
    if (runScheme === 'tamil') out += tamilToLatin(run);
    else {
      // The south writes a name's final vowel (Manjunatha); the north does not (Ram).
      const south = runScheme === 'telugu' || runScheme === 'kannada' || runScheme === 'malayalam';
      out += foldIso(isoOf(run, runScheme), !south, runScheme === 'bengali' || runScheme === 'oriya');
    }
    run = '';
    runScheme = null;
  };
  for (const ch of text) {
    const scheme = schemeOf(ch);
    // Spaces stay inside a run so that a word's end is seen as one.
    if (scheme === null && !(runScheme !== null && /\s/.test(ch))) {
      flush();
      out += ch;
    } else if (scheme !== null && scheme !== runScheme && runScheme !== null) {
      flush();
      runScheme = scheme;
      run = ch;
    } else {
      runScheme = scheme ?? runScheme;
      run += ch;
    }
  }
  flush();
  return out;
}
