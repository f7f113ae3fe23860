/**
 * One query against one configuration `<chunker>/<retriever>/<rerank|none>` (SPEC §11 `query`):
 * load the corpus, load the models, chunk, build the retriever's index, take the candidate pool of
 * N, rerank it when asked, return the top k — through the same stage functions as a grid run
 * (./models.ts, ./chunk.ts, ./indexing.ts, src/core/retrieval `candidatePools`, ./rerank.ts), with
 * the disk caches under `cacheDir`. Fully offline.
 */
import type { Chunk, ChunkerId, RankedSpan, RetrieverId } from '../types';
import type { RunSettings } from '../settings';
import { SpanproofError } from '../errors';
import { loadCorpus } from '../corpus';
import { chunkIndexKey } from '../chunking';
import { EmbeddingCache, PersistentRerankCache } from '../cache';
import { candidatePools, disposeDenseOrt, type Hit } from '../retrieval';
import { ChunkCache } from './chunkCache';
import { chunkStage } from './chunk';
import { indexStage } from './indexing';
import { loadRunModels } from './models';
import { configId } from './plan';
import { RunProgress } from './progress';
import { rerankStage } from './rerank';

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
  /** Cache root (e.g. `resolveCacheDir(workspace)`); no disk cache when absent (endpoint models need one). */
  cacheDir?: string;
  /** API key of `settings.modelEndpoint.url` (endpoint models; in memory only). */
  apiKey?: string;
}

function rows(hits: readonly Hit[], chunks: readonly Chunk[]): QueryResultRow[] {
  return hits.map((h, i) => {
    const c = chunks[h.chunk];
    return { rank: i + 1, source: c.source, start: c.start, end: c.end, score: h.score, text: c.text };
  });
}

/** k and the pool size N of a query, checked. Throws SpanproofError('bad-input') naming the option. */
function checkQuery(p: QueryParams): { k: number; n: number } {
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
  return { k, n };
}

/**
 * Answers one query with the grid's own stages (models, chunk, index, candidate pools, rerank), so
 * a query returns exactly what the same config returns in a run.
 * Throws SpanproofError('bad-input') for an empty query, k < 1 or pool < k; ('model') when a
 * configured model folder is unusable; whatever corpus loading and chunking throw.
 */
export async function runQuery(p: QueryParams): Promise<QueryAnswer> {
  const { k, n } = checkQuery(p);
  const s = p.settings;
  const corpus = await loadCorpus(p.workspace, { include: s.include, exclude: s.exclude, maxFileBytes: s.maxFileBytes });
  const models = await loadRunModels({ settings: s, workspace: p.workspace, needsEmbedder: p.retriever !== 'bm25' || p.chunker === 'semantic', needsReranker: p.rerank, cacheDir: p.cacheDir, apiKey: p.apiKey });
  try {
    const { embedder, reranker } = models;
    const key = chunkIndexKey(p.chunker, s.chunkerParams, embedder?.id ?? '');
    const store = p.cacheDir ? new ChunkCache(p.cacheDir) : undefined;
    const { chunks } = await chunkStage({ documents: corpus.documents, chunker: p.chunker, params: s.chunkerParams, key, embedder, store });
    store?.flush();
    const indexes = await indexStage({
      chunks, chunker: p.chunker, key, embedder, progress: RunProgress.silent(),
      needsBm25: p.retriever !== 'dense', needsDense: p.retriever !== 'bm25',
      docSha: new Map(corpus.documents.map((d) => [d.source, d.sha256])), cacheDir: p.cacheDir, embeddings: p.cacheDir ? new EmbeddingCache(p.cacheDir) : undefined,
    });
    const pools = await candidatePools({ chunks, bm25: indexes.bm25, dense: indexes.dense, embedder: embedder ?? undefined }, { retrievers: [p.retriever], queries: [p.text], n, threads: s.threads });
    const pool = pools.get(p.retriever)!.lists[0];
    let results = pool.slice(0, k);
    if (p.rerank) {
      const cache = p.cacheDir ? PersistentRerankCache.open(p.cacheDir, reranker!.id) : new Map<string, number>();
      results = (await rerankStage(p.text, pool, chunks, reranker!, cache)).final.slice(0, k);
      if (cache instanceof PersistentRerankCache) cache.flush();
    }
    return {
      config: configId(p.chunker, p.retriever, p.rerank),
      results: rows(results, chunks),
      pool: rows(pool, chunks),
      models: { embedder: embedder?.id ?? null, reranker: reranker?.id ?? null, rerankerBaseline: reranker?.baseline ?? false },
      corpus: { documents: corpus.documents.length, skipped: corpus.skipped.length, chunks: chunks.length },
    };
  } finally {
    await models.release();
    await disposeDenseOrt();
  }
}
