/**
 * The grid engine (SPEC §6 steps 2–4): for each chunker, chunk every document, build the BM25 index,
 * embed the chunks; then, for all questions at once, the candidate pools of every retriever (dense as
 * one batch), the result lists with and without reranking, and the per-(question, config) scores.
 *
 * It yields to the event loop at least every ~40 ms so a worker can send progress (≥ every 250 ms)
 * and receive a cancel (honoured within 1 s: `signal.aborted` → SpanproofError('cancelled')).
 * A failing item (one question × config) or a failing chunker is recorded, never averaged as zero.
 */
import { performance } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import { SpanproofError } from '../errors';
import type { Chunk, ChunkerId, CorpusDocument, RetrieverId } from '../types';
import type { RunSettings } from '../settings';
import type { ResolvedQuestion } from '../groundtruth';
import type { PairScorer, TextEmbedder } from '../models';
import { Bm25Index, DenseIndex, reciprocalRankFusion, rerankPool, type Bm25BuildOptions, type Hit, type RerankCache } from '../retrieval';
import { chunkCorpus, chunkerConfigKey } from '../chunking';
import { configId, planConfigs, type ConfigPlan } from './plan';
import { prepareChunkerScoring, scoreItem, type ItemScores } from './score';

/** Heap growth (bytes) since the last collection that triggers one at the next yield (hosts exposing `gc`). */
const GC_GROWTH_BYTES = 96 * 1024 * 1024;

/** Progress of the engine: `done` of `total` work units in `stage`. */
export interface EngineProgress {
  done: number;
  total: number;
  stage: string;
}

/** Optional persistent caches (src/core/cache); the engine works without them. */
export interface EngineCaches {
  /** Chunks of one document under a chunker config key; null when absent. */
  getChunks?(doc: CorpusDocument, chunkerKey: string): Chunk[] | null;
  putChunks?(doc: CorpusDocument, chunkerKey: string, chunks: Chunk[]): void;
  /** Embeddings of one chunker's chunks (the cache key is derived from the chunker config); returns the matrix (chunks × dim). */
  embedChunks?(chunks: readonly Chunk[], chunker: ChunkerId, embedder: TextEmbedder): Promise<Float32Array>;
  /** Pair-score cache for reranking. */
  rerank?: RerankCache;
  /** Context token counts of the embedder, keyed `<document SHA-256>:<start>:<end>` (e.g. persisted). */
  tokenCounts?: { get(key: string): number | undefined; set(key: string, n: number): void };
  /**
   * The BM25 index over one chunker's chunks (e.g. read back from disk); a build must go through
   * `Bm25Index.buildAsync(chunks, opts)` so progress and cancel keep flowing.
   */
  bm25?(chunks: readonly Chunk[], opts: Bm25BuildOptions): Promise<Bm25Index>;
  /**
   * In-memory memo of whole chunker stages (chunks, BM25 index, dense index) kept by a resident worker
   * between requests, keyed by `<corpusKey>|<chunker config key>|<embedder id>` (needs `corpusKey`).
   */
  stages?: Map<string, StageMemo>;
}

/** A chunker stage kept in memory between runs of the same corpus. */
export interface StageMemo {
  chunks: Chunk[];
  bm25: Bm25Index | null;
  dense: DenseIndex | null;
}

export interface EngineInput {
  documents: readonly CorpusDocument[];
  questions: readonly ResolvedQuestion[];
  settings: RunSettings;
  embedder: TextEmbedder;
  /** Required when `settings.rerank` contains true. */
  reranker: PairScorer | null;
  caches?: EngineCaches;
  /** Identity of the corpus content (hash over sources and document hashes), for `caches.stages`. */
  corpusKey?: string;
  signal?: AbortSignal;
  onProgress?: (p: EngineProgress) => void;
  /** Tests: make the item (question id, config id) throw, to exercise per-item failure. */
  faultInjection?: { question: string; config: string };
}

