/**
 * The grid run (SPEC §6, §7.4, §9) as named stages — plan → load & resolve → load models → per
 * chunker (chunk → index → retrieve → rerank → score & attribute) → aggregate → verdict → write —
 * each a function with typed input and output in its own module (docs/architecture.md).
 *
 * - {@link runGrid}(params, hooks) → GridRunResult: the whole run, as the worker executes it.
 * - {@link runQuery}: one question against one config (`spanproof query`), through the same stages.
 * - {@link runEngine}: the in-memory part (no files), for benchmarks.
 */
export { planConfigs, configId, TAU_SWEEP, HIT_KS, type ConfigPlan } from './plan';
export { runEngine, runChunker, engineTotal, type EngineInput, type EngineCaches, type EngineContext } from './engine';
export { loadStage, type LoadInput, type RunInputs } from './load';
export { loadRunModels, modelFolder, type RunModels, type LoadModelsInput } from './models';
export { chunkStage, type ChunkInput, type ChunkOutput, type ChunkStore } from './chunk';
export { indexStage, type IndexInput, type ChunkerIndexes } from './indexing';
export { retrieveStage, type RetrieveInput } from './retrieve';
export { rerankStage, type RerankOutput } from './rerank';
export { prepareChunkerScoring, scoreItem, type ChunkerScoring, type ItemScores } from './score';
export { contextTokenCounter, type TokenCounter, type TokenMemo } from './context';
export { aggregate, type AggregateOutput } from './aggregate';
export { verdictStage, type VerdictStageInput, type VerdictStageOutput } from './ranking';
export { questionRecord, questionRecords, buildResults, buildTimings, buildEvidence, configLatencies } from './results';
export { RunProgress, type EngineProgress } from './progress';
export { runGrid, type GridHooks } from './run';
export { runQueries, runQuery, queryPlans, type QueryAnswer, type QueryParams, type QueryResultRow } from './query';
export type { GridRunParams, GridRunResult, ItemRecord, ChunkerStage, EngineOutput, StageMemo } from './types';
export { ResidentState } from './resident';
export { ChunkCache } from './chunkCache';
