/**
 * The verdict stage of a grid run (SPEC §9 v2): from the aggregates and the per-question primary
 * columns to ranking.json format 2 (src/core/ranking `rankConfigs`), and back into results.json's
 * per-config `rank`, `explanation` and `vsTop`, so both files carry the one ranking and the one
 * explanation. Configs with no scored question are not ranked; they follow the ranked ones (by id)
 * with an explanation that says why.
 *
 * Measured latency is summarised (median, IQR) and passed to the ranking only when
 * `weights.latency > 0`; otherwise nothing here reads a clock, and ranking.json is byte-identical for
 * identical inputs.
 */
import type { RunSettings } from '../settings';
import { deterministicCosts, rankConfigsSteps, type ComputeModels, type LatencySummary, type RankingFile } from '../ranking';
import type { ConfigResult } from '../runs/types';
import type { AggregateOutput } from './aggregate';
import { runSteps, type Steps } from '../steps';

export interface VerdictStageInput {
  agg: AggregateOutput;
  settings: RunSettings;
  /** Parameter counts of the run's models and the pool size (deterministic compute cost). */
  models: ComputeModels;
  /** Per config id: measured per-query latency; read only when weights.latency > 0. */
  latency: ReadonlyMap<string, LatencySummary>;
}

export interface VerdictStageOutput {
  ranking: RankingFile;
  /** The aggregate's configs (id order) with rank, explanation and vsTop filled in. */
  configs: ConfigResult[];
}

/** Runs the verdict stage (module docstring). */
export function verdictStage(input: VerdictStageInput): VerdictStageOutput {
  return runSteps(verdictStageSteps(input));
}

/** {@link verdictStage} as steps (src/core/steps.ts): yields after every paired comparison. */
export function* verdictStageSteps(input: VerdictStageInput): Steps<VerdictStageOutput> {
  const { agg, settings } = input;
  const k = settings.k;
  const scored = agg.configs.filter((c) => c.scored > 0);
  const costs = deterministicCosts(scored, input.models);
  const timed = settings.weights.latency > 0;
  const ranking = yield* rankConfigsSteps(
    scored.map((c, i) => ({
      id: c.id,
      quality: c.metrics[agg.primaryMetric],
      perQuestion: agg.primary.get(c.id)!,
      mrr: c.metrics.mrr.mean,
      ndcg: c.metrics[`ndcg@${k}`].mean,
      cost: costs[i],
      causes: c.causes,
      latency: timed ? input.latency.get(c.id) ?? null : null,
    })),
    agg.resamples,
    { primaryMetric: agg.primaryMetric, k, margin: settings.verdict.margin, weights: settings.weights },
  );
  const byId = new Map(ranking.configs.map((r) => [r.id, r]));
  const best = ranking.verdict.best;
  const unscored = agg.configs.filter((c) => c.scored === 0).map((c) => c.id).sort();
  const configs = agg.configs.map((c): ConfigResult => {
    const r = byId.get(c.id);
    if (!r) {
      const failed = c.failed.length ? ` ${c.failed.length} item(s) failed: ${c.failed.join(', ')}.` : '';
      return { ...c, rank: ranking.configs.length + unscored.indexOf(c.id) + 1, vsTop: null, explanation: `Not ranked: no question could be scored for this config.${failed}` };
    }
    const failed = c.failed.length ? ` ${c.failed.length} item(s) failed and are not scored: ${c.failed.join(', ')}.` : '';
    const vsTop = r.best || !best ? null : { top: best, diff: { mean: r.diffVsBest.mean, lo: r.diffVsBest.lo, hi: r.diffVsBest.hi }, significant: (r.pHolm ?? 1) < ranking.verdict.alpha };
    return { ...c, rank: r.rank, vsTop, explanation: r.explanation + failed };
  });
  return { ranking, configs };
}
