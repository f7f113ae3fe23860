/**
 * The verdict rule (SPEC §9 v2): which config to use, and how strong the evidence is.
 *
 * 1. Configs are put in the quality order (src/core/ranking/order.ts); the first is the **best**.
 * 2. Every other config c is compared with the best by the paired bootstrap of Q(c) − Q(best) over the
 *    run's shared resamples (CI, SE, p-value; src/core/stats/compare.ts). The p-values of all m − 1
 *    comparisons are Holm–Bonferroni adjusted; c is **significantly worse** when p_Holm < α = 0.05 and
 *    its mean difference is negative.
 * 3. c is **non-inferior** when the lower bound of that 95% CI is ≥ −δ (δ = `verdict.margin`,
 *    default 0.05 of Q). The best is non-inferior to itself. The **recommended** config is the
 *    cheapest non-inferior config (deterministic cost, then the quality order); when only the best
 *    qualifies, the best. A config whose CI is merely wide is never recommended for being cheaper.
 * 4. **Status**: `no-signal` when every config has the same Q on every question (all hit, all miss, or
 *    any identical pattern; also a single config) — nothing can be told apart. Otherwise the
 *    **contenders** are the configs not significantly worse than the best whose per-question Q differs
 *    from the best's; a contender is **resolved** when its CI lies within [−δ, +δ] of the best.
 *    `decisive` needs ≥ 30 scored questions and every contender resolved (so no config can be more
 *    than δ better than the recommendation, and none cheaper can be shown close); else `provisional`.
 * 5. The **runner-up** is the config ranked second in the quality order (#2 of every table). The
 *    **closest competitor** is the first config after the best in that order whose per-question Q
 *    differs from the best's — the runner-up, unless the runner-up has the best's Q on every
 *    question (an exact duplicate is no competitor: the SE of a zero difference is 0).
 *    **MDE and questions needed** come from SE*, the paired bootstrap SE of (closest competitor −
 *    best): MDE = (z_{0.975} + z_{0.80})·SE*, questions needed = ⌈n·((z_{0.975} + z_{0.80})·SE* / δ)²⌉
 *    — the n at which a true difference δ between the best and that config would be detected
 *    (two-sided α = 0.05, power 0.80; src/core/stats/compare.ts). The verdict's words (./text.ts)
 *    name both from these two indices only.
 *
 * Every input is deterministic (means, per-question values, seeded resamples, deterministic cost), so
 * the verdict is byte-identical for identical inputs.
 */
import { ALPHA, holmAdjust, minimalDetectableDifference, pairedComparison, questionsToResolve, type MeanCI, type PairedComparison } from '../stats';
import { compareQuality } from './order';
import { runSteps, type Steps } from '../steps';
import type { DeterministicCost } from './cost';

/** `decisive` / `provisional` / `no-signal` (SPEC §9). */
export type EvidenceStatus = 'decisive' | 'provisional' | 'no-signal';

/** Scored questions a `decisive` verdict needs at least (SPEC §9). */
export const DECISIVE_MIN_QUESTIONS = 30;
/** Default non-inferiority margin δ (setting `verdict.margin`). */
export const DEFAULT_MARGIN = 0.05;
/** Slack for comparing a CI bound with ±δ in floating point (1/20 is not exact in binary). */
const EPS = 1e-9;

/** What the rule needs from one config. */
export interface VerdictInput {
  id: string;
  /** Q mean with its bootstrap CI. */
  quality: MeanCI;
  /** Q per question, aligned with the resamples; NaN = not scored (failed item). */
  perQuestion: ArrayLike<number>;
  mrr: number;
  ndcg: number;
  cost: DeterministicCost;
}

/** One config's comparison with the best. */
export interface ConfigDecision {
  id: string;
  /** 1-based position in the quality order. */
  rank: number;
  /** Paired comparison Q(this) − Q(best); zero-width at 0 (p = 1) for the best itself. */
  vsBest: PairedComparison;
  /** Holm-adjusted p-value; null for the best. */
  pHolm: number | null;
  significantlyWorse: boolean;
  nonInferior: boolean;
  /** Per-question Q equal to the best's on every question (NaN where the best's is NaN). */
  sameAsBest: boolean;
  /** Not significantly worse, differs from the best, CI not within ±δ. */
  unresolved: boolean;
}

export interface VerdictDecision {
  /** Inputs' indices in quality order. */
  order: number[];
  /** Per input (input order). */
  decisions: ConfigDecision[];
  best: number;
  recommended: number;
  status: EvidenceStatus;
  /** Scored questions of the best config. */
  n: number;
  margin: number;
  /** Not significantly worse than the best (the best included), input indices in quality order. */
  tied: number[];
  /** Contenders whose CI is not within ±δ (input indices, quality order). */
  unresolved: number[];
  /** The runner-up (module docstring, 5): the input index of the config ranked second; null with one config. */
  runnerUp: number | null;
  /** SE* of the module docstring with the closest competitor's input index (`from`); null for no-signal. */
  se: { value: number; from: number } | null;
  mde: number | null;
  questionsNeeded: number | null;
}

