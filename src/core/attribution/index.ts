/**
 * Failure attribution (SPEC §8): every (question, config) that is not hit@k gets exactly one cause,
 * first match wins, in the order of `CAUSES`:
 *
 * 1. `chunker-destroyed` — no single chunk and no two adjacent chunks reach coverage τ of the span;
 * 2. `chunker-degraded`  — no single chunk reaches τ, two adjacent chunks (consecutive indices of the
 *    same source in the (source, start)-sorted index) together do;
 * 3. `retriever-missed`  — an answering chunk (coverage ≥ τ) exists, none is in the candidate pool;
 * 4. `reranker-demoted`  — reranker on; an answering chunk was in the top k of `pool` (before
 *    reranking) and none is in the top k of `final` (after);
 * 5. `ranked-too-low`    — an answering chunk is in the pool but below k.
 *
 * An external retriever (`external/<name>/none`, src/core/external) has no index Spanproof can see:
 * its "chunks" are the passages it returned for the question, so a span is
 * `ranked-too-low` when a returned passage alone reaches τ (it is below k), `passage-split` when
 * returned passages overlap the span but none alone reaches τ, and `retriever-missed` when no
 * returned passage touches it ({@link externalSpanCause}).
 *
 * Causes are decided per span. `match: 'all'`: the cause of the failing span that failed earliest
 * in this order (among those, the span with the lowest coverage@k, then the lowest index).
 * `match: 'any'`: the cause of the alternative that got furthest (latest in this order; among
 * those, the highest coverage@k, then the lowest index). Details: docs/metrics.md.
 */
import { SpanproofError } from '../errors';
import { CAUSES, type Cause, type Chunk, type Span } from '../types';
import { hitFromCoverages, pairCoverage, spanCoveragesAt, type IndexAnalysis, type MatchMode, type SpanAnalysis } from '../metrics/span';

/** The user-facing advice of each cause (SPEC §8, "meaning for the user"). */
export const CAUSE_ADVICE: Readonly<Record<Cause, string>> = {
  'chunker-destroyed': 'the evidence no longer exists as retrievable text: change chunking, no retriever can fix this',
  'chunker-degraded': 'the evidence was split across a boundary: larger chunks, overlap, or structure-aware chunking',
  'passage-split': 'your retriever returned passages that overlap the evidence, but none holds enough of it: larger passages, overlap, or structure-aware splitting in your pipeline',
  'retriever-missed': 'the retriever (or embedder) did not find it: different retriever/model, hybrid',
  'reranker-demoted': 'the reranker hurt this question',
  'ranked-too-low': 'raise k or add a reranker',
};

/** A chunk with its offsets, for the report. Offsets in UTF-16 code units. */
export interface ChunkRef {
  /** Index into the chunker's index. */
  chunk: number;
  id: string;
  source: string;
  start: number;
  end: number;
}

/** Where the cut fell relative to the evidence span the cause is about (for "show the cut"). */
export interface Cut {
  /** The evidence span that decided the cause, and its index in the question's evidence. */
  evidence: Span;
  spanIndex: number;
  /** The chunk of the whole index covering most of the span; null when no chunk touches it. */
  bestChunk: (ChunkRef & { coverage: number }) | null;
  /** Evidence code units before `bestChunk.start` / after `bestChunk.end` (the whole span when no best chunk). */
  charsBefore: number;
  charsAfter: number;
  /**
   * The adjacent chunk (index ±1, same source) that holds (part of) the rest, with the pair's combined
   * coverage; the better of the two when both add evidence. Null when neither adds any.
   */
  neighbour: (ChunkRef & { side: 'before' | 'after'; pairCoverage: number }) | null;
  /** 1-based ranks of the best chunk in `final` and in `pool`; null when absent. */
  bestChunkRank: number | null;
  bestChunkPoolRank: number | null;
  /** coverage@k of this span by the config's result list. */
  coverageAtK: number;
}

export interface Attribution {
  /** null when the question is hit@k. */
  cause: Cause | null;
  /** The per-span causes (null for spans that are hit at k), in evidence order. */
  spanCauses: Array<Cause | null>;
  /** Best chunk of the deciding span (same as `cut.bestChunk`), for quick access. */
  bestChunk?: { chunk: number; coverage: number };
  /** Present for every miss. */
  cut?: Cut;
}

export interface AttributionInput {
  evidence: readonly Span[];
  match: MatchMode;
  chunks: readonly Chunk[];
  /** From `analyzeIndex(evidence, match, chunks, tau)`. */
  analysis: IndexAnalysis;
  /** The retriever's own order of the N candidates (chunk indices). */
  pool: readonly number[];
  /** The same N candidates in final order (after reranking when `reranked`). */
  final: readonly number[];
  reranked: boolean;
  k: number;
  tau: number;
  /** The chunks are an external retriever's returned passages (the cause rule of {@link externalSpanCause}). */
  external?: boolean;
}

/** The cause of a span an external retriever's list does not reach at k; `s` analysed against the returned passages only. */
export function externalSpanCause(s: SpanAnalysis): Cause {
  if (s.reachable) return 'ranked-too-low';
  return s.touching.length > 0 ? 'passage-split' : 'retriever-missed';
}

