/**
 * Where drafted questions get their CodeLens and decoration: resolved evidence of drafts only, in the
 * document asked for (issue #14 §6).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveGroundTruth, type GroundTruthFile } from '../../../src/core/groundtruth';
import { draftTargets } from '../../../src/extension/draftTargets';

const A = 'Alpha text that is long enough to quote here.\nBeta sentence, also long enough to quote.\n';
const gt: GroundTruthFile = {
  spanproof: 1,
  questions: [
    { id: 'hand', question: 'h?', evidence: [{ source: 'a.md', exact: 'Alpha text that is long' }] },
    { id: 'd1', question: 'd1?', status: 'draft', evidence: [{ source: 'a.md', exact: 'Beta sentence, also long', reanchored: { quote: 'Beta  sentence, also long', normalised: ['whitespace'] } }, { source: 'b.md', exact: 'not in the corpus at all' }] },
    { id: 'd2', question: 'd2?', status: 'draft', evidence: [{ source: 'a.md', exact: 'this quote is stale now' }] },
  ],
};

test('draftTargets: resolved evidence of drafts in the given document only, with re-anchored marked', () => {
  const res = resolveGroundTruth(gt, (s) => (s === 'a.md' ? A : undefined));
  assert.deepEqual(draftTargets(gt, res, 'a.md'), [{ id: 'd1', question: 'd1?', index: 0, start: A.indexOf('Beta'), end: A.indexOf('Beta') + 'Beta sentence, also long'.length, reanchored: true }]);
  assert.deepEqual(draftTargets(gt, res, 'b.md'), []);
  assert.deepEqual(draftTargets(null, null, 'a.md'), []);
});
