/**
 * Retrieval (SPEC §5.1, §5.2): the `bm25`, `dense` and `hybrid` retrievers and pool reranking.
 *
 * Every retriever returns {@link Hit}s — indexes into ONE chunker's chunk array (the chunkers return
 * it sorted by (source, start)) with a score — best first, ties broken by ascending chunk index,
 * so results are deterministic. Definitions and measured speeds: docs/retrieval.md.
 *
 * - {@link Bm25Index}: MiniSearch, BM25 k1 = 1.2, b = 0.75 (no BM25+ delta), IDF ln(1 + (N − n + 0.5)/(n + 0.5)),
 *   document length = distinct tokens (MiniSearch); tokens = `Intl.Segmenter` word segments, lower-cased.
 * - {@link DenseIndex}: exact dot product over every chunk (no ANN), top-N with a bounded heap;
 *   `searchBatchAsync` uses an onnxruntime Gemm → TopK graph for large batches, same results.
 * - {@link reciprocalRankFusion}: Σ 1/(k + rank), k = 60, ranks 1-based (Cormack, Clarke & Büttcher 2009).
 * - {@link rerankPool}: scores the whole pool with a pair scorer, cached by (scorer id, query, sha256(chunk text)).
 * - {@link candidatePools}: the ONE candidate-pool function (every retriever of a chunker, a batch of queries);
 *   {@link retrievePools} is its one-retriever shorthand.
 */
export { compareHits, type Hit } from './hit';
export { TopN } from './topk';
export { Bm25Index, bm25Tokens, bm25TokensUnsplit, BM25_PARAMS, type Bm25BuildOptions } from './bm25';
export { dotRow } from './dot';
export { DenseIndex, ORT_COLD_MIN_WORK, ORT_MIN_WORK } from './dense';
export { buildDenseTopKModel, disposeDenseOrt, denseOrtStats } from './dense-ort';
export { reciprocalRankFusion } from './rrf';
export { rerankPool, rerankCacheKey, type RerankCache, type RerankScorer } from './rerank';
export { candidatePools, retrievePools, DEFAULT_POOL, RRF_K, type PoolRequest, type RetrieverPools, type QueryEmbedder, type RetrievalIndexes, type CandidateListCache } from './retrieve';
