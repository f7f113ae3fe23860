/**
 * A whole grid run (SPEC §6 steps 1–5, §10): load the corpus and the ground truth, resolve it (stale,
 * ambiguous and rejected questions are excluded and counted in `acceptance`, never scored), load the
 * models once, run the engine, aggregate, the verdict stage (./ranking.ts), and write the run directory. Used by the worker
 * (src/worker) for both the CLI and the extension.
 *
 * The run directory is created first with run.json `status: running`; it ends `succeeded`,
 * `cancelled` (SpanproofError 'cancelled' from the signal) or `failed` (with the error). Earlier runs
 * are never touched.
 */
import { createHash } from 'node:crypto';
import { readFileSync, mkdirSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { SpanproofError, isSpanproofError } from '../errors';
import { VERSION } from '../version';
import type { Chunk } from '../types';
import { loadCorpus } from '../corpus';
import { excludedQuestionsSummary, readGroundTruth, resolveGroundTruth, type ResolvedQuestion } from '../groundtruth';
import { BASELINE_RERANKER_LABEL, createMaxSimReranker, describeEmbedder, embedderFromSetting, embedderName, loadCrossEncoderFromFolder, loadEmbedder, type PairScorer, type TextEmbedder } from '../models';
import { EmbeddingCache, PersistentRerankCache, TokenCountCache, embedChunksCached, loadOrBuildBm25Async } from '../cache';
import { chunkerConfigKey } from '../chunking';
import type { GridRunParams, GridRunResult } from './types';
import { writeFileAtomic } from '../files';
import { createRunDir, resolveCacheDir, stableStringify, type AcceptanceReport, type EvidenceFile, type QuestionRecord, type ResultsFile, type RunFile, type TimingsFile } from '../runs';
import { runEngine, engineTotal, type EngineOutput, type ItemRecord } from './engine';
import { aggregate } from './aggregate';
import { verdictStage } from './ranking';
import { latencySummary, rankingEntries } from '../ranking';
import { parseRunSettings, validateRunSettings } from '../settings';
import { ChunkCache } from './chunkCache';
import type { ResidentState } from './resident';

export interface GridHooks {
  /** Keep models, pair caches and chunker stages here between runs (a resident worker); they are then not disposed. */
  resident?: ResidentState;
  signal?: AbortSignal;
  onProgress?: (p: { done: number; total: number; stage: string }) => void;
  onLog?: (level: 'info' | 'warn', message: string) => void;
}

function sha(s: string | Buffer): string {
  return createHash('sha256').update(s).digest('hex');
}

/** The questions.jsonl record of an item (SPEC §11 keys, plus `k`, `metrics`, `miss`, `error`). */
export function questionRecord(it: ItemRecord, chunks: readonly Chunk[], k: number): QuestionRecord {
  const span = (h: { chunk: number; score: number }) => {
    const c = chunks[h.chunk];
    return { source: c.source, start: c.start, end: c.end, score: h.score };
  };
  const m = it.scores?.metrics;
  return {
    question: it.question,
    config: it.config,
    status: it.status,
    results: it.status === 'ok' ? it.final.map(span) : [],
    pool: it.status === 'ok' ? it.pool.map(span) : [],
    'coverage@5': m ? m['coverage@5'] : null,
    'hit@5': m ? (m['hit@5'] as 0 | 1) : null,
    rr: m ? m.rr : null,
    cause: it.scores?.cause ?? null,
    k,
    ...(m && k !== 5 ? { [`coverage@${k}`]: m[`coverage@${k}`], [`hit@${k}`]: m[`hit@${k}`] } : {}),
    ...(m ? { metrics: m, tauHits: it.scores!.tauHits, contextTokens: it.contextTokens } : {}),
    ...(it.scores?.miss ? { miss: it.scores.miss } : {}),
    ...(it.error ? { error: it.error } : {}),
  };
}

function errorPayload(e: unknown): { code: string; message: string } {
  return { code: isSpanproofError(e) ? e.code : 'internal', message: e instanceof Error ? e.message : String(e) };
}

/** The error of a run with no question to score (`requireScorable`): the acceptance summary says why. */
function nothingToScore(a: AcceptanceReport, gtFile: string, ids?: string[]): SpanproofError {
  const why = `${a.resolved} of ${a.total} questions resolved (stale ${a.stale.length}, ambiguous ${a.ambiguous.length}, rejected ${a.rejected.length})`;
  if (a.total === 0) return new SpanproofError('bad-input', 'no question can be scored: the ground truth has no questions.', { file: gtFile, fix: 'add questions with evidence (spanproof validate checks the file).' });
  if (ids && a.resolved > 0) return new SpanproofError('bad-input', `no question can be scored: none of the selected ids (${ids.join(', ')}) is a resolved question; ${why}.`, { file: gtFile, fix: 'select ids of resolved questions (spanproof validate --json lists them).' });
  return new SpanproofError('bad-input', `no question can be scored: ${why}.`, { file: gtFile, fix: 'run `spanproof validate` to see why each question is excluded, and fix the ground truth.' });
}

/** Runs the grid and writes the run directory (unless `params.writeRun === false`). */
export async function runGrid(params: GridRunParams, hooks: GridHooks = {}): Promise<GridRunResult> {
  const t0 = performance.now();
  // Validate whatever the host sent (VS Code settings can hold anything): errors name the key.
  const settings = parseRunSettings(params.settings, 'settings');
  validateRunSettings(settings, { file: 'settings' }); // cross-key checks (chunker params, k ≤ poolSize) before any work
  const workspace = resolve(params.workspace);
  const writeRun = params.writeRun !== false;
  const warnings: string[] = [];
  const stageMs: Record<string, number> = {};
  const timeStage = async <T>(name: string, f: () => Promise<T> | T): Promise<T> => {
    const t = performance.now();
    try {
      return await f();
    } finally {
      stageMs[name] = (stageMs[name] ?? 0) + performance.now() - t;
    }
  };
  let engineTotalUnits = 1;
  const progress = (done: number, total: number, stage: string) => hooks.onProgress?.({ done, total, stage });
  /** After the engine: the bar stays full while metrics and files are produced. */
  const progressAfter = (stage: string) => progress(engineTotalUnits, engineTotalUnits, stage);

  progress(0, 1, 'load');
  const corpus = await timeStage('load', () => loadCorpus(workspace, { include: settings.include, exclude: settings.exclude, maxFileBytes: settings.maxFileBytes }));
  for (const s of corpus.skipped) warnings.push(`skipped ${s.source}: ${s.reason} (${s.detail})`);
  const gtFile = resolve(params.groundTruthFile);
  const gtBytes = (() => {
    try { return readFileSync(gtFile); } catch { return Buffer.alloc(0); }
  })();
  const gt = await readGroundTruth(gtFile);
  const byName = new Map(corpus.documents.map((d) => [d.source, d]));
  const resolution = await timeStage('resolve', () => resolveGroundTruth(gt, (s) => byName.get(s)?.text, { minQuoteLength: settings.minQuoteLength, maxQuoteLength: settings.maxQuoteLength, skipped: corpus.skipped }));
  const acceptance: AcceptanceReport = resolution.acceptance;
  let questions: ResolvedQuestion[] = resolution.questions;
  if (params.questionIds) {
    const want = new Set(params.questionIds);
    questions = questions.filter((q) => want.has(q.id));
    for (const id of want) if (!questions.some((q) => q.id === id)) warnings.push(`question ${id} is not resolved or does not exist; not scored`);
  }
  const excludedNote = excludedQuestionsSummary(resolution.acceptance); // counts questions, then evidence items
  if (excludedNote) warnings.push(excludedNote);
  if (params.requireScorable && questions.length === 0) throw nothingToScore(acceptance, gtFile, params.questionIds);

  const corpusHash = sha(corpus.documents.map((d) => `${d.source}\0${d.sha256}`).join('\n'));
  const groundTruthHash = sha(gtBytes);

  // Run directory first, so a crash or cancel still leaves a record.
  let runDir: string | null = null;
  let run: RunFile | null = null;
  const writeRunJson = () => {
    if (runDir && run) writeFileAtomic(join(runDir, 'run.json'), JSON.stringify(run, null, 2) + '\n');
  };
  if (writeRun) {
    const created = createRunDir({ workspace, runsRoot: params.runsRoot, outDir: params.outDir, inputsKey: stableStringify({ settings, corpusHash, groundTruthHash }) });
    runDir = created.dir;
    run = {
      id: created.id,
      status: 'running',
      progress: { finished: 0, total: engineTotal(settings, questions.length) },
      error: null,
      startedAt: new Date().toISOString(),
      endedAt: null,
      toolVersion: VERSION,
      settings,
      workspace,
      groundTruthFile: gtFile,
      runDir,
      location: created.location,
      corpusHash,
      groundTruthHash,
      acceptance,
      seed: settings.bootstrap.seed,
      counts: { documents: corpus.documents.length, questions: questions.length, chunks: {} },
    };
    if (created.location.kind === 'user-cache') warnings.push(`the workspace is not writable; the run is written to ${runDir}`);
    writeRunJson();
  }

  let embedder: TextEmbedder | null = null;
  let reranker: PairScorer | null = null;
  let rerankCache: PersistentRerankCache | null = null;
  let lastRunJson = 0;
  try {
    const threads = settings.threads;
    const modelPath = (p: string) => (isAbsolute(p) ? p : resolve(workspace, p));
    const resident = hooks.resident;
    resident?.useCorpus(corpusHash);
    const embSpec = embedderFromSetting(settings.embeddingModel);
    const embKey = `${embSpec.kind === 'folder' ? modelPath(embSpec.path) : JSON.stringify(embSpec)}|${threads}`;
    embedder = resident?.embedders.get(embKey) ?? null;
    if (!embedder) {
      embedder = await timeStage('models', () => loadEmbedder(embSpec, { threads, baseDir: workspace }));
      resident?.embedders.set(embKey, embedder);
    }
    if (settings.rerank.includes(true)) {
      const rrKey = `${settings.rerankerModel ? modelPath(settings.rerankerModel) : '(baseline)'}|${threads}`;
      reranker = resident?.rerankers.get(rrKey) ?? null;
      if (!reranker) {
        reranker = await timeStage('models', () => (settings.rerankerModel ? loadCrossEncoderFromFolder(modelPath(settings.rerankerModel), { threads }) : createMaxSimReranker({ threads })));
        resident?.rerankers.set(rrKey, reranker);
      }
    }
    if (run) {
      const rr = reranker ? (reranker.baseline ? `built-in MaxSim reranker: ${BASELINE_RERANKER_LABEL}` : `cross-encoder ${reranker.id}`) : null;
      run.models = { embedders: [{ name: embedderName(embSpec), description: describeEmbedder(embSpec), id: embedder.id }], reranker: rr };
    }
    const cacheDir = params.cacheDir ? resolve(params.cacheDir) : resolveCacheDir(workspace);
    const embCache = new EmbeddingCache(cacheDir);
    const chunkCache = new ChunkCache(cacheDir);
    if (reranker) {
      const rcKey = `${cacheDir}|${reranker.id}`;
      rerankCache = resident?.rerankCaches.get(rcKey) ?? PersistentRerankCache.open(cacheDir, reranker.id);
      resident?.rerankCaches.set(rcKey, rerankCache);
    }
    const docSha = new Map(corpus.documents.map((d) => [d.source, d.sha256]));
    const emb = embedder;
    const tokenCounts = TokenCountCache.open(cacheDir, emb.id);

    const out: EngineOutput = await timeStage('engine', () =>
      runEngine({
        documents: corpus.documents,
        questions,
        settings,
        embedder: emb,
        reranker,
        corpusKey: corpusHash,
        signal: hooks.signal,
        faultInjection: params.faultInjection,
        caches: {
          embedChunks: (chunks, chunker) => embedChunksCached(chunks, docSha, chunkerConfigKey(chunker, settings.chunkerParams) + (chunker === 'semantic' ? `|${emb.id}` : ''), emb, embCache),
          rerank: rerankCache ?? undefined,
          bm25: async (chunks, opts) => (await loadOrBuildBm25Async(chunks, cacheDir, opts)).index,
          tokenCounts,
          getChunks: (doc, key) => chunkCache.getChunks(doc, key),
          putChunks: (doc, key, chunks) => chunkCache.putChunks(doc, key, chunks),
          stages: resident?.stages,
        },
        onProgress: (p) => {
          engineTotalUnits = p.total;
          progress(p.done, p.total, p.stage);
          if (run && performance.now() - lastRunJson > 1000) {
            lastRunJson = performance.now();
            run.progress = { finished: p.done, total: p.total, stage: p.stage };
            writeRunJson();
          }
        },
      }),
    );
    rerankCache?.flush();
    chunkCache.flush();
    tokenCounts.flush();
    for (const st of out.stages) if (st.error) warnings.push(st.error);

    progressAfter('metrics');
    const chunksOf = new Map(out.stages.map((s) => [s.chunker, s.chunks]));
    const failedItems = out.items.filter((i) => i.status === 'failed');
    // Every item failed: nothing was measured, so the run failed (some failed items only are reported).
    const allFailed = out.items.length > 0 && failedItems.length === out.items.length;
    for (const f of failedItems.slice(0, 20)) warnings.push(`item ${f.question} × ${f.config} failed: ${f.error}`);
    if (failedItems.length > 20) warnings.push(`… ${failedItems.length - 20} more failed items`);
    const agg = await timeStage('aggregate', () => aggregate(out.configs, out.items, questions, settings));
    // Measured latency per config: median and IQR of the per-query times (reported; in the verdict only with weights.latency > 0).
    const latency = new Map(out.configs.map((c) => [c.id, latencySummary(out.items.filter((i) => i.config === c.id && i.status === 'ok').map((i) => i.retrieveMs + i.rerankMs))]));
    const stage = await timeStage('verdict', () =>
      verdictStage({ agg, settings, latency, models: { embedderParameters: emb.parameters, rerankerParameters: reranker?.parameters ?? null, poolSize: settings.poolSize } }),
    );
    const results: ResultsFile = {
      spanproof: 1,
      k: settings.k,
      tau: settings.tau,
      n: questions.length,
      poolSize: settings.poolSize,
      primaryMetric: agg.primaryMetric,
      seed: settings.bootstrap.seed,
      resamples: settings.bootstrap.resamples,
      questions: questions.length,
      acceptance,
      configs: stage.configs,
      skipped: corpus.skipped.map((s) => ({ source: s.source, reason: s.reason, detail: s.detail })),
      errors: [
        ...out.stages.filter((s) => s.error).map((s) => ({ stage: 'chunker', chunker: s.chunker, message: s.error! })),
        ...failedItems.map((f) => ({ stage: 'item', config: f.config, question: f.question, message: f.error ?? 'failed' })),
      ],
    };

    // Timings.
    const perConfig: TimingsFile['perConfig'] = {};
    for (const c of out.configs) {
      const its = out.items.filter((i) => i.config === c.id && i.status === 'ok');
      const l = latency.get(c.id)!;
      perConfig[c.id] = {
        retrieveMs: its.reduce((s, i) => s + i.retrieveMs, 0),
        rerankMs: its.reduce((s, i) => s + i.rerankMs, 0),
        medianQueryMs: l.n ? l.medianMs : 0,
        p25QueryMs: l.n ? l.p25Ms : 0,
        p75QueryMs: l.n ? l.p75Ms : 0,
        timedQueries: l.n,
      };
    }
    const timings: TimingsFile = {
      totalMs: 0,
      stages: stageMs,
      perChunker: Object.fromEntries(out.stages.map((s) => [s.chunker, { chunkMs: s.chunkMs, bm25Ms: s.bm25Ms, embedMs: s.embedMs, chunks: s.chunks.length, cacheHit: s.cachedDocs === corpus.documents.length, cachedDocs: s.cachedDocs }])),
      perConfig,
      perItem: (() => {
        const o: NonNullable<TimingsFile['perItem']> = {};
        for (const it of out.items) if (it.status === 'ok') (o[it.question] ??= {})[it.config] = { retrieveMs: it.retrieveMs, rerankMs: it.rerankMs };
        return o;
      })(),
    };
    const ranking = rankingEntries(stage.ranking, timings, results);

    const records = out.items.map((it) => questionRecord(it, chunksOf.get(it.chunker) ?? [], settings.k));
    if (runDir && run) {
      progressAfter('write');
      const qOrder = new Map(questions.map((q, i) => [q.id, i]));
      const sorted = [...records].sort((a, b) => (qOrder.get(a.question)! - qOrder.get(b.question)!) || (a.config < b.config ? -1 : a.config > b.config ? 1 : 0));
      writeFileAtomic(join(runDir, 'results.json'), stableStringify(results, 2) + '\n');
      writeFileAtomic(join(runDir, 'ranking.json'), stableStringify(stage.ranking, 2) + '\n');
      writeFileAtomic(join(runDir, 'questions.jsonl'), sorted.map((r) => stableStringify(r)).join('\n') + (sorted.length ? '\n' : ''));
      const chunkTexts: Record<string, Record<string, string>> = {};
      for (const it of out.items) {
        const cut = it.scores?.miss;
        if (!cut) continue;
        const map = (chunkTexts[it.chunker] ??= {});
        const cs = chunksOf.get(it.chunker) ?? [];
        for (const ref of [cut.bestChunk, cut.neighbour]) if (ref && cs[ref.chunk]) map[ref.id] = cs[ref.chunk].text;
      }
      const evidence: EvidenceFile = {
        questions: questions.map((q) => ({ id: q.id, question: q.question, match: q.match, spans: q.spans.map((s) => ({ ...s, text: byName.get(s.source)!.text.slice(s.start, s.end) })) })),
        chunks: chunkTexts,
      };
      writeFileAtomic(join(runDir, 'evidence.json'), stableStringify(evidence, 2) + '\n');
      if (params.keepChunks) {
        mkdirSync(join(runDir, 'chunks'), { recursive: true });
        for (const st of out.stages) {
          writeFileAtomic(join(runDir, 'chunks', `${st.chunker}.jsonl`), st.chunks.map((c) => JSON.stringify({ chunker: st.chunker, id: c.id, source: c.source, start: c.start, end: c.end, text: c.text })).join('\n') + (st.chunks.length ? '\n' : ''));
        }
      }
      timings.totalMs = performance.now() - t0;
      writeFileAtomic(join(runDir, 'timings.json'), JSON.stringify(timings, null, 2) + '\n');
      run.status = allFailed ? 'failed' : 'succeeded';
      if (allFailed) run.error = { code: 'internal', message: `every one of the ${failedItems.length} question × config items failed; first: ${failedItems[0].error ?? 'failed'}` };
      run.progress = { finished: run.progress.total, total: run.progress.total, stage: 'done' };
      run.endedAt = new Date().toISOString();
      run.counts = { documents: corpus.documents.length, questions: questions.length, chunks: Object.fromEntries(out.stages.map((s) => [s.chunker, s.chunks.length])) };
      writeRunJson();
    }
    timings.totalMs = performance.now() - t0;
    return { runDir, status: allFailed ? 'failed' : 'succeeded', location: run?.location ?? null, results, ranking, verdict: stage.ranking.verdict, rankingFile: stage.ranking, timings, ...(params.returnRecords ? { records } : {}), warnings };
  } catch (e) {
    if (run) {
      run.status = isSpanproofError(e) && e.code === 'cancelled' ? 'cancelled' : 'failed';
      run.error = errorPayload(e);
      run.endedAt = new Date().toISOString();
      try { writeRunJson(); } catch { /* the original error matters more */ }
    }
    if (isSpanproofError(e) && e.code === 'cancelled' && runDir) (e as SpanproofError & { runDir?: string }).runDir = runDir;
    throw e;
  } finally {
    if (!hooks.resident) {
      await embedder?.dispose().catch(() => undefined);
      await reranker?.dispose().catch(() => undefined);
    }
  }
}
