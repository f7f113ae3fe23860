/**
 * Scoring of one (question, config) item: the span metrics of src/core/metrics/span.ts at the run's
 * k (and 1, 3, 5, 10), the hit@k τ sweep, and — for a miss — the cause of src/core/attribution with
 * the best chunk and where the cut fell. The per-(question, chunker) index analysis is computed once
 * and shared by the chunker's configs.
 */
import type { Cause, Chunk } from '../types';
import type { RunSettings } from '../settings';
import type { ResolvedQuestion } from '../groundtruth';
import type { Hit } from '../retrieval';
import type { MissDetail } from '../runs/types';
import { analyzeIndex, hitFromCoverages, questionMetrics, spanCoveragesAt, type IndexAnalysis, type QuestionMetrics } from '../metrics/span';
import { attributeMiss } from '../attribution';
import { primaryCutoffs, resolvePrimaryMetric } from '../metrics/registry';
import { TAU_SWEEP } from './plan';

export interface ChunkerScoring {
  chunks: readonly Chunk[];
  questions: readonly ResolvedQuestion[];
  /** Per question (same order), or an Error when the analysis failed. */
  analyses: Array<IndexAnalysis | Error>;
  /** Cutoffs of the primary metric beyond {1, 3, 5, 10, k} (e.g. hit@7). */
  extraCutoffs: { hitCoverage: number[]; ndcg: number[] };
  /** The chunks are an external retriever's returned passages (src/core/attribution `externalSpanCause`). */
  external?: boolean;
}

/** Analyses every question against one chunker's index (SPEC §7.1 reachable/IDCG, §8 answering chunks). */
export function prepareChunkerScoring(chunks: readonly Chunk[], questions: readonly ResolvedQuestion[], settings: RunSettings): ChunkerScoring {
  return {
    chunks,
    questions,
    extraCutoffs: primaryCutoffs(resolvePrimaryMetric(settings.primaryMetric, settings.k)),
    analyses: questions.map((q) => {
      try {
        return analyzeIndex(q.spans, q.match, chunks, settings.tau);
      } catch (e) {
        return e as Error;
      }
    }),
  };
}

export interface ItemScores {
  metrics: QuestionMetrics;
  /** hit@k at each τ of TAU_SWEEP, keyed `String(τ)`. */
  tauHits: Record<string, 0 | 1>;
  /** null when hit@k = 1. */
  cause: Cause | null;
  miss: MissDetail | null;
}

/**
 * Scores one item. `final`/`pool` are the final and retriever orders of the candidate pool;
 * `beforeRerank` is the pool order when reranking is on (null when off).
 * Throws when the analysis of this question failed or the lists name unknown chunks.
 */
export function scoreItem(s: ChunkerScoring, qi: number, final: readonly Hit[], pool: readonly Hit[], beforeRerank: readonly Hit[] | null, settings: RunSettings): ItemScores {
  const q = s.questions[qi];
  const analysis = s.analyses[qi];
  if (analysis instanceof Error) throw analysis;
  const k = settings.k;
  const finalIdx = final.map((h) => h.chunk);
  const metrics = questionMetrics(q.spans, q.match, s.chunks, finalIdx, analysis, k, settings.tau, s.extraCutoffs);
  const covs = spanCoveragesAt(q.spans, s.chunks, finalIdx, k);
  const tauHits: Record<string, 0 | 1> = {};
  for (const t of TAU_SWEEP) tauHits[String(t)] = hitFromCoverages(covs, q.match, t);
  if (metrics[`hit@${k}`] === 1) return { metrics, tauHits, cause: null, miss: null };
  const attr = attributeMiss({
    evidence: q.spans,
    match: q.match,
    chunks: s.chunks,
    analysis,
    pool: pool.map((h) => h.chunk),
    final: finalIdx,
    reranked: beforeRerank !== null,
    k,
    tau: settings.tau,
    external: s.external,
  });
  return { metrics, tauHits, cause: attr.cause, miss: attr.cut ?? null };
}
