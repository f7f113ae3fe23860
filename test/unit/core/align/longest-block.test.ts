/**
 * longestCommonBlock equals difflib's find_longest_match(0, len(a), 0, len(b)) with autojunk off — size,
 * and the tie-breaking (smallest i, then smallest j) — checked against the faithful port
 * (SequenceMatcher, itself checked against CPython) on random strings over small alphabets, where ties
 * and repeats are common, including astral characters (difflib counts code points; the block is given
 * in UTF-16 code units).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { longestCommonBlock, SequenceMatcher } from '../../../../src/core/align';

/** difflib's [i, j, size] in code points → [aStart, bStart, length] in UTF-16 code units. */
function difflibBlock(a: string, b: string): [number, number, number, number] {
  const ac = Array.from(a);
  const bc = Array.from(b);
  const [i, j, k] = new SequenceMatcher(ac, bc, { autojunk: false }).findLongestMatch(0, ac.length, 0, bc.length);
  const units = (cps: string[], n: number) => cps.slice(0, n).join('').length;
  return [units(ac, i), units(bc, j), units(ac, i + k) - units(ac, i), k];
}

const chars = (alphabet: string[], max: number) => fc.array(fc.constantFrom(...alphabet), { maxLength: max }).map((xs) => xs.join(''));

test('longestCommonBlock = difflib find_longest_match (size and tie-breaking) on random strings', () => {
  for (const alphabet of [['a', 'b'], ['a', 'b', 'c', ' '], ['x', 'y', '😀', 'é']]) {
    fc.assert(fc.property(chars(alphabet, 30), chars(alphabet, 120), (a, b) => {
      const got = longestCommonBlock(a, b);
      assert.deepEqual([got.aStart, got.bStart, got.length, got.size], difflibBlock(a, b), JSON.stringify({ a, b }));
      assert.equal(a.slice(got.aStart, got.aStart + got.length), b.slice(got.bStart, got.bStart + got.length));
    }), { numRuns: 400, seed: 16 });
  }
});

test('longestCommonBlock: hand cases — none shared, ties resolved to the first in a then in b, one pass over b', () => {
  // no shared element: per character of b one step and one suffix link off the root
  assert.deepEqual(longestCommonBlock('abc', 'xyz'), { aStart: 0, bStart: 0, length: 0, size: 0, steps: 6 });
  // "ab" and "cd" both have size 2; difflib keeps the smaller i ("ab" at 0), at its first place in b (4)
  const t = longestCommonBlock('abXcd', 'cd..ab..ab');
  assert.deepEqual([t.aStart, t.bStart, t.size], [0, 4, 2]);
  const b = 'the party shall not '.repeat(500);
  const r = longestCommonBlock('party shall notify', b);
  assert.deepEqual([r.aStart, r.bStart, r.size], [0, 4, 15]);
  assert.ok(r.steps <= 2 * b.length, `${r.steps} steps for ${b.length} code points`);
});
