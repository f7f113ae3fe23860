/**
 * The request and the result of a grid run (SPEC §6, §10): what a host (the CLI, the extension,
 * through the worker of src/worker) asks `runGrid` for, and what it gets back. The worker protocol
 * (src/shared/protocol.ts) carries these shapes unchanged.
 */
import type { RunSettings } from '../settings';
import type { QuestionRecord, RankingEntry, ResultsFile, RunFile, RunStatus, TimingsFile } from '../runs/types';
import type { RankingFile, Verdict } from '../ranking/types';

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
  /** Optional marker for tests: fail the item of this (question id, config id) to exercise per-item failure. */
  faultInjection?: { question: string; config: string };
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
}
