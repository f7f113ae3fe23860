/**
 * The shapes of a grid run (SPEC §6, §10): the request and the result of `runGrid` (what a host — the
 * CLI, the extension, through the worker of src/worker — asks for and gets back; the worker protocol
 * src/shared/protocol.ts carries them unchanged), and what the engine's stages hand each other.
 */
import type { Chunk, ChunkerId } from '../types';
import type { Bm25Index, DenseIndex, Hit } from '../retrieval';
import type { RunSettings } from '../settings';
import type { ConfigPlan, PlanChunker } from './plan';
import type { ExternalItemInfo } from '../external';
import type { ItemScores } from './score';
import type { QuestionRecord, RankingEntry, ResultsFile, RunFile, RunStatus, TimingsFile } from '../runs/types';
import type { RankingFile, Verdict } from '../ranking/types';
import type { InjectionStudy } from '../safety/types';

/** Parameters of a grid run (SPEC §6). Paths are absolute. */
export interface GridRunParams {
  /** Corpus root. */
  workspace: string;
  /** Ground-truth file. */
  groundTruthFile: string;
  settings: RunSettings;
  /** Exact run directory (CLI `--out`); default `<runsRoot>/<UTC timestamp>-<short hash>`. */
  outDir?: string;
  /** Parent of run directories; default `<workspace>/.spanproof/runs` (falls back to the user cache dir when not writable). */
  runsRoot?: string;
  /** Index/embedding cache directory; default `<workspace>/.spanproof/cache` (same fallback). */
  cacheDir?: string;
  /** Write `chunks/<chunker>.jsonl` into the run directory. */
  keepChunks?: boolean;
  /** Only these question ids (one-question re-run); others are not scored. */
  questionIds?: string[];
  /**
   * When true, a run with no question to score (none resolved, none selected) is refused with
   * SpanproofError('bad-input') before the run directory is created (the CLI); default false
   * (the run completes with `n/a` metrics).
   */
  requireScorable?: boolean;
  /** When false, nothing is written to disk (one-question re-run from the editor); default true. */
  writeRun?: boolean;
  /** Return the per-(question, config) records in the response (default false). */
  returnRecords?: boolean;
  /**
   * After the run, the injection exposure study (issue #17, src/core/safety): canaries planted in a
   * scratch copy of the corpus, the grid run on it, injection.json written into the run directory.
   * Run by the worker (src/worker/main.ts) when the run directory was written. Default: the
   * settings' `injection.study` / `injection.canariesPerKind`; `false` turns it off.
   */
  injectionStudy?: boolean | { canariesPerKind?: number };
  /**
   * Run only shard `index` of `count` (1-based) of the work (./shard.ts); the run folder gets
   * shard.json and shard-items.jsonl for `spanproof merge` (./merge.ts), and results.json says `shard`.
   */
  shard?: { index: number; count: number };
  /** Optional marker for tests: fail the item of this (question id, config id) to exercise per-item failure. */
  faultInjection?: { question: string; config: string };
  /**
   * API key of `settings.modelEndpoint.url` (SPANPROOF_API_KEY in the CLI, the VS Code key store in the
   * extension). Held in memory only: never written to run.json or any other file.
   */
  apiKey?: string;
  /**
   * Write a V8 CPU profile of the thread that runs the grid (the extension's worker, the CLI's own
   * thread) into the run directory (`worker.cpuprofile`; also SPANPROOF_PROFILE=1 in the environment).
   * Not a setting: it changes no result.
   */
  profile?: boolean;
  /**
   * Whether a resident worker keeps this run's models, pair-score caches and chunker stages (chunks,
   * BM25 and dense indexes) for the next request (a one-question re-run reuses them); default true.
   * The CLI, which sends one request and exits, passes false: each chunker's indexes are then garbage
   * as soon as its configs are scored instead of being held to the end of the run (peak memory).
   */
  resident?: boolean;
}

/** Result of a grid run. */
export interface GridRunResult {
  /** Run directory, or null when `writeRun` was false. */
  runDir: string | null;
  status: RunStatus;
  /** Where the run was written and why (e.g. workspace not writable → user cache dir). */
  location: RunFile['location'] | null;
  results: ResultsFile;
  /** The ranked configs in rank order (format-1 keys + ranking.json v2 keys; src/core/ranking/view.ts). */
  ranking: RankingEntry[];
  /** The deterministic verdict (ranking.json v2 `verdict`, SPEC §9). */
  verdict: Verdict;
  /** ranking.json v2 as written. */
  rankingFile: RankingFile;
  timings: TimingsFile;
  /** Present when `returnRecords` was true. */
  records?: QuestionRecord[];
  /** Non-fatal warnings (skipped files, excluded questions, failed items). */
  warnings: string[];
  /** The injection exposure study and the file it was written to (with `injectionStudy`). */
  injection?: { file: string; study: InjectionStudy };
}

/** One (question, config) result. Hit chunk indexes refer to `chunks` of the item's chunker. */
export interface ItemRecord {
  question: string;
  config: string;
  chunker: PlanChunker;
  /** The retriever id of the config id (`dense:<name>` with several embedders; an external retriever's name). */
  retriever: string;
  rerank: boolean;
  status: 'ok' | 'failed';
  error?: string;
  /** Retriever order of the candidate pool (N hits). */
  pool: Hit[];
  /** Final order of the pool (reranked when on, else = pool). */
  final: Hit[];
  /** ms for this question: retrieval (query embedding + search, batch time divided evenly where batched). */
  retrieveMs: number;
  /** ms for this question's reranking (0 when off). */
  rerankMs: number;
  scores: ItemScores | null;
  /** Embedder tokens of the result list's text (the union of R₁..R_k, overlaps once), when scored. */
  contextTokens?: number;
  /** External retrievers: the item's own index (the returned passages, sorted), which `pool`/`final` index into. */
  chunks?: Chunk[];
  /** External retrievers: what was returned and what was not counted as retrieved. */
  external?: ExternalItemInfo;
}

/** What one chunker's stages produced (chunks, timings, or the error that removed the chunker). */
export interface ChunkerStage {
  chunker: ChunkerId;
  chunks: Chunk[];
  error?: string;
  chunkMs: number;
  bm25Ms: number;
  embedMs: number;
  /** Documents whose chunks came from the chunk cache. */
  cachedDocs: number;
  /** The whole chunker's wall time (ms), process CPU time (ms) and the peak RSS by its end (MiB), see resources.ts. */
  resources?: { wallMs: number; cpuMs: number; peakRssMB: number; thread?: number; startMs?: number };
}

/** The in-memory result of the engine (chunk → index → retrieve → rerank → score, every chunker). */
export interface EngineOutput {
  configs: ConfigPlan[];
  items: ItemRecord[];
  stages: ChunkerStage[];
  queryEmbedMs: number;
}

/** A chunker stage kept in memory between runs of the same corpus (a resident worker). */
export interface StageMemo {
  chunks: Chunk[];
  bm25: Bm25Index | null;
  dense: DenseIndex | null;
}
