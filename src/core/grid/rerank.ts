/**
 * Stage "rerank": one question's candidate pool reordered by the cross-encoder (or the MaxSim
 * baseline), pair scores through the run's pair cache (src/core/retrieval `rerankPool`).
 */
import { performance } from 'node:perf_hooks';
import type { Chunk } from '../types';
import type { PairScorer } from '../models';
import { rerankPool, type Hit, type RerankCache } from '../retrieval';

export interface RerankOutput {
  /** The whole pool, best first by the reranker's score. */
  final: Hit[];
  ms: number;
}

/** Reranks `pool` for `question`. Throws SpanproofError('invariant') when the pool names an unknown chunk or the scorer miscounts. */
export async function rerankStage(question: string, pool: readonly Hit[], chunks: readonly Chunk[], reranker: PairScorer, cache: RerankCache): Promise<RerankOutput> {
  const t = performance.now();
  const final = await rerankPool(question, pool, chunks, reranker, cache);
  return { final, ms: performance.now() - t };
}
