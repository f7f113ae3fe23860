/**
 * The programmatic API of Spanproof (`package.json` `exports`). Pure TypeScript, no `vscode`.
 * Each concept folder has an index.ts that is its public face; this file re-exports them.
 */
export * from './types';
export * from './errors';
export { VERSION } from './version';
export * from './corpus';
export * from './chunking';
export * from './groundtruth';
export * from './metrics/trec';
export * from './metrics/generation';
export { metricDef, metricLabel, parseMetricKey, resultMetricKeys, resolvePrimaryMetric, DEFAULT_PRIMARY_METRIC, type MetricDef } from './metrics/registry';
export { rankConfigs, rankingView, dominantCause, type RankingFile, type Verdict, type RankedConfig, type EvidenceStatus, type DominantCause } from './ranking';
export * from './models';
export * from './retrieval';
export * from './cache';
export * from './import';
export * from './bias';
export * from './settings';
export { writeFileAtomic } from './files';
export { runGrid, runQuery, runEngine, planConfigs, configId, ResidentState, ChunkCache, TAU_SWEEP, type GridHooks, type ConfigPlan, type ItemRecord, type QueryAnswer, type QueryParams, type QueryResultRow } from './grid';
export { readRun, listRuns, createRunDir, resolveRunsRoot, resolveCacheDir, userCacheDir, stableStringify, type RunFile, type ResultsFile, type RankingEntry, type QuestionRecord, type TimingsFile, type RunSummary, type ConfigResult, type RunStatus } from './runs';
export { renderReport, renderRunReport, renderMarkdown, renderHtml, renderCsv, rankingTable, buildReportModel, type ReportFormat } from './report';
export * from './judge';
