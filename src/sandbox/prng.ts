/**
 * Small deterministic randomness: the sandbox must give the same names, branches, faults and
 * latencies for the same seed, so nothing here may touch Math.random.
 */

/** 32-bit FNV-1a hash of a string; cheap and stable across Node versions. */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** A seeded uniform source in [0, 1). */
export type Random = () => number;

/** mulberry32: tiny, fast and good enough for test data (not for secrets). */
export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A generator seeded from a text key and a numeric seed, for per-entity determinism. */
export function randomFor(key: string, seed: number): Random {
  return createRandom(hashString(`${seed}:${key}`));
}

/** Uniform pick; the list must not be empty (all callers pass constant non-empty tables). */
export function pick<T>(random: Random, list: readonly T[]): T {
  const item = list[Math.floor(random() * list.length)];
  if (item === undefined) throw new Error('pick() from an empty list');
  return item;
}

/** Uniform integer in [min, max]. */
export function intBetween(random: Random, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}
