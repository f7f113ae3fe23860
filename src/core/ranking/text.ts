/**
 * The words of the verdict (SPEC §9): each config's explanation and the verdict's summary and
 * reasons. Numbers are printed with fixed decimals (`toFixed`, no locale), so the text is identical
 * for identical inputs. Every surface shows these strings; none writes its own.
 */
import { metricLabel } from '../metrics/registry';
import { ALPHA, ASSUMED_POWER } from '../stats';
import type { MeanCI } from '../stats';
import type { DeterministicCost } from './cost';
import type { DominantCause } from './cause';
import { DECISIVE_MIN_QUESTIONS, type VerdictDecision } from './verdict';

const f3 = (x: number): string => (Number.isFinite(x) ? x.toFixed(3) : 'n/a');
const f2 = (x: number): string => (Number.isFinite(x) ? x.toFixed(2) : 'n/a');
/** Signed with a real minus: `−0.044`, `+0.011`, `0.000`. */
export const signed = (x: number): string => (!Number.isFinite(x) ? 'n/a' : x === 0 ? '0.000' : `${x > 0 ? '+' : '−'}${Math.abs(x).toFixed(3)}`);
const pText = (p: number): string => (p < 0.001 ? '< 0.001' : `= ${p.toFixed(3)}`);
const ciText = (m: MeanCI): string => `${f3(m.mean)} (95% CI ${f3(m.lo)}–${f3(m.hi)})`;
const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** `context 312.4 tokens + compute 105.0 (1 query embedding, 20 reranker passes, in million-parameter passes) = 417.4 per query` (a whole context without decimals). */
export function costText(c: DeterministicCost): string {
  const parts = [c.queryEmbeddings ? plural(c.queryEmbeddings, 'query embedding') : '', c.rerankPasses ? plural(c.rerankPasses, 'reranker pass', 'reranker passes') : ''].filter(Boolean);
  const compute = parts.length ? `compute ${c.compute.toFixed(1)} (${parts.join(', ')}, in million-parameter passes)` : 'compute 0 (no model call)';
  // the context is a mean over questions: shown to the total's one decimal when fractional, so the
  // sum reads right (it said "context 375 tokens + compute 0 = 374.5")
  const context = Number.isInteger(c.context) ? String(c.context) : c.context.toFixed(1);
  return `context ${context} ${c.contextUnit} + ${compute} = ${c.total.toFixed(1)} per query`;
}

/** What one config's explanation is made of. */
export interface ExplainInput {
  id: string;
  rank: number;
  total: number;
  metric: string;
  k: number;
  quality: MeanCI;
  best: { id: string; quality: number } | null;
  diff: { mean: number; lo: number; hi: number } | null;
  pHolm: number | null;
  significantlyWorse: boolean;
  nonInferior: boolean;
  margin: number;
  recommended: boolean;
  recommendedWhy: string;
  dominant: DominantCause | null;
  cost: DeterministicCost;
  pareto: boolean;
}

/** The SPEC §9 explanation of one config, one paragraph. */
export function explainConfig(e: ExplainInput): string {
  const m = metricLabel(e.metric);
  const o = [`#${e.rank} of ${e.total} (order: ${m}, then MRR, nDCG@${e.k}, cost). ${m} ${ciText(e.quality)}.`];
  if (!e.best || !e.diff) o.push('Best by quality.');
  else {
    const d = e.diff;
    o.push(`Versus the best, ${e.best.id}: ${signed(d.mean)} (paired 95% CI ${signed(d.lo)} to ${signed(d.hi)}); Holm-adjusted p ${pText(e.pHolm ?? 1)}, ${e.significantlyWorse ? 'significantly worse' : 'not significantly worse'}.`);
    o.push(e.nonInferior ? `Non-inferior: the CI's lower bound ${signed(d.lo)} is within the margin −${f2(e.margin)}.` : `Not shown non-inferior: the CI's lower bound ${signed(d.lo)} is below −${f2(e.margin)}.`);
  }
  if (e.recommended) o.push(`Recommended: ${e.recommendedWhy}.`);
  const dc = e.dominant;
  o.push(dc ? `Most misses: ${dc.cause} (${dc.count} of ${dc.misses}): ${dc.advice}.` : 'No misses.');
  o.push(`Cost: ${costText(e.cost)}.`);
  if (e.pareto) o.push('On the Pareto front (quality vs context cost vs compute cost).');
  return o.join(' ');
}

/** Why the recommended config is recommended (a clause). */
export function recommendedWhy(v: VerdictDecision, ids: readonly string[], nonInferiorCount: number): string {
  if (v.status === 'no-signal') return 'every config scores the same on every question, so the choice is by cost alone (the cheapest, then the quality order)';
  if (v.recommended === v.best) {
    return nonInferiorCount > 1
      ? `the best by quality and the cheapest of the ${nonInferiorCount} configs shown within ${f2(v.margin)} of it`
      : `the best by quality; no cheaper config is shown within ${f2(v.margin)} of it`;
  }
  return `the cheapest of the ${nonInferiorCount} configs shown within ${f2(v.margin)} of the best (${ids[v.best]}; lower bound of the paired 95% CI ≥ −${f2(v.margin)})`;
}

