/** Shared fixtures of the grid tests: the shipped samples/ corpus (10 questions) and small settings. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_SETTINGS, type RunSettings } from '../../src/core/settings';
import { tempDir } from './tmp';
import { REPO } from './paths';

export { REPO };
export const MINI = join(REPO, 'samples', 'fastapi-mini');
export const MINI_GT = join(REPO, 'samples', 'fastapi-mini.groundtruth.json');
export const WORKER_TS = join(REPO, 'src', 'worker', 'main.ts');

/** A small grid: 2 chunkers × 2 retrievers × rerank on/off = 8 configs, B = 200. */
export function smallSettings(over: Partial<RunSettings> = {}): RunSettings {
  return {
    ...DEFAULT_SETTINGS,
    chunkers: ['heading', 'fixed'],
    retrievers: ['bm25', 'hybrid'],
    rerank: [false, true],
    chunkerParams: { ...DEFAULT_SETTINGS.chunkerParams, fixed: { size: 300, overlap: 50 }, heading: { maxSize: 600 } },
    bootstrap: { resamples: 200, seed: 7 },
    ...over,
  };
}

export function tmp(prefix: string): string {
  return tempDir(`spanproof-${prefix}-`);
}

export function readText(file: string): string {
  return readFileSync(file, 'utf8');
}
