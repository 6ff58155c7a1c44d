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

const TAMIL_RE = /[\u0b80-\u0bff]/;

/** Whether the text has a Tamil letter: its reading leaves voicing open (voicedAsTamil). */
export function hasTamilScript(text: string): boolean {
  return TAMIL_RE.test(text);
}

/**
 * A Latin word as Tamil script would write it, for comparing a name read from Tamil with a bank's
 * spelling. Tamil has one letter where the Latin alphabet has two: க is k or g (Murugan, Sekar), ட
 * and த are t or d (Pandian, Anandan / Ananthan), ப is p or b, ச is s, ch or j; aspiration is not
 * written; ழ is printed zh or l (Azhagu / Alagu); a cluster of a borrowed word takes a vowel
 * (சுப்பிரமணியன்: Subramanian), the vowel r is written ru (கிருஷ்ணன்: Krishnan), and ஜெ before y
 * is Ja or Je (ஜெயா: Jaya / Jeya). So those differences cannot tell the two apart: both sides are
 * folded to one letter for each, and the cluster's vowel is dropped.
 */
export function voicedAsTamil(word: string): string {
  return word
    .replace(/zh/g, 'l')
    .replace(/ch/g, 's')
    .replace(/([kgtdpbcj])h/g, '$1')
    .replace(/[gc]/g, 'k')
    .replace(/d/g, 't')
    .replace(/[bf]/g, 'p')
    .replace(/j/g, 's')
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

function foldIso(iso: string, dropFinalSchwa: boolean): string {
  let out = iso.toLowerCase().normalize('NFC');
  // The inherent vowel at the end of a word is not pronounced in the north (राम: Ram), except
  // after two consonants (नरेन्द्र: Narendra). Long ā is a written vowel and stays (शर्मा: Sharma).
  if (dropFinalSchwa) out = out.replace(/([aeiouāīūēōṃṁ])([^\saeiouāīūēōṃṁ]h?)a(?=\s|$)/g, '$1$2');
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
      // Nukta signs (য়, ड़) mark a sound close to the letter's own; a bank prints the letter.
      const bare = run.replace(/[\u093c\u09bc\u0a3c\u0abc\u0b3c\u0cbc]/g, '');
      const source = runScheme === 'malayalam' ? bare.replace(/[ൺൻർൽൾൿ]/g, (c) => CHILLU[c] ?? c) : bare;
      // The south writes a name's final vowel (Manjunatha); the north does not (Ram).
      const south = runScheme === 'telugu' || runScheme === 'kannada' || runScheme === 'malayalam';
      out += foldIso(Sanscript.t(source, runScheme, 'iso'), !south);
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
