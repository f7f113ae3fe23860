/**
 * Reranking (SPEC §5.2): a pair scorer scores (query, chunk text) for the WHOLE candidate pool and
 * the pool is re-ordered by that score. Pair scores are cached by (scorer id, query, SHA-256 of the
 * chunk text).
 */
import type { Chunk } from '../types';
import { SpanproofError } from '../errors';
import type { Hit } from './hit';
import { sha256Hex } from '../corpus/decode';

/**
 * What reranking needs from a scorer. The models' `PairScorer` (src/core/models: user cross-encoder
 * or the MaxSim baseline) satisfies it structurally.
 */
export interface RerankScorer {
  /** Stable id of the model and its config; part of the cache key. */
  readonly id: string;
  /** One score per passage, higher = more relevant; any scale. */
  score(query: string, passages: readonly string[]): Promise<Float32Array>;
}

/** A pair-score cache (in memory, or persisted per scorer by src/core/cache). */
export interface RerankCache {
  get(key: string): number | undefined;
  set(key: string, v: number): void;
}

/**
 * The cache key of one pair: `<scorer id>\n<sha256(query)>\n<sha256(chunk text)>`. The query is
 * hashed too so keys stay short and newline-free.
 */
export function rerankCacheKey(scorerId: string, query: string, chunkText: string): string {
  return `${scorerId}\n${sha256Hex(query)}\n${sha256Hex(chunkText)}`;
}

/** SHA-256 of each chunk's text, memoised per chunk object (a chunk recurs in many pools). */
const textSha = new WeakMap<Chunk, string>();
function chunkTextSha(c: Chunk): string {
  let h = textSha.get(c);
  if (h === undefined) textSha.set(c, (h = sha256Hex(c.text)));
  return h;
}

/**
 * Scores every hit of `pool` with `scorer` (one `score` call for all cache misses) and returns the
 * pool re-ordered by the reranker score, best first; equal scores keep their pool order (stable).
 * Each returned hit's `score` is the reranker score. Throws SpanproofError('invariant') when a pool
 * hit names a chunk index outside `chunks` or the scorer returns the wrong number of scores.
 */
export async function rerankPool(query: string, pool: readonly Hit[], chunks: readonly Chunk[], scorer: RerankScorer, cache?: RerankCache): Promise<Hit[]> {
  const scores = new Float64Array(pool.length);
  const missIdx: number[] = [];
  const missKeys: string[] = [];
  const qHash = sha256Hex(query);
  pool.forEach((h, i) => {
    const c = chunks[h.chunk];
    if (!c) throw new SpanproofError('invariant', `rerank: pool names chunk ${h.chunk} of ${chunks.length}.`);
    const key = `${scorer.id}\n${qHash}\n${chunkTextSha(c)}`;
    const v = cache?.get(key);
    if (v === undefined) {
      missIdx.push(i);
      missKeys.push(key);
    } else scores[i] = v;
  });
  if (missIdx.length > 0) {
    const got = await scorer.score(query, missIdx.map((i) => chunks[pool[i].chunk].text));
    if (got.length !== missIdx.length) {
      throw new SpanproofError('invariant', `rerank: scorer ${scorer.id} returned ${got.length} scores for ${missIdx.length} passages.`);
    }
    missIdx.forEach((i, j) => {
      scores[i] = got[j];
      cache?.set(missKeys[j], got[j]);
    });
  }
  const key = (i: number) => (Number.isNaN(scores[i]) ? -Infinity : scores[i]); // a NaN score ranks last
  const order = pool.map((_, i) => i);
  order.sort((a, b) => (key(b) > key(a) ? 1 : key(b) < key(a) ? -1 : a - b));
  return order.map((i) => ({ chunk: pool[i].chunk, score: scores[i] }));
}
