/**
 * The chunk-embedding matrix of one chunker, through the embedding cache's packs (./embedding-pack.ts):
 * documents whose entry is valid are read, all the others are embedded in ONE embedder call (good
 * batching), then stored per document in their packs.
 */
import type { Chunk } from '../types';
import { SpanproofError } from '../errors';
import type { EmbeddingCache } from './embeddings';
import { EmbeddingPack } from './embedding-pack';
import type { EmbedProgress } from '../models/types';

/** One distinct document (hash and chunk texts) and the chunk rows of each of its copies. */
interface DistinctDoc {
  sha: string;
  texts: string[];
  rows: number[][];
}

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
 * Every distinct document's chunk texts go to the embedder in one call (without a cache: all of them;
 * with one: those without a valid entry); copies of a document share its rows. `onProgress` goes to
 * the embedder (rows of the texts it computes).
 * Throws SpanproofError('invariant') when a chunk's source has no document hash.
 */
export async function embedChunksCached(chunks: readonly Chunk[], docSha: ReadonlyMap<string, string>, chunkerKey: string,
  embedder: ChunkEmbedder, cache?: EmbeddingCache, onProgress?: EmbedProgress): Promise<Float32Array> {
  const dim = embedder.dim;
  const out = new Float32Array(chunks.length * dim);
  if (chunks.length === 0) return out;
  // group chunk indexes by source (any order of chunks works), then identical documents (same hash,
  // same chunk texts) together: each is embedded once and its rows copied to every copy, so copies
  // get the same vectors however the batch around them looks — as a warm run, which reads them from
  // one cache entry, gives them (a fresh user's finding: 2000 copies of a corpus ranked differently
  // cold and warm through ties broken by last-bit differences).
  const groups = new Map<string, number[]>();
  chunks.forEach((c, i) => {
    let g = groups.get(c.source);
    if (!g) groups.set(c.source, (g = []));
    g.push(i);
  });
  const docs: DistinctDoc[] = [];
  const bySha = new Map<string, DistinctDoc[]>();
  for (const [source, idx] of groups) {
    const sha = docSha.get(source);
    if (!sha) throw new SpanproofError('invariant', `no document hash for chunk source ${source}.`, { file: source });
    const texts = idx.map((i) => chunks[i].text);
    let same = bySha.get(sha);
    if (!same) bySha.set(sha, (same = []));
    const doc = same.find((d) => d.texts.length === texts.length && d.texts.every((t, j) => t === texts[j]));
    if (doc) doc.rows.push(idx);
    else {
      const d: DistinctDoc = { sha, texts, rows: [idx] };
      same.push(d);
      docs.push(d);
    }
  }
  const place = (d: DistinctDoc, v: Float32Array) => {
    for (const idx of d.rows) idx.forEach((row, j) => out.set(v.subarray(j * dim, (j + 1) * dim), row * dim));
  };
  const pack = cache ? new EmbeddingPack(cache, chunkerKey, embedder.id, dim) : null;
  const missing: DistinctDoc[] = [];
  for (const d of docs) {
    const v = pack?.get(d.sha, d.texts);
    if (v) {
      cache!.stats.hits += d.rows.length;
      place(d, v);
    } else {
      if (cache) cache.stats.misses += d.rows.length;
      missing.push(d);
    }
  }
  if (missing.length > 0) {
    const all = missing.flatMap((m) => m.texts);
    if (cache) cache.stats.computedTexts += all.length;
    const v = await embedder.embed(all, onProgress);
    if (v.length !== all.length * dim) throw new SpanproofError('invariant', `embedder ${embedder.id} returned ${v.length} floats for ${all.length} × ${dim}.`);
    let at = 0;
    for (const m of missing) {
      const part = v.subarray(at * dim, (at + m.texts.length) * dim);
      place(m, part);
      pack?.put(m.sha, m.texts, part);
      at += m.texts.length;
    }
  }
  pack?.flush();
  return out;
}
