/**
 * A long pure computation written once, as a generator that yields between steps of bounded work
 * (#16 N6: the bootstrap of a run with bootstrap.resamples = 100000 ran 20 s without a cancellation
 * point, so Ctrl-C waited for it). {@link runSteps} runs it to the end synchronously (tests, the merge
 * of shards); {@link runStepsAsync} awaits `checkpoint` at every yield — the grid passes its
 * progress tick, which yields to the event loop every ~40 ms (so a cancel message is received) and
 * throws SpanproofError('cancelled') once the run's signal is aborted. Both give the same result.
 */

/** A computation of `T` that yields (nothing) between steps. */
export type Steps<T> = Generator<void, T, void>;

/** Runs `steps` to the end without pausing and returns its result. */
export function runSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** Runs `steps` to the end, awaiting `checkpoint()` at every yield (it may throw to stop the work). */
export async function runStepsAsync<T>(steps: Steps<T>, checkpoint: () => Promise<void>): Promise<T> {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    await checkpoint();
  }
}
