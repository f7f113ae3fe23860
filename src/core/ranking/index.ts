/**
 * The one ranking, verdict and explanation of Spanproof (SPEC §9 v2), read by every surface: the CLI
 * table and gate, the reports, the results panel, results.json and ranking.json.
 *
 * `rankConfigs` puts the configs in the quality order (Q, MRR, nDCG@k, deterministic cost, id), marks
 * the Pareto front (quality vs context cost vs compute cost), applies the non-inferiority rule and the
 * evidence status (src/core/ranking/verdict.ts) and writes each config's explanation. It reads no
 * clock: with default settings its output is byte-identical for identical inputs. Only when the user
 * sets `weights.latency > 0` does measured latency enter — as a separate `timedVerdict`, marked as
 * depending on timings; the deterministic `verdict` stays what it is.
 */
import type { Cause } from '../types';
import { ALPHA, ASSUMED_POWER } from '../stats';
import { dominantCause } from './cause';
import { paretoFront } from './order';
import { decideVerdictSteps, DEFAULT_MARGIN, type VerdictInput } from './verdict';
import { runSteps, type Steps } from '../steps';
import { explainConfig, recommendedWhy, verdictText } from './text';
import type { LatencySummary } from './latency';
import type { RankedConfig, RankingFile, TimedVerdict, Verdict } from './types';

export * from './types';
export { dominantCause, type DominantCause } from './cause';
export { compareQuality, paretoFront, type QualityKey } from './order';
export { deterministicCosts, type ComputeModels, type CostInput, type DeterministicCost } from './cost';
export { latencySummary, latencyText, type LatencySummary } from './latency';
export { decideVerdict, decideVerdictSteps, DECISIVE_MIN_QUESTIONS, DEFAULT_MARGIN, type EvidenceStatus, type VerdictDecision, type VerdictInput, type ConfigDecision } from './verdict';
export { costText, explainConfig, signed } from './text';

/** What the ranking needs from one config. */
export interface RankInput extends VerdictInput {
  /** Misses per cause (missing keys count 0). */
  causes: Partial<Record<Cause, number>>;
  /** Measured per-query latency; read only when weights.latency > 0. */
  latency?: LatencySummary | null;
}

export interface RankOptions {
  /** Resolved primary metric key (`hit@5`). */
  primaryMetric: string;
  /** The run's k (for nDCG@k in the text). */
  k: number;
  /** Non-inferiority margin δ (setting `verdict.margin`). Default 0.05. */
  margin?: number;
  /** Ranking weights; latency > 0 adds the timing-dependent `timedVerdict`. */
  weights?: { quality: number; latency: number; context: number };
}

const EMPTY_VERDICT = (metric: string, margin: number): Verdict => ({
  recommended: null,
  best: null,
  status: 'no-signal',
  primaryMetric: metric,
  margin,
  mde: null,
  questionsNeeded: null,
  reasons: ['no config could be scored'],
  summary: 'No signal: no config could be scored (see the failed items).',
  questions: 0,
  configs: 0,
  tied: [],
  unresolved: [],
  alpha: ALPHA,
  power: ASSUMED_POWER,
  dependsOnTimings: false,
});

/**
 * Ranks `configs` (each with at least one scored question) with the run's shared bootstrap
 * `resamples` and returns ranking.json format 2, configs in rank order.
 */
export function rankConfigs(configs: readonly RankInput[], resamples: readonly Uint32Array[], options: RankOptions): RankingFile {
  return runSteps(rankConfigsSteps(configs, resamples, options));
}

