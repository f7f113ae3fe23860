import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Bm25Index, DenseIndex, retrievePools, reciprocalRankFusion, type QueryEmbedder } from '../../../../src/core/retrieval/index';
import { chunksOf } from '../../../helpers/retrieval';

/** Test input: a 4-d bag-of-topics embedder (counts of cat/dog/fish/bird words, L2-normalised; zero row when none). */
const TOPICS = ['cat', 'dog', 'fish', 'bird'];
const embedder: QueryEmbedder = {
  id: 'test:topics', dim: 4,
  async embed(texts) {
    const out = new Float32Array(texts.length * 4);
    texts.forEach((t, i) => {
      const v = TOPICS.map((w) => t.toLowerCase().split(/\W+/).filter((x) => x.startsWith(w)).length);
      const n = Math.hypot(...v) || 1;
      v.forEach((x, j) => { out[i * 4 + j] = x / n; });
    });
    return out;
  },
};

const CHUNKS = chunksOf(['cats and dogs', 'a fish tank', 'birds sing', 'dogs bark at cats', 'catfish recipes', 'a dog and a fish']);

async function indexes() {
  return { chunks: CHUNKS, bm25: Bm25Index.build(CHUNKS), dense: new DenseIndex(await embedder.embed(CHUNKS.map((c) => c.text)), 4), embedder };
}

test('retrievePools: bm25 and dense equal their indexes; hybrid is RRF (k = 60) of both top-n lists', async () => {
  const idx = await indexes();
  const qs = ['dog fish', 'cats'];
  const bm = await retrievePools('bm25', qs, 3, idx);
  assert.deepEqual(bm, qs.map((q) => idx.bm25.search(q, 3)));
  const de = await retrievePools('dense', qs, 3, idx);
  const qv = await embedder.embed(qs);
  assert.deepEqual(de, idx.dense.searchBatch(qv, 3));
  // "dog fish" → [0.707, 0.707] on (dog, fish): chunk 5 "a dog and a fish" scores 1, chunks 1/3/0 ≈ 0.707…
  assert.equal(de[0][0].chunk, 5);
  const hy = await retrievePools('hybrid', qs, 3, idx);
  assert.deepEqual(hy, qs.map((_, i) => reciprocalRankFusion([bm[i], de[i]], 3, 60)));
  assert.deepEqual(await retrievePools('dense', [], 3, idx), []);
});

test('retrievePools refuses a missing index and an unknown retriever', async () => {
  await assert.rejects(retrievePools('bm25', ['x'], 3, { chunks: CHUNKS }), /needs a BM25 index/);
  await assert.rejects(retrievePools('dense', ['x'], 3, { chunks: CHUNKS, bm25: Bm25Index.build(CHUNKS) }), /needs a dense index and an embedder/);
  await assert.rejects(retrievePools('nope' as 'bm25', ['x'], 3, await indexes()), /unknown retriever "nope"/);
});