/** The §8 cause of one span that is not reached at k by the config. */
export function spanCause(s: SpanAnalysis, poolSet: ReadonlySet<number>, poolTopK: ReadonlySet<number>, finalTopK: ReadonlySet<number>, reranked: boolean): Cause {
  if (!s.reachable) return s.adjacentPairReaches ? 'chunker-degraded' : 'chunker-destroyed';
  if (!s.answering.some((c) => poolSet.has(c))) return 'retriever-missed';
  if (s.answering.some((c) => finalTopK.has(c))) {
    throw new SpanproofError('invariant', `An answering chunk of ${s.span.source}[${s.span.start}, ${s.span.end}) is in the top k, yet the span is not hit.`);
  }
  if (reranked && s.answering.some((c) => poolTopK.has(c))) return 'reranker-demoted';
  return 'ranked-too-low';
}

function ref(chunks: readonly Chunk[], i: number): ChunkRef {
  const c = chunks[i];
  return { chunk: i, id: c.id, source: c.source, start: c.start, end: c.end };
}

function cutOf(input: AttributionInput, spanIndex: number, coverageAtK: number): Cut {
  const { chunks, final, pool } = input;
  const s = input.analysis.spans[spanIndex];
  const e = s.span;
  const rankIn = (list: readonly number[], c: number): number | null => {
    const r = list.indexOf(c);
    return r < 0 ? null : r + 1;
  };
  if (s.bestChunk < 0) {
    return { evidence: e, spanIndex, bestChunk: null, charsBefore: e.end - e.start, charsAfter: 0, neighbour: null, bestChunkRank: null, bestChunkPoolRank: null, coverageAtK };
  }
  const b = chunks[s.bestChunk];
  // The adjacent chunk (previous or next of the same source) that adds the most evidence to the best chunk.
  let neighbour: Cut['neighbour'] = null;
  for (const other of [s.bestChunk - 1, s.bestChunk + 1]) {
    const o = chunks[other];
    if (!o || o.source !== b.source) continue;
    const cov = pairCoverage(b, o, e);
    if (cov > s.bestCoverage && (!neighbour || cov > neighbour.pairCoverage)) {
      neighbour = { ...ref(chunks, other), side: other < s.bestChunk ? 'before' : 'after', pairCoverage: cov };
    }
  }
  return {
    evidence: e,
    spanIndex,
    bestChunk: { ...ref(chunks, s.bestChunk), coverage: s.bestCoverage },
    charsBefore: Math.max(0, Math.min(b.start, e.end) - e.start),
    charsAfter: Math.max(0, e.end - Math.max(b.end, e.start)),
    neighbour,
    bestChunkRank: rankIn(final, s.bestChunk),
    bestChunkPoolRank: rankIn(pool, s.bestChunk),
    coverageAtK,
  };
}

/**
 * Attributes a miss at k to one cause (SPEC §8). Returns `{cause: null}` when the question is hit@k.
 * Cost: O(N · |evidence|) on top of the cached `analysis`.
 * @throws SpanproofError('invariant') when `analysis` was computed for another τ/match/evidence, or
 *   the inputs contradict themselves (an answering chunk in the top k of a missed span).
 */
export function attributeMiss(input: AttributionInput): Attribution {
  const { evidence, match, chunks, analysis, pool, final, reranked, k, tau } = input;
  if (analysis.tau !== tau || analysis.match !== match || analysis.spans.length !== evidence.length) {
    throw new SpanproofError('invariant', 'attributeMiss got an IndexAnalysis computed for another τ, match or evidence.');
  }
  const coverages = spanCoveragesAt(evidence, chunks, final, k);
  if (hitFromCoverages(coverages, match, tau)) return { cause: null, spanCauses: evidence.map(() => null) };
  const poolSet = new Set(pool);
  const poolTopK = new Set(pool.slice(0, k));
  const finalTopK = new Set(final.slice(0, k));
  const spanCauses = analysis.spans.map((s, i) =>
    hitFromCoverages([coverages[i]], 'all', tau) ? null : input.external ? externalSpanCause(s) : spanCause(s, poolSet, poolTopK, finalTopK, reranked),
  );
  // Choose the deciding span: all → earliest cause, lowest coverage@k; any → latest cause, highest coverage@k.
  let pick = -1;
  for (let i = 0; i < spanCauses.length; i++) {
    const c = spanCauses[i];
    if (c === null) continue;
    if (pick < 0) {
      pick = i;
      continue;
    }
    const order = CAUSES.indexOf(c) - CAUSES.indexOf(spanCauses[pick] as Cause);
    const better = match === 'all' ? order < 0 || (order === 0 && coverages[i] < coverages[pick]) : order > 0 || (order === 0 && coverages[i] > coverages[pick]);
    if (better) pick = i;
  }
  const cut = cutOf(input, pick, coverages[pick]);
  const s = analysis.spans[pick];
  return {
    cause: spanCauses[pick],
    spanCauses,
    ...(s.bestChunk >= 0 ? { bestChunk: { chunk: s.bestChunk, coverage: s.bestCoverage } } : {}),
    cut,
  };
}
