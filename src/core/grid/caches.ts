/**
 * The disk caches of a run under one cache folder (SPEC §2: keyed by content hash + component
 * configuration): chunk boundaries, chunk embeddings, BM25 indexes, reranker pair scores and context
 * token counts. A resident worker keeps the pair-score cache (and the stage memo) between requests.
 * `flush()` writes what changed; a read-only disk only loses the cache, never the run.
 */
import { EmbeddingCache, PersistentRerankCache, TokenCountCache } from '../cache';
import type { PairScorer, TextEmbedder } from '../models';
import { ChunkCache } from './chunkCache';
import type { EngineCaches } from './engine';
import type { ResidentState } from './resident';

export interface RunCaches {
  engine: EngineCaches;
  /** Writes the changed cache files. */
  flush(): void;
  /** One line per cache file the run could not use (damaged: rebuilt; newer format: left alone). */
  notices(): string[];
}

/** Opens the caches under `cacheDir` for the run's embedder (token counts, embeddings) and reranker (pair scores). */
export function openRunCaches(cacheDir: string, embedder: TextEmbedder, reranker: PairScorer | null, resident?: ResidentState): RunCaches {
  const chunks = new ChunkCache(cacheDir);
  let rerank: PersistentRerankCache | null = null;
  if (reranker) {
    const key = `${cacheDir}|${reranker.id}`;
    rerank = resident?.rerankCaches.get(key) ?? PersistentRerankCache.open(cacheDir, reranker.id);
    resident?.rerankCaches.set(key, rerank);
  }
  const tokenCounts = TokenCountCache.open(cacheDir, embedder.id);
  const notices: string[] = [];
  const embeddings = new EmbeddingCache(cacheDir);
  return {
    engine: { chunks, embeddings, bm25Dir: cacheDir, notices, rerank: rerank ?? undefined, tokenCounts, stages: resident?.stages },
    flush() {
      rerank?.flush();
      chunks.flush();
      tokenCounts.flush();
    },
    notices: () => [...chunks.notices, ...notices, ...embeddings.notices, rerank?.takeNotice(), tokenCounts.takeNotice()].filter((n): n is string => typeof n === 'string'),
  };
}
