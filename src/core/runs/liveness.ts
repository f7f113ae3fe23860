/**
 * Whether a run that says `running` is still being written (issue #16 item 16). A run killed by
 * SIGKILL, a crash or a full disk never reaches its final run.json, so it said `running` forever.
 * RunWriter records the writing process (`writer: {pid, host}`) in run.json; on read, a `running` run
 * whose writer was on this host and is no longer alive is `interrupted`. Derived on read, never
 * written back (reading a run never modifies it; the folder may be read-only).
 *
 * Limits: a run written on another host (a shared folder) cannot be checked and stays `running`; so
 * does a run written before 0.2 (no `writer`). A pid reused by an unrelated process after a reboot
 * keeps the run `running` until that process ends.
 */
import { hostname } from 'node:os';
import { processAlive } from '../groundtruth/lock'; // the same liveness rule as the ground-truth lock's stale-lock recovery
import type { RunFile, RunStatus } from './types';

/** The process that writes a run, as RunWriter records it in run.json. */
export function currentWriter(): NonNullable<RunFile['writer']> {
  return { pid: process.pid, host: hostname() };
}

/** `run.status`, or `interrupted` when it says `running` but its writer on this host is gone. */
export function effectiveStatus(run: Pick<RunFile, 'status' | 'writer'>): RunStatus {
  if (run.status !== 'running' || !run.writer || typeof run.writer.pid !== 'number') return run.status;
  if (run.writer.host !== hostname()) return run.status;
  return processAlive(run.writer.pid) ? 'running' : 'interrupted';
}

/**
 * `run` as it should be shown: an interrupted run gets status `interrupted` and, when it has none, an
 * error saying what happened and what to do. Other runs are returned unchanged (the same object).
 */
export function withEffectiveStatus(run: RunFile): RunFile {
  const status = effectiveStatus(run);
  if (status === run.status) return run;
  return {
    ...run, status,
    error: run.error ?? { code: 'interrupted', message: `the process that wrote this run (pid ${run.writer!.pid}) ended before the run finished (killed, crashed or out of disk space); its results were never written. Re-run the evaluation.` },
  };
}
