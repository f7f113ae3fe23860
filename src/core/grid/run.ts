/**
 * A whole grid run (SPEC §6, §10) as named stages, each in its own module with typed input and
 * output (docs/architecture.md draws them):
 *
 *   plan (./plan.ts) → load & resolve (./load.ts) → load models (./models.ts) → per chunker
 *   [chunk (./chunk.ts) → index (./indexing.ts) → retrieve (./retrieve.ts) → rerank (./rerank.ts) →
 *   score & attribute (./score.ts, ./context.ts)] (./engine.ts) → aggregate (./aggregate.ts,
 *   ./results.ts) → verdict (./ranking.ts) → write (src/core/runs/write.ts).
 *
 * Used by the worker (src/worker) for the CLI and the extension, and for the one-question re-run
 * (`questionIds`, `writeRun: false`, the resident state). The run directory is created first with
 * run.json `status: running`; it ends `succeeded`, `cancelled` (SpanproofError 'cancelled' from the
 * signal) or `failed` (with the error). Earlier runs are never touched.
 */
import { type ResourceMark, resourceMark, resourceSpan } from './resources';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { isSpanproofError } from '../errors';
import { VERSION } from '../version';
import { RunWriter, resolveCacheDir, stableStringify } from '../runs';
import { rankingEntries } from '../ranking';
import { parseRunSettings, validateRunSettings, type RunSettings } from '../settings';
import { openRunCaches } from './caches';
import { engineTotal, runEngine } from './engine';
import { planConfigs, planExternalConfigs } from './plan';
import { externalStage, externalTotal } from './external';
import { contextTokenCounter } from './context';
import { loadStage, type RunInputs } from './load';
import { endpointModels, gridModelNeeds, loadRunModels, type RunModels } from './models';
import { RunProgress } from './progress';
import { buildEvidence, buildTimings, configLatencies, questionRecords } from './results';
import { concludeResultsAsync } from './conclude';
import { shardItem, type ShardFile } from './merge';
import { selectionJson, shardSelection } from './shard';
import type { ResidentState } from './resident';
import type { EngineOutput, GridRunParams, GridRunResult } from './types';
import type { ChunkerThread, ChunkerThreadFactory } from './parallel';

export interface GridHooks {
  /** Keep models, pair caches and chunker stages here between runs (a resident worker); they are then not disposed. */
  resident?: ResidentState;
  signal?: AbortSignal;
  onProgress?: (p: { done: number; total: number; stage: string }) => void;
  onLog?: (level: 'info' | 'warn', message: string) => void;
  /**
   * Starts a second thread for some of the chunkers (./parallel.ts; the CLI passes one on a machine
   * with ≥ 2 cores). Used only when ≥ 2 chunkers run, every model is local and nothing is resident.
   */
  chunkerThreads?: ChunkerThreadFactory;
}

/** Wall time per named stage (timings.json `stages`, ms), and its CPU time and the peak RSS by its end (`resources`). */
class StageClock {
  readonly ms: Record<string, number> = {};
  readonly resources: Record<string, ResourceMark> = {};
  add(name: string, ms: number, start?: ResourceMark): void {
    this.ms[name] = (this.ms[name] ?? 0) + ms;
    if (start) {
      const r = resourceSpan(start);
      const prev = this.resources[name];
      this.resources[name] = prev ? { cpuMs: Math.round((prev.cpuMs + r.cpuMs) * 10) / 10, peakRssMB: Math.max(prev.peakRssMB, r.peakRssMB) } : r;
    }
  }
  time = async <T>(name: string, f: () => Promise<T> | T): Promise<T> => {
    const t = performance.now();
    const r = resourceMark();
    try {
      return await f();
    } finally {
      this.add(name, performance.now() - t, r);
    }
  };
}

/** What the stages after "load" share. */
interface RunState {
  params: GridRunParams;
  hooks: GridHooks;
  settings: RunSettings;
  inputs: RunInputs;
  writer: RunWriter | null;
  clock: StageClock;
  /** A sharded run (`params.shard`): the question ids of each group (chunker or external config id) it runs (./shard.ts). */
  only?: Map<string, Set<string>>;
  /** Starts the run's chunker thread, when it may have one ({@link chunkerThreadStarter}). */
  startThread?: () => ChunkerThread;
  t0: number;
}

