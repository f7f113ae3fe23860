/**
 * Span metrics (SPEC §7.1): coverage@k, hit@k, reciprocal rank, nDCG@k with the index-wide greedy
 * ideal, span precision@k, IoU@k (union form and the Chroma form), Precision_Ω, reachable and
 * context cost. Formulas and sources: docs/metrics.md.
 *
 * Inputs everywhere: `evidence` = the question's resolved spans; `chunks` = one chunker's whole index
 * sorted by (source, start) (overlaps allowed); ranked lists = arrays of indices into `chunks`.
 * Lengths are UTF-16 code units. Only a chunk of the same `source` as a span can overlap it.
 *
 * `match: 'all'` — every span is needed: hit iff every span reaches τ; coverage = mean over spans;
 * nDCG, precision and IoU use E = the union of the spans. `match: 'any'` — alternatives: each span
 * is scored alone and the best value of each metric counts (max taken per metric).
 *
 * The building blocks are in ./spanSets.ts and the index-wide analysis in ./spanIndex.ts; this module
 * scores ranked lists and re-exports both, so callers import span metrics from here.
 */
import { SpanproofError } from '../errors';
import type { Chunk, Span } from '../types';
import { IntervalSet } from './intervals';
import type { IndexAnalysis } from './spanIndex';
import { checkEvidence, dcg, reaches, targetOf, type MatchMode } from './spanSets';

export { TAU_EPSILON, reaches, dcg, pairCoverage, type MatchMode } from './spanSets';
export { analyzeIndex, type SpanAnalysis, type IndexAnalysis } from './spanIndex';

/**
 * Cumulative profile of a ranked list against targets: for every rank r = 0..R (R = ranked.length),
 * the covered length of each target, |∪R₁..R_r| and Σ|Rᵢ|. Index 0 is the empty prefix.
 */
export interface RankProfile {
  /** covered[t][r] = |(∪R₁..R_r) ∩ target t| in code units. */
  readonly covered: Float64Array[];
  readonly targetLength: number[];
  /** |∪R₁..R_r| over all sources (context cost). */
  readonly unionLength: Float64Array;
  /** Σ_{i≤r} |Rᵢ| (overlaps counted twice; the Chroma IoU denominator). */
  readonly sumLength: Float64Array;
}

/** Profiles `ranked` (chunk indices) against each target span set. O(R · (targets + runs)). */
export function rankProfile(chunks: readonly Chunk[], ranked: readonly number[], targets: ReadonlyArray<readonly Span[]>): RankProfile {
  const R = ranked.length;
  const built = targets.map(targetOf);
  const coveredSets = built.map(() => new Map<string, IntervalSet>());
  const covered = built.map(() => new Float64Array(R + 1));
  const unionSets = new Map<string, IntervalSet>();
  const unionLength = new Float64Array(R + 1);
  const sumLength = new Float64Array(R + 1);
  for (let r = 1; r <= R; r++) {
    const idx = ranked[r - 1];
    const c = chunks[idx];
    if (!c) {
      throw new SpanproofError('invariant', `Ranked list holds chunk index ${idx}, outside the index of ${chunks.length} chunks.`);
    }
    let u = unionSets.get(c.source);
    if (!u) unionSets.set(c.source, (u = new IntervalSet()));
    unionLength[r] = unionLength[r - 1] + u.add(c.start, c.end);
    sumLength[r] = sumLength[r - 1] + (c.end - c.start);
    for (let t = 0; t < built.length; t++) {
      let add = 0;
      const runs = built[t].target.get(c.source);
      if (runs) {
        let set = coveredSets[t].get(c.source);
        for (const [a, b] of runs) {
          const lo = Math.max(a, c.start);
          const hi = Math.min(b, c.end);
          if (hi <= lo) continue;
          if (!set) coveredSets[t].set(c.source, (set = new IntervalSet()));
          add += set.add(lo, hi);
        }
      }
      covered[t][r] = covered[t][r - 1] + add;
    }
  }
  return { covered, targetLength: built.map((b) => b.length), unionLength, sumLength };
}

