/**
 * The files of a run directory (SPEC §10–§11). These shapes are the stable, machine-readable contract
 * read by the CLI, the extension's panel and the webview: keys are added freely, never renamed.
 * Offsets are UTF-16 code units; times are ISO-8601 UTC strings; durations are milliseconds.
 */
import type { AttacksFile, InjectionStudy } from '../safety/types';
import type { Cause, RankedSpan } from '../types';
import type { Cut } from '../attribution';
import type { AcceptanceReport } from '../groundtruth';
import type { MeanCI } from '../stats';
import type { RankedConfig, TimedVerdict, Verdict } from '../ranking/types';
import type { RunSettings } from '../settings';

/**
 * Lifecycle of a run (run.json `status`). `interrupted` is never written: it is how a `running` run
 * whose writing process is gone is read back (./liveness.ts).
 */
export type RunStatus = 'pending' | 'running' | 'succeeded' | 'failed' | 'cancelled' | 'interrupted';

/** The acceptance report of ground-truth resolution (src/core/groundtruth); same shape as `spanproof validate --json` (SPEC §11). */
export type { AcceptanceReport } from '../groundtruth';
/** A mean with its 95% percentile-bootstrap CI (src/core/stats). */
export type { MeanCI } from '../stats';
/** A ranked chunk of a result list or a pool (src/core/types). */
export type { RankedSpan } from '../types';

/** One config's entry in results.json. */
export interface ConfigResult {
  /** `<chunker>/<retriever>/<rerank|none>`. */
  id: string;
  chunker: string;
  retriever: string;
  rerank: boolean;
  /** Number of (question, config) items scored (failed items are not scored, see `failed`). */
  scored: number;
  /** Question ids whose item failed (reported, never averaged as zero). */
  failed: string[];
  /** Keys of src/core/metrics/registry.ts `resultMetricKeys(k, primaryMetric)`: cutoffs are the run's. */
  metrics: Record<string, MeanCI>;
  /** Cause counts over the scored misses at k (every key of CAUSES present). */
  causes: Record<Cause, number>;
  /** Mean result-list size in characters (|∪R₁..R_k|, UTF-16 code units). */
  contextChars: number;
  /** Mean result-list size in embedder tokens, when the tokenizer is known. */
  contextTokens?: number;
  /** hit@k at each τ of the sweep {0.3, 0.5, 0.7, 0.9, 1.0}, keyed by τ as written (`"0.3"`). */
  tauSweep: Record<string, MeanCI>;
  /**
   * Paired-bootstrap difference of the primary metric against the best config (this − best);
   * `significant` = Holm-adjusted p < 0.05 (ranking.json `pHolm`). Null for the best and unscored configs.
   */
  vsTop: { top: string; diff: MeanCI; significant: boolean } | null;
  /** Rank in the verdict's quality order (src/core/ranking); unscored configs after the ranked ones, by id. */
  rank: number;
  /** The config's explanation, the same text as ranking.json's (deterministic). */
  explanation: string;
  /** External retrievers only (`external/<name>/none`). */
  external?: ExternalConfigSummary;
}

/** results.json (deterministic: byte-identical for identical inputs and settings). */
export interface ResultsFile {
  spanproof: 1;
  k: number;
  tau: number;
  /**
   * Sample size: the number of questions scored (same as `questions`; SPEC §11 pairs it with k and
   * tau). Runs written before `poolSize` existed hold the candidate-pool size here instead.
   */
  n: number;
  /** Candidate-pool size N (settings.poolSize). Absent in older runs, whose `n` is the pool size. */
  poolSize?: number;
  /** Resolved key of the primary metric Q (`hit@5`; the setting `hit@k` resolves at the run's k). */
  primaryMetric: string;
  seed: number;
  resamples: number;
  /** Number of questions scored (resolved). */
  questions: number;
  acceptance: AcceptanceReport;
  configs: ConfigResult[];
  /** Corpus files skipped while loading, with the reason. */
  skipped: Array<{ source: string; reason: string; detail: string }>;
  /** Stage failures that removed a whole chunker (e.g. invariant violation), with the message. */
  errors: Array<{ stage: string; chunker?: string; config?: string; question?: string; message: string }>;
  /**
   * Present only in a shard's folder (`spanproof run --shard i/n`): its metrics cover only its share
   * of the work; `spanproof merge` writes the whole run (without this key).
   */
  shard?: { index: number; count: number };
}

