/**
 * A bounded cache of a pure function of one word, for the matcher's hot paths: the same words
 * (Kumar, Sharma, Traders) and the same words joined (Raj + Kumar) come back pair after pair.
 * The cache changes no answer, since what it remembers is a pure function of the word.
 */

/** Words kept in a cache of `remembered` at most, unless it is given its own bound. */
const WORD_CACHE_SIZE = 50_000;

/**
 * Words longer than this are read each time, never kept: the bound counts words, not letters,
 * and real name words, even several written together, are far shorter.
 */
export const LONGEST_REMEMBERED_WORD = 40;

/**
 * `read`, with its answers kept by word. `read` must be a pure function of the word, so the
 * cache changes no answer; it is bounded and emptied when full, and keeps no word longer than
 * LONGEST_REMEMBERED_WORD (a 1,000-letter word and its keys would make the bound mean nothing).
 */
export function remembered<T>(read: (word: string) => T, size = WORD_CACHE_SIZE): (word: string) => T {
  const cache = new Map<string, T>();
  return (word) => {
    if (word.length > LONGEST_REMEMBERED_WORD) return read(word);
    const cached = cache.get(word);
    if (cached !== undefined) return cached;
    const value = read(word);
    if (cache.size >= size) cache.clear();
    cache.set(word, value);
    return value;
  };
}
