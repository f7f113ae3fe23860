/**
 * Stages "aggregate" and "verdict" as one pure step, from the scored items to results.json: used by
 * a run (./run.ts) and by the merge of sharded runs (./merge.ts), so a merged run computes its
 * aggregates, bootstrap and verdict exactly as one process does and writes the same bytes.
 */
import type { AcceptanceReport } from '../groundtruth';
import type { ComputeModels, LatencySummary } from '../ranking';
import type { ResultsFile } from '../runs/types';
import type { RunSettings } from '../settings';
import { aggregateSteps, type AggregateOutput } from './aggregate';
import { externalSummaries } from './external';
import type { ConfigPlan } from './plan';
import { verdictStageSteps, type VerdictStageOutput } from './ranking';
import { runSteps, runStepsAsync, type Steps } from '../steps';
import { buildResults } from './results';
import type { ItemRecord } from './types';

export interface ConcludeInput {
  settings: RunSettings;
  /** Every config of the run (built-in in plan order, then external). */
  configs: readonly ConfigPlan[];
  /** Every item, in engine order (chunkers in plan order, then external configs). */
  items: readonly ItemRecord[];
  /** Chunkers whose stages failed, in plan order, with the message. */
  stageErrors: ReadonlyArray<{ chunker: string; error?: string }>;
  /** The scored questions in ground-truth order (only `id` is read). */
  questions: ReadonlyArray<{ id: string }>;
  acceptance: AcceptanceReport;
  skipped: ReadonlyArray<{ source: string; reason: string; detail: string }>;
  computeModels: ComputeModels;
  /** Measured per-query latency per config (read only when weights.latency > 0). */
  latency: ReadonlyMap<string, LatencySummary>;
  /** Starts timing `stage` (the run's stage clock) and returns the function that ends it; optional. */
  startStage?: (stage: string) => () => void;
}

export interface ConcludeOutput {
  agg: AggregateOutput;
  verdict: VerdictStageOutput;
  results: ResultsFile;
}

/** Aggregates, ranks and builds results.json (deterministic for identical items and settings). */
export function concludeResults(input: ConcludeInput): ConcludeOutput {
  return runSteps(concludeSteps(input));
}

/**
 * {@link concludeResults} awaiting `checkpoint` between steps of bounded work (the bootstrap draws,
 * every CI, every paired comparison): a run passes its progress tick, so a cancel stops the
 * statistics within ~40 ms of work (#16 N6). Same result.
 */
export function concludeResultsAsync(input: ConcludeInput, checkpoint: () => Promise<void>): Promise<ConcludeOutput> {
  return runStepsAsync(concludeSteps(input), checkpoint);
}

function* concludeSteps(input: ConcludeInput): Steps<ConcludeOutput> {
  const start = input.startStage ?? (() => () => {});
  const { settings } = input;
  let end = start('aggregate');
  const agg = yield* aggregateSteps(input.configs, input.items, input.questions, settings);
  end();
  end = start('verdict');
  const verdict = yield* verdictStageSteps({ agg, settings, latency: input.latency, models: input.computeModels });
  end();
  const summaries = externalSummaries(input.configs, input.items, agg);
  const configs = verdict.configs.map((c) => (summaries.has(c.id) ? { ...c, external: summaries.get(c.id)! } : c));
  const results = buildResults({ questions: input.questions, acceptance: input.acceptance, skipped: input.skipped }, settings, agg.primaryMetric, configs, { stages: input.stageErrors, items: input.items });
  return { agg, verdict, results };
}
