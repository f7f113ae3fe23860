/**
 * Runs a piece of TypeScript in a child Node process (through tsx) and kills it after a generous
 * liveness bound, for the tests of #16's hangs (an endless loop, a quadratic or cubic scan): such a
 * bug must fail the test, not hang the suite. The bound is a liveness check (minutes of work versus
 * milliseconds), never a performance assertion — speed is measured in benchmarks.
 *
 * The script runs with the repository root as its working directory; it can require `./src/...` and
 * print a result on stdout (e.g. JSON) for the test to check.
 */
import { spawnSync } from 'node:child_process';
import { REPO } from './paths';

export interface BoundedResult {
  /** Exit status (null when killed). */
  status: number | null;
  stdout: string;
  stderr: string;
  /** True when the child was killed at the bound. */
  timedOut: boolean;
}

/** Runs `script` (TypeScript, CommonJS `require('./src/...')` relative to the repo root) and kills it after `boundMs`. */
export function runBounded(script: string, boundMs: number): BoundedResult {
  const r = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { cwd: REPO, timeout: boundMs, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, killSignal: 'SIGKILL' });
  return { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '', timedOut: r.error !== undefined && (r.error as NodeJS.ErrnoException).code === 'ETIMEDOUT' };
}