/**
 * Per-question span metrics of one config. Keys (all numbers):
 * - `coverage@r`, `hit@r` for r ∈ {1, 3, 5, 10} ∪ {k}
 * - `rr` (reciprocal rank over the whole list, 0 if never hit)
 * - `ndcg@r` for r ∈ {5, 10} ∪ {k}
 * - `precision@k`, `iou@k`, `iou_chroma@k` (k = the run's k)
 * - `precision_omega`, `reachable` (0|1), `contextChars` = |∪R₁..R_k|, `sumChars@k` = Σ|Rᵢ|
 * A list shorter than r is scored on what it has.
 */
export interface QuestionMetrics {
  readonly [metric: string]: number;
  readonly rr: number;
  readonly precision_omega: number;
  readonly reachable: number;
  readonly contextChars: number;
}

/** The hit rule at rank r, from a profile whose first targets are the evidence spans. */
function hitFromProfile(p: RankProfile, nSpans: number, match: MatchMode, r: number, tau: number): boolean {
  for (let s = 0; s < nSpans; s++) {
    const ok = reaches(p.covered[s][r] / p.targetLength[s], tau);
    if (match === 'all' && !ok) return false;
    if (match === 'any' && ok) return true;
  }
  return match === 'all';
}

function coverageFromProfile(p: RankProfile, nSpans: number, match: MatchMode, r: number): number {
  let agg = match === 'all' ? 0 : -Infinity;
  for (let s = 0; s < nSpans; s++) {
    const c = p.covered[s][r] / p.targetLength[s];
    agg = match === 'all' ? agg + c : Math.max(agg, c);
  }
  return match === 'all' ? agg / nSpans : agg;
}

/** nDCG@k of target t: DCG of newly covered fractions over the greedy IDCG, clamped to [0, 1]. */
function ndcgFromProfile(p: RankProfile, t: number, k: number, idealGains: readonly number[]): number {
  const idcg = dcg(idealGains, k);
  if (idcg <= 0) return 0;
  const n = Math.min(k, p.unionLength.length - 1);
  let s = 0;
  for (let i = 1; i <= n; i++) s += (p.covered[t][i] - p.covered[t][i - 1]) / p.targetLength[t] / Math.log2(i + 1);
  return Math.min(1, s / idcg);
}

/**
 * All span metrics of one question for one config (SPEC §7.1). `final` is the whole candidate pool
 * in final order (chunk indices); metrics at k use its first k, `rr` uses all of it. Keys: coverage@r
 * and hit@r for r ∈ {1, 3, 5, 10, k} ∪ `extra.hitCoverage`, ndcg@r for r ∈ {5, 10, k} ∪ `extra.ndcg`
 * (the primary metric's cutoff, src/core/metrics/registry.ts `primaryCutoffs`), the rest at k.
 * @throws SpanproofError('invariant') when `analysis` was computed with another τ or other evidence,
 *   or `final` holds an index outside `chunks`.
 */
