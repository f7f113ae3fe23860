/**
 * Comparisons for the verdict (SPEC §7.4, §9): the paired bootstrap of a difference with its CI,
 * standard error and p-value, Holm–Bonferroni adjustment, and the power figures — minimal detectable
 * difference and the number of questions that would resolve a difference δ.
 *
 * Power figures use the normal approximation to the paired mean difference (Chow, Shao & Wang,
 * "Sample Size Calculations in Clinical Research", 2nd ed., 2008, §3.2, paired/one-sample mean):
 * a two-sided test at level α detects a true difference Δ with power 1 − β when
 * Δ ≥ (z_{1−α/2} + z_{1−β}) · SE. Spanproof uses α = 0.05 (two-sided, the 95% CIs it shows) and
 * power 1 − β = 0.80, so the factor is z_{0.975} + z_{0.80} = 1.959964 + 0.841621 = 2.801585.
 * SE is the paired bootstrap standard error of the mean difference at the current n; since
 * SE ∝ 1/√n (σ² = n·SE²), the n that resolves δ is n · ((z_{1−α/2} + z_{1−β}) · SE / δ)².
 */
import { SpanproofError } from '../errors';
import { meanOf, percentileOf, resampleMeans, type MeanCI } from './bootstrap';

/** z_{0.975}, the 97.5% standard normal quantile (two-sided α = 0.05). */
export const Z_975 = 1.959963984540054;
/** z_{0.80}, the 80% standard normal quantile (power 0.80). */
export const Z_80 = 0.8416212335729143;
/** The power the MDE and "questions needed" assume. */
export const ASSUMED_POWER = 0.8;
/** The two-sided significance level of comparisons (family-wise, after Holm). */
export const ALPHA = 0.05;

/** A paired comparison of two configs over the same questions. */
export interface PairedComparison extends MeanCI {
  /** Bootstrap standard error of the mean difference: sd of the B resample means (divisor B − 1). */
  se: number;
  /** Two-sided bootstrap p-value of H0: mean difference = 0 (see {@link pairedComparison}). */
  p: number;
  /** Questions where both values are defined. */
  n: number;
}

/**
 * Paired bootstrap of mean(a − b) over the questions where both are defined, with the run's shared
 * resamples: CI = percentile interval at `level` of the B resample means of dᵢ = aᵢ − bᵢ;
 * se = their standard deviation; p = min(1, 2·min((1 + #{d*_b ≤ 0}) / (B + 1), (1 + #{d*_b ≥ 0}) / (B + 1)))
 * — the smallest α at which the (1 − α) percentile interval would exclude 0, with the (1 + #)/(B + 1)
 * correction so that p is never 0 (Davison & Hinkley, "Bootstrap Methods and their Application",
 * 1997, §4.4, eq. 4.11). A difference that is 0 in every resample (identical configs) has p = 1.
 * When no resample falls on the far side of 0, the count can only say p ≤ 2/(B + 1) — a floor that
 * Holm would multiply past α once a grid has more than (B + 1)·α/2 comparisons (50 at B = 2000) — so
 * then p = min(that bound, 2Φ(−|d̄|/se)), the normal approximation z = d̄/se with the bootstrap SE.
 * NaN mean/lo/hi/se and p = 1 when no question has both values.
 * @throws SpanproofError('invariant') when a and b differ in length or the resamples do not match.
 */
export function pairedComparison(a: ArrayLike<number>, b: ArrayLike<number>, resamples: readonly Uint32Array[], level = 0.95): PairedComparison {
  if (a.length !== b.length) throw new SpanproofError('invariant', `Paired comparison over ${a.length} vs ${b.length} questions.`);
  const d = new Float64Array(a.length);
  let n = 0;
  for (let i = 0; i < a.length; i++) {
    d[i] = a[i] - b[i];
    if (d[i] === d[i]) n++;
  }
  const stats = resampleMeans(d, resamples);
  let sum = 0;
  let m = 0;
  let le = 0;
  let ge = 0;
  for (const x of stats) {
    if (x !== x) continue;
    sum += x;
    m++;
    if (x <= 0) le++;
    if (x >= 0) ge++;
  }
  const avg = m ? sum / m : NaN;
  let ss = 0;
  for (const x of stats) if (x === x) ss += (x - avg) * (x - avg);
  const se = m > 1 ? Math.sqrt(ss / (m - 1)) : m === 1 ? 0 : NaN;
  let p = m === 0 ? 1 : Math.min(1, 2 * Math.min((1 + le) / (m + 1), (1 + ge) / (m + 1)));
  const mean = meanOf(d);
  if (m > 0 && Math.min(le, ge) === 0 && se > 0) p = Math.min(p, erfc(Math.abs(mean) / (se * Math.SQRT2)));
  return { mean, ...percentileOf(stats, level), se, p, n };
}

/**
 * Complementary error function, erfc(x) = 1 − erf(x), by the Chebyshev fit `erfcc` of Press et al.,
 * "Numerical Recipes in C", 2nd ed., 1992, §6.2 (fractional error < 1.2·10⁻⁷ everywhere). The
 * two-sided normal tail is 2Φ(−|z|) = erfc(|z|/√2).
 */
export function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r = t * Math.exp(-z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))));
  return x >= 0 ? r : 2 - r;
}

/**
 * Holm–Bonferroni adjusted p-values (Holm, "A simple sequentially rejective multiple test procedure",
 * Scand. J. Statist. 6, 1979): with the m finite p-values sorted ascending p₍₁₎ ≤ … ≤ p₍ₘ₎,
 * p̃₍ᵢ₎ = min(1, max_{j ≤ i} (m − j + 1)·p₍ⱼ₎) — the same as R's `p.adjust(p, "holm")`. Returned in
 * the input order; a NaN input stays NaN and does not count in m. Rejecting p̃ < α controls the
 * family-wise error rate at α.
 */
export function holmAdjust(ps: readonly number[]): number[] {
  const idx = ps.map((_, i) => i).filter((i) => Number.isFinite(ps[i])).sort((x, y) => ps[x] - ps[y] || x - y);
  const m = idx.length;
  const out = ps.map(() => NaN);
  let running = 0;
  idx.forEach((i, j) => {
    running = Math.max(running, Math.min(1, (m - j) * ps[i]));
    out[i] = running;
  });
  return out;
}

/**
 * Minimal detectable difference at the current n: (z_{1−α/2} + z_{1−β}) · SE with α = 0.05 and
 * power 0.80 (module docstring). NaN for a non-finite SE.
 */
export function minimalDetectableDifference(se: number): number {
  return Number.isFinite(se) ? (Z_975 + Z_80) * se : NaN;
}

/**
 * Questions needed to resolve a difference δ (> 0) with a two-sided 5% test at 80% power, from the
 * paired bootstrap SE at the current n questions: ⌈n · ((z_{0.975} + z_{0.80}) · SE / δ)²⌉ (module
 * docstring). Null when SE is 0 or not finite (no difference varies over these questions).
 * @throws SpanproofError('invariant') for δ ≤ 0 or n < 1.
 */
export function questionsToResolve(n: number, se: number, delta: number): number | null {
  if (!(delta > 0) || !(n >= 1)) throw new SpanproofError('invariant', `questionsToResolve needs δ > 0 and n ≥ 1 (got δ=${delta}, n=${n}).`);
  if (!(se > 0) || !Number.isFinite(se)) return null;
  const f = ((Z_975 + Z_80) * se) / delta;
  return Math.ceil(n * f * f - 1e-9);
}
