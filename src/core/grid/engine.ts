/**
 * The engine (SPEC §6 steps 2–4): for each chunker, the stages chunk → index → retrieve → rerank →
 * score & attribute, over every question at once; the question embeddings once for all chunkers.
 * In memory only (no files): src/core/grid/run.ts runs it between "load" and "aggregate".
 *
 * Each chunker is one self-contained unit ({@link runChunker}: documents, questions, settings,
 * models and caches in; its stage record and its items out), so chunkers can be run apart (e.g. in
 * parallel worker threads with their own models) and concatenated in plan order.
 *
 * Several embedders (SPEC §5.3; the configs' `embedder` names): the questions are embedded once per
 * embedder, each chunker builds one dense index per embedder its configs use (BM25 once), and the pools
 * of `dense:<name>` / `hybrid:<name>` come from that embedder's index and question vectors. Semantic
 * chunking, the chunk-index key and context tokens use the first listed embedder (`embedder`).
 *
 * A failing item (one question × config) or a failing chunker is recorded, never averaged as zero.
 */
import { resourceMark, resourceSpan } from './resources';
import { SpanproofError } from '../errors';
import type { ChunkerId, CorpusDocument } from '../types';
import type { RunSettings } from '../settings';
import type { ResolvedQuestion } from '../groundtruth';
import type { PairScorer, TextEmbedder } from '../models';
import { QUESTION_SET_KEY, QUESTION_SETS_KEPT, textsSha, type EmbeddingCache } from '../cache';
import type { DenseIndex, RerankCache, RetrieverPools } from '../retrieval';
import { chunkIndexKey } from '../chunking';
import { planConfigs, type BuiltinConfigPlan } from './plan';
import { prepareChunkerScoring, scoreItem } from './score';
import { chunkStage, type ChunkStore } from './chunk';
import { indexStage, type ChunkerIndexes } from './indexing';
import { retrieveStage } from './retrieve';
import { rerankStage } from './rerank';
import { contextTokenCounter, type TokenMemo } from './context';
import { RunProgress } from './progress';
import type { ChunkerStage, EngineOutput, ItemRecord, StageMemo } from './types';
import type { ChunkerThread } from './parallel';
import { runChunkers } from './schedule';

/** Optional caches (src/core/cache, src/core/grid/chunkCache.ts); the engine works without them. */
export interface EngineCaches {
  /** Chunk boundaries per document. */
  chunks?: ChunkStore;
  /** Chunk embeddings per document. */
  embeddings?: EmbeddingCache;
  /** BM25 disk cache root. */
  bm25Dir?: string;
  /** Receives one line per cache file that could not be used (a damaged or edited BM25 index: rebuilt). */
  notices?: string[];
  /** Pair-score cache for reranking. */
  rerank?: RerankCache;
  /** Context token counts of the embedder (e.g. persisted). */
  tokenCounts?: TokenMemo;
  /**
   * In-memory memo of whole chunker stages (chunks, BM25 index, dense index) kept by a resident worker
   * between requests, keyed by `<corpusKey>|<chunk-index key>|<embedder id>` (needs `corpusKey`).
   */
  stages?: Map<string, StageMemo>;
}

export interface EngineInput {
  documents: readonly CorpusDocument[];
  questions: readonly ResolvedQuestion[];
  settings: RunSettings;
  /** The first listed embedder: semantic chunking, the chunk-index key, context tokens. */
  embedder: TextEmbedder;
  /** Every embedder by its name (ConfigPlan.embedder), for the dense axis; absent = `embedder` under every name. */
  embedders?: ReadonlyMap<string, TextEmbedder>;
  /** Required when `settings.rerank` contains true. */
  reranker: PairScorer | null;
  caches?: EngineCaches;
  /** Identity of the corpus content (hash over sources and document hashes), for `caches.stages`. */
  corpusKey?: string;
  /** Progress and cancel; a silent one when absent. */
  progress?: RunProgress;
  /** Tests: make the item (question id, config id) throw, to exercise per-item failure. */
  faultInjection?: { question: string; config: string };
  /**
   * A shard of the run (./shard.ts): only these question ids per chunker; chunkers absent from the
   * map are not run. Question embeddings are still computed for every question (the same vectors
   * as an unsharded run).
   */
  only?: ReadonlyMap<string, ReadonlySet<string>>;
  /**
   * Starts a second thread that runs some of the chunkers (./parallel.ts), called at most once, when
   * the first chunker turns out cold; absent = every chunker in this thread.
   */
  startThread?: () => ChunkerThread;
  /** timings.json `perChunker.thread` of the chunkers this engine runs: 1 (default) the run's thread, 2 the chunker thread. */
  threadNumber?: number;
  /**
   * When the run started, as `performance.timeOrigin + performance.now()` (ms since the epoch, the
   * same clock in every thread): timings.json `perChunker.startMs` counts from it, as `totalMs` does.
   * Absent: from the process's start.
   */
  runStartEpochMs?: number;
}

