/**
 * Ranking and explanation (SPEC §9).
 *
 * score = w_q·Q − w_l·L̂ − w_c·Ĉ, Q = the primary metric's mean (default hit@5, already in [0, 1], used
 * as is), L̂ = median query latency and Ĉ = mean context cost, each min–max normalised across the
 * ranked configs ((x − min)/(max − min); 0 for all when max = min). Default weights 1, 0.1, 0.1.
 * Order: score descending, then id ascending (code-unit order), so ranks are deterministic.
 *
 * Pareto front: configs no other config dominates (Q ≥, latency ≤, context ≤, one strictly).
 * Recommendation: the top config and every config whose paired-bootstrap difference in Q to it has a
 * CI including 0 are "not significantly different"; among them the cheapest (smallest L̂ + Ĉ, then
 * higher score, then id) is recommended, and the explanation says so.
 */
import { CAUSE_ADVICE } from '../attribution';
import { pairedDifferenceCI, type DifferenceCI, type MeanCI } from '../stats';
import { CAUSES, type Cause } from '../types';

/** What the ranking needs from one config. */
export interface ConfigSummary {
  /** `<chunker>/<retriever>/<rerank|none>`. */
  id: string;
  /** Mean of the primary metric with its bootstrap CI. */
  quality: MeanCI;
  /** Per-question values of the primary metric, aligned with the resamples (NaN = failed item). */
  perQuestionQuality: ArrayLike<number>;
  /** Median query latency (retrieve + rerank), ms. */
  latencyMedianMs: number;
  /** Mean context cost |∪R₁..R_k|, UTF-16 code units. */
  contextMean: number;
  /** Misses per cause (every key of CAUSES; missing keys count as 0). */
  causes: Partial<Record<Cause, number>>;
}

export interface RankWeights {
  quality: number;
  latency: number;
  context: number;
}

export const DEFAULT_WEIGHTS: Readonly<RankWeights> = { quality: 1, latency: 0.1, context: 0.1 };

export interface RankOptions {
  weights?: RankWeights;
  /** Name of the primary metric, for the explanation. Default `hit@5`. */
  qualityMetric?: string;
  /** CI level of the paired differences. Default 0.95. */
  level?: number;
  /**
   * Leave latency out entirely (weight 0, not in Pareto, not in "cheapest", not in the text), for
   * outputs that must be byte-identical across runs (results.json; timings vary). Default false.
   */
  ignoreLatency?: boolean;
}

export interface RankedConfig {
  id: string;
  /** 1-based, by score. */
  rank: number;
  score: number;
  pareto: boolean;
  /** L̂ and Ĉ in [0, 1]. */
  normLatency: number;
  normContext: number;
  /** Paired CI of Q(this) − Q(top); zero-width at 0 for the top itself. */
  diffToTop: DifferenceCI;
  /** Paired CI of Q(this) − Q(recommended) (SPEC §7.4 "significantly worse" test). */
  diffToRecommended: DifferenceCI;
  /** True for the top and every config not significantly different from it. */
  tiedWithTop: boolean;
  recommended: boolean;
  /** The most frequent cause (CAUSES order on ties); null when there are no misses. */
  dominantCause: { cause: Cause; count: number; misses: number } | null;
  explanation: string;
}

export interface Ranking {
  /** In rank order. */
  configs: RankedConfig[];
  top: string;
  recommended: string;
  /** Ids not significantly different from the top, top first, in rank order. */
  tiedWithTop: string[];
  /** One sentence saying what is recommended and why. */
  recommendation: string;
}

/** Min–max normalisation; all-equal (or a single config) → all 0. */
export function minMaxNormalise(xs: readonly number[]): number[] {
  const min = Math.min(...xs);
  const max = Math.max(...xs);
  return xs.map((x) => (max > min ? (x - min) / (max - min) : 0));
}

/** Indices of the Pareto front: maximise q, minimise latency and context. */
export function paretoFront(points: ReadonlyArray<{ quality: number; latency: number; context: number }>): boolean[] {
  return points.map((p, i) =>
    !points.some(
      (o, j) =>
        j !== i &&
        o.quality >= p.quality &&
        o.latency <= p.latency &&
        o.context <= p.context &&
        (o.quality > p.quality || o.latency < p.latency || o.context < p.context),
    ),
  );
}

function dominant(causes: Partial<Record<Cause, number>>): RankedConfig['dominantCause'] {
  let best: Cause | null = null;
  let misses = 0;
  for (const c of CAUSES) {
    const n = causes[c] ?? 0;
    misses += n;
    if (n > 0 && (best === null || n > (causes[best] ?? 0))) best = c;
  }
  return best === null ? null : { cause: best, count: causes[best] ?? 0, misses };
}

const f2 = (x: number): string => x.toFixed(2);
const ms = (x: number): string => (x < 10 ? x.toFixed(2) : x < 100 ? x.toFixed(1) : x.toFixed(0));

