/**
 * One query against the configurations `<chunker>/<retriever>/<rerank|none>` of one retriever (SPEC
 * §11 `query`): load the corpus, load the models, chunk, build the retriever's index, take the
 * candidate pool of N, rerank it when asked, return the top k — through the same stage functions as a
 * grid run (./models.ts, ./chunk.ts, ./indexing.ts, src/core/retrieval `candidatePools`, ./rerank.ts),
 * with the disk caches under `cacheDir`. Offline unless an endpoint model is configured.
 *
 * With several embedders (SPEC §5.3) `dense` means every dense retriever of the grid —
 * `dense:<name>` per embedder, the ids of ./plan.ts `planConfigs` — and `dense:<name>` names one.
 */
import type { Chunk, ChunkerId, RankedSpan, RetrieverId } from '../types';
import type { Corpus } from '../corpus';
import type { RunSettings } from '../settings';
import { SpanproofError } from '../errors';
import { loadCorpus } from '../corpus';
import { chunkIndexKey } from '../chunking';
import { EmbeddingCache, PersistentRerankCache } from '../cache';
import { candidatePools, disposeDenseOrt, type Hit } from '../retrieval';
import { ChunkCache } from './chunkCache';
import { chunkStage } from './chunk';
import { indexStage } from './indexing';
import { loadRunModels, type RunModels } from './models';
import { planConfigs, type BuiltinConfigPlan } from './plan';
import { RunProgress } from './progress';
import { RETRIEVER_IDS } from '../settings';
import { rerankStage } from './rerank';

/** One listed chunk, as `spanproof query --json` prints it. Offsets in UTF-16 code units, half-open. */
export interface QueryResultRow extends RankedSpan {
  /** 1-based. */
  rank: number;
  text: string;
}

/** `spanproof query --json` (SPEC §11). */
export interface QueryAnswer {
  /** `<chunker>/<retriever>/<rerank|none>`, the config id a grid run of the same settings gives. */
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
  /**
   * A retriever kind (`bm25`, `dense`, `hybrid`: with several embedders every `dense:<name>` of the
   * grid) or one retriever id of the grid (`dense:use-lite`; with one embedder `dense:<its name>` is
   * its `dense`).
   */
  retriever: RetrieverId | string;
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
  /** Called with one line per cache file that could not be used (damaged or edited: rebuilt; newer: left alone). */
  onNotice?: (line: string) => void;
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
  if (!Number.isInteger(k) || k < 1) throw new SpanproofError('bad-input', `k must be a positive integer, got ${k}.`, { field: '--k', fix: 'pass a whole number from 1, e.g. --k 5.' });
  if (!Number.isInteger(n) || n < 1) throw new SpanproofError('bad-input', `the pool size must be a positive integer, got ${n}.`, { field: '--pool', fix: 'pass a whole number from 1, e.g. --pool 20.' });
  // blame the option the user gave: usually --k (the pool is the default when --pool is absent)
  if (n < k) {
    throw new SpanproofError('bad-input', `--k ${k} is larger than the candidate pool (--pool ${n}${p.pool === undefined ? ', the default' : ''}).`, {
      field: p.pool === undefined ? '--k' : '--k/--pool', fix: 'lower --k or raise --pool.',
    });
  }
  return { k, n };
}

/**
 * The configs a query answers: `chunker` × the grid's retrievers of `retriever` × `rerank`, ids from
 * {@link planConfigs} (so `dense` is one config per embedder with several embedders).
 * @throws SpanproofError('bad-input') for an unknown retriever kind, a `bm25:` name, or an embedder name
 *   the settings do not list (the message lists the grid's retriever ids).
 */
export function queryPlans(p: Pick<QueryParams, 'chunker' | 'retriever' | 'rerank' | 'settings'>): BuiltinConfigPlan[] {
  const sep = p.retriever.indexOf(':');
  const kind = (sep < 0 ? p.retriever : p.retriever.slice(0, sep)) as RetrieverId;
  const name = sep < 0 ? null : p.retriever.slice(sep + 1);
  const ids = (k: RetrieverId) => [...new Set(planConfigs({ ...p.settings, chunkers: [p.chunker], retrievers: [k], rerank: [p.rerank] }).map((c) => c.retriever))];
  const known = () => [...new Set([...RETRIEVER_IDS, ...RETRIEVER_IDS.flatMap(ids)])].join(', ');
  if (!(RETRIEVER_IDS as readonly string[]).includes(kind) || (name !== null && kind === 'bm25')) {
    throw new SpanproofError('bad-input', `unknown retriever "${p.retriever}".`, { field: '--retriever', fix: `use one of ${known()}.` });
  }
  const plans = planConfigs({ ...p.settings, chunkers: [p.chunker], retrievers: [kind], rerank: [p.rerank] });
  if (name === null) return plans;
  const named = plans.filter((c) => c.embedder === name);
  if (!named.length) throw new SpanproofError('bad-input', `the embedders of these settings have no "${name}" (retriever "${p.retriever}").`, { field: '--retriever', fix: `use one of ${known()}, or list the embedder with --embedders.` });
  return named;
}

