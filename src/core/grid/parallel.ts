/**
 * Chunkers in a second thread (issue #13: "use both cores"). The engine (./engine.ts) runs each
 * chunker as one self-contained unit ({@link runChunker}); with a {@link ChunkerThread} it hands
 * chunkers to that thread and runs the others itself, both taking the next chunker of the plan
 * from one queue, and concatenates the outputs in plan order — so results.json, ranking.json and
 * questions.jsonl are the same bytes as a one-thread run (a unit test compares them).
 *
 * This module is both sides' logic without the thread itself: the host defines the job; the thread
 * (src/worker/chunkerThread.ts, a worker_threads Worker) calls {@link openChunkerThreadServer} with
 * the run's inputs, which loads its own models (the same settings, so the same models) and opens its
 * own caches, and serves one chunker at a time. Caches that are one file for the whole run (reranker
 * pair scores, context token counts) keep one writer: the thread sends the entries it set back with
 * each chunker and the host writes them; per-chunker cache files (chunks, BM25, embeddings) are the
 * thread's own and it writes them itself.
 *
 * Only for runs whose models are all local (an endpoint model would send its requests twice and split
 * its ledger) and that keep no resident state (the stage memo of the extension's worker).
 */
import { SpanproofError } from '../errors';
import type { ChunkerId, CorpusDocument } from '../types';
import type { ResolvedQuestion } from '../groundtruth';
import type { RunSettings } from '../settings';
import { gridModelNeeds, loadRunModels, type RunModels } from './models';
import { openRunCaches, type RunCaches } from './caches';
import { engineContext, runChunker } from './engine';
import { RunProgress } from './progress';
import type { ChunkerStage, ItemRecord } from './types';

/** What the thread needs to rebuild the run's engine context (structured-cloneable). */
export interface ChunkerThreadInit {
  workspace: string;
  cacheDir: string;
  settings: RunSettings;
  documents: CorpusDocument[];
  questions: ResolvedQuestion[];
  corpusKey: string;
  /** A sharded run's selection: question ids per chunker (./shard.ts). */
  only?: Record<string, string[]>;
  faultInjection?: { question: string; config: string };
  /** The run's start (EngineInput.runStartEpochMs), for timings.json `startMs`. */
  runStartEpochMs?: number;
}

/** One chunker for the thread, with what the host computed once for every chunker. */
export interface ChunkerJob {
  chunker: ChunkerId;
  /** The questions' embeddings per embedder name (questions × dim). */
  queryVectors: Map<string, Float32Array>;
  /** ms of question embedding per question, per embedder name. */
  queryEmbedMsPer: Map<string, number>;
}

/** One chunker's output from the thread. */
export interface ChunkerThreadResult {
  stage: ChunkerStage;
  items: ItemRecord[];
  built: boolean;
  /** Reranker pair scores the thread computed (key, score), in the order set: for the host's cache file. */
  rerankEntries: Array<[string, number]>;
  /** Context token counts the thread computed (key, tokens): for the host's cache file. */
  tokenEntries: Array<[string, number]>;
  /** Cache files the thread could not use (damaged: rebuilt), one line each. */
  notices: string[];
}

/** The host's handle on a chunker thread. */
export interface ChunkerThread {
  /**
   * Settles when the thread has loaded its models (resolves) or cannot serve (rejects with
   * SpanproofError('worker-crashed') naming why); the engine hands it a chunker only after that.
   */
  ready: Promise<void>;
  /**
   * Runs one chunker in the thread; `onUnits(n)` is called as it adds n work units.
   * @throws SpanproofError('cancelled') after {@link cancel}; ('worker-crashed') when the thread
   *   could not start or died — the engine then runs the chunker itself.
   */
  run(job: ChunkerJob, onUnits: (units: number) => void): Promise<ChunkerThreadResult>;
  /** Asks the thread to stop at its next yield (≤ ~40 ms of work). */
  cancel(): void;
  /** Stops the thread (after releasing its models). Never throws. */
  dispose(): Promise<void>;
}

/** Starts a chunker thread for a run (the host's implementation: src/worker/chunkerPool.ts). */
export type ChunkerThreadFactory = (init: ChunkerThreadInit) => ChunkerThread;

/** The thread's side: loads models and caches once, then runs chunkers one at a time. */
export interface ChunkerThreadServer {
  /** Settles when the models are loaded (rejects with the load's error). */
  ready: Promise<void>;
  run(job: ChunkerJob, onUnits: (units: number) => void): Promise<ChunkerThreadResult>;
  /** Releases the models; the server is unusable afterwards. */
  close(): Promise<void>;
}

/**
 * Opens the thread's side of a run: starts loading the run's models at once (so the load overlaps the
 * host's work) and opens the caches under `init.cacheDir`.
 * @param signal aborted on the host's cancel: the chunker in flight stops with SpanproofError('cancelled').
 */
export function openChunkerThreadServer(init: ChunkerThreadInit, signal: AbortSignal): ChunkerThreadServer {
  const { settings } = init;
  const modelsReady: Promise<RunModels> = loadRunModels({
    settings, workspace: init.workspace, needsEmbedder: gridModelNeeds(settings).embedder, needsReranker: gridModelNeeds(settings).reranker,
    cacheDir: init.cacheDir, signal,
  });
  modelsReady.catch(() => undefined); // surfaced by run()
  let caches: RunCaches | null = null;
  const noticed = new Set<string>();
  const only = init.only ? new Map(Object.entries(init.only).map(([k, v]) => [k, new Set(v)])) : undefined;
  return {
    ready: modelsReady.then(() => undefined),
    async run(job, onUnits) {
      const models = await modelsReady;
      if (models.endpoint) throw new SpanproofError('internal', 'a chunker thread cannot serve endpoint models.');
      caches ??= openRunCaches(init.cacheDir, models.embedder!, models.reranker, undefined, { sharedFiles: false });
      let reported = 0;
      const progress = new RunProgress(0, (p) => {
        if (p.done > reported) onUnits(p.done - reported);
        reported = Math.max(reported, p.done);
      }, signal);
      const ctx = engineContext({
        documents: init.documents, questions: init.questions, settings, embedder: models.embedder!, embedders: new Map(models.embedders.map((e) => [e.name, e.model])),
        reranker: models.reranker, caches: caches.engine, corpusKey: init.corpusKey, progress, faultInjection: init.faultInjection, only, threadNumber: 2,
        runStartEpochMs: init.runStartEpochMs,
      }, { vectors: job.queryVectors, msPer: job.queryEmbedMsPer });
      const out = await runChunker(ctx, job.chunker);
      progress.report();
      progress.collect(); // the stage's garbage, before the next chunker (as the engine does between its own)
      caches.flush(); // the per-chunker files (chunk boundaries); the shared ones are the host's to write
      const rerank = caches.engine.rerank as { takeFresh?: () => Array<[string, number]> } | undefined;
      const tokens = caches.engine.tokenCounts as { takeFresh?: () => Array<[string, number]> } | undefined;
      const notices = caches.notices().filter((n) => !noticed.has(n));
      for (const n of notices) noticed.add(n);
      return { ...out, rerankEntries: rerank?.takeFresh?.() ?? [], tokenEntries: tokens?.takeFresh?.() ?? [], notices };
    },
    async close() {
      const models = await modelsReady.catch(() => null);
      await models?.release();
    },
  };
}
