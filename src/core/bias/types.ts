/** The shapes of the chunk-ID bias study (SPEC §7.5); the computation is in ./study.ts. */
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
