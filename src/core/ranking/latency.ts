/**
 * Measured latency of a config (SPEC §9): reported as the median and spread of its per-query timings,
 * never part of the deterministic verdict. It enters only the separate, timing-dependent verdict that
 * a user asks for with `weights.latency > 0`.
 */
import { quantileType7 } from '../stats';

/** Median and interquartile range of per-query times, ms. */
export interface LatencySummary {
  medianMs: number;
  /** 25th and 75th percentiles (type-7 quantiles). */
  p25Ms: number;
  p75Ms: number;
  /** Number of timed queries. */
  n: number;
}

/** Summary of per-query times in ms (non-finite entries dropped); NaN fields when there is none. */
export function latencySummary(ms: readonly number[]): LatencySummary {
  const s = Float64Array.from(ms.filter((x) => Number.isFinite(x))).sort();
  return { medianMs: quantileType7(s, 0.5), p25Ms: quantileType7(s, 0.25), p75Ms: quantileType7(s, 0.75), n: s.length };
}

const msText = (x: number): string => (x < 10 ? x.toFixed(2) : x < 100 ? x.toFixed(1) : x.toFixed(0));

/** `median 1.23 ms per query (IQR 0.98–1.51 ms, 45 timed queries; timings vary between runs)`. */
export function latencyText(l: LatencySummary | null | undefined): string {
  if (!l || !(l.n > 0)) return 'no timed query';
  return `median ${msText(l.medianMs)} ms per query (IQR ${msText(l.p25Ms)}–${msText(l.p75Ms)} ms, ${l.n} timed ${l.n === 1 ? 'query' : 'queries'}; timings vary between runs)`;
}
