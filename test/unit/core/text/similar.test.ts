/** "Did you mean": the nearest known name by edit distance, only when near enough to be a typo. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closestName, editDistance } from '../../../../src/core/text/similar';

test('editDistance counts insertions, deletions, substitutions and neighbour swaps as 1 each', () => {
  assert.equal(editDistance('chunkr', 'chunkers'), 2);
  assert.equal(editDistance('qualty', 'quality'), 1);
  assert.equal(editDistance('lk', 'kl'), 1);
  assert.equal(editDistance('', 'abc'), 3);
  assert.equal(editDistance('same', 'same'), 0);
});

test('closestName suggests a near name (case ignored) and nothing for a far or one-letter one', () => {
  const keys = ['chunkers', 'chunkerParams', 'k', 'poolSize', 'tau'];
  assert.equal(closestName('chunkr', keys), 'chunkers');
  assert.equal(closestName('poolsize', keys), 'poolSize');
  assert.equal(closestName('K', keys), 'k');
  assert.equal(closestName('x', keys), undefined);
  assert.equal(closestName('bm25', keys), undefined);
  assert.equal(closestName('k', keys), undefined); // the name itself is not a suggestion
});
