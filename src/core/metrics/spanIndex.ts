/**
 * What a chunker's whole index can give a question, independent of any retriever (SPEC §7.1, §8):
 * per evidence span the answering chunks, the best single and adjacent-pair coverage, reachability,
 * the greedy IDCG and Precision_Ω; combined over the spans by the question's match mode. Lengths
 * are UTF-16 code units; formulas in docs/metrics.md.
 */
import type { Chunk, Span } from '../types';
import { overlapLength } from './intervals';
import { checkEvidence, dcg, greedyIdealGains, pairCoverage, reaches, setPrecision, targetOf, type MatchMode } from './spanSets';

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
