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
 * Pure string functions; no state.
 */

/** The phonetic key of one lower-case ASCII word. */
export function toPhoneticKey(word: string): string {
  let w = word.replace(/[^a-z]/g, '');
  if (w.length === 0) return w;
  w = w
    .replace(/([^aeiou])\1+/g, '$1')
    .replace(/x/g, 'ks')
    .replace(/q/g, 'k')
    .replace(/z/g, 'j')
    .replace(/w/g, 'v')
    .replace(/ph/g, 'f')
    .replace(/ck/g, 'k')
    // ch and chh are one sound; c alone is k (Cauvery / Kaveri, Chacko).
    .replace(/chh?/g, 'C')
    .replace(/c/g, 'k')
    .replace(/C/g, 'c')
    // Aspiration is written inconsistently; sh/s likewise (an h after these consonants).
    .replace(/([kgjtdbpsc])h/g, '$1')
    // Vowel length and the diphthong spellings.
    .replace(/ee|ii|ie/g, 'i')
    .replace(/oo|uu/g, 'u')
    .replace(/aa/g, 'a')
    .replace(/au|ou|ow/g, 'o')
    // The vowel r is written ri or ru (Kripa / Krupa, Amrita / Amrutha).
    .replace(/([^aeiou])ru/g, '$1ri')
    // Anusvara: m or n before a consonant (Hamsa / Hansa, Priyamvada / Priyanvada).
    .replace(/m(?=[^aeiouy])/g, 'n')
    // Jaipal / Jayapal, Jaysukh / Jaisukh: "aya" and "ay" before a consonant are written "ai" too.
    .replace(/aya?(?=[^aeiouy])/g, 'ai')
    .replace(/ai(?=[^aeiouy])/g, 'e')
    .replace(/ai$/, 'ay')
    // Punjabi -inder / -ender and Sanskrit -endra are one ending (Rajinder / Rajendra).
    .replace(/[ei]nd[ae]?ra?$/, 'endr')
    .replace(/ey$/, 'e')
    .replace(/([^aeiou])y$/, '$1i')
    // A final e after a consonant is not pronounced (Kishore / Kishor, Ghose / Ghosh).
    .replace(/([^aeiou])e$/, '$1')
    // A final h after a vowel is silent (Sumaiyah / Sumaiya).
    .replace(/([aeiou])h$/, '$1')
    .replace(/(.)\1+/g, '$1');
  return w;
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
