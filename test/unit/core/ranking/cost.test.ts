// Deterministic cost (SPEC §9): context at k + model passes weighted by parameter count.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareQuality, costText, deterministicCosts, dominantCause, latencySummary, paretoFront } from '../../../../src/core/ranking';

const models = { embedderParameters: 5_000_200, rerankerParameters: 22_713_601, poolSize: 20 };

test('BM25 makes no model call; dense/hybrid embed the query once; a reranker scores the pool', () => {
  const [bm25, dense, hybridRr, named, ext] = deterministicCosts([
    { retriever: 'bm25', rerank: false, contextChars: 3000, contextTokens: 700 },
    { retriever: 'dense', rerank: false, contextChars: 3000, contextTokens: 710 },
    { retriever: 'hybrid', rerank: true, contextChars: 3000, contextTokens: 720 },
    { retriever: 'dense:minilm', rerank: false, contextChars: 3000, contextTokens: 730 },
    { retriever: 'external/mine', rerank: false, contextChars: 3000, contextTokens: 740 },
  ], { ...models, embedderParametersByName: { minilm: 22_000_000 } });
  assert.deepEqual(bm25, { context: 700, contextUnit: 'tokens', queryEmbeddings: 0, rerankPasses: 0, compute: 0, total: 700 });
  assert.equal(dense.compute, 5.0002);
  assert.equal(dense.total, 715.0002);
  // 5.0002 + 20 × 22.713601 = 459.27222
  assert.ok(Math.abs(hybridRr.compute - 459.27222) < 1e-9);
  assert.equal(hybridRr.rerankPasses, 20);
  assert.equal(named.compute, 22);
  assert.equal(ext.compute, 0);
  assert.equal(costText(bm25), 'context 700 tokens + compute 0 (no model call) = 700.0 per query');
  assert.match(costText(hybridRr), /^context 720 tokens \+ compute 459\.3 \(1 query embedding, 20 reranker passes, in million-parameter passes\) = 1179\.3 per query$/);
});

test('characters for every config when any config lacks a token count', () => {
  const cs = deterministicCosts([{ retriever: 'bm25', rerank: false, contextChars: 3000, contextTokens: 700 }, { retriever: 'bm25', rerank: false, contextChars: 2000 }], models);
  assert.deepEqual(cs.map((c) => [c.context, c.contextUnit]), [[3000, 'characters'], [2000, 'characters']]);
});

test('quality order: Q, then MRR, then nDCG, then cost, then id; NaN last', () => {
  const k = (id: string, quality: number, mrr: number, ndcg: number, cost: number) => ({ id, quality, mrr, ndcg, cost });
  const xs = [k('e', NaN, 1, 1, 0), k('d', 0.8, 0.5, 0.5, 10), k('c', 0.8, 0.5, 0.5, 10), k('b', 0.8, 0.5, 0.6, 99), k('a', 0.8, 0.6, 0.1, 99), k('f', 0.9, 0, 0, 1e9), k('g', 0.8, 0.5, 0.5, 5)];
  assert.deepEqual(xs.sort(compareQuality).map((x) => x.id), ['f', 'a', 'b', 'g', 'c', 'd', 'e']);
});

test('Pareto front over quality, context and compute', () => {
  assert.deepEqual(paretoFront([
    { quality: 0.8, context: 100, compute: 0 }, // front
    { quality: 0.8, context: 100, compute: 5 }, // dominated by the first
    { quality: 0.9, context: 300, compute: 400 }, // front: best quality
    { quality: 0.5, context: 50, compute: 5 }, // front: least context
    { quality: 0.8, context: 100, compute: 0 }, // equal to the first → front
  ]), [true, false, true, true, true]);
});

test('dominant cause: most frequent, ties by attribution order; null without misses', () => {
  assert.deepEqual(dominantCause({ 'ranked-too-low': 3, 'retriever-missed': 3, 'chunker-degraded': 1 }), { cause: 'retriever-missed', count: 3, misses: 7, advice: 'the retriever (or embedder) did not find it: different retriever/model, hybrid' });
  assert.equal(dominantCause({}), null);
});

test('latency summary: median and IQR (type 7)', () => {
  // sorted 1 2 3 4 10: median 3, p25 at h = 1 → 2, p75 at h = 3 → 4
  assert.deepEqual(latencySummary([10, 2, 1, 4, 3, NaN]), { medianMs: 3, p25Ms: 2, p75Ms: 4, n: 5 });
});
