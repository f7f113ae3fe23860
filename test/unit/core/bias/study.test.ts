/**
 * The chunk-ID bias study (SPEC §7.5) on a hand-computed two-chunker, two-question case, the IoU
 * rule, and the run-directory reader on the shared FastAPI set when a kept-chunks run is at hand.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { relevantChunks, runBiasStudy, spanIou, biasStudyMarkdown, type BiasInput } from '../../../../src/core/bias';
import { isSpanproofError } from '../../../../src/core/errors';

const s = (start: number, end: number, source = 'd.md') => ({ source, start, end });

// Document d.md, length 100. Chunker A: [0,50) [50,100). Chunker B: [0,30) [30,60) [60,100).
// q1 evidence [10,20): A's [0,50) and B's [0,30) hold it. q2 evidence [45,55): only B's [30,60) holds it (A splits it 5/5).
const input: BiasInput = {
  questions: [{ id: 'q1', match: 'all', spans: [s(10, 20)] }, { id: 'q2', match: 'all', spans: [s(45, 55)] }],
  chunks: { A: [s(0, 50), s(50, 100)], B: [s(0, 30), s(30, 60), s(60, 100)] },
  lists: [
    { question: 'q1', config: 'A/bm25/none', chunker: 'A', results: [s(0, 50), s(50, 100)] },
    { question: 'q1', config: 'B/bm25/none', chunker: 'B', results: [s(0, 30), s(60, 100)] },
    { question: 'q2', config: 'A/bm25/none', chunker: 'A', results: [s(50, 100), s(0, 50)] },
    { question: 'q2', config: 'B/bm25/none', chunker: 'B', results: [s(30, 60), s(0, 30)] },
  ],
  k: 1,
  tau: 0.9,
  resamples: 200,
  seed: 7,
};

test('spanIou and relevantChunks: hand values', () => {
  assert.equal(spanIou(s(0, 50), s(0, 30)), 30 / 50);
  assert.equal(spanIou(s(50, 100), s(30, 60)), 10 / 70);
  assert.equal(spanIou(s(0, 10), s(0, 10, 'other.md')), 0);
  assert.equal(spanIou(s(5, 9), s(5, 9)), 1);
  assert.deepEqual(relevantChunks(input.questions[1], input.chunks.A, 0.9), []);
  assert.deepEqual(relevantChunks(input.questions[1], input.chunks.B, 0.9), [s(30, 60)]);
  assert.deepEqual(relevantChunks(input.questions[1], input.chunks.A, 0.5), [s(0, 50), s(50, 100)]);
});

test('runBiasStudy: author rotation, θ sweep, advantages and bias equal the hand calculation', () => {
  const st = runBiasStudy(input);
  assert.deepEqual(st.chunkers, ['A', 'B']);
  const [a, b] = st.authors;
  // Author A labels only q1 (q2 is split across A's chunks)
  assert.equal(a.questions, 1);
  assert.deepEqual(a.unlabelled, ['q2']);
  const rowA = (cfg: string) => a.configs.find((r) => r.config === cfg)!;
  assert.equal(rowA('A/bm25/none').id['1'].mean, 1);
  assert.equal(rowA('B/bm25/none').id['1'].mean, 0, 'B\'s [0,30) is not A\'s [0,50)');
  assert.equal(rowA('B/bm25/none').id['0.7'].mean, 0, 'IoU 0.6 < 0.7');
  assert.equal(rowA('B/bm25/none').id['0.5'].mean, 1, 'IoU 0.6 ≥ 0.5');
  assert.equal(rowA('B/bm25/none').span.mean, 1, 'by span both configs answer q1');
  assert.equal(a.spanAdvantage.mean, 0);
  assert.equal(a.idAdvantage['1'].mean, 1);
  assert.equal(a.idAdvantage['0.5'].mean, 0);
  assert.equal(a.bias['1'].mean, 1);
  assert.equal(a.bias['1'].significant, true);
  // Author B labels both: span B [1,1] vs A [1,0]; ID θ=1 B [1,1] vs A [0,0]; θ=0.5 A [1,0]
  assert.equal(b.questions, 2);
  assert.equal(b.meanRelevant, 1);
  assert.equal(b.spanAdvantage.mean, 0.5);
  assert.equal(b.idAdvantage['1'].mean, 1);
  assert.equal(b.idAdvantage['0.5'].mean, 0.5);
  assert.equal(b.bias['1'].mean, 0.5);
  assert.equal(b.bias['0.5'].mean, 0);
  assert.equal(b.bias['0.5'].significant, false);
  const md = biasStudyMarkdown(st);
  assert.match(md, /\| A \| 1 \| 1 \| \+1\.000 \[1\.000, 1\.000\] \* \| \+0\.000 \[0\.000, 0\.000\] \| \+1\.000 \[1\.000, 1\.000\] \* \|/);
});

test('runBiasStudy: a missing result list is left out (not a miss); no chunks is a clear error', () => {
  const st = runBiasStudy({ ...input, lists: input.lists.filter((l) => !(l.question === 'q2' && l.config === 'A/bm25/none')) });
  assert.equal(st.missingLists, 1);
  const b = st.authors[1];
  assert.equal(b.spanAdvantage.mean, 0, 'q2 has no A list: its advantage is over B alone → undefined for the others, left out');
  assert.throws(() => runBiasStudy({ ...input, chunks: {} }), (e: unknown) => isSpanproofError(e) && /--keep-chunks/.test(e.message));
});