/** Creates the run directory and writes run.json `running`, so a crash or cancel still leaves a record. */
/** Work units of the run (all, or its shard's). */
function runTotal(settings: RunSettings, questions: number, documents: number, only?: ReadonlyMap<string, ReadonlySet<string>>): number {
  const ext = only ? planExternalConfigs(settings).reduce((t, c) => t + (only.get(c.id)?.size ?? 0), 0) : externalTotal(settings, questions);
  return engineTotal(settings, questions, only, documents) + ext;
}

function startRun(params: GridRunParams, settings: RunSettings, inputs: RunInputs, only?: ReadonlyMap<string, ReadonlySet<string>>): RunWriter {
  return RunWriter.create({
    workspace: inputs.workspace, runsRoot: params.runsRoot, outDir: params.outDir,
    inputsKey: stableStringify({ settings, corpusHash: inputs.corpusHash, groundTruthHash: inputs.groundTruthHash }),
    init: {
      status: 'running', progress: { finished: 0, total: runTotal(settings, inputs.questions.length, inputs.corpus.documents.length, only) }, error: null,
      startedAt: new Date().toISOString(), endedAt: null, toolVersion: VERSION, settings, workspace: inputs.workspace,
      groundTruthFile: inputs.groundTruthFile, corpusHash: inputs.corpusHash, groundTruthHash: inputs.groundTruthHash,
      acceptance: inputs.acceptance, seed: settings.bootstrap.seed,
      counts: { documents: inputs.corpus.documents.length, questions: inputs.questions.length, chunks: {} },
    },
  });
}

/** Runs the grid and writes the run directory (unless `params.writeRun === false`). */
export async function runGrid(params: GridRunParams, hooks: GridHooks = {}): Promise<GridRunResult> {
  const t0 = performance.now();
  // Validate whatever the host sent (VS Code settings can hold anything): errors name the key.
  const settings = parseRunSettings(params.settings, 'settings');
  validateRunSettings(settings, { file: 'settings' }); // cross-key checks (chunker params, k ≤ poolSize) before any work
  const clock = new StageClock();
  hooks.onProgress?.({ done: 0, total: 1, stage: 'load' });
  const inputs = await loadStage({ workspace: params.workspace, groundTruthFile: params.groundTruthFile, settings, questionIds: params.questionIds, requireScorable: params.requireScorable, time: clock.time });
  const only = params.shard ? shardSelection(settings, inputs.questions.map((q) => q.id), params.shard) : undefined;
  const writer = params.writeRun !== false ? startRun(params, settings, inputs, only) : null;
  if (writer?.run.location.kind === 'user-cache') inputs.warnings.push(`the workspace is not writable; the run is written to ${writer.dir}`);
  const state: RunState = { params, hooks, settings, inputs, writer, clock, t0, only };
  let models: RunModels | null = null;
  try {
    state.startThread = chunkerThreadStarter(state);
    hooks.resident?.useCorpus(inputs.corpusHash);
    if (settings.embedders.length > 0 && settings.embeddingModel.trim()) inputs.warnings.push(`embeddingModel "${settings.embeddingModel}" is ignored: the embedders setting lists the run's embedders (${settings.embedders.join(', ')}).`);
    const modelsStart = resourceMark();
    models = await loadRunModels({
      settings, workspace: inputs.workspace, needsEmbedder: gridModelNeeds(settings).embedder, needsReranker: gridModelNeeds(settings).reranker, cacheDir: runCacheDir(state),
      apiKey: params.apiKey, signal: hooks.signal, resident: hooks.resident, onLoad: (ms) => clock.add('models', ms),
    });
    clock.resources.models = resourceSpan(modelsStart);
    if (writer) writer.run.models = models.describe();
    const { out, total } = await engineStage(state, models);
    return await concludeRun(state, models, out, total);
  } catch (e) {
    // Endpoint models: the requests sent before the failure or cancel (models-ledger.json).
    const ledger = models?.ledger();
    if (ledger) writer?.writeModelsLedger(ledger);
    writer?.abort(e);
    if (isSpanproofError(e) && e.code === 'cancelled' && writer) e.runDir = writer.dir;
    throw e;
  } finally {
    await models?.release();
  }
}

