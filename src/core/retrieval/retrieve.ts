/**
 * The candidate pools of SPEC §5.1–5.2, computed in ONE place for every caller: a grid run (all its
 * questions at once, for each chunker) and `spanproof query` (one question, one retriever).
 *
 * - `bm25`: Bm25Index.search, one query at a time (timed per query);
 * - `dense`: the query embeddings (given, or embedded here in one call) searched as one batch;
 * - `hybrid`: Reciprocal Rank Fusion (k = {@link RRF_K}) of the bm25 and dense top-n lists, cut to n.
 * Each base list is computed once however many of the retrievers need it.
 */
import type { Chunk, RetrieverId } from '../types';
import { SpanproofError } from '../errors';
import type { Bm25Index } from './bm25';
import type { DenseIndex } from './dense';
import type { Hit } from './hit';
import { reciprocalRankFusion } from './rrf';

/** What dense retrieval needs from an embedder; the models' `TextEmbedder` satisfies it. */
export interface QueryEmbedder {
  readonly id: string;
  readonly dim: number;
  /** n × dim, rows L2-normalised. */
  embed(texts: readonly string[]): Promise<Float32Array>;
}

/**
 * Remembered candidate lists of one index (a warm run's disk caches, src/core/cache/bm25-pools.ts):
 * `get` answers with exactly what the search for (query, n) returned and the ms it took.
 */
export interface CandidateListCache {
  get(query: string, n: number): { hits: Hit[]; ms: number } | undefined;
  set(query: string, n: number, hits: readonly Hit[], ms: number): void;
}

/**
 * The indexes of one chunker. `bm25` is needed by bm25/hybrid (unless `bm25Lists` answers every
 * query), `dense` (+ `embedder` unless query vectors are given) by dense/hybrid.
 */
export interface RetrievalIndexes {
  readonly chunks: readonly Chunk[];
  readonly bm25?: Bm25Index | null;
  /** Remembered BM25 lists: used before `bm25` is searched, and given every list `bm25` returns. */
  readonly bm25Lists?: CandidateListCache | null;
  /**
   * Remembered exact-dense lists: when they answer EVERY query, `dense` is not searched (and may be
   * null); otherwise all queries are searched as one batch, as without them, and every list is given to it.
   */
  readonly denseLists?: CandidateListCache | null;
  readonly dense?: DenseIndex | null;
  readonly embedder?: QueryEmbedder;
}

/** Default candidate pool size N (SPEC §5.2). */
export const DEFAULT_POOL = 20;
/** RRF constant k (SPEC §5.1). */
export const RRF_K = 60;

/** What to retrieve: which pools, for which queries, how many candidates. */
export interface PoolRequest {
  retrievers: readonly RetrieverId[];
  queries: readonly string[];
  /** Pool size N. */
  n: number;
  /** The queries' embeddings (queries.length × dim), e.g. embedded once for every chunker of a run; embedded here when absent. */
  queryVectors?: Float32Array;
  /** ms of query embedding per query done by the caller, added to the dense and hybrid latency. */
  queryEmbedMsPer?: number;
  /** onnxruntime intra-op threads for the batch dense search (default 2). */
  threads?: number;
  /** Awaited after each BM25 query (a run yields to the event loop there for progress and cancel). */
  onQuery?: () => Promise<void>;
}

/** The pools of one retriever: `lists[q]` best first (≤ n hits), `ms[q]` the query's retrieval time (ms, batch time shared evenly). */
export interface RetrieverPools {
  lists: Hit[][];
  ms: number[];
}

