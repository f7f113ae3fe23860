/**
 * The host side of the chunker thread (src/core/grid/parallel.ts): one worker_threads Worker running
 * dist/chunker-thread.js (./chunkerThread.ts) with the run's inputs as `workerData`. It starts
 * loading its models at once, so by the time the engine has embedded the questions and is chunking
 * the first chunker itself, the thread is about ready for the second.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { SpanproofError, type SpanproofErrorCode } from '../core/errors';
import type { ChunkerJob, ChunkerThread, ChunkerThreadFactory, ChunkerThreadInit, ChunkerThreadResult } from '../core/grid/parallel';
import type { ChunkerThreadMessage, ChunkerThreadReply } from './chunkerProtocol';

/**
 * `$SPANPROOF_CHUNKER_THREAD` when set (tests point it at src/worker/chunkerThread.ts), else
 * `chunker-thread.js` beside the running bundle, else the repo's dist/chunker-thread.js.
 */
export function defaultChunkerThreadPath(): string {
  if (process.env.SPANPROOF_CHUNKER_THREAD) return resolve(process.env.SPANPROOF_CHUNKER_THREAD);
  const beside = join(__dirname, 'chunker-thread.js');
  if (existsSync(beside)) return beside;
  return resolve(__dirname, '..', '..', 'dist', 'chunker-thread.js');
}

/** How long {@link ChunkerThread.dispose} waits for the thread to release its models and exit, ms. */
const CLOSE_WAIT_MS = 5000;
/**
 * How long {@link ChunkerThread.cancel} waits for the chunker in flight to stop (the thread yields
 * every ~40 ms of work) before terminating the thread, ms. A terminated thread may leave a cache
 * write's temp file, never a half-written entry (writes are temp + rename).
 */
export const CANCEL_WAIT_MS = 2000;

/**
 * Grid threads for a one-shot run: `$SPANPROOF_GRID_THREADS` (1 = this thread only, 2 = a chunker
 * thread too) when set, else 2 on a machine with at least 2 cores and 1 on one core.
 * @throws SpanproofError('bad-input') for another value, naming the variable and the fix.
 */
export function gridThreads(env: NodeJS.ProcessEnv = process.env): number {
  const v = env.SPANPROOF_GRID_THREADS;
  if (v === undefined || v.trim() === '') return availableParallelism() >= 2 ? 2 : 1;
  if (v.trim() === '1' || v.trim() === '2') return Number(v.trim());
  throw new SpanproofError('bad-input', `SPANPROOF_GRID_THREADS is "${v}", not 1 or 2.`, {
    field: 'SPANPROOF_GRID_THREADS', fix: 'set SPANPROOF_GRID_THREADS=1 (one thread) or 2 (a second thread for chunkers), or unset it (2 on ≥ 2 cores).',
  });
}

/** A {@link ChunkerThreadFactory} over a worker_threads Worker at `path`. */
export function workerChunkerThreads(path = defaultChunkerThreadPath()): ChunkerThreadFactory {
  return (init: ChunkerThreadInit): ChunkerThread => {
    let pending: { resolve(r: ChunkerThreadResult): void; reject(e: Error): void; onUnits(n: number): void } | null = null;
    let dead: Error | null = null;
    let worker: Worker | null = null;
    let cancelTimer: NodeJS.Timeout | null = null;
    const fail = (e: Error) => {
      dead ??= e;
      readyState?.reject(dead);
      pending?.reject(e);
      pending = null;
    };
    try {
      if (!existsSync(path)) throw new Error(`the chunker thread script is missing: ${path}`);
      worker = path.endsWith('.ts')
        ? new Worker(`require('tsx/cjs'); require(${JSON.stringify(path)});`, { eval: true, workerData: init })
        : new Worker(path, { workerData: init });
    } catch (e) {
      dead = new SpanproofError('worker-crashed', `the chunker thread could not start: ${(e as Error).message}`);
    }
    let readyState: { resolve(): void; reject(e: Error): void } | null = null;
    const ready = new Promise<void>((res, rej) => (readyState = { resolve: res, reject: rej }));
    ready.catch(() => undefined); // the engine awaits it; a thread nobody asked stays quiet
    const exited = new Promise<void>((done) => {
      if (!worker) return done();
      worker.on('exit', (code) => {
        fail(new SpanproofError('worker-crashed', `the chunker thread exited (code ${code}).`));
        done();
      });
    });
    worker?.on('error', (e) => fail(new SpanproofError('worker-crashed', `the chunker thread crashed: ${e.message}`, { cause: e })));
    if (dead) readyState!.reject(dead);
    worker?.on('message', (m: ChunkerThreadReply) => {
      if (m.kind === 'ready') readyState?.resolve();
      else if (m.kind === 'unusable') fail(new SpanproofError('worker-crashed', `the chunker thread could not load the models: ${m.error.message}`));
      if (!pending) return;
      if (m.kind === 'units') pending.onUnits(m.units);
      else if (m.kind === 'done') {
        pending.resolve(m.result);
        pending = null;
      } else if (m.kind === 'failed') {
        const e = new SpanproofError(m.error.code as SpanproofErrorCode, m.error.message);
        if (m.error.stack) e.stack = m.error.stack;
        pending.reject(e);
        pending = null;
      }
    });
    const post = (m: ChunkerThreadMessage) => worker?.postMessage(m);
    return {
      ready,
      run(job: ChunkerJob, onUnits) {
        if (dead) return Promise.reject(dead);
        if (pending) return Promise.reject(new SpanproofError('internal', 'the chunker thread runs one chunker at a time.'));
        return new Promise<ChunkerThreadResult>((res, rej) => {
          pending = { resolve: res, reject: rej, onUnits };
          post({ kind: 'run', job });
        });
      },
      cancel() {
        post({ kind: 'cancel' });
        // The thread stops at its next yield (≤ ~40 ms of work); one that does not answer in time (stuck
        // in native code, or a bug) is terminated, and the chunker in flight ends as cancelled.
        if (!pending || cancelTimer) return;
        cancelTimer = setTimeout(() => {
          if (!pending || !worker) return;
          const p = pending;
          pending = null;
          dead ??= new SpanproofError('cancelled', 'the run was cancelled.');
          p.reject(new SpanproofError('cancelled', 'the run was cancelled (the chunker thread did not stop in time and was terminated).'));
          void worker.terminate();
        }, CANCEL_WAIT_MS);
        cancelTimer.unref();
      },
      async dispose() {
        if (!worker) return;
        const w = worker;
        worker = null;
        if (cancelTimer) clearTimeout(cancelTimer);
        w.postMessage({ kind: 'close' } satisfies ChunkerThreadMessage);
        const timer = setTimeout(() => void w.terminate(), CLOSE_WAIT_MS);
        await exited;
        clearTimeout(timer);
      },
    };
  };
}
