/**
 * Runs on disk (SPEC §10–§11): the run directory, its files, deterministic JSON,
 * listing and reading runs, and the fallback to a per-user cache directory when the workspace is
 * not writable.
 *
 * Files: run.json (RunFile), results.json (ResultsFile; deterministic), ranking.json (RankingEntry[];
 * depends on timings), questions.jsonl (QuestionRecord per line), timings.json (TimingsFile, ms),
 * evidence.json (EvidenceFile: resolved questions with evidence text), chunks/<chunker>.jsonl with
 * --keep-chunks.
 */
export * from './types';
export { stableStringify, roundForJson } from './json';
export { userCacheDir, isWritableDir, resolveRunsRoot, resolveCacheDir, createRunDir, assertNewOutDir, utcStamp, workspaceOfRunDir } from './dir';
export type { RunLocation } from './dir';
export { readRun, readAttacks, UPIA_OUTDATED, listRuns, readQuestionsJsonl } from './read';
export { effectiveStatus } from './liveness';
export { RunWriter, writeBiasStudy, writeInjectionStudy, writeRunProfile, writeSafetyReport, writeAttackReport, type RunOutputs } from './write';