/** What every chunker of a run shares. */
export interface EngineContext extends EngineInput {
  progress: RunProgress;
  configs: BuiltinConfigPlan[];
  pairCache: RerankCache;
  contextTokens: ReturnType<typeof contextTokenCounter>;
  docSha: ReadonlyMap<string, string>;
  /** The questions' embeddings (questions × dim) per embedder name, once for every chunker; only the names dense configs use. */
  queryVectors: ReadonlyMap<string, Float32Array>;
  /** ms of question embedding per question, per embedder name. */
  queryEmbedMsPer: ReadonlyMap<string, number>;
}

/** The model of embedder `name` (ConfigPlan.embedder). */
function embedderFor(input: Pick<EngineInput, 'embedder' | 'embedders'>, name: string): TextEmbedder {
  return input.embedders?.get(name) ?? input.embedder;
}

/** The embedder names the dense and hybrid configs of `configs` use, in plan order. */
function denseEmbedders(configs: readonly BuiltinConfigPlan[]): string[] {
  return [...new Set(configs.flatMap((c) => (c.embedder === null ? [] : [c.embedder])))];
}

/**
 * Work units of one chunker before scoring, so the bar moves while it chunks and embeds (#16 item 18):
 * one per document chunked, one for the BM25 index, and one per document for each embedder its dense
 * configs use (moved by the embedder's batches; one unit when no config is dense).
 */
function buildUnits(mine: readonly BuiltinConfigPlan[], documents: number): { chunk: number; embedEach: number; total: number } {
  const d = Math.max(1, documents);
  const dense = denseEmbedders(mine).length;
  return { chunk: d, embedEach: dense ? d : 1, total: d + 1 + (dense ? dense * d : 1) };
}

/**
 * The engine's work units: per chunker its {@link buildUnits} + one per (question, config) — with
 * `only` (a shard), its chunkers and questions. `documents`: the corpus's document count.
 */
export function engineTotal(settings: Parameters<typeof planConfigs>[0], questions: number, only: ReadonlyMap<string, ReadonlySet<string>> | undefined, documents: number): number {
  const configs = planConfigs(settings);
  let units = 0;
  for (const chunker of new Set(configs.map((c) => c.chunker))) {
    if (only && !only.has(chunker)) continue;
    const mine = configs.filter((c) => c.chunker === chunker);
    units += buildUnits(mine, documents).total + mine.length * (only ? only.get(chunker)!.size : questions);
  }
  return units;
}

/**
 * The questions embedded once per embedder the dense configs use — through the embedding cache when
 * the run has one: the vectors of this exact list of question texts (one embedding call) are read
 * back, with the ms that call took (reported again as the questions' embedding latency), so a warm
 * run needs neither the call nor, for the static model, its tokenizer.
 */
async function embedQuestions(input: EngineInput, configs: readonly BuiltinConfigPlan[]): Promise<{ vectors: Map<string, Float32Array>; msPer: Map<string, number>; ms: number }> {
  const vectors = new Map<string, Float32Array>();
  const msPer = new Map<string, number>();
  let ms = 0;
  const texts = input.questions.map((q) => q.question);
  const cache = input.caches?.embeddings;
  const setSha = cache && texts.length > 0 ? textsSha(texts) : '';
  for (const name of denseEmbedders(configs)) {
    const emb = embedderFor(input, name);
    const hit = setSha ? cache!.readTimed(setSha, QUESTION_SET_KEY, emb.id, texts, emb.dim) : undefined;
    if (hit && Number.isFinite(hit.computeMs)) {
      vectors.set(name, hit.vectors);
      ms += hit.computeMs;
      msPer.set(name, hit.computeMs / texts.length);
      continue;
    }
    const t = performance.now();
    const v = texts.length > 0 ? await emb.embed(texts) : new Float32Array(0);
    const took = performance.now() - t;
    vectors.set(name, v);
    ms += took;
    msPer.set(name, texts.length ? took / texts.length : 0);
    if (setSha && emb.dim > 0 && v.length === texts.length * emb.dim) {
      cache!.write(setSha, QUESTION_SET_KEY, emb.id, texts, emb.dim, v, took);
      cache!.keepNewest(QUESTION_SET_KEY, emb.id, QUESTION_SETS_KEPT);
    }
  }
  return { vectors, msPer, ms };
}

