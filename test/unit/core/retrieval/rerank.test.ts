import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rerankPool, rerankCacheKey, type RerankScorer } from '../../../../src/core/retrieval/index';
import { sha256Hex } from '../../../../src/core/corpus/index';
import { chunksOf } from '../../../helpers/retrieval';

/** Test input: a deterministic scorer — score = occurrences of the query's first word; records its calls. */
function countingScorer(id = 'count-v1'): RerankScorer & { calls: string[][] } {
  const calls: string[][] = [];
  return {
    id,
    calls,
    async score(query, passages) {
      calls.push([...passages]);
      const w = query.split(' ')[0];
      return Float32Array.from(passages, (p) => p.split(w).length - 1);
    },
  };
}

const CHUNKS = chunksOf(['apple', 'apple apple apple', 'pear', 'apple apple', 'apple pear apple']);

test('rerankPool scores the whole pool and re-orders it by reranker score; ties keep pool order', async () => {
  const scorer = countingScorer();
  const pool = [0, 2, 1, 4, 3].map((chunk, i) => ({ chunk, score: 10 - i }));
  const out = await rerankPool('apple', pool, CHUNKS, scorer);
  // scores: chunk0 1, chunk2 0, chunk1 3, chunk4 2, chunk3 2 → 1 (3), 4 (2, earlier in pool), 3 (2), 0 (1), 2 (0)
  assert.deepEqual(out, [{ chunk: 1, score: 3 }, { chunk: 4, score: 2 }, { chunk: 3, score: 2 }, { chunk: 0, score: 1 }, { chunk: 2, score: 0 }]);
  assert.equal(scorer.calls.length, 1);
  assert.equal(scorer.calls[0].length, 5);
  assert.deepEqual(await rerankPool('apple', [], CHUNKS, scorer), []);
});

test('rerankPool cache: keys are (scorer id, query, sha256(text)); hits are not re-scored', async () => {
  const scorer = countingScorer();
  const cache = new Map<string, number>();
  const pool = [0, 1, 2].map((chunk) => ({ chunk, score: 0 }));
  await rerankPool('apple', pool, CHUNKS, scorer, cache);
  assert.equal(cache.size, 3);
  assert.equal(cache.get(rerankCacheKey('count-v1', 'apple', 'apple apple apple')), 3);
  assert.equal(rerankCacheKey('s', 'q', 't'), `s\n${sha256Hex('q')}\n${sha256Hex('t')}`);
  // same query, overlapping pool: only the new chunk is scored
  const again = await rerankPool('apple', [1, 3, 0].map((chunk) => ({ chunk, score: 0 })), CHUNKS, scorer, cache);
  assert.deepEqual(scorer.calls, [['apple', 'apple apple apple', 'pear'], ['apple apple']]);
  assert.deepEqual(again.map((x) => x.chunk), [1, 3, 0]);
  // a different query or a different scorer id misses
  await rerankPool('pear', pool, CHUNKS, scorer, cache);
  assert.equal(scorer.calls.length, 3);
  await rerankPool('apple', pool, CHUNKS, countingScorer('count-v2'), cache);
  assert.equal(cache.size, 3 + 1 + 3 + 3);
  // identical texts share a cache entry even under another chunk index
  const twins = chunksOf(['kiwi', 'kiwi']);
  const s2 = countingScorer();
  await rerankPool('kiwi', [{ chunk: 0, score: 0 }], twins, s2, cache);
  await rerankPool('kiwi', [{ chunk: 1, score: 0 }], twins, s2, cache);
  assert.equal(s2.calls.length, 1);
});

test('rerankPool rejects out-of-range chunks and a scorer returning the wrong count', async () => {
  await assert.rejects(rerankPool('a', [{ chunk: 9, score: 0 }], CHUNKS, countingScorer()), /pool names chunk 9/);
  const bad: RerankScorer = { id: 'bad', score: async () => new Float32Array(1) };
  await assert.rejects(rerankPool('a', [{ chunk: 0, score: 0 }, { chunk: 1, score: 0 }], CHUNKS, bad), /returned 1 scores for 2/);
});
