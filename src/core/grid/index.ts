/**
 * The grid run (SPEC §6, §7.4, §9): plan the configs (`<chunker>/<retriever>/<rerank|none>`), run
 * every chunker stage and every (question, config) item, aggregate with bootstrap CIs (B resamples,
 * seeded, shared by all configs), the τ sweep {0.3, 0.5, 0.7, 0.9, 1.0}, paired CIs against the top
 * config, causes, ranking, and write the run directory (src/core/runs).
 *
 * - {@link runGrid}(params, hooks) → GridRunResult: the whole run, as the worker executes it.
 * - {@link runEngine}: the in-memory part (no files), for tests and benchmarks.
 */
export { planConfigs, configId, TAU_SWEEP, HIT_KS, type ConfigPlan } from './plan';
export { runEngine, engineTotal, type EngineInput, type EngineOutput, type ItemRecord, type ChunkerStage, type EngineProgress, type EngineCaches } from './engine';
export { aggregate, type AggregateOutput } from './aggregate';
export { verdictStage, type VerdictStageInput, type VerdictStageOutput } from './ranking';
export { runGrid, questionRecord, type GridHooks } from './run';
export type { GridRunParams, GridRunResult } from './types';
export { ResidentState } from './resident';
export { ChunkCache } from './chunkCache';