/**
 * One config of a run's ranking as every surface reads it (RunData.ranking, GridRunResult.ranking):
 * the format-1 keys (kept for the results panel and older runs) plus, for format-2 runs, every key of
 * ranking.json v2's configs (src/core/ranking `RankedConfig`). `latencyMs` is the measured median
 * from timings.json (never from ranking.json, which is deterministic).
 */
export interface RankingEntry extends Partial<Omit<RankedConfig, 'id' | 'rank' | 'score' | 'pareto' | 'explanation' | 'recommended'>> {
  id: string;
  rank: number;
  score: number;
  pareto: boolean;
  explanation: string;
  /** Median per-question latency (retrieve + rerank), ms; null when not timed. */
  latencyMs: number | null;
  contextChars: number;
  recommended: boolean;
  /** Not significantly worse than the best config (Holm, paired bootstrap). */
  tiedWithTop?: boolean;
}

/** ranking.json as written by format 1 (before SPEC §9 v2): an array of entries, weighted score with latency. */
export type RankingFileV1 = RankingEntry[];


/** Where the cut fell for a miss: the deciding evidence span, its best chunk, the adjacent chunk holding the rest, ranks (src/core/attribution `Cut`). */
export type MissDetail = Cut;

/** One line of questions.jsonl. */
export interface QuestionRecord {
  question: string;
  config: string;
  status: 'ok' | 'failed';
  /** Final order of the whole candidate pool (after reranking when on). */
  results: RankedSpan[];
  /** The retriever's own order of the same candidates. */
  pool: RankedSpan[];
  'coverage@5': number | null;
  'hit@5': 0 | 1 | null;
  rr: number | null;
  cause: Cause | null;
  /** Extra per-item metrics at the run's k and the miss detail (added keys). */
  k?: number;
  [extra: string]: unknown;
}

/** run.json. */
export interface RunFile {
  id: string;
  status: RunStatus;
  progress: { finished: number; total: number; stage?: string };
  error: { code: string; message: string } | null;
  startedAt: string;
  endedAt: string | null;
  toolVersion: string;
  settings: RunSettings;
  workspace: string;
  groundTruthFile: string;
  /** Where the run directory is, and why if it is not under the workspace. */
  runDir: string;
  location: { kind: 'workspace' | 'out' | 'user-cache'; reason?: string };
  corpusHash: string;
  groundTruthHash: string;
  /** The process writing the run (./liveness.ts): a `running` run whose writer is gone reads as `interrupted`. Absent in runs before 0.2. */
  writer?: { pid: number; host: string };
  acceptance: AcceptanceReport | null;
  seed: number;
  /** Counts of documents, chunks per chunker, questions. */
  counts?: { documents: number; questions: number; chunks: Record<string, number> };
  /**
   * The models the run used, resolved (absent in runs written before 0.2, whose default embedder was
   * static-glove): per embedder its config-id name, report description and cache id; the reranker's
   * report description, or null when no config reranks.
   */
  models?: { embedders: { name: string; description: string; id: string }[]; reranker: string | null };
}

