/**
 * The order in which a run's chunkers are run (./engine.ts `runEngine`): one after the other in this
 * thread, or shared with a chunker thread (./parallel.ts) — each chunker whole, outputs in plan order.
 */
import type { SpanproofError } from '../errors';
import type { ChunkerId } from '../types';
import type { EngineContext } from './engine';
import type { ChunkerThread, ChunkerThreadResult } from './parallel';
import type { ChunkerStage, ItemRecord } from './types';

/** One chunker's output (./engine.ts `runChunker`). */
export interface ChunkerOutput {
  stage: ChunkerStage;
  items: ItemRecord[];
  built: boolean;
}

/**
 * A chunker's cold cost relative to the others, for the order the chunker thread takes them in:
 * `semantic` embeds every sentence window before it chunks, then indexes and embeds its chunks like
 * the others (cold FastAPI docs, one thread: semantic 1,143 ms, the others 810–870 ms after the first;
 * in two threads 2.5–2.6 s against 1.1–2.0 s).
 */
export function coldCost(chunker: ChunkerId): number {
  return chunker === 'semantic' ? 2 : 1;
}

/** ./engine.ts `runChunker`: one chunker in this thread; `onCold` is called when it meets the first document its cache does not hold (before chunking it). */
export type RunChunker = (ctx: EngineContext, chunker: ChunkerId, onCold?: () => void) => Promise<ChunkerOutput>;
/**
 * Runs `chunkers` and returns their outputs in the same order. Without `startThread`, one after the
 * other in this thread. With it, the thread is started when this thread's first chunker meets a
 * document its cache does not hold, before chunking it (a cold run: a warm one, all from the caches, is faster without
 * starting a second isolate); from then on this thread takes the next chunker of the list and the
 * chunker thread the costliest one left ({@link coldCost}, ties in list order) until none is left
 * (./parallel.ts), the thread only once it has loaded its models. (Longest first for the thread: on the
 * cold FastAPI grid, the thread starting with `semantic` while this thread does `fixed` instead of
 * `semantic` last in this thread: wall 4.89–5.42 vs 5.32–5.70 s, four interleaved runs, 2026-12-08;
 * `semantic` first in this thread was no better, 5.35–5.49 s: the thread then starts on a cheap
 * chunker and the three cheap ones split 2 : 1 the wrong way.)
 * The order chunkers run in does not change the run files: outputs are joined in list order and the
 * run-wide caches hold the same values whichever thread fills them. What the thread sends back for the
 * run-wide caches goes into this thread's caches. When the thread fails (not a cancel), its chunker and the rest run here. The thread is disposed before this
 * returns or throws.
 */
export async function runChunkers(ctx: EngineContext, chunkers: readonly ChunkerId[], startThread: (() => ChunkerThread) | undefined, runChunker: RunChunker): Promise<ChunkerOutput[]> {
  const outs: ChunkerOutput[] = new Array(chunkers.length);
  const left = chunkers.map((_, i) => i); // not yet taken, in list order
  const costliest = (): number => {
    let best = 0;
    for (let j = 1; j < left.length; j++) if (coldCost(chunkers[left[j]]) > coldCost(chunkers[left[best]])) best = j;
    return left.splice(best, 1)[0];
  };
  let thread: ChunkerThread | null = null;
  let remoteDone: Promise<void> | null = null;
  let offCancel: (() => void) | null = null;
  const stopped = (e: unknown) => ctx.caches?.notices?.push(`the second grid thread stopped (${(e as Error).message}); the run went on in one thread.`);
  const remote = async (t: ChunkerThread) => {
    try {
      await t.ready; // a chunker is taken only by a thread that can start it now
    } catch (e) {
      stopped(e);
      return;
    }
    while (left.length > 0) {
      const i = costliest();
      try {
        outs[i] = takeThreadResult(ctx, await t.run({ chunker: chunkers[i], queryVectors: new Map(ctx.queryVectors), queryEmbedMsPer: new Map(ctx.queryEmbedMsPer) }, (u) => { ctx.progress.done += u; }));
      } catch (e) {
        if ((e as SpanproofError).code === 'cancelled' || ctx.progress.cancelled) throw e;
        stopped(e); // the thread is gone: this chunker and the rest run here
        outs[i] = await runChunker(ctx, chunkers[i]);
        return;
      }
    }
  };
  const cold = () => {
    if (thread || !startThread || left.length === 0) return;
    const t = startThread();
    thread = t;
    // This thread may be waiting for the chunker thread's last chunker (not ticking): a cancel must
    // reach the other thread at once, not when this one next looks (#13 fresh-user: 13–21 s on a big corpus).
    offCancel = ctx.progress.onCancel(() => t.cancel());
    remoteDone = remote(t);
    remoteDone.catch(() => undefined); // awaited below; a cancel may reject it while this thread unwinds
  };
  try {
    let builtPrevious = false;
    while (left.length > 0) {
      const i = left.shift()!;
      // Between chunker stages the previous stage's garbage (Markdown trees, token arrays, index
      // builders) is dead; collecting it keeps peak memory near the live set. Skipped when the previous
      // stage came from the resident memo (nothing was built, and a full collection of a heap holding
      // resident indexes would cost more than the run).
      if (builtPrevious) ctx.progress.collect();
      outs[i] = await runChunker(ctx, chunkers[i], cold);
      builtPrevious = outs[i].built;
    }
    if (remoteDone) await remoteDone;
  } catch (e) {
    // A cancel seen by either side stops the other: this thread at its next tick, the chunker thread through cancel().
    (thread as ChunkerThread | null)?.cancel();
    throw e;
  } finally {
    (offCancel as (() => void) | null)?.();
    await (thread as ChunkerThread | null)?.dispose();
  }
  return outs;
}

/** A chunker thread's output, with its run-wide cache entries put into this thread's caches. */
function takeThreadResult(ctx: EngineContext, r: ChunkerThreadResult): ChunkerOutput {
  for (const [k, v] of r.rerankEntries) ctx.pairCache.set(k, v);
  if (ctx.caches?.tokenCounts) for (const [k, v] of r.tokenEntries) ctx.caches.tokenCounts.set(k, v);
  ctx.caches?.notices?.push(...r.notices);
  return { stage: r.stage, items: r.items, built: r.built };
}

