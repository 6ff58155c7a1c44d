/**
 * The lexicon's loader (src/match/name-lexicon.ts): every line of the shipped file reads as the
 * plain split of its fields reads it, and the lines a file may end or be written with (a last
 * line without its newline, an empty line, a line without variant groups) are read alike.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { areListedVariants, isAttestedName, isFemaleName, nameFrequency, parseLexicon } from '../src/match/name-lexicon.js';

/** The reading the loader replaced: an array per line, split on tabs. */
function splitReading(text: string): { names: Map<string, number>; groups: Map<string, readonly number[]> } {
  const names = new Map<string, number>();
  const groups = new Map<string, readonly number[]>();
  for (const line of text.split('\n')) {
    const [name, given, surname, listed, sex, group] = line.split('\t');
    if (name === undefined || name === '') continue;
    names.set(name, (Number(given) + Number(surname)) * 8 + (listed === '1' ? 4 : 0) + (sex === 'f' ? 1 : sex === 'm' ? 2 : 0));
    if (group !== undefined) groups.set(name, group.split(',').map(Number));
  }
  return { names, groups };
}

test('every line of the shipped lexicon reads as its split fields read', () => {
  const text = gunzipSync(readFileSync(new URL('../src/match/data/names.tsv.gz', import.meta.url))).toString('utf8');
  const read = parseLexicon(text);
  const expected = splitReading(text);
  assert.ok(read.names.size > 50_000, `only ${read.names.size} names read`);
  assert.ok(read.groups.size > 500, `only ${read.groups.size} variant groups read`);
  assert.deepEqual(read.names, expected.names);
  assert.deepEqual(read.groups, expected.groups);
});

test('a last line without a newline, an empty line and a line without groups read alike', () => {
  const text = 'aabha\t1\t0\t1\tf\t29,31\n\nraj\t5\t2\t0\tm\nsharma\t0\t9\t1\t';
  assert.deepEqual(parseLexicon(text), splitReading(text));
  assert.deepEqual(parseLexicon(text).groups.get('aabha'), [29, 31]);
  assert.equal(parseLexicon(text).names.get('sharma'), 9 * 8 + 4);
  assert.equal(parseLexicon(`${text}\n`).names.size, 3);
});

test('the loaded lexicon answers its questions', () => {
  assert.equal(isAttestedName('sharma'), true);
  assert.equal(isAttestedName('zzqxv'), false);
  assert.equal(isFemaleName('aabha'), true);
  assert.ok(nameFrequency('kumar') > 100);
  assert.equal(areListedVariants('aabha', 'aabha'), true);
});