/**
 * What starts the run's chunker thread (./parallel.ts; the engine calls it once its first chunker is
 * cold): only with `hooks.chunkerThreads`, at least 2 chunkers to run, no resident state and no
 * endpoint model (those send requests; one thread sends them).
 */
function chunkerThreadStarter(s: RunState): (() => ChunkerThread) | undefined {
  const { hooks, settings, inputs, params } = s;
  if (!hooks.chunkerThreads || hooks.resident) return undefined;
  const chunkers = new Set(planConfigs(settings).map((c) => c.chunker).filter((c) => !s.only || s.only.has(c)));
  if (chunkers.size < 2 || inputs.questions.length === 0) return undefined;
  if (endpointModels(settings, gridModelNeeds(settings)).length > 0) return undefined;
  const factory = hooks.chunkerThreads;
  return () => factory({
    workspace: inputs.workspace, cacheDir: runCacheDir(s), settings, documents: [...inputs.corpus.documents], questions: [...inputs.questions],
    corpusKey: inputs.corpusHash, only: s.only ? selectionJson(s.only) : undefined, faultInjection: params.faultInjection,
    runStartEpochMs: performance.timeOrigin + s.t0,
  });
}

/** The run's cache folder: `params.cacheDir`, else the workspace's (user cache when not writable). */
function runCacheDir(s: RunState): string {
  return s.params.cacheDir ? resolve(s.params.cacheDir) : resolveCacheDir(s.inputs.workspace);
}

/** The engine over the run's caches, reporting progress to the host and into run.json. */
async function engineStage(s: RunState, models: RunModels): Promise<{ out: EngineOutput; total: number }> {
  const { params, hooks, settings, inputs } = s;
  const caches = openRunCaches(runCacheDir(s), models.embedder!, models.reranker, hooks.resident);
  const progress = new RunProgress(runTotal(settings, inputs.questions.length, inputs.corpus.documents.length, s.only), (p) => {
    hooks.onProgress?.(p);
    s.writer?.progress(p);
  }, hooks.signal);
  const out = await s.clock.time('engine', () =>
    runEngine({
      documents: inputs.corpus.documents, questions: inputs.questions, settings, embedder: models.embedder!, embedders: new Map(models.embedders.map((e) => [e.name, e.model])), reranker: models.reranker,
      corpusKey: inputs.corpusHash, caches: caches.engine, progress, faultInjection: params.faultInjection, only: s.only, startThread: s.startThread, runStartEpochMs: performance.timeOrigin + s.t0,
    }),
  );
  caches.flush();
  inputs.warnings.push(...caches.notices()); // a damaged cache is rebuilt, said in one line (#16 item 15)
  // endpoint models' caches: an edited or damaged value is asked again, said in one line
  for (const m of [...models.embedders.map((e) => e.model), models.reranker]) {
    const n = m?.takeCacheNotice?.();
    if (n) inputs.warnings.push(n);
  }
  if (settings.externalRetrievers.length) {
    // External retrievers (./external.ts) join the engine's configs and items; scoring on is shared.
    const ext = await s.clock.time('external', () => externalStage({
      settings, questions: inputs.questions, byName: inputs.byName, workspace: inputs.workspace, progress, signal: hooks.signal, only: s.only,
      contextTokens: contextTokenCounter(inputs.corpus.documents, models.embedder!, caches.engine.tokenCounts),
    }));
    out.configs.push(...ext.configs);
    out.items.push(...ext.items);
    inputs.warnings.push(...ext.warnings);
  }
  return { out, total: progress.total };
}