function sameColumn(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!(a[i] === b[i] || (a[i] !== a[i] && b[i] !== b[i]))) return false;
  return true;
}

function finiteCount(xs: ArrayLike<number>): number {
  let c = 0;
  for (let i = 0; i < xs.length; i++) if (Number.isFinite(xs[i])) c++;
  return c;
}

const ZERO: PairedComparison = { mean: 0, lo: 0, hi: 0, se: 0, p: 1, n: 0 };

/**
 * Applies the rule of the module docstring to `configs` (at least one; configs with no scored question
 * must be left out by the caller). `resamples` are the run's shared bootstrap resamples.
 * @throws SpanproofError('invariant') when columns and resamples disagree in length.
 */
export function decideVerdict(configs: readonly VerdictInput[], resamples: readonly Uint32Array[], margin = DEFAULT_MARGIN, level = 0.95): VerdictDecision {
  return runSteps(decideVerdictSteps(configs, resamples, margin, level));
}

/** {@link decideVerdict} as steps (src/core/steps.ts): yields after every paired bootstrap comparison (B × n work each). */
export function* decideVerdictSteps(configs: readonly VerdictInput[], resamples: readonly Uint32Array[], margin = DEFAULT_MARGIN, level = 0.95): Steps<VerdictDecision> {
  const order = configs.map((_, i) => i).sort((a, b) => compareQuality(key(configs[a]), key(configs[b])));
  const best = order[0];
  const bestCol = configs[best].perQuestion;
  const cmp: PairedComparison[] = [];
  for (const [i, c] of configs.entries()) {
    cmp.push(i === best ? { ...ZERO, n: finiteCount(bestCol) } : pairedComparison(c.perQuestion, bestCol, resamples, level));
    if (i !== best) yield;
  }
  const others = order.slice(1);
  const holm = holmAdjust(others.map((i) => cmp[i].p));
  const pHolm = new Map(others.map((i, j) => [i, holm[j]]));
  const rankOf = new Map(order.map((i, r) => [i, r + 1]));
  const decisions: ConfigDecision[] = configs.map((c, i) => {
    const d = cmp[i];
    const ph = i === best ? null : pHolm.get(i)!;
    const significantlyWorse = ph !== null && ph < ALPHA && d.mean < 0;
    const nonInferior = i === best || d.lo >= -margin - EPS;
    const sameAsBest = sameColumn(c.perQuestion, bestCol);
    const within = d.lo >= -margin - EPS && d.hi <= margin + EPS;
    return { id: c.id, rank: rankOf.get(i)!, vsBest: d, pHolm: ph, significantlyWorse, nonInferior, sameAsBest, unresolved: i !== best && !significantlyWorse && !sameAsBest && !within };
  });
  // The cheapest non-inferior config; equal costs keep the quality order (`order` is already sorted).
  let recommended = best;
  for (const i of order) if (decisions[i].nonInferior && configs[i].cost.total < configs[recommended].cost.total) recommended = i;
  const n = finiteCount(bestCol);
  const tied = order.filter((i) => !decisions[i].significantlyWorse);
  const unresolved = order.filter((i) => decisions[i].unresolved);
  const noSignal = configs.every((c) => sameColumn(c.perQuestion, bestCol));
  const runnerUp = order.length > 1 ? order[1] : null;
  if (noSignal) return { order, decisions, best, recommended, status: 'no-signal', n, margin, tied, unresolved, runnerUp, se: null, mde: null, questionsNeeded: null };
  const from = order.find((i) => !decisions[i].sameAsBest)!; // the closest competitor (exists: not no-signal)
  const seValue = cmp[from].se;
  const status: EvidenceStatus = n >= DECISIVE_MIN_QUESTIONS && unresolved.length === 0 ? 'decisive' : 'provisional';
  const mde = minimalDetectableDifference(seValue);
  return {
    order,
    decisions,
    best,
    recommended,
    status,
    n,
    margin,
    tied,
    unresolved,
    runnerUp,
    se: { value: seValue, from },
    mde: Number.isFinite(mde) ? mde : null,
    questionsNeeded: n >= 1 ? questionsToResolve(n, seValue, margin) : null,
  };
}

function key(c: VerdictInput) {
  return { id: c.id, quality: c.quality.mean, mrr: c.mrr, ndcg: c.ndcg, cost: c.cost.total };
}
