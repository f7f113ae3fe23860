/**
 * ranking.json format 2 (SPEC §9, §11): the verdict and the ranked configs. Keys are added freely,
 * never renamed. With default settings (weights.latency = 0) everything here is deterministic —
 * byte-identical for identical inputs; `latency`, `timedScore` and `timedVerdict` appear only when the
 * user opts into measured latency with `weights.latency > 0`.
 */
import type { Cause } from '../types';
import type { MeanCI } from '../stats';
import type { DeterministicCost } from './cost';
import type { DominantCause } from './cause';
import type { LatencySummary } from './latency';
import type { EvidenceStatus } from './verdict';

/** The product's answer: which config to use, and how strong the evidence is. */
export interface Verdict {
  /** Config id to use; null when no config was scored. */
  recommended: string | null;
  /** First config of the quality order. */
  best: string | null;
  status: EvidenceStatus;
  /** Resolved key of Q (`hit@5`, `ndcg@10`, `mrr`). */
  primaryMetric: string;
  /** Non-inferiority margin δ, in units of Q. */
  margin: number;
  /** Minimal detectable difference at the current n (α = 0.05 two-sided, power 0.80); null for no-signal. */
  mde: number | null;
  /** Questions that would resolve a difference of δ (same α and power); null when not estimable. */
  questionsNeeded: number | null;
  /** Plain-language reasons, one fact each. */
  reasons: string[];
  /** The verdict in one paragraph of plain words. */
  summary: string;
  /** Scored questions. */
  questions: number;
  /** Configs ranked. */
  configs: number;
  /** Configs not significantly worse than the best (the best first), quality order. */
  tied: string[];
  /** Configs neither significantly worse than the best nor shown within ±δ of it. */
  unresolved: string[];
  alpha: number;
  power: number;
  /** Always false here: this verdict never reads a clock. */
  dependsOnTimings: false;
}

/** The timing-dependent second verdict, present only with weights.latency > 0. */
export interface TimedVerdict {
  recommended: string | null;
  dependsOnTimings: true;
  weights: { quality: number; latency: number; context: number };
  summary: string;
}

/** One config in ranking.json. */
export interface RankedConfig {
  id: string;
  /** 1-based position in the quality order (Q, MRR, nDCG@k, deterministic cost, id). */
  rank: number;
  /** Q mean: what the order sorts by first. */
  score: number;
  /** On the Pareto front of quality vs context cost vs compute cost. */
  pareto: boolean;
  /** Deterministic explanation (SPEC §9 template). */
  explanation: string;
  /** Paired bootstrap of Q(this) − Q(best): mean, 95% CI, SE. Zero for the best. */
  diffVsBest: { mean: number; lo: number; hi: number; se: number };
  /** Unadjusted two-sided bootstrap p-value of the difference; null for the best. */
  p: number | null;
  /** Holm–Bonferroni adjusted p-value over all comparisons with the best; null for the best. */
  pHolm: number | null;
  significantlyWorse: boolean;
  /** CI lower bound ≥ −δ (the best: true). */
  nonInferior: boolean;
  recommended: boolean;
  best: boolean;
  quality: MeanCI;
  mrr: number;
  ndcg: number;
  cost: DeterministicCost;
  causes: Partial<Record<Cause, number>>;
  dominantCause: DominantCause | null;
  /** Only with weights.latency > 0. */
  latency?: LatencySummary;
  timedScore?: number;
}

/** ranking.json, format 2. */
export interface RankingFile {
  spanproof: 2;
  primaryMetric: string;
  k: number;
  verdict: Verdict;
  configs: RankedConfig[];
  timedVerdict?: TimedVerdict;
}