/**
 * The context every chunker of a run shares, from the engine's input and the question embeddings
 * (once per run; a chunker thread rebuilds it from the same inputs, ./parallel.ts).
 */
export function engineContext(input: EngineInput, q: { vectors: ReadonlyMap<string, Float32Array>; msPer: ReadonlyMap<string, number> }): EngineContext {
  return {
    ...input,
    progress: input.progress ?? RunProgress.silent(),
    configs: planConfigs(input.settings),
    pairCache: input.caches?.rerank ?? new Map<string, number>(),
    contextTokens: contextTokenCounter(input.documents, input.embedder, input.caches?.tokenCounts),
    docSha: new Map(input.documents.map((d) => [d.source, d.sha256])),
    queryVectors: q.vectors,
    queryEmbedMsPer: q.msPer,
  };
}

/** Runs every chunker of the plan. Throws SpanproofError('cancelled') on a cancel, ('internal') when reranking is on without a reranker. */
export async function runEngine(input: EngineInput): Promise<EngineOutput> {
  const configs = planConfigs(input.settings);
  const progress = input.progress ?? RunProgress.silent();
  if (configs.some((c) => c.rerank) && !input.reranker) throw new SpanproofError('internal', 'reranking is on but no reranker was loaded.');
  // Question embeddings, once for every chunker.
  await progress.setStage('embed:questions');
  const q = await embedQuestions(input, configs);
  const ctx = engineContext({ ...input, progress }, q);
  const chunkers = [...new Set(configs.map((c) => c.chunker))].filter((c) => !input.only || input.only.has(c));
  const outs = await runChunkers(ctx, chunkers, chunkers.length > 1 ? input.startThread : undefined, runChunker);
  const items: ItemRecord[] = [];
  for (const out of outs) for (const it of out.items) items.push(it);
  progress.stage = 'done';
  progress.report();
  return { configs, items, stages: outs.map((o) => o.stage), queryEmbedMs: q.ms };
}

/** A chunker's indexes: BM25 (when a config needs it) and one dense index per embedder name its configs use. */
interface ChunkerIndexSet {
  bm25: ChunkerIndexes['bm25'];
  bm25Lists: ChunkerIndexes['bm25Lists'];
  dense: Map<string, DenseIndex | null>;
  /** The dense list cache per embedder name (with a cache folder). */
  denseLists: Map<string, ChunkerIndexes['denseLists']>;
}

