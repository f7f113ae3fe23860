/**
 * `spanproof run`'s thread settings (issue #13): `SPANPROOF_GRID_THREADS` and `--profile` /
 * `SPANPROOF_PROFILE`, checked before any work and described in `run --help`.
 */
import { gridThreads } from '../../worker/chunkerPool';
import { profileWanted } from '../../worker/profile';

/** The "Environment:" section of `spanproof run --help`. */
export const RUN_ENVIRONMENT_HELP = `
Environment:
  SPANPROOF_GRID_THREADS  1 = run the grid in one thread; 2 = hand chunkers to a second thread
                          (a cold run; the run files are the same bytes). Unset or empty: 2 on a
                          machine with >= 2 cores, else 1. Any other value is exit 2.
  SPANPROOF_PROFILE       1 = as --profile (the grid then runs in one thread); 0, empty or unset:
                          no profile. Any other value is exit 2.`;

/**
 * Checks `SPANPROOF_GRID_THREADS` and `SPANPROOF_PROFILE` (a profiled run uses one thread, but a
 * bad value is still a mistake to report) and says on stderr when a profile overrides an explicit 2.
 * @throws SpanproofError('bad-input') naming the variable and the fix (exit 2).
 */
export function checkRunThreads(profileFlag: boolean | undefined, env: NodeJS.ProcessEnv = process.env): void {
  const threads = gridThreads(env);
  if (profileWanted(profileFlag, env) && threads > 1 && env.SPANPROOF_GRID_THREADS?.trim() === '2') {
    process.stderr.write('warning: SPANPROOF_GRID_THREADS=2 is not used: a profiled run (--profile, SPANPROOF_PROFILE=1) stays in one thread, so its profile holds every stage.\n');
  }
}
