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
 */
import { SpanproofError } from '../errors';
import type { Chunk, Span } from '../types';
import { IntervalSet, overlapLength } from './intervals';

export type MatchMode = 'all' | 'any';

/**
 * Tolerance of the `coverage ≥ τ` comparison, so that e.g. 9/10 ≥ 0.9 never fails on rounding when τ
 * arrives as a computed double. Coverage values are ratios of integers, so 1e-9 changes no real case.
 */
export const TAU_EPSILON = 1e-9;

/** True when coverage reaches the threshold: `coverage ≥ τ − 1e-9`. */
export function reaches(coverage: number, tau: number): boolean {
  return coverage >= tau - TAU_EPSILON;
}

/** What one evidence span can get from a chunker's whole index (independent of any retriever). */
export interface SpanAnalysis {
  readonly span: Span;
  /** |e| in UTF-16 code units. */
  readonly length: number;
  /** Indices of chunks overlapping the span by ≥ 1 code unit, ascending. */
  readonly touching: number[];
  /** Chunk with the largest coverage of the span (lowest index on ties); −1 when no chunk touches it. */
  readonly bestChunk: number;
  readonly bestCoverage: number;
  /** Answering chunks (SPEC §8): chunks whose coverage of this span alone is ≥ τ, ascending. */
  readonly answering: number[];
  /** Best pair of adjacent chunks (indices i, i+1 of the same source), by combined coverage; null when none touches. */
  readonly bestPair: { first: number; second: number; coverage: number } | null;
  /** No single chunk needed: two adjacent chunks together reach τ (SPEC §8). */
  readonly adjacentPairReaches: boolean;
  /** bestCoverage ≥ τ. */
  readonly reachable: boolean;
  /** Gains (fraction of |e|) of the greedy max-new-coverage ordering of the whole index, until no gain is left. */
  readonly idealGains: number[];
  /** IDCG of this span alone at 5 and 10 (used by `match: 'any'`). */
  readonly idcg: { at5: number; at10: number };
  /** |(∪touching) ∩ e| / |∪touching| (0 when nothing touches). */
  readonly precisionOmega: number;
}

/**
 * Per question × chunker, computed once and reused by every config of that chunker.
 * Top-level fields aggregate the per-span ones by `match`:
 * - `reachable`: all → every span reachable by a single chunk; any → some alternative is.
 * - `bestCoverage`: all → mean over spans of each span's best single-chunk coverage; any → max.
 * - `bestChunk`: all → best chunk of the span with the lowest bestCoverage; any → of the highest
 *   (lowest span index on ties).
 * - `answering`: chunks answering at least one span (ascending). Attribution uses the per-span lists.
 * - `adjacentPairReaches`: all → every span is reached by one chunk or by two adjacent chunks; any → some.
 * - `idealGains`/`idcg`/`touching`: of E = the union of all spans (what `all` uses; `any` uses `spans[i]`).
 * - `precisionOmega`: all → of E; any → max over alternatives.
 */
export interface IndexAnalysis {
  readonly match: MatchMode;
  readonly tau: number;
  readonly spans: readonly SpanAnalysis[];
  /** |E|: length of the union of the spans. */
  readonly evidenceLength: number;
  readonly reachable: boolean;
  readonly bestChunk: number;
  readonly bestCoverage: number;
  readonly answering: number[];
  readonly adjacentPairReaches: boolean;
  readonly idealGains: number[];
  readonly idcg: { at5: number; at10: number };
  readonly touching: number[];
  readonly precisionOmega: number;
}

/** Union of spans as disjoint runs per source (the E of SPEC §7.1). */
type Target = Map<string, Array<[number, number]>>;

function targetOf(spans: readonly Span[]): { target: Target; length: number } {
  const sets = new Map<string, IntervalSet>();
  let length = 0;
  for (const s of spans) {
    let set = sets.get(s.source);
    if (!set) sets.set(s.source, (set = new IntervalSet()));
    length += set.add(s.start, s.end);
  }
  const target: Target = new Map();
  for (const [src, set] of sets) target.set(src, set.runs());
  return { target, length };
}

