/**
 * The zod schemas of a run's files (./types.ts; SPEC §10–§11), checked on read by ./validate.ts so a
 * hand-edited or damaged file is bad input naming the field, not a TypeError in a renderer (#16 N4).
 * Loose where the contract is: unknown keys are kept (keys are added freely), fields older runs lack
 * are optional, and every number may be `null` where the writer can produce a non-finite value
 * (./json.ts writes NaN/±Infinity as null). A field's type, when present, is checked.
 */
import { z } from 'zod';
import { CAUSES } from '../types';

const RUN_STATUSES = ['pending', 'running', 'succeeded', 'failed', 'cancelled', 'interrupted'] as const;
const obj = z.looseObject({});
const num = z.number();
/** A number as run files write it: non-finite values are null (./json.ts). */
const numW = z.number().nullable();
const str = z.string();
const strs = z.array(str);
const cause = z.enum(CAUSES);

export const meanCISchema = z.looseObject({ mean: numW, lo: numW, hi: numW });

const acceptanceSchema = z.looseObject({
  total: num,
  resolved: num,
  moved: num.optional(),
  // counted in every report's head
  stale: z.array(z.looseObject({ id: str, source: str.optional(), exact: str.optional(), reason: str.optional() })),
  ambiguous: z.array(z.looseObject({ id: str, source: str.optional(), exact: str.optional() })),
  rejected: z.array(z.looseObject({ id: str, reason: str.optional(), source: str.optional() })),
  relocated: z.array(obj).optional(),
  draftsExcluded: num.optional(),
});

export const runSchema = z.looseObject({
  id: str,
  status: z.enum(RUN_STATUSES),
  error: z.looseObject({ code: str, message: str }).nullable().optional(),
  startedAt: str,
  endedAt: str.nullable().optional(),
  toolVersion: str,
  progress: z.looseObject({ finished: num, total: num, stage: str.optional() }).optional(),
  // the report reads the models by name (embedder, reranker): every run.json has its settings
  settings: z.looseObject({ embeddingModel: str.optional(), rerankerModel: str.optional() }),
  // shown in every report's head
  workspace: str,
  groundTruthFile: str,
  runDir: str.optional(),
  corpusHash: str.optional(),
  groundTruthHash: str.optional(),
  acceptance: acceptanceSchema.nullable().optional(),
  seed: num.optional(),
  counts: z.looseObject({ documents: num, questions: num, chunks: z.record(str, num) }).optional(),
  models: z.looseObject({ embedders: z.array(z.looseObject({ name: str, description: str, id: str })), reranker: str.nullable() }).optional(),
});

const configSchema = z.looseObject({
  id: str,
  chunker: str.optional(),
  retriever: str.optional(),
  rerank: z.boolean().optional(),
  scored: num.optional(),
  // the renderers index and count these: absent reads as empty (hand-made and test runs omit them)
  failed: strs.default([]),
  metrics: z.record(str, meanCISchema).default({}),
  causes: z.record(str, num).default({}),
  contextChars: numW.optional(),
  contextTokens: numW.optional(),
  tauSweep: z.record(str, meanCISchema).optional(),
  vsTop: z.looseObject({ top: str, diff: meanCISchema, significant: z.boolean().optional() }).nullable().optional(),
  rank: num.optional(),
  explanation: str.optional(),
  external: z.looseObject({ kind: str, returned: num, used: num, dropped: z.record(str, num), unknownSources: strs, aligned: z.looseObject({ count: num, minSimilarity: numW }), vsBuiltIn: z.array(z.looseObject({ config: str, diff: meanCISchema, p: numW })) }).optional(),
});

export const resultsSchema = z.looseObject({
  k: num,
  tau: num,
  n: num.optional(),
  poolSize: num.optional(),
  questions: num,
  primaryMetric: str.optional(),
  seed: num.optional(),
  resamples: num.optional(),
  acceptance: acceptanceSchema.optional(),
  configs: z.array(configSchema),
  // listed by the renderers: absent reads as none
  skipped: z.array(z.looseObject({ source: str, reason: str, detail: str.optional() })).default([]),
  errors: z.array(z.looseObject({ stage: str, chunker: str.optional(), config: str.optional(), question: str.optional(), message: str })).default([]),
  shard: z.looseObject({ index: num, count: num }).optional(),
});

// `total` is printed with toFixed: the writer never writes it non-finite
const costSchema = z.looseObject({ context: numW, contextUnit: z.enum(['tokens', 'characters']), queryEmbeddings: num, rerankPasses: num, compute: numW, total: num });
const latencySchema = z.looseObject({ medianMs: numW, p25Ms: numW, p75Ms: numW, n: num });

