/**
 * ranking.json (SPEC §9): adapts results.json + timings.json to src/core/ranking's `rankConfigs`
 * (weighted score, Pareto front, recommendation of the cheapest statistically-tied config, templated
 * explanation). Configs with no scored question are left out of the ranking (they are listed in
 * results.json with their failed items).
 */
import type { RunSettings } from '../settings';
import { rankConfigs, type Ranking } from '../ranking/legacy';
import type { RankingEntry, ResultsFile, TimingsFile } from '../runs/types';

export function buildRanking(results: ResultsFile, timings: TimingsFile, settings: RunSettings, primary: Map<string, Float64Array>, resamples: Uint32Array[]): { entries: RankingEntry[]; ranking: Ranking } {
  const metric = results.primaryMetric as keyof ResultsFile['configs'][number]['metrics'];
  const scored = results.configs.filter((c) => c.scored > 0);
  const ranking = rankConfigs(
    scored.map((c) => ({
      id: c.id,
      quality: c.metrics[metric],
      perQuestionQuality: primary.get(c.id)!,
      latencyMedianMs: timings.perConfig[c.id]?.medianQueryMs ?? 0,
      contextMean: c.contextChars,
      causes: c.causes,
    })),
    resamples,
    { weights: settings.weights, qualityMetric: settings.primaryMetric },
  );
  const entries = ranking.configs.map((r) => ({
    id: r.id,
    rank: r.rank,
    score: r.score,
    pareto: r.pareto,
    explanation: r.explanation,
    latencyMs: timings.perConfig[r.id]?.medianQueryMs ?? 0,
    contextChars: scored.find((c) => c.id === r.id)!.contextChars,
    recommended: r.recommended,
    tiedWithTop: r.tiedWithTop,
  }));
  return { entries, ranking };
}
