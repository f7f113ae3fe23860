/**
 * The `semantic` chunker (Kamradt): percentile arithmetic, breakpoints, size bounds, one embed call
 * per document. The embedder is a hashed bag of words (support.ts), chosen so that distances are
 * known by hand: two windows sharing one of two words each have cosine 1/2, disjoint ones 0.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { percentileLinear, semanticChunkDocument } from '../../../../src/core/chunking';
import { isSpanproofError } from '../../../../src/core/errors';
import { doc, hashedBagOfWords } from '../../../helpers/chunking';

test('percentileLinear matches numpy.percentile (method="linear")', () => {
  // np.percentile([1,2,3,4], 95): h = 3·0.95 = 2.85 → 3 + 0.85·(4 − 3) = 3.85
  assert.ok(Math.abs(percentileLinear([4, 1, 3, 2], 95) - 3.85) < 1e-12);
  // np.percentile([0.1, 0.5, 0.2], 50) = 0.2; p = 0 → min; p = 100 → max
  assert.equal(percentileLinear([0.1, 0.5, 0.2], 50), 0.2);
  assert.equal(percentileLinear([0.1, 0.5, 0.2], 0), 0.1);
  assert.equal(percentileLinear([0.1, 0.5, 0.2], 100), 0.5);
  // np.percentile([0, 10], 25) = 2.5
  assert.equal(percentileLinear([0, 10], 25), 2.5);
  assert.ok(Number.isNaN(percentileLinear([], 95)));
});

const TEXT = 'Cats purr. Cats nap. Stocks fell. Stocks rose.';
// Sentences [0,10) [11,20) [21,33) [34,46). With windowSentences 0 each window is one sentence:
// cos(cats purr, cats nap) = 1/2, cos(cats nap, stocks fell) = 0, cos(stocks fell, stocks rose) = 1/2
// → distances [0.5, 1, 0.5]; 50th percentile = 0.5; cut only where d > 0.5: after "Cats nap.".

test('semantic: cuts where the neighbour distance exceeds the percentile', async () => {
  const e = hashedBagOfWords(1024);
  const chunks = await semanticChunkDocument(doc(TEXT), { minSize: 0, maxSize: 1000, percentile: 50, windowSentences: 0 }, e.fn, e.dim);
  assert.deepEqual(chunks.map((c) => [c.start, c.end, c.text]), [[0, 20, 'Cats purr. Cats nap.'], [21, 46, 'Stocks fell. Stocks rose.']]);
  assert.deepEqual(e.calls, [['Cats purr.', 'Cats nap.', 'Stocks fell.', 'Stocks rose.']]);
  // At the 95th percentile the threshold is 0.5 + ... : h = 2·0.95 = 1.9 over [0.5, 0.5, 1] → 0.5 + 0.9·0.5 = 0.95 < 1 → same cut.
  const p95 = await semanticChunkDocument(doc(TEXT), { minSize: 0, maxSize: 1000, percentile: 95, windowSentences: 0 }, e.fn, e.dim);
  assert.equal(p95.length, 2);
  // At the 100th percentile the threshold is the maximum: nothing exceeds it, one chunk.
  const p100 = await semanticChunkDocument(doc(TEXT), { minSize: 0, maxSize: 1000, percentile: 100, windowSentences: 0 }, e.fn, e.dim);
  assert.deepEqual(p100.map((c) => c.text), [TEXT]);
});

test('semantic: windows take windowSentences neighbours on each side, in one embed call', async () => {
  const e = hashedBagOfWords(1024);
  await semanticChunkDocument(doc(TEXT), { minSize: 0, maxSize: 1000, percentile: 95, windowSentences: 1 }, e.fn, e.dim);
  assert.deepEqual(e.calls, [['Cats purr. Cats nap.', 'Cats purr. Cats nap. Stocks fell.', 'Cats nap. Stocks fell. Stocks rose.', 'Stocks fell. Stocks rose.']]);
});

test('semantic: pieces shorter than minSize merge forward; pieces longer than maxSize are split', async () => {
  const e = hashedBagOfWords(1024);
  // minSize 21: "Cats purr. Cats nap." (20) < 21 absorbs the next piece (46 ≤ 1000) → one chunk.
  const merged = await semanticChunkDocument(doc(TEXT), { minSize: 21, maxSize: 1000, percentile: 50, windowSentences: 0 }, e.fn, e.dim);
  assert.deepEqual(merged.map((c) => c.text), [TEXT]);
  // minSize 21 but maxSize 40: merging would give 46 > 40, so both pieces stay.
  const kept = await semanticChunkDocument(doc(TEXT), { minSize: 21, maxSize: 40, percentile: 50, windowSentences: 0 }, e.fn, e.dim);
  assert.equal(kept.length, 2);
  // maxSize 12: each piece (20 and 25 units) is split with recursive at 12 (overlap 6). On ". ":
  // "Cats purr. "(11) + "Cats nap."(9) > 12 → two chunks. "Stocks fell. "(13) is ≥ 12 (the kept
  // separator counts) → re-split on " ": "Stocks "(7) + "fell. "(6) = 13 > 12 → two chunks;
  // "Stocks rose."(12) is not < 12 → re-split on " " and re-merged: 7 + 5 = 12 ≤ 12 → one chunk.
  const split = await semanticChunkDocument(doc(TEXT), { minSize: 0, maxSize: 12, percentile: 50, windowSentences: 0 }, e.fn, e.dim);
  for (const c of split) assert.ok(c.end - c.start <= 12, c.text);
  assert.deepEqual(split.map((c) => c.text), ['Cats purr.', 'Cats nap.', 'Stocks', 'fell.', 'Stocks rose.']);
});

test('semantic: documents of 0 or 1 sentence need no embedding; a wrong-sized embedding is a model error', async () => {
  const e = hashedBagOfWords(16);
  assert.deepEqual(await semanticChunkDocument(doc(' \n '), { minSize: 0, maxSize: 100, percentile: 95, windowSentences: 1 }, e.fn, e.dim), []);
  assert.deepEqual((await semanticChunkDocument(doc('One sentence only'), { minSize: 0, maxSize: 100, percentile: 95, windowSentences: 1 }, e.fn, e.dim)).map((c) => c.text), ['One sentence only']);
  assert.equal(e.calls.length, 0);
  await assert.rejects(
    semanticChunkDocument(doc(TEXT, 'bad.md'), { minSize: 0, maxSize: 100, percentile: 95, windowSentences: 1 }, async () => new Float32Array(3), 16),
    (err: unknown) => isSpanproofError(err) && err.code === 'model' && /bad\.md/.test(err.message),
  );
});