function explain(c: RankedConfig, s: ConfigSummary, n: number, top: string, metric: string, level: number, tied: number, noLat: boolean): string {
  const pct = Math.round(level * 100);
  const parts = [`#${c.rank} of ${n} (score ${c.score.toFixed(3)}).`, `${metric} ${f2(s.quality.mean)} (${pct}% CI ${f2(s.quality.lo)}–${f2(s.quality.hi)}).`];
  if (c.id === top) {
    parts.push('Top score.');
  } else {
    const d = c.diffToTop;
    const where = d.mean < 0 ? `${f2(-d.mean)} below` : d.mean > 0 ? `${f2(d.mean)} above` : 'Level with';
    const sig = d.significant ? (d.hi < 0 ? 'significantly worse' : 'significantly better') : 'not significant';
    parts.push(`${where} the top (${top}) in ${metric}: paired ${pct}% CI of the difference ${f2(d.lo)} to ${f2(d.hi)}, ${sig}.`);
  }
  if (c.recommended) {
    parts.push(
      tied > 1
        ? `Recommended: ${tied} configs, the top one included, are not significantly different in ${metric}, and this is the cheapest of them (lowest normalised ${noLat ? 'context' : 'latency + context'}).`
        : 'Recommended: top score, and no other config is statistically tied with it.',
    );
  }
  const dc = c.dominantCause;
  parts.push(dc ? `Most misses: ${dc.cause} (${dc.count} of ${dc.misses}): ${CAUSE_ADVICE[dc.cause]}.` : 'No misses.');
  const context = `context ${Math.round(s.contextMean)} characters.`;
  parts.push(noLat ? `Mean ${context}` : `Median latency ${ms(s.latencyMedianMs)} ms; mean ${context}`);
  if (c.pareto) parts.push(`On the Pareto front (quality vs ${noLat ? '' : 'latency vs '}context).`);
  return parts.join(' ');
}

/**
 * Ranks configs, marks the Pareto front, picks the recommendation and writes a deterministic
 * explanation for each (SPEC §9). `resamples` are the run's shared bootstrap resamples.
 * An empty `configs` returns an empty ranking with empty ids.
 */
export function rankConfigs(configs: readonly ConfigSummary[], resamples: readonly Uint32Array[], options: RankOptions = {}): Ranking {
  const w = options.weights ?? DEFAULT_WEIGHTS;
  const metric = options.qualityMetric ?? 'hit@5';
  const level = options.level ?? 0.95;
  if (configs.length === 0) return { configs: [], top: '', recommended: '', tiedWithTop: [], recommendation: 'No configs were scored.' };
  const noLat = options.ignoreLatency === true;
  const nl = noLat ? configs.map(() => 0) : minMaxNormalise(configs.map((c) => c.latencyMedianMs));
  const nc = minMaxNormalise(configs.map((c) => c.contextMean));
  const pareto = paretoFront(configs.map((c) => ({ quality: c.quality.mean, latency: noLat ? 0 : c.latencyMedianMs, context: c.contextMean })));
  const score = configs.map((c, i) => w.quality * c.quality.mean - w.latency * nl[i] - w.context * nc[i]);
  const order = configs.map((_, i) => i).sort((a, b) => score[b] - score[a] || (configs[a].id < configs[b].id ? -1 : configs[a].id > configs[b].id ? 1 : 0));
  const topI = order[0];
  const diffTo = (i: number, ref: number): DifferenceCI =>
    i === ref ? { mean: 0, lo: 0, hi: 0, significant: false } : pairedDifferenceCI(configs[i].perQuestionQuality, configs[ref].perQuestionQuality, resamples, level);
  const diffTop = configs.map((_, i) => diffTo(i, topI));
  const tied = order.filter((i) => !diffTop[i].significant);
  let recI = tied[0];
  for (const i of tied) if (nl[i] + nc[i] < nl[recI] + nc[recI]) recI = i; // `tied` is in rank order: ties keep the better score.
  const ranked: RankedConfig[] = order.map((i, r) => ({
    id: configs[i].id,
    rank: r + 1,
    score: score[i],
    pareto: pareto[i],
    normLatency: nl[i],
    normContext: nc[i],
    diffToTop: diffTop[i],
    diffToRecommended: diffTo(i, recI),
    tiedWithTop: !diffTop[i].significant,
    recommended: i === recI,
    dominantCause: dominant(configs[i].causes),
    explanation: '',
  }));
  ranked.forEach((c, r) => {
    c.explanation = explain(c, configs[order[r]], configs.length, configs[topI].id, metric, level, tied.length, noLat);
  });
  const recommendation =
    tied.length > 1
      ? `${configs[recI].id} is recommended: ${tied.length} configs (${tied.map((i) => configs[i].id).join(', ')}) are not significantly different in ${metric} from the top-scoring ${configs[topI].id}, and it is the cheapest of them.`
      : `${configs[recI].id} is recommended: it has the top score and every other config is significantly worse in ${metric}.`;
  return { configs: ranked, top: configs[topI].id, recommended: configs[recI].id, tiedWithTop: tied.map((i) => configs[i].id), recommendation };
}
