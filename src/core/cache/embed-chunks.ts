/**
 * The chunk-embedding matrix of one chunker, through the embedding cache: documents whose entry is
 * valid are read, all the others are embedded in ONE embedder call (good batching), then stored per
 * document.
 */
import type { Chunk } from '../types';
import { SpanproofError } from '../errors';
import type { EmbeddingCache } from './embeddings';
import type { EmbedProgress } from '../models/types';

/** What this needs from an embedder; the models' `TextEmbedder` satisfies it. */
export interface ChunkEmbedder {
  readonly id: string;
  readonly dim: number;
  embed(texts: readonly string[], onProgress?: EmbedProgress): Promise<Float32Array>;
}

/**
 * Returns the chunks.length × embedder.dim matrix (row i = chunks[i]) of L2-normalised embeddings.
 * `docSha` maps a chunk's source to its document's SHA-256 (CorpusDocument.sha256).
 * `chunkerKey` is `chunkerConfigKey(...)` (for `semantic`, include the embedder id in it too).
 * Without a cache, embeds every chunk text in one call. `onProgress` goes to the embedder (rows of the texts it computes).
 * Throws SpanproofError('invariant') when a chunk's source has no document hash.
 */
export async function embedChunksCached(chunks: readonly Chunk[], docSha: ReadonlyMap<string, string>, chunkerKey: string,
  embedder: ChunkEmbedder, cache?: EmbeddingCache, onProgress?: EmbedProgress): Promise<Float32Array> {
  const dim = embedder.dim;
  const out = new Float32Array(chunks.length * dim);
  if (chunks.length === 0) return out;
  if (!cache) {
    out.set(await embedder.embed(chunks.map((c) => c.text), onProgress));
    return out;
  }
  // group chunk indexes by source (any order of chunks works)
  const groups = new Map<string, number[]>();
  chunks.forEach((c, i) => {
    let g = groups.get(c.source);
    if (!g) groups.set(c.source, (g = []));
    g.push(i);
  });
  const missing: Array<{ sha: string; idx: number[]; texts: string[] }> = [];
  for (const [source, idx] of groups) {
    const sha = docSha.get(source);
    if (!sha) throw new SpanproofError('invariant', `no document hash for chunk source ${source}.`, { file: source });
    const texts = idx.map((i) => chunks[i].text);
    const v = cache.read(sha, chunkerKey, embedder.id, texts, dim);
    if (v) {
      cache.stats.hits++;
      idx.forEach((row, j) => out.set(v.subarray(j * dim, (j + 1) * dim), row * dim));
    } else {
      cache.stats.misses++;
      missing.push({ sha, idx, texts });
    }
  }
  if (missing.length > 0) {
    const all = missing.flatMap((m) => m.texts);
    cache.stats.computedTexts += all.length;
    const v = await embedder.embed(all, onProgress);
    if (v.length !== all.length * dim) throw new SpanproofError('invariant', `embedder ${embedder.id} returned ${v.length} floats for ${all.length} × ${dim}.`);
    let at = 0;
    for (const m of missing) {
      const part = v.slice(at * dim, (at + m.texts.length) * dim);
      m.idx.forEach((row, j) => out.set(part.subarray(j * dim, (j + 1) * dim), row * dim));
      cache.write(m.sha, chunkerKey, embedder.id, m.texts, dim, part);
      at += m.texts.length;
    }
  }
  return out;
}