/** One (question, config) result. Hit chunk indexes refer to `chunks` of the item's chunker. */
export interface ItemRecord {
  question: string;
  config: string;
  chunker: ChunkerId;
  retriever: RetrieverId;
  rerank: boolean;
  status: 'ok' | 'failed';
  error?: string;
  /** Retriever order of the candidate pool (N hits). */
  pool: Hit[];
  /** Final order of the pool (reranked when on, else = pool). */
  final: Hit[];
  /** ms for this question: retrieval (query embedding + search, batch time divided evenly where batched). */
  retrieveMs: number;
  /** ms for this question's reranking (0 when off). */
  rerankMs: number;
  scores: ItemScores | null;
  /** Embedder tokens of the result list's text (the union of R₁..R_k, overlaps once), when scored. */
  contextTokens?: number;
}

export interface ChunkerStage {
  chunker: ChunkerId;
  chunks: Chunk[];
  error?: string;
  chunkMs: number;
  bm25Ms: number;
  embedMs: number;
  /** Documents whose chunks came from the chunk cache. */
  cachedDocs: number;
}

export interface EngineOutput {
  configs: ConfigPlan[];
  items: ItemRecord[];
  stages: ChunkerStage[];
  queryEmbedMs: number;
}

/** The engine's work units: per chunker 3 stage units (chunk, index, embed) + one per (question, config). */
export function engineTotal(settings: RunSettings, questions: number): number {
  const configs = planConfigs(settings);
  return new Set(configs.map((c) => c.chunker)).size * 3 + configs.length * questions;
}

