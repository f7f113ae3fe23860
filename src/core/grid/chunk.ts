/**
 * Stage "chunk": one chunker over every document (SPEC §4), document by document through the chunk
 * cache (src/core/grid/chunkCache.ts, keyed by the document's SHA-256 and `chunkIndexKey`), so a warm
 * run re-parses nothing. Documents are chunked in corpus order; the chunks are concatenated in that
 * order (the chunk indexes every later stage refers to).
 */
import { performance } from 'node:perf_hooks';
import type { Chunk, ChunkerId, CorpusDocument } from '../types';
import type { ChunkerParams } from '../settings';
import type { TextEmbedder } from '../models';
import { chunkCorpus } from '../chunking';

/** The chunk cache as the stage uses it (src/core/grid/chunkCache.ts `ChunkCache` satisfies it). */
export interface ChunkStore {
  /** Chunks of one document under a chunk-index key; null when absent. */
  getChunks(doc: CorpusDocument, key: string): Chunk[] | null;
  putChunks(doc: CorpusDocument, key: string, chunks: Chunk[]): void;
}

export interface ChunkInput {
  documents: readonly CorpusDocument[];
  chunker: ChunkerId;
  params: ChunkerParams;
  /** `chunkIndexKey(chunker, params, embedder id)`. */
  key: string;
  /** Needed by `semantic` (it embeds sentence windows). */
  embedder: TextEmbedder | null;
  store?: ChunkStore;
  /** Awaited after each document (progress and cancel). */
  onDocument?: () => Promise<void>;
  /** Called once, before the first document the store does not hold is chunked (a cold run: ./schedule.ts starts the second thread then). */
  onMiss?: () => void;
}

export interface ChunkOutput {
  chunks: Chunk[];
  /** Documents whose chunks came from the store. */
  cachedDocs: number;
  ms: number;
}

/**
 * Chunks every document with `input.chunker`.
 * @throws SpanproofError('invariant') when a chunk breaks the chunk invariants (chunkCorpus checks each); the chunkers' errors.
 */
export async function chunkStage(input: ChunkInput): Promise<ChunkOutput> {
  const t = performance.now();
  const embedder = input.embedder;
  const embed = embedder ? { fn: (texts: readonly string[]) => embedder.embed(texts), dim: embedder.dim } : undefined;
  const chunks: Chunk[] = [];
  let cachedDocs = 0;
  let missed = false;
  for (const doc of input.documents) {
    let got = input.store?.getChunks(doc, input.key) ?? null;
    if (got) cachedDocs++;
    else {
      if (!missed) input.onMiss?.();
      missed = true;
      got = await chunkCorpus([doc], input.chunker, input.params, embed);
      input.store?.putChunks(doc, input.key, got);
    }
    for (const c of got) chunks.push(c);
    await input.onDocument?.();
  }
  return { chunks, cachedDocs, ms: performance.now() - t };
}