/** timings.json: per stage and per config, ms. */
export interface TimingsFile {
  totalMs: number;
  stages: Record<string, number>;
  /**
   * Per stage of `stages`: the process's CPU time during it (user + system, all threads, ms) and its
   * peak RSS by the stage's end (MiB, a high-water mark since the process started). Absent in older runs.
   */
  resources?: Record<string, { cpuMs: number; peakRssMB: number }>;
  /**
   * Per chunker: ms per step (the embedding runs while the BM25 index is built, so `embedMs` includes
   * `bm25Ms`), chunk count, how many documents' chunks came from the cache (`cacheHit`: all of them),
   * and for the whole chunker (chunk, index, retrieve, rerank, score) `wallMs`, `cpuMs` and the peak
   * RSS by its end `peakRssMB` (absent in older runs); `thread` 1 when the run's own thread ran it, 2
   * when the chunker thread did (src/core/grid/parallel.ts), and `startMs` when it started, ms after the
   * run started — the clock of `totalMs` (both absent in older runs; runs of 325c1b7–5843705 counted
   * `startMs` from the process's start). `cpuMs` is the whole process's, both threads.
   */
  perChunker: Record<string, { chunkMs: number; bm25Ms: number; embedMs: number; chunks: number; cacheHit: boolean; cachedDocs?: number; wallMs?: number; cpuMs?: number; peakRssMB?: number; thread?: number; startMs?: number }>;
  /** Totals, and the median and quartiles of the per-query time (retrieve + rerank; p25/p75 absent in older runs). */
  perConfig: Record<string, { retrieveMs: number; rerankMs: number; medianQueryMs: number; p25QueryMs?: number; p75QueryMs?: number; timedQueries?: number }>;
  /** Per question id, per config id: this item's retrieval and rerank time (ms). */
  perItem?: Record<string, Record<string, { retrieveMs: number; rerankMs: number }>>;
}

/** A summary used to list runs (panel history, `spanproof report`). */
export interface RunSummary {
  id: string;
  dir: string;
  status: RunStatus;
  startedAt: string;
  endedAt: string | null;
  questions: number | null;
  configs: number | null;
  top: string | null;
}

/** Everything the panel needs to show one run. */
export interface RunData {
  run: RunFile;
  results: ResultsFile | null;
  /** ranking.json in rank order, whichever format wrote it (src/core/ranking `rankingView`). */
  ranking: RankingEntry[] | null;
  /** ranking.json v2 `verdict`; null for format-1 runs (older Spanproof) and runs without a ranking. */
  verdict?: Verdict | null;
  /** The opt-in timing-dependent verdict (weights.latency > 0), when present. */
  timedVerdict?: TimedVerdict | null;
  /** Format of the run's ranking.json (1 = older weighted-score ranking), null when absent. */
  rankingFormat?: 1 | 2 | null;
  timings: TimingsFile | null;
  /** questions.jsonl parsed. */
  questions: QuestionRecord[];
  /** evidence.json: the resolved questions with their evidence text (for highlighting). */
  evidence: EvidenceFile | null;
  /** injection.json: the injection exposure study (`run --injection-study`), when the run has one. */
  injection?: InjectionStudy | null;
  /** attacks.json: attack success of the XPIA and/or UPIA attack steps (with an endpoint), when run. */
  attacks?: AttacksFile | null;
}

/** evidence.json in the run directory: resolved questions with evidence text and the chunk texts needed by misses. */
export interface EvidenceFile {
  questions: Array<{
    id: string;
    question: string;
    match: 'all' | 'any';
    spans: Array<{ source: string; start: number; end: number; text: string }>;
  }>;
  /** Texts of the chunks misses point at (best chunk and its neighbour), per chunker, by chunk id. */
  chunks?: Record<string, Record<string, string>>;
}

/** What results.json says about an external retriever's config (`external/<name>/none`, issue #18). */
export interface ExternalConfigSummary {
  kind: 'command' | 'url';
  /** Items returned over all questions (up to the N asked for), and how many were used as passages. */
  returned: number;
  used: number;
  /** Items not counted as retrieved, by reason (unknown-source, bad-offsets, low-similarity, not-found, duplicate). */
  dropped: Record<string, number>;
  /** Distinct unknown sources returned (sorted, at most 20). */
  unknownSources: string[];
  /** `text` items aligned to their document and used: count and the lowest similarity (null when none). */
  aligned: { count: number; minSimilarity: number | null };
  /** Paired bootstrap CI of (this − config) of the primary metric for every built-in config, by id. */
  vsBuiltIn: Array<{ config: string; diff: MeanCI; p: number }>;
}