export async function runEngine(input: EngineInput): Promise<EngineOutput> {
  const { settings, questions, embedder, signal } = input;
  const configs = planConfigs(settings);
  const chunkers = [...new Set(configs.map((c) => c.chunker))];
  const total = engineTotal(settings, questions.length);
  const N = settings.poolSize;
  let done = 0;
  let stage = 'start';
  let lastYield = performance.now();
  const report = () => input.onProgress?.({ done, total, stage });
  // Heap guard: when the host exposes `gc` (the worker does) and the used heap has grown by more than
  // GC_GROWTH_BYTES since the last collection, collect at the next yield, so a stage producing much
  // short-lived garbage (Markdown trees of the heading chunker) does not push peak RSS up.
  const gc = (globalThis as { gc?: () => void }).gc;
  let heapAfterGc = gc ? getHeapStatistics().used_heap_size : 0;
  const tick = async (units = 0) => {
    done += units;
    if (performance.now() - lastYield > 40) {
      if (gc && getHeapStatistics().used_heap_size - heapAfterGc > GC_GROWTH_BYTES) {
        gc();
        heapAfterGc = getHeapStatistics().used_heap_size;
      }
      report();
      await new Promise<void>((r) => setImmediate(r));
      lastYield = performance.now();
    }
    if (signal?.aborted) throw new SpanproofError('cancelled', 'the run was cancelled.');
  };
  const setStage = async (s: string) => {
    stage = s;
    report();
    await new Promise<void>((r) => setImmediate(r));
    lastYield = performance.now();
    if (signal?.aborted) throw new SpanproofError('cancelled', 'the run was cancelled.');
  };

  const needsRerank = configs.some((c) => c.rerank);
  if (needsRerank && !input.reranker) throw new SpanproofError('internal', 'reranking is on but no reranker was loaded.');
  const needsDense = configs.some((c) => c.retriever !== 'bm25');

  // Query embeddings, once for every chunker.
  await setStage('embed:questions');
  const t0 = performance.now();
  const qTexts = questions.map((q) => q.question);
  const qmat = needsDense && qTexts.length > 0 ? await embedder.embed(qTexts) : new Float32Array(0);
  const queryEmbedMs = performance.now() - t0;
  const qEmbedPer = questions.length ? queryEmbedMs / questions.length : 0;

  const items: ItemRecord[] = [];
  const stages: ChunkerStage[] = [];
  const pairCache: RerankCache = input.caches?.rerank ?? new Map<string, number>();
  // Context cost in tokens (SPEC §7.1): the union of the result list's chunks, merged per document
  // into maximal intervals, each tokenised once with the embedder's tokenizer (memoised by document
  // hash and interval, across runs when the host passes a persistent `tokenCounts`).
  const docOf = new Map(input.documents.map((d) => [d.source, d]));
  const tokenMemo = input.caches?.tokenCounts ?? new Map<string, number>();
  const contextTokens = (list: readonly Chunk[]): number => {
    const bySource = new Map<string, Array<[number, number]>>();
    for (const c of list) {
      let l = bySource.get(c.source);
      if (!l) bySource.set(c.source, (l = []));
      l.push([c.start, c.end]);
    }
    let total = 0;
    for (const [source, ivs] of bySource) {
      ivs.sort((a, b) => a[0] - b[0]);
      const merged: Array<[number, number]> = [];
      for (const [a, b] of ivs) {
        const last = merged[merged.length - 1];
        if (last && a <= last[1]) last[1] = Math.max(last[1], b);
        else merged.push([a, b]);
      }
      const doc = docOf.get(source)!;
      for (const [a, b] of merged) {
        const key = `${doc.sha256}:${a}:${b}`;
        let n = tokenMemo.get(key);
        if (n === undefined) tokenMemo.set(key, (n = embedder.countTokens(doc.text.slice(a, b))));
        total += n;
      }
    }
    return total;
  };

  let builtPrevious = false;
  for (const chunker of chunkers) {
    // Between chunker stages the previous stage's garbage (Markdown trees, token arrays, index
    // builders) is dead; collecting it here keeps peak memory near the live set when the host
    // exposes `gc` (the worker does, see src/worker/main.ts).
    // Skipped when the previous stage came from the resident memo (nothing was built, and a full
    // collection of a heap holding resident indexes would cost more than the run).
    if (builtPrevious && gc) {
      gc();
      heapAfterGc = getHeapStatistics().used_heap_size;
    }
    builtPrevious = false;
    const mine = configs.filter((c) => c.chunker === chunker);
    const st: ChunkerStage = { chunker, chunks: [], chunkMs: 0, bm25Ms: 0, embedMs: 0, cachedDocs: 0 };
    const doneAtStart = done;
    stages.push(st);
    const failAll = (message: string) => {
      st.error = message;
      for (const c of mine) {
        for (const q of questions) {
          items.push({ question: q.id, config: c.id, chunker, retriever: c.retriever, rerank: c.rerank, status: 'failed', error: message, pool: [], final: [], retrieveMs: 0, rerankMs: 0, scores: null });
        }
      }
    };
    let chunks: Chunk[];
    let bm25: Bm25Index | null = null;
    let dense: DenseIndex | null = null;
    try {
      await setStage(`chunk:${chunker}`);
      let t = performance.now();
      const key = chunkerConfigKey(chunker, settings.chunkerParams) + (chunker === 'semantic' ? `|${embedder.id}` : '');
      const memoKey = input.corpusKey ? `${input.corpusKey}|${key}|${embedder.id}` : null;
      const memo = memoKey ? input.caches?.stages?.get(memoKey) : undefined;
      if (memo) {
        chunks = memo.chunks;
        st.cachedDocs = input.documents.length;
      } else {
        builtPrevious = true;
        chunks = [];
        const embed = { fn: (texts: readonly string[]) => embedder.embed(texts), dim: embedder.dim };
        for (const doc of input.documents) {
          let got = input.caches?.getChunks?.(doc, key) ?? null;
          if (got) st.cachedDocs++;
          else {
            got = await chunkCorpus([doc], chunker, settings.chunkerParams, embed);
            input.caches?.putChunks?.(doc, key, got);
          }
          for (const c of got) chunks.push(c);
          await tick();
        }
      }
      st.chunkMs = performance.now() - t;
      st.chunks = chunks;
      await tick(1);
      // Chunk embedding is started first: onnxruntime runs the session off the JS thread, so the
      // BM25 build overlaps it. `embedMs` is the wall time until the matrix is ready.
      await setStage(`index:${chunker}`);
      t = performance.now();
      let matrixP: Promise<Float32Array> | null = null;
      if (mine.some((c) => c.retriever !== 'bm25') && !memo?.dense) {
        matrixP = input.caches?.embedChunks ? input.caches.embedChunks(chunks, chunker, embedder) : embedder.embed(chunks.map((c) => c.text));
        matrixP.catch(() => undefined); // awaited below; avoid an unhandled rejection if BM25 throws first
      }
      const tb = performance.now();
      if (mine.some((c) => c.retriever !== 'dense')) {
        // Built in slices (yielding every ~25 ms) so progress keeps flowing and a cancel is seen
        // mid-build; a cancel first waits for the embedding in flight (its session must not be
        // released under it), then stops the run.
        try {
          const opts: Bm25BuildOptions = { onYield: () => tick() };
          bm25 = memo?.bm25 ?? (await (input.caches?.bm25 ? input.caches.bm25(chunks, opts) : Bm25Index.buildAsync(chunks, opts)));
        } catch (e) {
          await matrixP?.catch(() => undefined);
          throw e;
        }
      }
      st.bm25Ms = performance.now() - tb;
      // No cancellation point until the embedding in flight has settled (its session must not be
      // released under it); progress still moves.
      done += 1;
      stage = `embed:${chunker}`;
      report();
      if (mine.some((c) => c.retriever !== 'bm25')) dense = memo?.dense ?? new DenseIndex(await matrixP!, embedder.dim);
      if (memoKey && input.caches?.stages) input.caches.stages.set(memoKey, { chunks, bm25: bm25 ?? memo?.bm25 ?? null, dense: dense ?? memo?.dense ?? null });
      st.embedMs = performance.now() - t;
      await tick(1);
    } catch (e) {
      if ((e as SpanproofError).code === 'cancelled') throw e;
      failAll(`chunker ${chunker} failed: ${(e as Error).message}`);
      done = doneAtStart + 3 + mine.length * questions.length;
      continue;
    }

    // Candidate pools per retriever, all questions at once.
    await setStage(`retrieve:${chunker}`);
    const bm25Lists: Hit[][] = [];
    const bm25Ms: number[] = [];
    if (bm25) {
      for (const q of questions) {
        const t = performance.now();
        bm25Lists.push(bm25.search(q.question, N));
        bm25Ms.push(performance.now() - t);
        await tick();
      }
    }
    let denseLists: Hit[][] = [];
    let densePer = 0;
    if (dense) {
      const t = performance.now();
      denseLists = questions.length ? await dense.searchBatchAsync(qmat, N, { threads: settings.threads }) : [];
      densePer = (questions.length ? (performance.now() - t) / questions.length : 0) + qEmbedPer;
    }
    const poolsOf = (r: RetrieverId, qi: number): { pool: Hit[]; ms: number } => {
      if (r === 'bm25') return { pool: bm25Lists[qi], ms: bm25Ms[qi] };
      if (r === 'dense') return { pool: denseLists[qi], ms: densePer };
      const t = performance.now();
      const pool = reciprocalRankFusion([bm25Lists[qi], denseLists[qi]], N, 60);
      return { pool, ms: bm25Ms[qi] + densePer + (performance.now() - t) };
    };

    const scoring = prepareChunkerScoring(chunks, questions, settings);
    await setStage(`score:${chunker}`);
    for (let qi = 0; qi < questions.length; qi++) {
      const q = questions[qi];
      for (const c of mine) {
        const rec: ItemRecord = { question: q.id, config: c.id, chunker, retriever: c.retriever, rerank: c.rerank, status: 'ok', pool: [], final: [], retrieveMs: 0, rerankMs: 0, scores: null };
        try {
          if (input.faultInjection && input.faultInjection.question === q.id && input.faultInjection.config === c.id) {
            throw new SpanproofError('internal', `injected fault for ${q.id} × ${c.id}`);
          }
          const { pool, ms } = poolsOf(c.retriever, qi);
          rec.pool = pool;
          rec.retrieveMs = ms;
          if (c.rerank) {
            const t = performance.now();
            rec.final = await rerankPool(q.question, pool, chunks, input.reranker!, pairCache);
            rec.rerankMs = performance.now() - t;
          } else rec.final = pool;
          const before = c.rerank ? pool : null;
          rec.scores = scoreItem(scoring, qi, rec.final, rec.pool, before, settings);
          rec.contextTokens = contextTokens(rec.final.slice(0, settings.k).map((h) => chunks[h.chunk]));
        } catch (e) {
          if ((e as SpanproofError).code === 'cancelled') throw e;
          rec.status = 'failed';
          rec.error = (e as Error).message;
          rec.scores = null;
        }
        items.push(rec);
        await tick(1);
      }
    }
  }
  stage = 'done';
  report();
  return { configs, items, stages, queryEmbedMs };
}

export { configId };
