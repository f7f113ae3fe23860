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

/** ./engine.ts `runChunker`: one chunker in this thread; `onCold` is called when it had to chunk a document its cache did not hold. */
export type RunChunker = (ctx: EngineContext, chunker: ChunkerId, onCold?: () => void) => Promise<ChunkerOutput>;
/**
 * Runs `chunkers` and returns their outputs in the same order. Without `startThread`, one after the
 * other in this thread. With it, the thread is started when this thread's first chunker had to chunk
 * a document its cache did not hold (a cold run: a warm one, all from the caches, is faster without
 * starting a second isolate); from then on this thread and the chunker thread each take the next
 * chunker of the list until none is left (./parallel.ts), the thread only once it has loaded its
 * models. What the thread sends back for the run-wide caches goes into this thread's caches. When the
 * thread fails (not a cancel), its chunker and the rest run here. The thread is disposed before this
 * returns or throws.
 */
export async function runChunkers(ctx: EngineContext, chunkers: readonly ChunkerId[], startThread: (() => ChunkerThread) | undefined, runChunker: RunChunker): Promise<ChunkerOutput[]> {
  const outs: ChunkerOutput[] = new Array(chunkers.length);
  let next = 0;
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
    while (next < chunkers.length) {
      const i = next++;
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
    if (thread || !startThread || next >= chunkers.length) return;
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
    while (next < chunkers.length) {
      const i = next++;
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

