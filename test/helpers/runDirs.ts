/**
 * Minimal hand-written run folders for the report command's tests: run.json with a given status
 * (and, for a succeeded run, an empty but complete results.json), without running the grid.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_SETTINGS } from '../../src/core/settings';

/** Writes `<root>/<id>/run.json` with `status` (and `extra` fields); returns the run folder. */
export function writeRunJson(root: string, id: string, status: string, extra: Record<string, unknown> = {}): string {
  const runDir = join(root, id);
  mkdirSync(runDir, { recursive: true });
  const run = { id, status, progress: { finished: 0, total: 1 }, error: null, startedAt: '2026-01-01T00:00:00.000Z', endedAt: null, toolVersion: '0', settings: DEFAULT_SETTINGS, workspace: root, groundTruthFile: join(root, 'gt.json'), runDir, location: { kind: 'workspace' }, corpusHash: '', groundTruthHash: '', acceptance: null, seed: 1, ...extra };
  writeFileSync(join(runDir, 'run.json'), JSON.stringify(run));
  return runDir;
}

/** A succeeded run of no questions and no configs: every report format renders it. */
export function writeEmptySucceededRun(root: string, id: string): string {
  const runDir = writeRunJson(root, id, 'succeeded', { endedAt: '2026-01-01T00:00:01.000Z' });
  const acceptance = { total: 0, resolved: 0, moved: 0, stale: [], ambiguous: [], rejected: [], relocated: [] };
  writeFileSync(join(runDir, 'results.json'), JSON.stringify({ spanproof: 1, k: 5, tau: 0.9, n: 0, poolSize: 50, primaryMetric: 'hit@5', seed: 1, resamples: 1000, questions: 0, acceptance, configs: [], errors: [], skipped: [] }));
  return runDir;
}
