/**
 * The three retrievers of SPEC §5.1 behind one call, for a batch of queries (a grid run scores all
 * its questions at once; `spanproof query` passes one).
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

/** The indexes of one chunker. `bm25` is needed by bm25/hybrid, `dense` + `embedder` by dense/hybrid. */
export interface RetrievalIndexes {
  readonly chunks: readonly Chunk[];
  readonly bm25?: Bm25Index;
  readonly dense?: DenseIndex;
  readonly embedder?: QueryEmbedder;
}

/** Default candidate pool size N (SPEC §5.2). */
export const DEFAULT_POOL = 20;
/** RRF constant k (SPEC §5.1). */
export const RRF_K = 60;

/**
 * The candidate pool (top `n`, best first) of `retriever` for each query:
 * `bm25` → Bm25Index.search; `dense` → query embeddings (one embed call) then exact search as one
 * batch; `hybrid` → RRF (k = 60) of the bm25 and dense top-n lists, cut to n.
 * Throws SpanproofError('invariant') when an index the retriever needs is missing.
 * @param opts.threads onnxruntime intra-op threads for the batch dense search (default 2).
 */
export async function retrievePools(retriever: RetrieverId, queries: readonly string[], n: number, idx: RetrievalIndexes, opts: { threads?: number } = {}): Promise<Hit[][]> {
  const lexical = (): Hit[][] => {
    if (!idx.bm25) throw new SpanproofError('invariant', `retriever ${retriever} needs a BM25 index.`);
    return queries.map((q) => idx.bm25!.search(q, n));
  };
  const dense = async (): Promise<Hit[][]> => {
    if (!idx.dense || !idx.embedder) throw new SpanproofError('invariant', `retriever ${retriever} needs a dense index and an embedder.`);
    if (queries.length === 0) return [];
    const qv = await idx.embedder.embed(queries);
    return idx.dense.searchBatchAsync(qv, n, { threads: opts.threads });
  };
  switch (retriever) {
    case 'bm25':
      return lexical();
    case 'dense':
      return dense();
    case 'hybrid': {
      const a = lexical();
      const b = await dense();
      return a.map((l, i) => reciprocalRankFusion([l, b[i]], n, RRF_K));
    }
    default:
      throw new SpanproofError('bad-input', `unknown retriever "${String(retriever)}".`, { field: 'retriever', fix: 'Use bm25, dense or hybrid.' });
  }
}
