/**
 * CPU profile of the thread that runs the grid (the extension's worker thread, the CLI's own thread)
 * during a grid run (`spanproof run --profile`, or
 * SPANPROOF_PROFILE=1 in the environment): V8's sampling profiler through node:inspector on this
 * thread, written into the run folder as `worker.cpuprofile` (src/core/runs writeRunProfile). The
 * whole grid runs on this thread (a profiled run does not hand chunkers to a second thread), so every stage is in it (onnxruntime's native threads are not:
 * their time shows under the awaiting JS frame).
 */
import { Session } from 'node:inspector/promises';

/** Whether a run asked for a profile (the request's flag, or SPANPROOF_PROFILE=1). */
export function profileWanted(flag: boolean | undefined): boolean {
  return flag === true || process.env.SPANPROOF_PROFILE === '1';
}

/** Starts the profiler; `stop()` returns the profile (a `.cpuprofile` object). */
export async function startProfile(): Promise<{ stop(): Promise<unknown> }> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 500 });
  await session.post('Profiler.start');
  return {
    async stop() {
      try {
        const { profile } = await session.post('Profiler.stop');
        return profile;
      } finally {
        session.disconnect();
      }
    },
  };
}