/** {@link rankConfigs} as steps (src/core/steps.ts): yields after every paired comparison with the best. */
export function* rankConfigsSteps(configs: readonly RankInput[], resamples: readonly Uint32Array[], options: RankOptions): Steps<RankingFile> {
  const margin = options.margin ?? DEFAULT_MARGIN;
  const metric = options.primaryMetric;
  if (configs.length === 0) return { spanproof: 2, primaryMetric: metric, k: options.k, verdict: EMPTY_VERDICT(metric, margin), configs: [] };
  const v = yield* decideVerdictSteps(configs, resamples, margin);
  const ids = configs.map((c) => c.id);
  const pareto = paretoFront(configs.map((c) => ({ quality: c.quality.mean, context: c.cost.context, compute: c.cost.compute })));
  const nonInferiorCount = v.decisions.filter((d) => d.nonInferior).length;
  const why = recommendedWhy(v, ids, nonInferiorCount);
  const best = configs[v.best];
  const ranked: RankedConfig[] = v.order.map((i) => {
    const c = configs[i];
    const d = v.decisions[i];
    const isBest = i === v.best;
    const dom = dominantCause(c.causes);
    return {
      id: c.id,
      rank: d.rank,
      score: c.quality.mean,
      pareto: pareto[i],
      explanation: explainConfig({
        id: c.id, rank: d.rank, total: configs.length, metric, k: options.k, quality: c.quality,
        best: isBest ? null : { id: best.id, quality: best.quality.mean },
        diff: isBest ? null : d.vsBest, pHolm: d.pHolm, significantlyWorse: d.significantlyWorse, nonInferior: d.nonInferior,
        margin, recommended: i === v.recommended, recommendedWhy: why, dominant: dom, cost: c.cost, pareto: pareto[i],
      }),
      diffVsBest: { mean: d.vsBest.mean, lo: d.vsBest.lo, hi: d.vsBest.hi, se: d.vsBest.se },
      p: isBest ? null : d.vsBest.p,
      pHolm: d.pHolm,
      significantlyWorse: d.significantlyWorse,
      nonInferior: d.nonInferior,
      recommended: i === v.recommended,
      best: isBest,
      quality: c.quality,
      mrr: c.mrr,
      ndcg: c.ndcg,
      cost: c.cost,
      causes: c.causes,
      dominantCause: dom,
    };
  });
  const text = verdictText({ decision: v, ids, quality: configs.map((c) => c.quality), perQuestion: configs.map((c) => c.perQuestion), metric, why });
  const verdict: Verdict = {
    recommended: ids[v.recommended],
    best: ids[v.best],
    status: v.status,
    primaryMetric: metric,
    margin,
    mde: v.mde,
    questionsNeeded: v.questionsNeeded,
    reasons: text.reasons,
    summary: text.summary,
    questions: v.n,
    configs: configs.length,
    tied: v.tied.map((i) => ids[i]),
    unresolved: v.unresolved.map((i) => ids[i]),
    alpha: ALPHA,
    power: ASSUMED_POWER,
    dependsOnTimings: false,
  };
  const out: RankingFile = { spanproof: 2, primaryMetric: metric, k: options.k, verdict, configs: ranked };
  const w = options.weights;
  if (w && w.latency > 0) out.timedVerdict = timedVerdict(configs, ranked, v.order, w);
  return out;
}

function minMax(xs: readonly number[]): number[] {
  const fin = xs.filter((x) => Number.isFinite(x));
  const lo = Math.min(...fin);
  const hi = Math.max(...fin);
  return xs.map((x) => (!Number.isFinite(x) ? 1 : hi > lo ? (x - lo) / (hi - lo) : 0));
}

/**
 * The opt-in timing-dependent verdict: timed score = w_q·Q − w_l·L̂ − w_c·Ĉ, where L̂ is the min–max
 * normalised median latency and Ĉ the min–max normalised deterministic cost over the ranked configs
 * (0 for all when they are equal; an untimed config counts as the slowest). Among the non-inferior
 * configs the highest timed score is recommended (ties keep the quality order). Adds `latency` and
 * `timedScore` to `ranked` (same objects, rank order).
 */
function timedVerdict(configs: readonly RankInput[], ranked: RankedConfig[], order: readonly number[], w: { quality: number; latency: number; context: number }): TimedVerdict {
  const lat = minMax(configs.map((c) => c.latency?.medianMs ?? NaN));
  const cost = minMax(configs.map((c) => c.cost.total));
  let pick: RankedConfig | null = null;
  order.forEach((i, r) => {
    const rc = ranked[r];
    rc.timedScore = w.quality * configs[i].quality.mean - w.latency * lat[i] - w.context * cost[i];
    if (configs[i].latency) rc.latency = configs[i].latency!;
    if (rc.nonInferior && (pick === null || rc.timedScore > pick.timedScore!)) pick = rc;
  });
  const rec = (pick as RankedConfig | null)?.id ?? null;
  return {
    recommended: rec,
    dependsOnTimings: true,
    weights: { ...w },
    summary: `With weights.latency = ${w.latency} the timing-dependent verdict is ${rec}: the highest timed score (w_q·Q − w_l·latency − w_c·cost, min–max normalised) among the configs shown within the margin of the best. It depends on timings measured on this machine and can change between identical runs; --fail-under reads the deterministic verdict.`,
  };
}
export { isRankingFileV2, rankingEntries, rankingView, type RankingView } from './view';