/** Aggregate → verdict → write, and the result for the host. */
async function concludeRun(s: RunState, models: RunModels, out: EngineOutput, total: number): Promise<GridRunResult> {
  const { params, hooks, settings, inputs, writer, clock } = s;
  /** After the engine: the bar stays full while metrics and files are produced. */
  const progressAfter = (stage: string) => hooks.onProgress?.({ done: total, total, stage });
  const warnings = inputs.warnings;
  for (const st of out.stages) if (st.error) warnings.push(st.error);
  progressAfter('metrics');
  const failedItems = out.items.filter((i) => i.status === 'failed');
  // Every item failed: nothing was measured, so the run failed (some failed items only are reported).
  const allFailed = out.items.length > 0 && failedItems.length === out.items.length;
  for (const f of failedItems.slice(0, 20)) warnings.push(`item ${f.question} × ${f.config} failed: ${f.error}`);
  if (failedItems.length > 20) warnings.push(`… ${failedItems.length - 20} more failed items`);
  // Measured latency per config: median and IQR of the per-query times (reported; in the verdict only with weights.latency > 0).
  const latency = configLatencies(out);
  const computeModels = { embedderParameters: models.embedder!.parameters, embedderParametersByName: Object.fromEntries(models.embedders.map((e) => [e.name, e.model.parameters])), rerankerParameters: models.reranker?.parameters ?? null, poolSize: settings.poolSize };
  const skipped = inputs.corpus.skipped.map((x) => ({ source: x.source, reason: x.reason, detail: x.detail }));
  const stageErrors = out.stages.filter((st) => st.error).map((st) => ({ chunker: st.chunker, error: st.error! }));
  // The statistics honour a cancel too (#16 N6: 100000 resamples ran ~20 s deaf to Ctrl-C): a progress
  // tick at every step yields to the event loop every ~40 ms and throws once the signal is aborted.
  const cancelPoint = new RunProgress(0, undefined, hooks.signal);
  const startStage = (name: string) => { const t = performance.now(); const r = resourceMark(); return () => clock.add(name, performance.now() - t, r); };
  const concluded = await concludeResultsAsync({ settings, configs: out.configs, items: out.items, stageErrors, questions: inputs.questions, acceptance: inputs.acceptance, skipped, computeModels, latency, startStage }, () => cancelPoint.tick());
  const { verdict } = concluded;
  // A shard's results.json covers only its share of the work, and says so; `spanproof merge` recomputes the whole.
  const results = params.shard ? { ...concluded.results, shard: params.shard } : concluded.results;
  const timings = buildTimings(out, latency, clock.ms, inputs.corpus.documents.length, clock.resources);
  const ranking = rankingEntries(verdict.ranking, timings, results);
  const records = questionRecords(out, settings.k);
  if (writer) {
    progressAfter('write');
    timings.totalMs = performance.now() - s.t0;
    const ledger = models.ledger(); // endpoint models: the requests they sent, as the judges' ledger.json
    if (ledger) writer.writeModelsLedger(ledger);
    writer.writeOutputs({ results, ranking: verdict.ranking, records, questionOrder: inputs.questions.map((q) => q.id), evidence: buildEvidence(inputs.questions, inputs.byName, out), chunks: params.keepChunks ? out.stages : undefined, timings });
    if (params.shard) {
      const shardFile: ShardFile = { spanproof: 1, shard: params.shard, units: selectionJson(s.only!), questionOrder: inputs.questions.map((q) => q.id), computeModels, stageErrors, skipped };
      writer.writeShard(shardFile, out.items.map((it) => JSON.stringify(shardItem(it))));
    }
    const error = allFailed ? { code: 'internal', message: `every one of the ${failedItems.length} question × config items failed; first: ${failedItems[0].error ?? 'failed'}` } : null;
    writer.finish(allFailed ? 'failed' : 'succeeded', error, { documents: inputs.corpus.documents.length, questions: inputs.questions.length, chunks: Object.fromEntries(out.stages.map((st) => [st.chunker, st.chunks.length])) });
  }
  timings.totalMs = performance.now() - s.t0;
  return { runDir: writer?.dir ?? null, status: allFailed ? 'failed' : 'succeeded', location: writer?.run.location ?? null, results, ranking, verdict: verdict.ranking.verdict, rankingFile: verdict.ranking, timings, ...(params.returnRecords ? { records } : {}), warnings };
}