/** Everything the verdict sentences need. */
export interface VerdictTextInput {
  decision: VerdictDecision;
  ids: readonly string[];
  quality: readonly MeanCI[];
  perQuestion: readonly ArrayLike<number>[];
  metric: string;
  why: string;
}

function pattern(cols: readonly ArrayLike<number>[]): string {
  const all = (x: number) => cols.every((c) => Array.prototype.every.call(c, (v: number) => v === x || v !== v));
  return all(1) ? 'all hit' : all(0) ? 'all miss' : 'the same per-question values';
}

/** The verdict's plain-words summary and its reasons (SPEC §9 "evidence status"). */
export function verdictText(t: VerdictTextInput): { summary: string; reasons: string[] } {
  const v = t.decision;
  const m = metricLabel(t.metric);
  const rec = t.ids[v.recommended];
  const best = t.ids[v.best];
  const n = v.n;
  const nc = t.ids.length;
  const reasons: string[] = [];
  if (v.status === 'no-signal') {
    const why = nc === 1 ? 'only one config ran, so there is nothing to compare' : `all ${nc} configs score the same ${m} on every one of the ${plural(n, 'question')} (${pattern(t.perQuestion)})`;
    reasons.push(why, `recommended by cost alone: ${rec}`, 'no difference between configs can be estimated from these questions; add questions that some configs answer and others miss');
    return { summary: `No signal: ${why}, so these questions cannot tell the configs apart. ${rec} is recommended only because it is the cheapest. Add questions that some configs miss.`, reasons };
  }
  const mde = v.mde === null ? 'n/a' : f2(v.mde);
  // The runner-up is #2 of the ranking; the SE comes from the closest competitor (verdict.ts, 5) — the
  // runner-up unless it duplicates the best, and then the words say so instead of calling it the runner-up.
  const runnerUp = v.runnerUp === null ? null : t.ids[v.runnerUp];
  const rival = v.se ? t.ids[v.se.from] : null;
  const rivalText = rival === null ? null : rival === runnerUp ? `the runner-up, ${rival}` : `${rival}, the highest-ranked config that differs from the best on some question (the runner-up, ${runnerUp}, has the same ${m} as the best on every question)`;
  const need = v.questionsNeeded === null ? null : `about ${v.questionsNeeded} would resolve a ${f2(v.margin)} difference${rivalText ? ` between the best and ${rivalText}` : ''}`;
  reasons.push(`best by quality: ${best}, ${m} ${ciText(t.quality[v.best])}`);
  reasons.push(`recommended: ${rec} — ${t.why}`);
  reasons.push(`${plural(v.tied.length, 'config')} of ${nc} ${v.tied.length === 1 ? 'is' : 'are'} not significantly worse than the best (paired bootstrap, Holm–Bonferroni over ${plural(nc - 1, 'comparison')}, family-wise α = ${ALPHA})`);
  if (v.unresolved.length) reasons.push(`${plural(v.unresolved.length, 'config')} ${v.unresolved.length === 1 ? 'is' : 'are'} neither significantly worse than the best nor shown within ±${f2(v.margin)} of it: ${v.unresolved.map((i) => t.ids[i]).join(', ')}`);
  if (n < DECISIVE_MIN_QUESTIONS) reasons.push(`${plural(n, 'question')} scored; a decisive verdict needs at least ${DECISIVE_MIN_QUESTIONS}`);
  reasons.push(`minimal detectable difference at n = ${n}: ${mde} of ${m} (two-sided α = ${ALPHA}, power ${ASSUMED_POWER}, from the paired bootstrap standard error ${v.se ? v.se.value.toFixed(4) : 'n/a'} of ${rival === null || rival === runnerUp ? 'runner-up ' : ''}${rival ?? 'n/a'} − best)`);
  if (need) reasons.push(`${need} (same α and power)`);
  let summary: string;
  if (v.status === 'decisive') {
    summary = `Decisive: use ${rec} — ${t.why}. With ${plural(n, 'question')}, every other config is significantly worse than the best or shown within ±${f2(v.margin)} of it; differences of ${mde} or more are detectable (80% power).`;
  } else {
    const apart = v.tied.length > 1 ? `${plural(n, 'question')} cannot tell these ${v.tied.length} configs apart` : `${best} is significantly better than every other config on these ${plural(n, 'question')}, but that is fewer than ${DECISIVE_MIN_QUESTIONS}`;
    summary = `Provisional: ${apart}${need ? `; ${need}` : ''}. For now use ${rec} — ${t.why}. Differences smaller than about ${mde} cannot be detected yet (80% power).`;
  }
  return { summary, reasons };
}