/** A chunker's chunks and indexes: from the resident memo, or chunked and built now. */
async function buildChunker(ctx: EngineContext, chunker: ChunkerId, mine: readonly BuiltinConfigPlan[], st: ChunkerStage, onCold?: () => void): Promise<{ indexes: ChunkerIndexSet; built: boolean }> {
  const { progress, embedder, settings } = ctx;
  await progress.setStage(`chunk:${chunker}`);
  const units = buildUnits(mine, ctx.documents.length);
  const chunked = progress.part(units.chunk);
  const key = chunkIndexKey(chunker, settings.chunkerParams, embedder.id);
  const memoOf = (e: TextEmbedder) => (ctx.corpusKey ? `${ctx.corpusKey}|${key}|${e.id}` : null);
  const memoKey = memoOf(embedder);
  const memo = memoKey ? ctx.caches?.stages?.get(memoKey) : undefined;
  if (memo) {
    st.chunks = memo.chunks;
    st.cachedDocs = ctx.documents.length;
  } else {
    let n = 0;
    const onDocument = (): Promise<void> => (chunked.to(++n / ctx.documents.length), progress.tick());
    // onCold at the first document to chunk, not after all of them: the second thread starts its isolate
    // and models while this one chunks (semantic chunks for ~0.5–0.7 s on the FastAPI docs).
    const c = await chunkStage({ documents: ctx.documents, chunker, params: settings.chunkerParams, key, embedder, store: ctx.caches?.chunks, onDocument, onMiss: onCold });
    Object.assign(st, { chunks: c.chunks, cachedDocs: c.cachedDocs, chunkMs: c.ms });
  }
  chunked.finish();
  await progress.tick();
  await progress.setStage(`index:${chunker}`);
  const names = denseEmbedders(mine);
  const out: ChunkerIndexSet = { bm25: null, bm25Lists: null, dense: new Map(), denseLists: new Map() };
  // BM25 with the first embedder's dense index (one index stage), then one per further embedder.
  for (const [i, name] of (names.length ? names : [null]).entries()) {
    const emb = name === null ? embedder : embedderFor(ctx, name);
    const mk = memoOf(emb);
    const m = mk ? ctx.caches?.stages?.get(mk) : undefined;
    const ix = await indexStage({
      chunks: st.chunks, chunker, key, embedder: emb, memo: m, progress, embedUnits: units.embedEach,
      needsBm25: i === 0 && mine.some((c) => c.kind !== 'dense'),
      needsDense: name !== null,
      docSha: ctx.docSha, cacheDir: ctx.caches?.bm25Dir, notices: ctx.caches?.notices, embeddings: ctx.caches?.embeddings,
      queries: { texts: chunkerQuestions(ctx, chunker).questions.map((q) => q.question), n: settings.poolSize },
    });
    if (mk && ctx.caches?.stages) ctx.caches.stages.set(mk, { chunks: st.chunks, bm25: ix.bm25 ?? m?.bm25 ?? null, dense: ix.dense ?? m?.dense ?? null });
    if (i === 0) {
      out.bm25 = ix.bm25;
      out.bm25Lists = ix.bm25Lists ?? null;
    }
    if (name !== null) {
      out.dense.set(name, ix.dense);
      out.denseLists.set(name, ix.denseLists ?? null);
    }
    st.bm25Ms += ix.bm25Ms;
    st.embedMs += ix.embedMs;
  }
  await progress.tick(1);
  return { indexes: out, built: !memo };
}

/** The candidate pools of a chunker's configs by retriever id: BM25 with the first embedder's retrievers, then per further embedder. */
async function chunkerPools(ctx: EngineContext, st: ChunkerStage, mine: readonly BuiltinConfigPlan[], indexes: ChunkerIndexSet, questions: readonly ResolvedQuestion[], queryVectors: ReadonlyMap<string, Float32Array>): Promise<Map<string, RetrieverPools>> {
  const pools = new Map<string, RetrieverPools>();
  const names = denseEmbedders(mine);
  for (const [i, name] of (names.length ? names : [null]).entries()) {
    const group = mine.filter((c) => c.embedder === name || (i === 0 && c.kind === 'bm25'));
    const got = await retrieveStage({
      chunks: st.chunks, indexes: { bm25: indexes.bm25, bm25Lists: indexes.bm25Lists, dense: name === null ? null : indexes.dense.get(name) ?? null, denseLists: name === null ? null : indexes.denseLists.get(name) ?? null, bm25Ms: 0, embedMs: 0 },
      retrievers: [...new Set(group.map((c) => c.kind))], questions, poolSize: ctx.settings.poolSize,
      queryVectors: (name !== null && queryVectors.get(name)) || new Float32Array(0), queryEmbedMsPer: (name !== null && ctx.queryEmbedMsPer.get(name)) || 0,
      threads: ctx.settings.threads, onQuery: () => ctx.progress.tick(),
    });
    for (const c of group) pools.set(c.retriever, got.get(c.kind)!);
  }
  indexes.bm25Lists?.flush();
  for (const l of indexes.denseLists.values()) l?.flush();
  return pools;
}

/**
 * One chunker, all its configs: chunk → index → retrieve → rerank → score & attribute.
 * A failure of the chunk or index stage fails every item of the chunker (recorded, never scored);
 * a cancel is rethrown.
 */
/** The questions a chunker scores (all, or its shard's) with their rows of the question embeddings. */
function chunkerQuestions(ctx: EngineContext, chunker: ChunkerId): { questions: readonly ResolvedQuestion[]; queryVectors: ReadonlyMap<string, Float32Array> } {
  const want = ctx.only?.get(chunker);
  if (!want) return { questions: ctx.questions, queryVectors: ctx.queryVectors };
  const idx = ctx.questions.map((q, i) => (want.has(q.id) ? i : -1)).filter((i) => i >= 0);
  const queryVectors = new Map<string, Float32Array>();
  for (const [name, all] of ctx.queryVectors) {
    const dim = ctx.questions.length ? all.length / ctx.questions.length : 0;
    const rows = new Float32Array(idx.length * dim);
    idx.forEach((qi, j) => rows.set(all.subarray(qi * dim, (qi + 1) * dim), j * dim));
    queryVectors.set(name, rows);
  }
  return { questions: idx.map((i) => ctx.questions[i]), queryVectors };
}

