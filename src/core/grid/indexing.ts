/**
 * Stage "index" — the ONE place the indexes of a chunker's chunks are built, for the grid run and
 * `spanproof query`: the BM25 index (MiniSearch, through the disk cache `<cacheDir>/bm25/` when a
 * cache folder is given) and the dense index (the chunk embeddings, through the embedding cache when
 * given). The chunk embedding is started first: onnxruntime runs the session off the JS thread, so
 * the BM25 build (in slices that yield for progress and cancel) overlaps it.
 *
 * A cancel during the BM25 build first waits for the embedding in flight (its session must not be
 * released under it), then stops; after the build there is no cancellation point until the
 * embedding has settled.
 */
import { performance } from 'node:perf_hooks';
import type { Chunk, ChunkerId } from '../types';
import type { TextEmbedder } from '../models';
import { Bm25Index, DenseIndex, type Bm25BuildOptions } from '../retrieval';
import { Bm25PoolCache, DensePoolCache, bm25CacheKey, densePoolKey, embedChunksCached, loadOrBuildBm25Async, type EmbeddingCache } from '../cache';
import type { RunProgress } from './progress';
import type { StageMemo } from './types';

export interface IndexInput {
  chunks: Chunk[];
  chunker: ChunkerId;
  needsBm25: boolean;
  needsDense: boolean;
  /** Required when `needsDense`. */
  embedder: TextEmbedder | null;
  /** `chunkIndexKey(chunker, params, embedder id)`: the embedding cache's chunker key. */
  key: string;
  /** Source → document SHA-256 (the embedding cache is per document). */
  docSha: ReadonlyMap<string, string>;
  /** BM25 disk cache root; no BM25 cache when absent. */
  cacheDir?: string;
  /** Receives one line per cache file that could not be used (damaged or edited: rebuilt). */
  notices?: string[];
  embeddings?: EmbeddingCache;
  /** Indexes already built for these chunks (a resident worker's memo): reused, not rebuilt. */
  memo?: StageMemo;
  progress: RunProgress;
  /** Work units of the embedding (moved by the embedder's batches; all of them when nothing is embedded); default 1. */
  embedUnits?: number;
  /**
   * The questions the indexes will be searched for, and the pool size: with a cache folder, when
   * the BM25 list cache remembers all of them the index is neither read nor built (`bm25` is null
   * and `bm25Lists` answers); when the dense list cache remembers all of them the chunk embeddings
   * are neither read nor computed (`dense` is null and `denseLists` answers).
   */
  queries?: { texts: readonly string[]; n: number };
}

export interface ChunkerIndexes {
  bm25: Bm25Index | null;
  /** The BM25 list cache of these chunks (with a cache folder and BM25 needed), to search through and flush after retrieval. */
  bm25Lists?: Bm25PoolCache | null;
  dense: DenseIndex | null;
  /** The dense list cache of these chunks and this embedder (with a cache folder and dense needed), flushed after retrieval. */
  denseLists?: DensePoolCache | null;
  /** Wall time of the BM25 build (or read). */
  bm25Ms: number;
  /** Wall time until both indexes are ready (the embedding overlaps the BM25 build). */
  embedMs: number;
}

function startEmbedding(input: IndexInput, part: ReturnType<RunProgress['part']>, listed: boolean): Promise<Float32Array> | null {
  if (!input.needsDense || input.memo?.dense || listed) return null;
  const emb = input.embedder!;
  const onProgress = (done: number, total: number): Promise<void> => (part.to(total > 0 ? done / total : 1), input.progress.tick());
  const p = embedChunksCached(input.chunks, input.docSha, input.key, emb, input.embeddings, onProgress);
  p.catch(() => undefined); // awaited below; avoid an unhandled rejection if BM25 throws first
  return p;
}

/**
 * Builds (or reads, or reuses) the indexes a chunker's configs need.
 * @throws SpanproofError('cancelled') on a cancel during the BM25 build; the embedder's and the index's errors.
 */
export async function indexStage(input: IndexInput): Promise<ChunkerIndexes> {
  const t = performance.now();
  const embedded = input.progress.part(input.embedUnits ?? 1);
  const q = input.queries;
  const chunksKey = input.cacheDir && (input.needsBm25 || input.needsDense) ? bm25CacheKey(input.chunks) : '';
  let denseLists: DensePoolCache | null = null;
  if (input.needsDense && input.cacheDir) {
    denseLists = DensePoolCache.open(input.cacheDir, densePoolKey(chunksKey, input.embedder!.id), input.chunks.length);
    if (denseLists.notice) input.notices?.push(denseLists.notice);
  }
  const listed = denseLists !== null && q !== undefined && q.texts.length > 0 && q.texts.every((t) => denseLists!.has(t, q.n));
  const matrix = startEmbedding(input, embedded, listed);
  const tb = performance.now();
  let bm25: Bm25Index | null = null;
  let bm25Lists: Bm25PoolCache | null = null;
  if (input.needsBm25) {
    try {
      const opts: Bm25BuildOptions = { onYield: () => input.progress.tick() };
      if (input.cacheDir) {
        bm25Lists = Bm25PoolCache.open(input.cacheDir, chunksKey, input.chunks.length);
        if (bm25Lists.notice) input.notices?.push(bm25Lists.notice);
      }
      if (input.memo?.bm25) bm25 = input.memo.bm25;
      else if (bm25Lists && q && q.texts.every((t) => bm25Lists!.has(t, q.n))) bm25 = null; // every list is remembered
      else if (input.cacheDir) {
        const got = await loadOrBuildBm25Async(input.chunks, input.cacheDir, opts);
        if (got.notice) input.notices?.push(got.notice);
        bm25 = got.index;
      } else bm25 = await Bm25Index.buildAsync(input.chunks, opts);
    } catch (e) {
      await matrix?.catch(() => undefined);
      throw e;
    }
  }
  const bm25Ms = performance.now() - tb;
  input.progress.advanceWithoutYield(0, `embed:${input.chunker}`);
  const dense = input.needsDense ? (input.memo?.dense ?? (matrix ? new DenseIndex(await matrix, input.embedder!.dim) : null)) : null;
  embedded.finish();
  return { bm25, bm25Lists, dense, denseLists, bm25Ms, embedMs: performance.now() - t };
}