/** The chunks of the query's chunker, keyed like a grid run's (the first embedder's id). */
async function queryChunks(p: QueryParams, corpus: Corpus, embedder: RunModels['embedder']): Promise<{ chunks: Chunk[]; key: string }> {
  const key = chunkIndexKey(p.chunker, p.settings.chunkerParams, embedder?.id ?? '');
  const store = p.cacheDir ? new ChunkCache(p.cacheDir) : undefined;
  const { chunks } = await chunkStage({ documents: corpus.documents, chunker: p.chunker, params: p.settings.chunkerParams, key, embedder, store });
  store?.flush();
  for (const n of store?.notices ?? []) p.onNotice?.(n);
  return { chunks, key };
}

/** One config's answer over the chunks: its retriever's index (with its embedder), pool, rerank. */
async function answerConfig(p: QueryParams, plan: BuiltinConfigPlan, corpus: Corpus, models: RunModels, chunked: { chunks: Chunk[]; key: string }, kn: { k: number; n: number }): Promise<QueryAnswer> {
  const { chunks, key } = chunked;
  const embedder = plan.embedder === null ? null : models.embedders.find((e) => e.name === plan.embedder)!.model;
  const notices: string[] = [];
  const embeddings = p.cacheDir ? new EmbeddingCache(p.cacheDir) : undefined;
  const indexes = await indexStage({
    chunks, chunker: p.chunker, key, embedder, progress: RunProgress.silent(), notices,
    needsBm25: plan.kind !== 'dense', needsDense: plan.kind !== 'bm25',
    docSha: new Map(corpus.documents.map((d) => [d.source, d.sha256])), cacheDir: p.cacheDir, embeddings,
  });
  const pools = await candidatePools({ chunks, bm25: indexes.bm25, dense: indexes.dense, embedder: embedder ?? undefined }, { retrievers: [plan.kind], queries: [p.text], n: kn.n, threads: p.settings.threads });
  const pool = pools.get(plan.kind)!.lists[0];
  let results = pool.slice(0, kn.k);
  const { reranker } = models;
  if (plan.rerank) {
    const cache = p.cacheDir ? PersistentRerankCache.open(p.cacheDir, reranker!.id) : new Map<string, number>();
    results = (await rerankStage(p.text, pool, chunks, reranker!, cache)).final.slice(0, kn.k);
    if (cache instanceof PersistentRerankCache) {
      cache.flush();
      const n = cache.takeNotice();
      if (n) notices.push(n);
    }
  }
  for (const n of [...notices, ...embeddings?.notices ?? []]) p.onNotice?.(n);
  return {
    config: plan.id,
    results: rows(results, chunks),
    pool: rows(pool, chunks),
    models: { embedder: (embedder ?? models.embedder)?.id ?? null, reranker: reranker?.id ?? null, rerankerBaseline: reranker?.baseline ?? false },
    corpus: { documents: corpus.documents.length, skipped: corpus.skipped.length, chunks: chunks.length },
  };
}

/**
 * Answers one query for every config of {@link queryPlans} (several with several embedders and a plain
 * `dense`/`hybrid`), in the grid's order, with the grid's own stages — so each answer is exactly what
 * the same config returns in a run. The corpus, the models and the chunks are loaded once.
 * @throws SpanproofError('bad-input') for an empty query, k < 1, pool < k or an unknown retriever;
 *   ('model') when a configured model folder is unusable; whatever corpus loading and chunking throw.
 */
export async function runQueries(p: QueryParams): Promise<QueryAnswer[]> {
  const kn = checkQuery(p);
  const plans = queryPlans(p);
  const s = p.settings;
  const corpus = await loadCorpus(p.workspace, { include: s.include, exclude: s.exclude, maxFileBytes: s.maxFileBytes });
  const needsEmbedder = plans.some((c) => c.kind !== 'bm25') || p.chunker === 'semantic';
  const models = await loadRunModels({ settings: s, workspace: p.workspace, needsEmbedder, needsReranker: p.rerank, cacheDir: p.cacheDir, apiKey: p.apiKey });
  try {
    const chunked = await queryChunks(p, corpus, models.embedder);
    const out: QueryAnswer[] = [];
    for (const plan of plans) out.push(await answerConfig(p, plan, corpus, models, chunked, kn));
    return out;
  } finally {
    await models.release();
    await disposeDenseOrt();
  }
}

/**
 * {@link runQueries} for a retriever that is one config (`bm25`, any kind with one embedder, or
 * `dense:<name>`).
 * @throws SpanproofError('bad-input') when it is several (name one, e.g. `dense:use-lite`), and as runQueries.
 */
export async function runQuery(p: QueryParams): Promise<QueryAnswer> {
  const plans = queryPlans(p);
  if (plans.length > 1) throw new SpanproofError('bad-input', `"${p.retriever}" is ${plans.length} retrievers with these embedders: ${plans.map((c) => c.retriever).join(', ')}.`, { field: '--retriever', fix: `name one, e.g. ${plans[0].retriever}.` });
  return (await runQueries(p))[0];
}
