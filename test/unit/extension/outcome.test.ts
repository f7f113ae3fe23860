// A question's outcome as the editor shows it (src/extension/testing/outcome.ts): hit at the run's real k,
// and a miss explained with cause, advice, best chunk and the cut. Records are built by hand here with the
// fields a run writes (questions.jsonl, src/core/grid/run.ts); expected texts are written out.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { coverageAt, describeOutcome, hitAt, verdictOf } from '../../../src/extension/testing/outcome';
import type { QuestionRecord } from '../../../src/core/runs';

const base = (over: Partial<QuestionRecord>): QuestionRecord => ({
  question: 'fa-d-008', config: 'fixed/bm25/none', status: 'ok', results: [], pool: [], 'coverage@5': 1, 'hit@5': 1, rr: 1, cause: null, ...over,
});

test('hit is read at the run\'s k: with k = 10 the record\'s hit@10 decides, not hit@5', () => {
  // k = 10: the grid writes hit@5 (always) plus hit@10 / coverage@10 (src/core/grid/run.ts).
  const r = base({ k: 10, 'hit@5': 0, 'coverage@5': 0.2, 'hit@10': 1, 'coverage@10': 0.9 });
  assert.equal(hitAt(r, 10), 1);
  assert.equal(coverageAt(r, 10), 0.9);
  assert.equal(verdictOf(r, 10), 'passed');
  // The record's own k wins over the caller's default.
  assert.equal(hitAt(r, 5), 1);
  const at5 = base({ 'hit@5': 0, 'coverage@5': 0.2, cause: 'ranked-too-low' });
  assert.equal(verdictOf(at5, 5), 'failed');
});

test('a failed item is errored, with its error', () => {
  const r = base({ status: 'failed', 'hit@5': null, 'coverage@5': null, error: 'fault injected' });
  const o = describeOutcome(r, 5, 0.5, 'recommended config');
  assert.equal(o.verdict, 'errored');
  assert.equal(o.summary, 'failed to score in fixed/bm25/none: fault injected');
});

test('a hit says so with coverage at k', () => {
  const o = describeOutcome(base({ 'coverage@5': 0.875 }), 5, 0.5, 'recommended config');
  assert.equal(o.verdict, 'passed');
  assert.equal(o.markdown, '**Hit** in `fixed/bm25/none` (recommended config; k = 5, τ = 0.5): the top 5 results hold at least τ of the evidence · coverage@5 = 0.88.');
  assert.equal(o.at, null);
});

test('a miss names cause, advice, the best chunk with its ranks, and where the cut fell, at the deciding span', () => {
  const r = base({
    'hit@5': 0,
    'coverage@5': 0.25,
    cause: 'chunker-degraded',
    miss: {
      evidence: { source: 'tutorial/body.md', start: 718, end: 885 },
      spanIndex: 0,
      bestChunk: { chunk: 3, id: 'c3', source: 'tutorial/body.md', start: 600, end: 800, coverage: 82 / 167 },
      charsBefore: 0,
      charsAfter: 85,
      neighbour: { chunk: 4, id: 'c4', source: 'tutorial/body.md', start: 800, end: 1000, side: 'after', pairCoverage: 1 },
      bestChunkRank: 7,
      bestChunkPoolRank: 2,
      coverageAtK: 0.25,
    },
  });
  const o = describeOutcome(r, 5, 0.5, 'recommended config');
  assert.equal(o.verdict, 'failed');
  assert.equal(o.summary, 'miss: chunker-degraded in fixed/bm25/none');
  assert.deepEqual(o.at, { source: 'tutorial/body.md', start: 718, end: 885 });
  // 82 / 167 = 0.491… → 0.49; 7 > k = 5.
  assert.equal(
    o.markdown,
    [
      '**Miss — chunker-degraded** in `fixed/bm25/none` (recommended config; k = 5, τ = 0.5) · coverage@5 = 0.25',
      '',
      'The evidence was split across a boundary: larger chunks, overlap, or structure-aware chunking.',
      '',
      'Best chunk `tutorial/body.md` [600, 800) covers 0.49 of the evidence `tutorial/body.md` [718, 885), rank 7 of the result list (below k = 5) (retriever\'s rank 2).',
      '',
      'Where the cut fell: 0 evidence characters before the chunk, 85 after; the chunk after it holds the rest (the pair covers 1.00).',
    ].join('\n'),
  );
});

test('a ranked-too-low miss whose best chunk holds the whole span says the cut fell nowhere', () => {
  const r = base({
    'hit@5': 0, 'coverage@5': 0, cause: 'ranked-too-low',
    miss: { evidence: { source: 'a.md', start: 1092, end: 1286 }, spanIndex: 0, bestChunk: { chunk: 2, id: 'c2', source: 'a.md', start: 800, end: 1291, coverage: 1 }, charsBefore: 0, charsAfter: 0, neighbour: null, bestChunkRank: 14, bestChunkPoolRank: 14, coverageAtK: 0 },
  });
  const o = describeOutcome(r, 5, 0.9, 'recommended config');
  assert.match(o.markdown, /rank 14 of the result list \(below k = 5\) \(retriever's rank 14\)\./);
  assert.match(o.markdown, /Where the cut fell: nowhere — the chunk holds the whole evidence\.$/);
});

test('a miss with no chunk touching the evidence says so', () => {
  const r = base({
    'hit@5': 0, 'coverage@5': 0, cause: 'chunker-destroyed',
    miss: { evidence: { source: 'a.md', start: 0, end: 40 }, spanIndex: 0, bestChunk: null, charsBefore: 40, charsAfter: 0, neighbour: null, bestChunkRank: null, bestChunkPoolRank: null, coverageAtK: 0 },
  });
  const o = describeOutcome(r, 5, 0.5, 'rank 1 of this run');
  assert.match(o.markdown, /^\*\*Miss — chunker-destroyed\*\* in `fixed\/bm25\/none` \(rank 1 of this run; k = 5, τ = 0.5\)/);
  assert.match(o.markdown, /No chunk of the index touches the evidence `a\.md` \[0, 40\)\.$/);
});
