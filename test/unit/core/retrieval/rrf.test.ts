import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reciprocalRankFusion } from '../../../../src/core/retrieval/index';

const h = (...chunks: number[]) => chunks.map((chunk, i) => ({ chunk, score: 100 - i }));

test('RRF: Σ 1/(60 + rank), ranks 1-based, hand-computed (Cormack, Clarke & Büttcher 2009)', () => {
  // A = [1, 2, 3], B = [3, 1, 4]
  // 1: 1/61 + 1/62 = 0.0325224748810153     3: 1/63 + 1/61 = 0.03226645849596669
  // 2: 1/62 = 0.016129032258064516          4: 1/63 = 0.015873015873015872
  const fused = reciprocalRankFusion([h(1, 2, 3), h(3, 1, 4)], 10);
  assert.deepEqual(fused.map((x) => x.chunk), [1, 3, 2, 4]);
  const want = [1 / 61 + 1 / 62, 1 / 63 + 1 / 61, 1 / 62, 1 / 63];
  fused.forEach((x, i) => assert.ok(Math.abs(x.score - want[i]) < 1e-15));
  assert.ok(Math.abs(fused[0].score - 0.0325224748810153) < 1e-15);
  // cut to n
  assert.deepEqual(reciprocalRankFusion([h(1, 2, 3), h(3, 1, 4)], 2).map((x) => x.chunk), [1, 3]);
  // another k: k = 0 gives 1/rank
  const k0 = reciprocalRankFusion([h(1, 2), h(2)], 5, 0);
  assert.deepEqual(k0, [{ chunk: 2, score: 1 / 2 + 1 }, { chunk: 1, score: 1 }]);
});

test('RRF ties are broken by ascending chunk index; input scores are ignored; duplicates count once', () => {
  assert.deepEqual(reciprocalRankFusion([h(7), h(5)], 5).map((x) => x.chunk), [5, 7]);
  assert.deepEqual(reciprocalRankFusion([h(5), h(7)], 5).map((x) => x.chunk), [5, 7]);
  const dup = reciprocalRankFusion([[{ chunk: 4, score: 1 }, { chunk: 4, score: 0 }]], 5);
  assert.deepEqual(dup, [{ chunk: 4, score: 1 / 61 }]);
  assert.deepEqual(reciprocalRankFusion([], 5), []);
  assert.deepEqual(reciprocalRankFusion([h(1)], 0), []);
});
