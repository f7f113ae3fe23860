/**
 * Issue #16 item 20: import's "rejected by reason" summary showed a "0.N" placeholder (the old grouping
 * replaced 3+-digit runs, so "similarity 0.412" became "similarity 0.N" and "row 98" stayed apart from
 * "row 1200"). Reasons that differ only in numbers are one group, each number shown as its range.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { groupReasons } from '../../../src/cli/commands/import';

test('rejection reasons group by their words and show each number as the range of its values', () => {
  const got = groupReasons([
    'fuzzy alignment similarity 0.412 below 0.6 (row 1200)',
    'no text for document "x.md"',
    'fuzzy alignment similarity 0.587 below 0.6 (row 98)',
    'fuzzy alignment similarity 0.5 below 0.6 (row 300)',
  ]);
  assert.deepEqual(got, [
    { text: 'fuzzy alignment similarity 0.412–0.587 below 0.6 (row 98–1200)', count: 3 },
    { text: 'no text for document "x.md"', count: 1 },
  ]);
  assert.ok(!got.some((g) => /\bN\b/.test(g.text)), 'no placeholder');
});

test('text of a reason is never a placeholder: "#" in an excerpt stays "#" (it was replaced by the numbers)', () => {
  const got = groupReasons([
    'excerpt "## Term #3 of Section 2000" not found in contract 7 (row 12)',
    'excerpt "## Term #3 of Section 2000" not found in contract 7 (row 40)',
  ]);
  assert.deepEqual(got, [{ text: 'excerpt "## Term #3 of Section 2000" not found in contract 7 (row 12–40)', count: 2 }]);
});