const rankedConfigSchema = z.looseObject({
  id: str,
  rank: num,
  score: numW,
  pareto: z.boolean(),
  explanation: str,
  diffVsBest: z.looseObject({ mean: numW, lo: numW, hi: numW, se: numW }).optional(),
  p: numW.optional(),
  pHolm: numW.optional(),
  significantlyWorse: z.boolean().optional(),
  nonInferior: z.boolean().optional(),
  recommended: z.boolean(),
  best: z.boolean().optional(),
  quality: meanCISchema.optional(),
  mrr: numW.optional(),
  ndcg: numW.optional(),
  cost: costSchema,
  causes: z.record(str, num).optional(),
  dominantCause: z.looseObject({ cause, count: num, misses: num, advice: str }).nullable().optional(),
  latency: latencySchema.optional(),
  timedScore: numW.optional(),
});

const verdictSchema = z.looseObject({
  recommended: str.nullable(),
  best: str.nullable(),
  status: z.enum(['decisive', 'provisional', 'no-signal']),
  primaryMetric: str,
  margin: num,
  mde: numW,
  questionsNeeded: numW,
  reasons: strs,
  summary: str,
  questions: num,
  configs: num,
  tied: strs,
  unresolved: strs,
  alpha: num,
  power: num,
});

/** ranking.json, format 2 (SPEC §9 v2). */
export const rankingV2Schema = z.looseObject({
  primaryMetric: str.optional(),
  k: num.optional(),
  verdict: verdictSchema,
  configs: z.array(rankedConfigSchema),
  timedVerdict: z.looseObject({ recommended: str.nullable(), weights: z.looseObject({ quality: num, latency: num, context: num }), summary: str }).optional(),
});

/** ranking.json, format 1 (older runs): an array of weighted-score entries. */
export const rankingV1Schema = z.array(z.looseObject({
  id: str,
  rank: num,
  score: numW,
  pareto: z.boolean(),
  explanation: str,
  latencyMs: numW.optional(),
  contextChars: numW.optional(),
  recommended: z.boolean(),
  tiedWithTop: z.boolean().optional(),
}));

const stageResources = z.looseObject({ cpuMs: numW, peakRssMB: numW });
export const timingsSchema = z.looseObject({
  totalMs: numW,
  stages: z.record(str, numW),
  resources: z.record(str, stageResources).optional(),
  perChunker: z.record(str, z.looseObject({ chunkMs: numW, bm25Ms: numW, embedMs: numW, chunks: num, cacheHit: z.boolean(), cachedDocs: num.optional(), wallMs: numW.optional(), cpuMs: numW.optional(), peakRssMB: numW.optional(), thread: num.optional(), startMs: numW.optional() })),
  // the per-query quantiles are 0 when nothing was timed (src/core/grid/results.ts), never null
  perConfig: z.record(str, z.looseObject({ retrieveMs: numW, rerankMs: numW, medianQueryMs: num, p25QueryMs: num.optional(), p75QueryMs: num.optional(), timedQueries: num.optional() })),
  perItem: z.record(str, z.record(str, z.looseObject({ retrieveMs: numW, rerankMs: numW }))).optional(),
});

const spanSchema = z.looseObject({ source: str, start: num, end: num });
export const evidenceSchema = z.looseObject({
  questions: z.array(z.looseObject({ id: str, question: str, match: z.enum(['all', 'any']), spans: z.array(spanSchema.extend({ text: str })) })),
  chunks: z.record(str, z.record(str, str)).optional(),
});

const chunkRef = spanSchema.extend({ chunk: num, id: str });
const missSchema = z.looseObject({
  evidence: spanSchema,
  spanIndex: num,
  bestChunk: chunkRef.extend({ coverage: numW }).nullable(),
  charsBefore: num,
  charsAfter: num,
  neighbour: chunkRef.extend({ side: z.enum(['before', 'after']), pairCoverage: numW }).nullable(),
  bestChunkRank: num.nullable(),
  bestChunkPoolRank: num.nullable(),
  coverageAtK: numW,
});

/** One line of questions.jsonl. */
export const questionRecordSchema = z.looseObject({
  question: str,
  config: str,
  status: z.enum(['ok', 'failed']),
  results: z.array(spanSchema.extend({ score: numW })),
  pool: z.array(spanSchema.extend({ score: numW })),
  rr: numW.optional(),
  cause: cause.nullable(),
  k: num.optional(),
  metrics: z.record(str, numW).optional(),
  miss: missSchema.nullable().optional(),
});
