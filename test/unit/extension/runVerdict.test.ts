// A run's verdict for the status bar / CodeLens / Test Explorer (src/extension/runVerdict.ts), from either
// ranking.json format (format 1: an array with a `recommended` flag; format 2: SPEC §9 v2 object).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { runVerdict } from '../../../src/extension/runVerdict';

test('format 1: the flagged entry is recommended, rank 1 is the top, no evidence status', () => {
  const v = runVerdict([
    { id: 'b/bm25/none', rank: 2, recommended: true },
    { id: 'a/dense/rerank', rank: 1, recommended: false },
  ]);
  assert.deepEqual(v, { recommended: 'b/bm25/none', status: null, summary: null, top: 'a/dense/rerank' });
});

test('format 2: the verdict object decides, with its status and summary', () => {
  const v = runVerdict({
    spanproof: 2,
    primaryMetric: 'hit@5',
    k: 5,
    verdict: { recommended: 'heading/hybrid/none', best: 'heading/hybrid/rerank', status: 'provisional', summary: 'Use heading/hybrid/none …' },
    configs: [{ id: 'heading/hybrid/none', rank: 2 }, { id: 'heading/hybrid/rerank', rank: 1 }],
  });
  assert.deepEqual(v, { recommended: 'heading/hybrid/none', status: 'provisional', summary: 'Use heading/hybrid/none …', top: 'heading/hybrid/rerank' });
});

test('no ranking (a failed or cancelled run): nothing recommended', () => {
  assert.deepEqual(runVerdict(null), { recommended: null, status: null, summary: null, top: null });
  assert.deepEqual(runVerdict([]), { recommended: null, status: null, summary: null, top: null });
});

test('a run read by readRun (format-1 view of the ranking plus the v2 verdict object): the verdict object decides', () => {
  const v = runVerdict([{ id: 'a/bm25/none', rank: 1, recommended: false }, { id: 'b/bm25/none', rank: 2, recommended: true }], {
    recommended: 'b/bm25/none', best: 'a/bm25/none', status: 'decisive', summary: 'Use b/bm25/none.',
  });
  assert.deepEqual(v, { recommended: 'b/bm25/none', status: 'decisive', summary: 'Use b/bm25/none.', top: 'a/bm25/none' });
});