function checkEvidence(evidence: readonly Span[]): void {
  if (evidence.length === 0) {
    throw new SpanproofError('bad-input', 'A question has no resolved evidence span.', { field: 'evidence', fix: 'Exclude unresolved questions before scoring.' });
  }
  for (let i = 0; i < evidence.length; i++) {
    const e = evidence[i];
    if (!(e.end > e.start) || e.start < 0) {
      throw new SpanproofError('bad-input', `Evidence span [${e.start}, ${e.end}) of ${e.source} is empty or negative.`, {
        field: `evidence[${i}]`,
        fix: 'Spans are half-open [start, end) with 0 ≤ start < end.',
      });
    }
  }
}

/** DCG of a gain sequence cut at k: Σ_{i=1..k} gᵢ / log2(i + 1). */
export function dcg(gains: ArrayLike<number>, k: number): number {
  let s = 0;
  const n = Math.min(k, gains.length);
  for (let i = 0; i < n; i++) s += gains[i] / Math.log2(i + 2);
  return s;
}

/**
 * Greedy max-new-coverage ordering of `candidates` against a target (SPEC §7.1 IDCG): repeatedly take
 * the chunk adding the most uncovered target units (lowest chunk index on ties) until nothing is
 * gained. Returns the gains as fractions of `targetLength`.
 */
function greedyIdealGains(chunks: readonly Chunk[], candidates: readonly number[], target: Target, targetLength: number): number[] {
  const covered = new Map<string, IntervalSet>();
  const left = [...candidates];
  const gains: number[] = [];
  const newUnits = (c: Chunk): number => {
    const runs = target.get(c.source);
    if (!runs) return 0;
    const set = covered.get(c.source);
    let n = 0;
    for (const [a, b] of runs) {
      const lo = Math.max(a, c.start);
      const hi = Math.min(b, c.end);
      if (hi > lo) n += hi - lo - (set ? set.overlap(lo, hi) : 0);
    }
    return n;
  };
  while (left.length > 0) {
    let best = -1;
    let bestGain = 0;
    for (let i = 0; i < left.length; i++) {
      const g = newUnits(chunks[left[i]]);
      if (g > bestGain || (g === bestGain && g > 0 && left[i] < left[best])) {
        best = i;
        bestGain = g;
      }
    }
    if (best < 0) break;
    const c = chunks[left[best]];
    let set = covered.get(c.source);
    if (!set) covered.set(c.source, (set = new IntervalSet()));
    for (const [a, b] of target.get(c.source) ?? []) set.add(Math.max(a, c.start), Math.min(b, c.end));
    gains.push(bestGain / targetLength);
    left.splice(best, 1);
  }
  return gains;
}

/** |(∪ chunks[idx]) ∩ target| / |∪ chunks[idx]| — precision of a set of chunks; 0 for an empty set. */
function setPrecision(chunks: readonly Chunk[], idx: readonly number[], target: Target): number {
  const union = new Map<string, IntervalSet>();
  for (const i of idx) {
    const c = chunks[i];
    let set = union.get(c.source);
    if (!set) union.set(c.source, (set = new IntervalSet()));
    set.add(c.start, c.end);
  }
  let total = 0;
  let inE = 0;
  for (const [src, set] of union) {
    total += set.length;
    for (const [a, b] of target.get(src) ?? []) inE += set.overlap(a, b);
  }
  return total === 0 ? 0 : inE / total;
}

/** |(a ∪ b) ∩ e| / |e| for two chunks of e's source (inclusion–exclusion; 0 for other sources). */
export function pairCoverage(a: Span, b: Span, e: Span): number {
  const inE = (x: Span): number => (x.source === e.source ? overlapLength(x.start, x.end, e.start, e.end) : 0);
  const shared = a.source === b.source && a.source === e.source ? overlapLength(Math.max(a.start, b.start), Math.min(a.end, b.end), e.start, e.end) : 0;
  return (inE(a) + inE(b) - shared) / (e.end - e.start);
}

