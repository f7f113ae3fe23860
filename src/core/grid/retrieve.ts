/**
 * Stage "retrieve": the candidate pools of one chunker's retrievers for every question at once,
 * through the one candidate-pool function (src/core/retrieval `candidatePools`). The question
 * embeddings are computed once per run (for every chunker) and passed in.
 */
import type { Chunk, RetrieverId } from '../types';
import type { ResolvedQuestion } from '../groundtruth';
import { candidatePools, type RetrieverPools } from '../retrieval';
import type { ChunkerIndexes } from './indexing';

export interface RetrieveInput {
  chunks: readonly Chunk[];
  indexes: ChunkerIndexes;
  retrievers: readonly RetrieverId[];
  questions: readonly ResolvedQuestion[];
  /** Pool size N. */
  poolSize: number;
  /** The questions' embeddings (questions × dim); empty when no retriever is dense. */
  queryVectors: Float32Array;
  /** ms of question embedding per question, counted in the dense and hybrid latency. */
  queryEmbedMsPer: number;
  threads: number;
  /** Awaited after each BM25 query (progress and cancel). */
  onQuery?: () => Promise<void>;
}

/** The pools of every requested retriever, `pools.get(r).lists[qi]` for question qi. */
export async function retrieveStage(input: RetrieveInput): Promise<Map<RetrieverId, RetrieverPools>> {
  return candidatePools(
    { chunks: input.chunks, bm25: input.indexes.bm25, bm25Lists: input.indexes.bm25Lists, dense: input.indexes.dense, denseLists: input.indexes.denseLists },
    {
      retrievers: input.retrievers,
      queries: input.questions.map((q) => q.question),
      n: input.poolSize,
      queryVectors: input.queryVectors,
      queryEmbedMsPer: input.queryEmbedMsPer,
      threads: input.threads,
      onQuery: input.onQuery,
    },
  );
}