async function bm25Pools(idx: RetrievalIndexes, req: PoolRequest): Promise<RetrieverPools> {
  const out: RetrieverPools = { lists: [], ms: [] };
  for (const q of req.queries) {
    const known = idx.bm25Lists?.get(q, req.n);
    if (known) {
      out.lists.push(known.hits);
      out.ms.push(known.ms);
      continue;
    }
    if (!idx.bm25) throw new SpanproofError('invariant', `retriever ${req.retrievers.join('/')} needs a BM25 index.`);
    const t = performance.now();
    const hits = idx.bm25.search(q, req.n);
    const ms = performance.now() - t;
    out.lists.push(hits);
    out.ms.push(ms);
    idx.bm25Lists?.set(q, req.n, hits, ms);
    await req.onQuery?.();
  }
  return out;
}

async function densePools(idx: RetrievalIndexes, req: PoolRequest): Promise<RetrieverPools> {
  if (idx.denseLists && req.queries.length > 0) {
    const known = req.queries.map((q) => idx.denseLists!.get(q, req.n));
    if (known.every((k) => k !== undefined)) {
      return { lists: known.map((k) => k!.hits), ms: known.map((k) => k!.ms + (req.queryEmbedMsPer ?? 0)) };
    }
  }
  if (!idx.dense || (!req.queryVectors && !idx.embedder)) throw new SpanproofError('invariant', `retriever ${req.retrievers.join('/')} needs a dense index and an embedder.`);
  if (req.queries.length === 0) return { lists: [], ms: [] };
  const t = performance.now();
  const qv = req.queryVectors ?? (await idx.embedder!.embed(req.queries));
  const lists = await idx.dense.searchBatchAsync(qv, req.n, { threads: req.threads });
  const per = (performance.now() - t) / req.queries.length;
  if (idx.denseLists) req.queries.forEach((q, i) => idx.denseLists!.set(q, req.n, lists[i], per));
  return { lists, ms: lists.map(() => per + (req.queryEmbedMsPer ?? 0)) };
}

/**
 * The candidate pool (top `n`, best first) of each requested retriever for each query.
 * @returns a map retriever → pools, in the order of `req.retrievers`.
 * @throws SpanproofError('invariant') when an index a retriever needs is missing; ('bad-input') for an unknown retriever.
 */
export async function candidatePools(idx: RetrievalIndexes, req: PoolRequest): Promise<Map<RetrieverId, RetrieverPools>> {
  for (const r of req.retrievers) {
    if (r !== 'bm25' && r !== 'dense' && r !== 'hybrid') throw new SpanproofError('bad-input', `unknown retriever "${String(r)}".`, { field: 'retriever', fix: 'Use bm25, dense or hybrid.' });
  }
  const wants = (k: 'lexical' | 'dense') => req.retrievers.some((r) => r === 'hybrid' || (k === 'lexical' ? r === 'bm25' : r === 'dense'));
  const lexical = wants('lexical') ? await bm25Pools(idx, req) : null;
  const dense = wants('dense') ? await densePools(idx, req) : null;
  const out = new Map<RetrieverId, RetrieverPools>();
  for (const r of req.retrievers) {
    if (r === 'bm25') out.set(r, lexical!);
    else if (r === 'dense') out.set(r, dense!);
    else {
      const hybrid: RetrieverPools = { lists: [], ms: [] };
      lexical!.lists.forEach((l, qi) => {
        const t = performance.now();
        hybrid.lists.push(reciprocalRankFusion([l, dense!.lists[qi]], req.n, RRF_K));
        hybrid.ms.push(lexical!.ms[qi] + dense!.ms[qi] + (performance.now() - t));
      });
      out.set(r, hybrid);
    }
  }
  return out;
}

/**
 * The candidate pools of one retriever (a {@link candidatePools} shorthand).
 * @param opts.threads onnxruntime intra-op threads for the batch dense search (default 2).
 */
export async function retrievePools(retriever: RetrieverId, queries: readonly string[], n: number, idx: RetrievalIndexes, opts: { threads?: number } = {}): Promise<Hit[][]> {
  return (await candidatePools(idx, { retrievers: [retriever], queries, n, threads: opts.threads })).get(retriever)!.lists;
}