export async function runChunker(ctx: EngineContext, chunker: ChunkerId, onCold?: () => void): Promise<{ stage: ChunkerStage; items: ItemRecord[]; built: boolean }> {
  const { progress } = ctx;
  const { questions, queryVectors } = chunkerQuestions(ctx, chunker);
  const mine = ctx.configs.filter((c) => c.chunker === chunker);
  const st: ChunkerStage = { chunker, chunks: [], chunkMs: 0, bm25Ms: 0, embedMs: 0, cachedDocs: 0 };
  const doneAtStart = progress.done;
  const t0 = performance.now();
  const startMs = Math.round(ctx.runStartEpochMs !== undefined ? performance.timeOrigin + t0 - ctx.runStartEpochMs : process.uptime() * 1000);
  const r0 = resourceMark();
  let built: { indexes: ChunkerIndexSet; built: boolean };
  try {
    built = await buildChunker(ctx, chunker, mine, st, onCold);
  } catch (e) {
    if ((e as SpanproofError).code === 'cancelled') throw e;
    st.error = `chunker ${chunker} failed: ${(e as Error).message}`;
    progress.done = doneAtStart + buildUnits(mine, ctx.documents.length).total + mine.length * questions.length;
    const failed = mine.flatMap((c) => questions.map((q): ItemRecord => ({ question: q.id, config: c.id, chunker, retriever: c.retriever, rerank: c.rerank, status: 'failed', error: st.error, pool: [], final: [], retrieveMs: 0, rerankMs: 0, scores: null })));
    return { stage: st, items: failed, built: true };
  }
  await progress.setStage(`retrieve:${chunker}`);
  const pools = await chunkerPools(ctx, st, mine, built.indexes, questions, queryVectors);
  const items = await scoreChunker(ctx, questions, st, mine, pools);
  st.resources = { wallMs: Math.round((performance.now() - t0) * 10) / 10, ...resourceSpan(r0), thread: ctx.threadNumber ?? 1, startMs };
  return { stage: st, items, built: built.built };
}

/** Rerank and score every (question, config) item of one chunker, questions outer, configs in plan order inner. */
async function scoreChunker(ctx: EngineContext, questions: readonly ResolvedQuestion[], st: ChunkerStage, mine: readonly BuiltinConfigPlan[], pools: ReadonlyMap<string, RetrieverPools>): Promise<ItemRecord[]> {
  const { progress, settings } = ctx;
  const scoring = prepareChunkerScoring(st.chunks, questions, settings);
  await progress.setStage(`score:${st.chunker}`);
  const items: ItemRecord[] = [];
  for (let qi = 0; qi < questions.length; qi++) {
    const q = questions[qi];
    for (const c of mine) {
      const rec: ItemRecord = { question: q.id, config: c.id, chunker: st.chunker, retriever: c.retriever, rerank: c.rerank, status: 'ok', pool: [], final: [], retrieveMs: 0, rerankMs: 0, scores: null };
      try {
        if (ctx.faultInjection && ctx.faultInjection.question === q.id && ctx.faultInjection.config === c.id) {
          throw new SpanproofError('internal', `injected fault for ${q.id} × ${c.id}`);
        }
        const p = pools.get(c.retriever)!;
        rec.pool = p.lists[qi];
        rec.retrieveMs = p.ms[qi];
        if (c.rerank) {
          const r = await rerankStage(q.question, rec.pool, st.chunks, ctx.reranker!, ctx.pairCache);
          rec.final = r.final;
          rec.rerankMs = r.ms;
        } else rec.final = rec.pool;
        rec.scores = scoreItem(scoring, qi, rec.final, rec.pool, c.rerank ? rec.pool : null, settings);
        rec.contextTokens = ctx.contextTokens(rec.final.slice(0, settings.k).map((h) => st.chunks[h.chunk]));
      } catch (e) {
        if ((e as SpanproofError).code === 'cancelled') throw e;
        rec.status = 'failed';
        rec.error = (e as Error).message;
        rec.scores = null;
      }
      items.push(rec);
      await progress.tick(1);
    }
  }
  return items;
}

export { configId } from './plan';
export type { ItemRecord, ChunkerStage, EngineOutput, StageMemo } from './types';
export type { EngineProgress } from './progress';
