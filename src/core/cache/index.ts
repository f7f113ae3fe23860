/**
 * The disk cache (issue 3): content-addressed, under `<workspace>/.spanproof/cache` (or the
 * extension's storage / the user cache dir when the workspace is read-only — `resolveCacheDir` in
 * src/core/runs). Everything in it can be deleted at any time; it is rebuilt.
 *
 * - {@link EmbeddingCache}: chunk embeddings per (document SHA-256, chunker config key, embedder id);
 *   editing one document re-embeds only that document's chunks. Binary float32 + JSON header, atomic.
 * - {@link embedChunksCached}: the chunk matrix of one chunker through that cache, one embed call for
 *   all misses.
 * - {@link PersistentRerankCache}: reranker pair scores, one file per scorer.
 * - {@link TokenCountCache}: context token counts of result intervals, one file per embedder.
 * - {@link loadOrBuildBm25} / {@link loadOrBuildBm25Async}: BM25 indexes keyed by the hash of their
 *   chunk texts (the grid engine reads them back in warm runs instead of re-tokenising every chunk).
 * - {@link Bm25PoolCache}: the BM25 candidate lists of each question per index, so a warm run of the
 *   same questions neither reads the index back nor searches it.
 * - {@link cacheSizeReport}, {@link clearCache}.
 */
export { EmbeddingCache, textsSha, slugOf, QUESTION_SET_KEY, QUESTION_SETS_KEPT, type EmbeddingCacheStats } from './embeddings';
export { EmbeddingPack } from './embedding-pack';
export { embedChunksCached, type ChunkEmbedder } from './embed-chunks';
export { PersistentRerankCache, PersistentNumberMap, TokenCountCache, RERANK_CACHE_MAX, TOKEN_COUNT_CACHE_MAX, numberMapChecksum } from './rerank-scores';
export { cacheSizeReport, clearCache, type CacheSizeReport } from './report';
export { loadOrBuildBm25, loadOrBuildBm25Async, bm25CacheKey, BM25_CACHE_KEEP, type Bm25CacheResult } from './bm25';
export { Bm25PoolCache, DensePoolCache, densePoolKey, BM25_POOLS_MAX } from './bm25-pools';
