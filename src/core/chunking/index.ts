/**
 * Chunking (SPEC §4): five offset-exact chunkers. Every chunker is a deterministic function of
 * (document, params) whose chunks
 * - are in document order (start, then end, ascending) with ids `<source>#<start>-<end>`;
 * - satisfy `doc.text.slice(start, end) === text` (checked on every chunk by `chunkCorpus`);
 * - cover every non-whitespace UTF-16 code unit of the document;
 * - never split a surrogate pair or a CRLF pair;
 * - are trimmed of surrounding whitespace (whitespace-only chunks are dropped).
 * All sizes and offsets are UTF-16 code units. Behaviour of each chunker: docs/chunkers.md.
 */
import { SpanproofError } from '../errors';
import type { Chunk, ChunkerId, CorpusDocument } from '../types';
import type { ChunkerParams } from '../settings';
import { CHUNKER_IDS } from '../settings/schema';
import { fixedRanges } from './fixed';
import { headingChunkRanges } from './heading';
import { assertChunkInvariants } from './invariants';
import { validateChunkerParams } from './params';
import { rangesToChunks, type Range } from './ranges';
import { recursiveRanges } from './recursive';
import { semanticChunkRanges, type EmbedFn } from './semantic';
import { sentenceChunkRanges } from './sentence';

export type { EmbedFn } from './semantic';
export { assertChunkInvariants } from './invariants';
export { chunkerConfigKey, chunkIndexKey, validateChunkerParams, CHUNKER_ALGORITHM_VERSION } from './params';
export { isMarkdownSource } from './heading';
export { percentileLinear } from './semantic';

/** The chunkers that need no embedder. */
export type SyncChunkerId = 'fixed' | 'recursive' | 'sentence' | 'heading';

/** Every built-in chunker id, in the default grid's order (defined by the settings schema). */
export { CHUNKER_IDS };

/** True when `id` names a built-in chunker. */
export function isChunkerId(id: string): id is ChunkerId {
  return (CHUNKER_IDS as readonly string[]).includes(id);
}

function rawRanges(doc: CorpusDocument, chunker: SyncChunkerId, params: ChunkerParams): Range[] {
  const text = doc.text;
  switch (chunker) {
    case 'fixed':
      return fixedRanges(text, params.fixed.size, params.fixed.overlap);
    case 'recursive':
      return recursiveRanges(text, { start: 0, end: text.length }, params.recursive.size, params.recursive.overlap);
    case 'sentence':
      return sentenceChunkRanges(text, params.sentence.size);
    case 'heading':
      return headingChunkRanges(doc.source, text, params.heading.maxSize);
  }
}

/**
 * Chunks one document with a chunker that needs no embedder. Pure and deterministic.
 * Throws SpanproofError('bad-input') for unusable params (e.g. overlap ≥ size), naming the
 * `chunkerParams.<id>.<key>` field; does not check invariants (`chunkCorpus` does).
 */
export function chunkDocument(doc: CorpusDocument, chunker: SyncChunkerId, params: ChunkerParams): Chunk[] {
  if (chunker === ('semantic' as string)) {
    throw new SpanproofError('internal', 'the semantic chunker needs an embedder: call semanticChunkDocument.');
  }
  validateChunkerParams(chunker, params);
  return rangesToChunks(doc.source, doc.text, rawRanges(doc, chunker, params));
}

/**
 * Chunks one document with the `semantic` chunker. `embed` is called once per document with every
 * sentence window (none for documents of 0 or 1 sentences); `dim` is the embedder's vector size.
 * Throws SpanproofError('bad-input') for unusable params, SpanproofError('model') when the embedder
 * returns the wrong number of values, and whatever `embed` throws.
 */
export async function semanticChunkDocument(doc: CorpusDocument, params: ChunkerParams['semantic'], embed: EmbedFn, dim: number): Promise<Chunk[]> {
  validateChunkerParams('semantic', { semantic: params } as ChunkerParams);
  return rangesToChunks(doc.source, doc.text, await semanticChunkRanges(doc.text, params, embed, dim, doc.source));
}

/**
 * Chunks every document with one chunker and checks the invariants of every chunk. Chunks are
 * concatenated in the order of `docs` (the corpus loader sorts them by source), then by start.
 * `semantic` needs `embed` (SpanproofError('bad-input') otherwise). A broken invariant aborts with
 * SpanproofError('invariant') naming the source and offsets.
 */
export async function chunkCorpus(
  docs: readonly CorpusDocument[],
  chunker: ChunkerId,
  params: ChunkerParams,
  embed?: { fn: EmbedFn; dim: number },
): Promise<Chunk[]> {
  validateChunkerParams(chunker, params);
  if (chunker === 'semantic' && !embed) {
    throw new SpanproofError('bad-input', 'the semantic chunker needs an embedding model.', {
      field: 'chunkers',
      fix: 'provide an embedder, or leave "semantic" out of the chunkers.',
    });
  }
  const out: Chunk[] = [];
  for (const doc of docs) {
    const chunks =
      chunker === 'semantic' ? await semanticChunkDocument(doc, params.semantic, embed!.fn, embed!.dim) : chunkDocument(doc, chunker, params);
    assertChunkInvariants(doc, chunks, chunker);
    for (const c of chunks) out.push(c);
  }
  return out;
}
