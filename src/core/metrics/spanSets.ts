/**
 * Building blocks of the span metrics (SPEC §7.1; ./span.ts, ./spanIndex.ts): the match modes, the τ
 * comparison, evidence as disjoint runs per source, DCG, the greedy ideal gains behind nDCG's IDCG,
 * set precision and two-chunk coverage. Lengths are UTF-16 code units; formulas in docs/metrics.md.
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

/** Union of spans as disjoint runs per source (the E of SPEC §7.1). */
export type Target = Map<string, Array<[number, number]>>;

export function targetOf(spans: readonly Span[]): { target: Target; length: number } {
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

export function checkEvidence(evidence: readonly Span[]): void {
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
export function greedyIdealGains(chunks: readonly Chunk[], candidates: readonly number[], target: Target, targetLength: number): number[] {
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
export function setPrecision(chunks: readonly Chunk[], idx: readonly number[], target: Target): number {
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
