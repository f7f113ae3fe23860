/**
 * The chunk-ID ground-truth bias study (SPEC §7.5). Benchmarks that label relevance by chunk ID were
 * labelled with one chunker — the "author" A. This study rebuilds that situation from span ground truth
 * and measures how much the labelling itself favours A.
 *
 * For each author chunker A and each question q:
 * - relevant IDs Rel_A(q) = the chunks of A's whole index holding an evidence span
 *   (coverage |chunk ∩ e| / |e| ≥ τ for some span e). Questions where no chunk of A reaches τ cannot be
 *   labelled by A and are left out of A's rotation (listed in `unlabelled`) — an ID benchmark built
 *   with A would not contain them either.
 * - ID hit@k of a config C/retriever/rerank = 1 when one of its top-k result chunks r has
 *   IoU(r, a) = |r ∩ a| / |r ∪ a| ≥ θ with some a ∈ Rel_A(q) (same document). θ = 1 is exact ID equality.
 * - span hit@k = SPEC §7.1 hit@k (coverage of every / any evidence span by the union of the top-k ≥ τ).
 * - author advantage under a metric M, per question = mean of M over A's configs − mean over the other
 *   configs; its mean has a 95% paired-bootstrap CI over questions (`src/core/stats`). The **bias**
 *   = advantage under ID matching − advantage under span alignment (paired, same resamples).
 *
 * Offsets are UTF-16 code units; k, τ, θ as in SPEC (defaults k = 5, τ = 0.9, θ ∈ {1, .9, .7, .5, .3}).
 */
import type { Span } from '../types';
import type { DifferenceCI, MeanCI } from '../stats';

export const BIAS_THETAS = [1.0, 0.9, 0.7, 0.5, 0.3] as const;

export interface BiasQuestion {
  id: string;
  match: 'all' | 'any';
  spans: readonly Span[];
}

/** One (question, config) result list: the final order of the pool; only the first k are used. */
export interface BiasResultList {
  question: string;
  /** `<chunker>/<retriever>/<rerank|none>`. */
  config: string;
  chunker: string;
  results: readonly Span[];
}

export interface BiasInput {
  questions: readonly BiasQuestion[];
  /** The whole index of each chunker (all chunks of all documents). */
  chunks: Readonly<Record<string, readonly Span[]>>;
  lists: readonly BiasResultList[];
  /** Default 5. */
  k?: number;
  /** Coverage threshold for "holds the evidence" and for span hit@k. Default 0.9. */
  tau?: number;
  /** Default {@link BIAS_THETAS}. */
  thetas?: readonly number[];
  /** Bootstrap resamples (default 2000) and seed (default 42). */
  resamples?: number;
  seed?: number;
}

export interface BiasConfigRow {
  config: string;
  chunker: string;
  isAuthor: boolean;
  /** span hit@k over A's labelled questions. */
  span: MeanCI;
  /** ID hit@k per θ (key: θ as written, "1", "0.9", …). */
  id: Record<string, MeanCI>;
  /** Paired ID − span per θ. */
  idMinusSpan: Record<string, DifferenceCI>;
}

export interface BiasAuthorResult {
  author: string;
  /** Questions A could label (≥ 1 relevant chunk). */
  questions: number;
  unlabelled: string[];
  /** Mean number of relevant chunks per labelled question. */
  meanRelevant: number;
  configs: BiasConfigRow[];
  /** Author advantage (A's configs − others) under span alignment. */
  spanAdvantage: DifferenceCI;
  /** Author advantage under ID matching, per θ. */
  idAdvantage: Record<string, DifferenceCI>;
  /** idAdvantage − spanAdvantage per θ (paired): the part of A's lead that the labelling creates. */
  bias: Record<string, DifferenceCI>;
}

export interface BiasStudy {
  k: number;
  tau: number;
  thetas: number[];
  resamples: number;
  seed: number;
  chunkers: string[];
  configs: string[];
  /** Question × config items that had no result list (failed), left out of every mean. */
  missingLists: number;
  authors: BiasAuthorResult[];
}

export { runBiasStudy, relevantChunks, spanIou } from './study';
export { readBiasInputFromRun } from './read-run';
export { biasStudyMarkdown } from './markdown';