function analyzeSpan(span: Span, chunks: readonly Chunk[], tau: number): SpanAnalysis {
  const length = span.end - span.start;
  const touching: number[] = [];
  const answering: number[] = [];
  let bestChunk = -1;
  let bestOverlap = 0;
  for (let i = 0; i < chunks.length; i++) {
    const c = chunks[i];
    if (c.source !== span.source) continue;
    const o = overlapLength(c.start, c.end, span.start, span.end);
    if (o === 0) continue;
    touching.push(i);
    if (o > bestOverlap) {
      bestOverlap = o;
      bestChunk = i;
    }
    if (reaches(o / length, tau)) answering.push(i);
  }
  let bestPair: SpanAnalysis['bestPair'] = null;
  for (const i of touching) {
    const a = chunks[i];
    const b = chunks[i + 1];
    if (!b || b.source !== a.source) continue;
    const cov = pairCoverage(a, b, span);
    if (!bestPair || cov > bestPair.coverage) bestPair = { first: i, second: i + 1, coverage: cov };
  }
  const { target } = targetOf([span]);
  const idealGains = greedyIdealGains(chunks, touching, target, length);
  const bestCoverage = bestOverlap / length;
  return {
    span,
    length,
    touching,
    bestChunk,
    bestCoverage,
    answering,
    bestPair,
    adjacentPairReaches: bestPair !== null && reaches(bestPair.coverage, tau),
    reachable: reaches(bestCoverage, tau),
    idealGains,
    idcg: { at5: dcg(idealGains, 5), at10: dcg(idealGains, 10) },
    precisionOmega: setPrecision(chunks, touching, target),
  };
}

/**
 * Analyses one question against one chunker's whole index (SPEC §7.1 reachable / IDCG / Precision_Ω,
 * SPEC §8 answering chunks and the adjacent-pair test). O(|chunks| · |evidence|).
 * @throws SpanproofError('bad-input') when `evidence` is empty or a span is empty.
 */
export function analyzeIndex(evidence: readonly Span[], match: MatchMode, chunks: readonly Chunk[], tau: number): IndexAnalysis {
  checkEvidence(evidence);
  const spans = evidence.map((e) => analyzeSpan(e, chunks, tau));
  const { target, length } = targetOf(evidence);
  const touchingSet = new Set<number>();
  const answeringSet = new Set<number>();
  for (const s of spans) {
    for (const i of s.touching) touchingSet.add(i);
    for (const i of s.answering) answeringSet.add(i);
  }
  const touching = [...touchingSet].sort((a, b) => a - b);
  const idealGains = spans.length === 1 ? spans[0].idealGains : greedyIdealGains(chunks, touching, target, length);
  const all = match === 'all';
  let pick = 0;
  for (let i = 1; i < spans.length; i++) {
    if (all ? spans[i].bestCoverage < spans[pick].bestCoverage : spans[i].bestCoverage > spans[pick].bestCoverage) pick = i;
  }
  const pairOk = (s: SpanAnalysis): boolean => s.reachable || s.adjacentPairReaches;
  return {
    match,
    tau,
    spans,
    evidenceLength: length,
    reachable: all ? spans.every((s) => s.reachable) : spans.some((s) => s.reachable),
    bestChunk: spans[pick].bestChunk,
    bestCoverage: all ? spans.reduce((t, s) => t + s.bestCoverage, 0) / spans.length : spans[pick].bestCoverage,
    answering: [...answeringSet].sort((a, b) => a - b),
    adjacentPairReaches: all ? spans.every(pairOk) : spans.some(pairOk),
    idealGains,
    idcg: { at5: dcg(idealGains, 5), at10: dcg(idealGains, 10) },
    touching,
    precisionOmega: all
      ? spans.length === 1
        ? spans[0].precisionOmega
        : setPrecision(chunks, touching, target)
      : Math.max(...spans.map((s) => s.precisionOmega)),
  };
}

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
