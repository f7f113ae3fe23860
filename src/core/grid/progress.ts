/**
 * Progress and cancellation of a run: `done` of `total` work units in a named `stage`, reported to
 * the host at least every ~40 ms of work (the worker forwards it ≥ every 250 ms), with a yield to the
 * event loop each time so a cancel is received and honoured within a second (`signal.aborted` →
 * SpanproofError('cancelled')).
 *
 * It also keeps peak memory near the live set: when the host exposes `gc` (the worker does, see
 * src/worker/main.ts) and the used heap grew by more than {@link GC_GROWTH_BYTES} since the last
 * collection, it collects at the next yield (a stage producing much short-lived garbage — Markdown
 * trees of the heading chunker — must not push peak RSS up), and {@link RunProgress.collect} collects
 * between chunker stages.
 */
import { performance } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import { SpanproofError } from '../errors';

/**
 * Heap growth (bytes) since the last collection that triggers one at the next yield (hosts exposing
 * `gc`). 48 MB since the chunker thread (issue #13): each of the two isolates may hold this much
 * garbage at once. FastAPI 24 configs cold, fc6471c, 20:25–20:27 UTC: peak RSS 357, 357, 405, 408 MB at
 * 96 MB → 334, 341, 345, 376 MB at 48 (two threads); 268, 272, 230 → 221, 223, 228 MB (one thread);
 * wall the same within noise (5.2–6.0 s vs 4.9–5.6 s; 5.9–7.5 vs 5.2–6.7).
 */
export const GC_GROWTH_BYTES = 48 * 1024 * 1024;

/** Progress of the engine: `done` of `total` work units in `stage`. */
export interface EngineProgress {
  done: number;
  total: number;
  stage: string;
}

/** Time between yields to the event loop, ms. */
const YIELD_MS = 40;

export class RunProgress {
  done = 0;
  stage = 'start';
  private lastYield = performance.now();
  private readonly gc = (globalThis as { gc?: () => void }).gc;
  private heapAfterGc: number;

  constructor(readonly total: number, private readonly onProgress?: (p: EngineProgress) => void, private readonly signal?: AbortSignal) {
    this.heapAfterGc = this.gc ? getHeapStatistics().used_heap_size : 0;
  }

  /** A progress object that reports nothing and is never cancelled (one-off work such as `spanproof query`). */
  static silent(): RunProgress {
    return new RunProgress(0);
  }

  report(): void {
    this.onProgress?.({ done: this.done, total: this.total, stage: this.stage });
  }

  /** Whether the run was cancelled. */
  get cancelled(): boolean {
    return this.signal?.aborted === true;
  }

  /**
   * Calls `listener` once when the run is cancelled (at once if it already is), until the returned
   * function is called: for work that waits on something else (the chunker thread) rather than
   * ticking.
   */
  onCancel(listener: () => void): () => void {
    const signal = this.signal;
    if (!signal) return () => undefined;
    if (signal.aborted) {
      listener();
      return () => undefined;
    }
    signal.addEventListener('abort', listener, { once: true });
    return () => signal.removeEventListener('abort', listener);
  }

  /** Throws SpanproofError('cancelled') when the run was cancelled. */
  throwIfCancelled(): void {
    if (this.signal?.aborted) throw new SpanproofError('cancelled', 'the run was cancelled.');
  }

  /** Adds `units` done; every ~40 ms reports, yields to the event loop (and collects if the heap grew); then honours a cancel. */
  async tick(units = 0): Promise<void> {
    this.done += units;
    if (performance.now() - this.lastYield > YIELD_MS) {
      if (this.gc && getHeapStatistics().used_heap_size - this.heapAfterGc > GC_GROWTH_BYTES) this.collect();
      this.report();
      await new Promise<void>((r) => setImmediate(r));
      this.lastYield = performance.now();
    }
    this.throwIfCancelled();
  }

  /** Enters stage `s`: reports it at once, yields, then honours a cancel. */
  async setStage(s: string): Promise<void> {
    this.stage = s;
    this.report();
    await new Promise<void>((r) => setImmediate(r));
    this.lastYield = performance.now();
    this.throwIfCancelled();
  }

  /** Enters stage `s` and adds `units` without a cancellation point (work in flight must settle first). */
  advanceWithoutYield(units: number, s: string): void {
    this.done += units;
    this.stage = s;
    this.report();
  }

  /**
   * A stage worth `units` work units whose own progress is a fraction: `to(f)` moves `done` to `f`
   * (0–1) of them (never back), `finish()` adds what is left — so the stage always adds exactly
   * `units`, however often (or never) it reported. Reports happen at the next `tick`/`setStage`.
   */
  part(units: number): { to(f: number): void; finish(): void } {
    let given = 0;
    const give = (u: number): void => {
      if (u > given) this.done += u - given;
      given = Math.max(given, u);
    };
    return { to: (f) => give(Math.min(units, Math.floor(units * Math.max(0, f)))), finish: () => give(units) };
  }

  /** A full garbage collection when the host exposes `gc` (no-op otherwise). */
  collect(): void {
    if (!this.gc) return;
    this.gc();
    this.heapAfterGc = getHeapStatistics().used_heap_size;
  }
}
