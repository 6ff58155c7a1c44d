/**
 * The typo model (issue #28): the slips that turn a name into a word that is no name, as a data
 * entry clerk or an OCR pass makes them. A pair of words is a typo of one another when one is
 * the other with
 * - one letter replaced by a neighbour on a QWERTY keyboard (Kulkarmi / KULKARNI: m beside n),
 * - two neighbouring letters swapped (Shwtea / SHWETA),
 * - one OCR confusion: rn / m, l / i, c / e, cl / d, vv / w (Rajcsh / RAJESH),
 * - one inner letter dropped from a long word (Akhileh / AKHILESH).
 * The matcher asks only when at most one of the two is an attested name: two attested names are
 * two names (Rajesh / Rakesh), however close on a keyboard.
 *
 * Pure string functions.
 */

const ROWS = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm'] as const;

/** Letters next to each other on a QWERTY keyboard, same row or the rows above and below. */
const NEIGHBOURS: ReadonlyMap<string, ReadonlySet<string>> = (() => {
  const map = new Map<string, Set<string>>();
  const at = (row: number, col: number): string | undefined => ROWS[row]?.[col];
  ROWS.forEach((row, r) => {
    for (let c = 0; c < row.length; c += 1) {
      const set = new Set<string>();
      // Each row is shifted about half a key to the right of the one above it.
      for (const [dr, dc] of [[0, -1], [0, 1], [-1, 0], [-1, 1], [1, -1], [1, 0]] as const) {
        const n = at(r + dr, c + dc);
        if (n !== undefined) set.add(n);
      }
      map.set(row[c] as string, set);
    }
  });
  return map;
})();

/** Shortest word in which a keyboard slip is believed: in a short name one letter is the name. */
export const MIN_SUBSTITUTION_LENGTH = 5;
/** Shortest word in which a swapped pair is believed. */
export const MIN_TRANSPOSITION_LENGTH = 4;
/** Shortest word (the longer one) from which a dropped inner letter is believed. */
export const MIN_DROP_LENGTH = 6;

export type TypoKind = 'keyboard' | 'transposition' | 'ocr' | 'dropped-letter';

/** OCR confusions, each both ways: a scan reads one for the other. */
const OCR_PAIRS: readonly (readonly [string, string])[] = [
  ['rn', 'm'],
  ['l', 'i'],
  ['c', 'e'],
  ['cl', 'd'],
  ['vv', 'w'],
  ['ii', 'u'],
  ['0', 'o'],
  ['1', 'l'],
];

function oneSubstitution(a: string, b: string): [string, string] | null {
  if (a.length !== b.length) return null;
  let diff: [string, string] | null = null;
  for (let i = 0; i < a.length; i += 1) {
    if (a[i] === b[i]) continue;
    if (diff !== null) return null;
    diff = [a[i] as string, b[i] as string];
  }
  return diff;
}

function isTransposed(a: string, b: string): boolean {
  if (a.length !== b.length || a.length < MIN_TRANSPOSITION_LENGTH) return false;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i += 1;
  if (i === 0 || i >= a.length - 1) return false;
  return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
}

function isOcrConfusion(a: string, b: string): boolean {
  for (const [x, y] of OCR_PAIRS) {
    for (const [from, to] of [[x, y], [y, x]] as const) {
      for (let i = a.indexOf(from); i !== -1; i = a.indexOf(from, i + 1)) {
        if (a.slice(0, i) + to + a.slice(i + from.length) === b) return true;
      }
    }
  }
  return false;
}

function isInnerDrop(a: string, b: string): boolean {
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  if (long.length !== short.length + 1 || long.length < MIN_DROP_LENGTH) return false;
  for (let i = 1; i < long.length - 1; i += 1) {
    if (long.slice(0, i) + long.slice(i + 1) === short) return true;
  }
  return false;
}

/** Which slip turns `a` into `b` (lower-case words), or null when none of the model's does. */
export function typoBetween(a: string, b: string): TypoKind | null {
  if (a === b || a[0] !== b[0]) {
    // The first letter is the one a clerk checks; a first-letter change is another name (Ramesh / Kamesh).
    return null;
  }
  const sub = oneSubstitution(a, b);
  if (sub !== null && a.length >= MIN_SUBSTITUTION_LENGTH && NEIGHBOURS.get(sub[0])?.has(sub[1]) === true) return 'keyboard';
  if (isTransposed(a, b)) return 'transposition';
  if (a.length >= MIN_SUBSTITUTION_LENGTH - 1 && isOcrConfusion(a, b)) return 'ocr';
  if (isInnerDrop(a, b)) return 'dropped-letter';
  return null;
}
