/**
 * CPU profile of the thread that runs the grid (the extension's worker thread, the CLI's own thread)
 * during a grid run (`spanproof run --profile`, or
 * SPANPROOF_PROFILE=1 in the environment): V8's sampling profiler through node:inspector on this
 * thread, written into the run folder as `worker.cpuprofile` (src/core/runs writeRunProfile). The
 * whole grid runs on this thread (a profiled run does not hand chunkers to a second thread), so every stage is in it (onnxruntime's native threads are not:
 * their time shows under the awaiting JS frame).
 */
import { Session } from 'node:inspector/promises';
import { SpanproofError } from '../core/errors';

/**
 * Whether a run asked for a profile: the request's flag, or `SPANPROOF_PROFILE` = `1` (`0`, empty or
 * unset = no; spaces around the value are ignored, as for SPANPROOF_GRID_THREADS).
 * @throws SpanproofError('bad-input') for any other value (a typo such as `yes` or `l` was ignored,
 *   so the run went unprofiled without a word — fresh-user #13).
 */
export function profileWanted(flag: boolean | undefined, env: NodeJS.ProcessEnv = process.env): boolean {
  const v = env.SPANPROOF_PROFILE?.trim() ?? '';
  if (v !== '' && v !== '0' && v !== '1') {
    throw new SpanproofError('bad-input', `SPANPROOF_PROFILE is "${env.SPANPROOF_PROFILE}", not 1 or 0.`, {
      field: 'SPANPROOF_PROFILE', fix: 'set SPANPROOF_PROFILE=1 to write a CPU profile into the run folder (as --profile), or 0 / unset it for none.',
    });
  }
  return flag === true || v === '1';
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
