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

/**
 * Opens the caches under `cacheDir` for the run's embedder (token counts, embeddings) and reranker (pair scores).
 * `sharedFiles: false` (a chunker thread, ./parallel.ts): the run-wide files — pair scores and token
 * counts — are read but neither written nor reported by this instance (the host's instance does both).
 */
export function openRunCaches(cacheDir: string, embedder: TextEmbedder, reranker: PairScorer | null, resident?: ResidentState, opts: { sharedFiles?: boolean } = {}): RunCaches {
  const shared = opts.sharedFiles !== false;
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
      if (shared) rerank?.flush();
      chunks.flush();
      if (shared) tokenCounts.flush();
    },
    notices: () => [...chunks.notices, ...notices, ...embeddings.notices, ...(shared ? [rerank?.takeNotice(), tokenCounts.takeNotice()] : [])].filter((n): n is string => typeof n === 'string'),
  };
}
