/**
 * One query against one configuration `<chunker>/<retriever>/<rerank|none>` (SPEC §11 `query`):
 * load the corpus, chunk it, build the retriever's index (embeddings through the disk cache), take
 * the candidate pool of N, rerank it when asked, return the top k. Fully offline.
 */
import type { Chunk, ChunkerId, RankedSpan, RetrieverId } from '../types';
import type { RunSettings } from '../settings';
import { SpanproofError } from '../errors';
import { loadCorpus } from '../corpus';
import { chunkCorpus, chunkerConfigKey } from '../chunking';
import { createMaxSimReranker, embedderFromSetting, loadCrossEncoderFromFolder, loadEmbedder, type PairScorer, type TextEmbedder } from '../models';
import { EmbeddingCache, PersistentRerankCache, embedChunksCached, loadOrBuildBm25 } from '../cache';
import { Bm25Index } from './bm25';
import { DenseIndex } from './dense';
import { disposeDenseOrt } from './dense-ort';
import type { Hit } from './hit';
import { rerankPool } from './rerank';
import { retrievePools } from './retrieve';

/** One listed chunk, as `spanproof query --json` prints it. Offsets in UTF-16 code units, half-open. */
export interface QueryResultRow extends RankedSpan {
  /** 1-based. */
  rank: number;
  text: string;
}

/** `spanproof query --json` (SPEC §11). */
export interface QueryAnswer {
  /** `<chunker>/<retriever>/<rerank|none>`. */
  config: string;
  /** The final top k: the reranked pool when rerank is on, else the pool's first k. */
  results: QueryResultRow[];
  /** The retriever's candidate pool of N, before reranking. */
  pool: QueryResultRow[];
  /** Ids of the models used (the reranker's marked as a baseline when it is the MaxSim baseline). */
  models: { embedder: string | null; reranker: string | null; rerankerBaseline: boolean };
  /** Documents loaded / skipped, chunks of the chunker. */
  corpus: { documents: number; skipped: number; chunks: number };
}

export interface QueryParams {
  workspace: string;
  chunker: ChunkerId;
  retriever: RetrieverId;
  rerank: boolean;
  text: string;
  /** Result list size; default settings.k. */
  k?: number;
  /** Candidate pool size N; default settings.poolSize. */
  pool?: number;
  settings: RunSettings;
  /** Cache root (e.g. `resolveCacheDir(workspace)`); no disk cache when absent. */
  cacheDir?: string;
}

function rows(hits: readonly Hit[], chunks: readonly Chunk[]): QueryResultRow[] {
  return hits.map((h, i) => {
    const c = chunks[h.chunk];
    return { rank: i + 1, source: c.source, start: c.start, end: c.end, score: h.score, text: c.text };
  });
}

/**
 * Answers one query. Throws SpanproofError('bad-input') for an empty query, k < 1 or pool < k;
 * ('model') when a configured model folder is unusable; whatever corpus loading and chunking throw.
 */
export async function runQuery(p: QueryParams): Promise<QueryAnswer> {
  const k = p.k ?? p.settings.k;
  const n = p.pool ?? p.settings.poolSize;
  if (!p.text.trim()) throw new SpanproofError('bad-input', 'the query text is empty.', { field: 'TEXT', fix: 'pass the question as the last argument.' });
  if (!Number.isInteger(k) || k < 1) throw new SpanproofError('bad-input', `k must be a positive integer, got ${k}.`, { field: '--k' });
  if (!Number.isInteger(n) || n < 1) throw new SpanproofError('bad-input', `the pool size must be a positive integer, got ${n}.`, { field: '--pool' });
  // blame the option the user gave: usually --k (the pool is the default when --pool is absent)
  if (n < k) {
    throw new SpanproofError('bad-input', `--k ${k} is larger than the candidate pool (--pool ${n}${p.pool === undefined ? ', the default' : ''}).`, {
      field: p.pool === undefined ? '--k' : '--k/--pool', fix: 'lower --k or raise --pool.',
    });
  }
  const s = p.settings;
  const corpus = await loadCorpus(p.workspace, { include: s.include, exclude: s.exclude, maxFileBytes: s.maxFileBytes });
  const needsEmbedder = p.retriever !== 'bm25' || p.chunker === 'semantic';
  let embedder: TextEmbedder | undefined;
  let scorer: PairScorer | undefined;
  const opts = { threads: s.threads };
  try {
    if (needsEmbedder) embedder = await loadEmbedder(embedderFromSetting(s.embeddingModel), { ...opts, baseDir: p.workspace });
    const embed = embedder ? { fn: (t: readonly string[]) => embedder!.embed(t), dim: embedder.dim } : undefined;
    const chunks = await chunkCorpus(corpus.documents, p.chunker, s.chunkerParams, embed);
    const bm25 = p.retriever === 'dense' ? undefined : p.cacheDir ? loadOrBuildBm25(chunks, p.cacheDir).index : Bm25Index.build(chunks);
    let dense: DenseIndex | undefined;
    if (p.retriever !== 'bm25' && embedder) {
      let key = chunkerConfigKey(p.chunker, s.chunkerParams);
      if (p.chunker === 'semantic') key += `|${embedder.id}`;
      const docSha = new Map(corpus.documents.map((d) => [d.source, d.sha256]));
      const cache = p.cacheDir ? new EmbeddingCache(p.cacheDir) : undefined;
      dense = new DenseIndex(await embedChunksCached(chunks, docSha, key, embedder, cache), embedder.dim);
    }
    const [pool] = await retrievePools(p.retriever, [p.text], n, { chunks, bm25, dense, embedder }, { threads: s.threads });
    let results = pool.slice(0, k);
    if (p.rerank) {
      scorer = s.rerankerModel ? await loadCrossEncoderFromFolder(s.rerankerModel, opts) : await createMaxSimReranker(opts);
      const cache = p.cacheDir ? PersistentRerankCache.open(p.cacheDir, scorer.id) : undefined;
      results = (await rerankPool(p.text, pool, chunks, scorer, cache)).slice(0, k);
      cache?.flush();
    }
    return {
      config: `${p.chunker}/${p.retriever}/${p.rerank ? 'rerank' : 'none'}`,
      results: rows(results, chunks),
      pool: rows(pool, chunks),
      models: { embedder: embedder?.id ?? null, reranker: scorer?.id ?? null, rerankerBaseline: scorer?.baseline ?? false },
      corpus: { documents: corpus.documents.length, skipped: corpus.skipped.length, chunks: chunks.length },
    };
  } finally {
    await embedder?.dispose();
    await scorer?.dispose();
    await disposeDenseOrt();
  }
}
