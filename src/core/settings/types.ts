/**
 * The settings of a run. The same keys are the VS Code settings `spanproof.<key>` (SPEC §12) and the
 * keys of the CLI's `--config FILE` JSON (SPEC §11). One definition, so the two can never drift.
 */
import type { ChunkerId, RetrieverId } from '../types';

export interface ChunkerParams {
  fixed: { size: number; overlap: number };
  recursive: { size: number; overlap: number };
  sentence: { size: number };
  heading: { maxSize: number };
  semantic: { minSize: number; maxSize: number; percentile: number; windowSentences: number };
}

export interface RunSettings {
  /** Globs relative to the corpus root (SPEC §2). */
  include: string[];
  exclude: string[];
  /** Files larger than this many bytes are skipped and reported. */
  maxFileBytes: number;
  /** Ground-truth path relative to the corpus root. */
  groundTruthPath: string;
  /** Quotes shorter than this (UTF-16 code units) are rejected as evidence (SPEC §3.2 rule 5). */
  minQuoteLength: number;
  /** Quotes longer than this (UTF-16 code units) are rejected as evidence: a passage, not a document. */
  maxQuoteLength: number;
  chunkers: ChunkerId[];
  chunkerParams: ChunkerParams;
  retrievers: RetrieverId[];
  /** Which reranker settings the grid runs: `[true, false]` = on and off. */
  rerank: boolean[];
  /** Embedding model folder; `""` = the embedded default static GloVe model. */
  embeddingModel: string;
  /** Cross-encoder model folder; `""` = the built-in MaxSim baseline. */
  rerankerModel: string;
  /** Result-list size. */
  k: number;
  /** Candidate-pool size N. */
  poolSize: number;
  /** Coverage threshold for a hit. */
  tau: number;
  /**
   * Weights of the opt-in, timing-dependent second verdict (SPEC §9): with latency > 0, ranking.json
   * adds `timedVerdict` = the non-inferior config with the highest w_q·Q − w_l·L̂ − w_c·Ĉ. The
   * deterministic verdict never reads them. Default latency 0: no timing enters anything.
   */
  weights: { quality: number; latency: number; context: number };
  /**
   * Primary metric Q of the verdict: `hit@k` (default: hit at the run's k), any `hit@K`, `coverage@K`,
   * `ndcg@K` with 1 ≤ K ≤ poolSize, or `mrr` (src/core/metrics/registry.ts).
   */
  primaryMetric: string;
  /** The verdict (SPEC §9): `margin` = non-inferiority margin δ in units of Q (default 0.05). */
  verdict: { margin: number };
  bootstrap: { resamples: number; seed: number };
  /** Threads per ONNX session. */
  threads: number;
  judge: {
    endpoint: string;
    generatorModel: string;
    judgeModel: string;
    concurrency: number;
    requestsPerMinute: number;
    timeoutMs: number;
    retries: number;
    allowSameModel: boolean;
  };
}

export const DEFAULT_SETTINGS: RunSettings = {
  include: ['**/*.{md,mdx,markdown,txt,rst,adoc}'],
  exclude: ['**/{node_modules,.git,out,dist,build,.spanproof}/**'],
  maxFileBytes: 4 * 1024 * 1024,
  groundTruthPath: '.spanproof/groundtruth.json',
  minQuoteLength: 12,
  maxQuoteLength: 20000,
  chunkers: ['fixed', 'recursive', 'sentence', 'heading', 'semantic'],
  chunkerParams: {
    fixed: { size: 800, overlap: 100 },
    recursive: { size: 800, overlap: 100 },
    sentence: { size: 800 },
    heading: { maxSize: 4000 },
    semantic: { minSize: 200, maxSize: 2000, percentile: 95, windowSentences: 1 },
  },
  retrievers: ['bm25', 'dense', 'hybrid'],
  rerank: [false, true],
  embeddingModel: '',
  rerankerModel: '',
  k: 5,
  poolSize: 20,
  tau: 0.9,
  weights: { quality: 1, latency: 0, context: 0.1 },
  primaryMetric: 'hit@k',
  verdict: { margin: 0.05 },
  bootstrap: { resamples: 2000, seed: 42 },
  threads: 2,
  judge: {
    endpoint: '',
    generatorModel: '',
    judgeModel: '',
    concurrency: 4,
    requestsPerMinute: 0,
    timeoutMs: 60000,
    retries: 3,
    allowSameModel: false,
  },
};