export function questionMetrics(
  evidence: readonly Span[],
  match: MatchMode,
  chunks: readonly Chunk[],
  final: readonly number[],
  analysis: IndexAnalysis,
  k: number,
  tau: number,
  extra: { hitCoverage?: readonly number[]; ndcg?: readonly number[] } = {},
): QuestionMetrics {
  checkEvidence(evidence);
  if (analysis.tau !== tau || analysis.spans.length !== evidence.length || analysis.match !== match) {
    throw new SpanproofError('invariant', 'questionMetrics got an IndexAnalysis computed for another τ, match or evidence.');
  }
  const n = evidence.length;
  const useUnion = match === 'all' && n > 1;
  const targets: Span[][] = evidence.map((e) => [e]);
  if (useUnion) targets.push([...evidence]);
  const p = rankProfile(chunks, final, targets);
  const R = final.length;
  const at = (r: number): number => Math.min(r, R);
  const out: Record<string, number> = {};
  for (const r of new Set([1, 3, 5, 10, k, ...(extra.hitCoverage ?? [])])) {
    out[`coverage@${r}`] = coverageFromProfile(p, n, match, at(r));
    out[`hit@${r}`] = hitFromProfile(p, n, match, at(r), tau) ? 1 : 0;
  }
  let rr = 0;
  for (let r = 1; r <= R; r++) {
    if (hitFromProfile(p, n, match, r, tau)) {
      rr = 1 / r;
      break;
    }
  }
  out.rr = rr;
  // Targets scored for nDCG / precision / IoU: E (all) or each alternative (any, best counts).
  const scored = match === 'all' ? [useUnion ? n : 0] : evidence.map((_, i) => i);
  const ideal = (t: number): readonly number[] => (match === 'all' ? analysis.idealGains : analysis.spans[t].idealGains);
  const best = (f: (t: number) => number): number => Math.max(...scored.map(f));
  for (const r of new Set([5, 10, k, ...(extra.ndcg ?? [])])) out[`ndcg@${r}`] = best((t) => ndcgFromProfile(p, t, r, ideal(t)));
  const kk = at(k);
  const inter = (t: number): number => p.covered[t][kk];
  out[`precision@${k}`] = best((t) => (p.unionLength[kk] === 0 ? 0 : inter(t) / p.unionLength[kk]));
  out[`iou@${k}`] = best((t) => inter(t) / (p.unionLength[kk] + p.targetLength[t] - inter(t)));
  out[`iou_chroma@${k}`] = best((t) => inter(t) / (p.sumLength[kk] + p.targetLength[t] - inter(t)));
  out.precision_omega = analysis.precisionOmega;
  out.reachable = analysis.reachable ? 1 : 0;
  out.contextChars = p.unionLength[kk];
  out[`sumChars@${k}`] = p.sumLength[kk];
  return out as QuestionMetrics;
}

/** coverage@k of one span: |(∪R₁..R_k) ∩ e| / |e| (SPEC §7.1). */
export function coverageAt(span: Span, chunks: readonly Chunk[], ranked: readonly number[], k: number): number {
  checkEvidence([span]);
  const p = rankProfile(chunks, ranked.slice(0, k), [[span]]);
  return p.covered[0][p.unionLength.length - 1] / p.targetLength[0];
}

/** Coverage at k of each evidence span, in evidence order (τ-free: feed it to `hitFromCoverages` for a τ sweep). */
export function spanCoveragesAt(evidence: readonly Span[], chunks: readonly Chunk[], ranked: readonly number[], k: number): number[] {
  checkEvidence(evidence);
  const p = rankProfile(chunks, ranked.slice(0, k), evidence.map((e) => [e]));
  const r = p.unionLength.length - 1;
  return evidence.map((_, s) => p.covered[s][r] / p.targetLength[s]);
}

/** hit from per-span coverages: all → every span ≥ τ; any → some span ≥ τ. */
export function hitFromCoverages(coverages: readonly number[], match: MatchMode, tau: number): 0 | 1 {
  const ok = match === 'all' ? coverages.every((c) => reaches(c, tau)) : coverages.some((c) => reaches(c, tau));
  return ok ? 1 : 0;
}

/** hit@k (SPEC §7.1): 1 when coverage@k ≥ τ for every span (`all`) / some span (`any`). */
export function hitAt(evidence: readonly Span[], match: MatchMode, chunks: readonly Chunk[], ranked: readonly number[], k: number, tau: number): 0 | 1 {
  return hitFromCoverages(spanCoveragesAt(evidence, chunks, ranked, k), match, tau);
}

/** Reciprocal rank: 1/r* for the smallest r with hit@r = 1, 0 if none within the list (SPEC §7.1). */
export function reciprocalRank(evidence: readonly Span[], match: MatchMode, chunks: readonly Chunk[], ranked: readonly number[], tau: number): number {
  checkEvidence(evidence);
  const p = rankProfile(chunks, ranked, evidence.map((e) => [e]));
  for (let r = 1; r <= ranked.length; r++) if (hitFromProfile(p, evidence.length, match, r, tau)) return 1 / r;
  return 0;
}
