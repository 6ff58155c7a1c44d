/**
 * Phonetic key of one name word, so that transliteration variants of the same Indian name
 * collapse to one string (Lakshmi/Laxmi, Shrikant/Srikanth, Reddy/Reddi, Sandeep/Sandip,
 * Jaswinder/Jasvinder, Aggarwal/Agarwal) and can be compared with a plain equality.
 *
 * The rules follow how Indian names are romanised, not English spelling:
 * - `ksh`/`ks` → `x` (Lakshmi, Laxmi), `ph` → `f`;
 * - an `h` after a consonant is an aspiration mark that writers use or drop freely
 *   (sh/s, th/t, dh/d, bh/b, kh/k, gh/g, ch/c): dropped;
 * - a word-final `h` after a vowel is dropped (Shah/Sah);
 * - `ee` → `i`, `oo` → `u`, `ou` → `au` (Gourav/Gaurav), `w` → `v`, `z` → `j`, `q` → `k`,
 *   `ck` → `k`, final `y` → `i`;
 * - `b` → `v`: Bengali, Odia and Assamese write Sanskrit v as b (Bikash/Vikas, Bijay/Vijay);
 * - doubled letters collapse (aa/a, tt/t, ss/s …), after the rules above;
 * - a final silent `e` after a consonant is dropped (Kishore/Kishor, Pheroze/Feroz).
 */

const CACHE_LIMIT = 50_000;
const cache = new Map<string, string>();

function isVowel(code: number): boolean {
  // a e i o u
  return code === 97 || code === 101 || code === 105 || code === 111 || code === 117;
}

function isLetter(code: number): boolean {
  return code >= 97 && code <= 122;
}

function computeKey(word: string): string {
  const length = word.length;
  // Characters are collected as codes and turned into a string once: no closure, no per-char
  // string building in the hot path.
  const codes = scratch.length >= length ? scratch : (scratch = new Array<number>(length * 2));
  let size = 0;
  for (let i = 0; i < length; i += 1) {
    const code = word.charCodeAt(i);
    const next = i + 1 < length ? word.charCodeAt(i + 1) : -1;
    let out = code;
    switch (code) {
      case 107: // k: ks / ksh → x
        if (next === 115) {
          out = 120;
          i += i + 2 < length && word.charCodeAt(i + 2) === 104 ? 2 : 1;
        }
        break;
      case 112: // p: ph → f
        if (next === 104) {
          out = 102;
          i += 1;
        }
        break;
      case 99: // c: ck → k
        if (next === 107) continue;
        break;
      case 104: {
        // h
        const previous = i > 0 ? word.charCodeAt(i - 1) : -1;
        if (previous !== -1 && isLetter(previous) && !isVowel(previous)) continue; // aspiration
        if (previous !== -1 && i === length - 1) continue; // final h after a vowel
        break;
      }
      case 101: // e: ee → i
        if (next === 101) {
          out = 105;
          i += 1;
        }
        break;
      case 111: // o: oo → u, ou → au
        if (next === 111) {
          out = 117;
          i += 1;
        } else if (next === 117) {
          out = 97;
        }
        break;
      case 98: // b → v
        out = 118;
        break;
      case 119: // w → v
        out = 118;
        break;
      case 122: // z → j
        out = 106;
        break;
      case 113: // q → k
        out = 107;
        break;
      case 121: // y at the end → i
        if (i === length - 1 && i > 0) out = 105;
        break;
      default:
        break;
    }
    if (size > 0 && codes[size - 1] === out) continue; // doubled letters collapse
    codes[size] = out;
    size += 1;
  }
  if (size >= 4 && codes[size - 1] === 101 && !isVowel(codes[size - 2] as number)) size -= 1; // silent final e
  let key = '';
  for (let i = 0; i < size; i += 1) key += String.fromCharCode(codes[i] as number);
  return key;
}

let scratch: number[] = new Array<number>(64);

/** The phonetic key of a lower-case word (cached: names repeat a lot across a payee list). */
export function toPhoneticKey(word: string): string {
  const cached = cache.get(word);
  if (cached !== undefined) return cached;
  const key = computeKey(word);
  // A full clear is crude but keeps memory bounded with no bookkeeping in the hot path.
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(word, key);
  return key;
}
