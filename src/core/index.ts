/**
 * The programmatic API of Spanproof (`package.json` `exports`): pure TypeScript, no `vscode`. It is
 * the product's headline features — character-span metrics, failure attribution, the ranking and
 * verdict with its statistics, ground-truth resolution, the chunkers and retrievers, running a grid
 * or one query, and reading run directories back — and not the machinery behind them (caches, the
 * worker's resident state, the engine's stages: import those from their modules inside the repo).
 * Each concept folder's index.ts is its public face (docs/architecture.md lists them).
 */
// Vocabulary and errors
export * from './types';
export * from './errors';
export { VERSION } from './version';
// Settings (one schema: type, defaults, parsing)
export { DEFAULT_SETTINGS, parseRunSettings, validateRunSettings, readSettingsFile, RUN_SETTINGS_SCHEMA, CHUNKER_IDS, RETRIEVER_IDS, type RunSettings, type ChunkerParams } from './settings';
// Corpus and span ground truth
export { loadCorpus, type Corpus, type CorpusOptions, type SkippedFile } from './corpus';
export * from './groundtruth';
// Chunkers and retrievers
export { chunkCorpus, chunkDocument, chunkerConfigKey, validateChunkerParams, isChunkerId, assertChunkInvariants, type EmbedFn } from './chunking';
export { Bm25Index, DenseIndex, candidatePools, retrievePools, reciprocalRankFusion, rerankPool, RRF_K, DEFAULT_POOL, type Hit, type PoolRequest, type RetrieverPools, type RetrievalIndexes, type RerankScorer } from './retrieval';
export { loadDefaultEmbedder, loadEmbedderFromFolder, loadCrossEncoderFromFolder, createMaxSimReranker, type TextEmbedder, type PairScorer } from './models';
// Span metrics (SPEC §7.1), their registry, and the id-based TREC measures
export { analyzeIndex, questionMetrics, coverageAt, spanCoveragesAt, hitAt, hitFromCoverages, reciprocalRank, pairCoverage, dcg, TAU_EPSILON, type MatchMode, type SpanAnalysis, type IndexAnalysis, type QuestionMetrics } from './metrics/span';
export { metricDef, metricLabel, parseMetricKey, resultMetricKeys, resolvePrimaryMetric, DEFAULT_PRIMARY_METRIC, type MetricDef } from './metrics/registry';
export * from './metrics/trec';
export * from './metrics/generation';
// Failure attribution (SPEC §8)
export { attributeMiss, spanCause, CAUSE_ADVICE, type Attribution, type AttributionInput, type Cut, type ChunkRef } from './attribution';
// Statistics (SPEC §7.4)
export * from './stats';
// Ranking and verdict (SPEC §9)
export { rankConfigs, decideVerdict, rankingView, dominantCause, explainConfig, paretoFront, deterministicCosts, type RankingFile, type Verdict, type RankedConfig, type EvidenceStatus, type DominantCause } from './ranking';
// Running: the grid and one query
export { runGrid, runQuery, planConfigs, configId, TAU_SWEEP, type GridHooks, type GridRunParams, type GridRunResult, type ConfigPlan, type QueryAnswer, type QueryParams, type QueryResultRow } from './grid';
// Run directories: reading back, reports
export { readRun, listRuns, resolveRunsRoot, resolveCacheDir, userCacheDir, stableStringify, type RunData, type RunFile, type ResultsFile, type RankingEntry, type QuestionRecord, type TimingsFile, type EvidenceFile, type RunSummary, type ConfigResult, type RunStatus, type AcceptanceReport } from './runs';
export { renderReport, renderRunReport, renderMarkdown, renderHtml, renderCsv, rankingTable, buildReportModel, type ReportFormat } from './report';
// Other tools' datasets, the bias study, generation and judges
export * from './import';
export * from './bias';
export * from './judge';
