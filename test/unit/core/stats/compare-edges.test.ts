// The paired comparison, Holm and the power figures at their edges (SPEC §7.4, §9), with hand-written
// resamples so every figure is a hand calculation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { erfc, holmAdjust, minimalDetectableDifference, pairedComparison, questionsToResolve, Z_80, Z_975 } from '../../../../src/core/stats';

const near = (a: number, b: number, eps = 1e-12): void => assert.ok(Math.abs(a - b) < eps, `${a} ≠ ${b}`);
const rows = (...rs: number[][]): Uint32Array[] => rs.map((r) => Uint32Array.from(r));

test('paired comparison: columns of different lengths are an invariant error', () => {
  assert.throws(() => pairedComparison([1, 0], [1, 0, 1], rows([0, 1])), (e: Error & { code?: string }) => {
    assert.equal(e.name, 'SpanproofError');
    assert.equal(e.code, 'invariant');
    assert.equal(e.message, 'Paired comparison over 2 vs 3 questions.');
    return true;
  });
});

test('paired comparison: no question with both values → NaN figures, p = 1, n = 0', () => {
  const c = pairedComparison([NaN, 1], [1, NaN], rows([0, 1], [1, 1]));
  assert.equal(c.n, 0);
  assert.equal(c.p, 1);
  for (const x of [c.mean, c.lo, c.hi, c.se]) assert.ok(Number.isNaN(x));
});

test('paired comparison: a resample of only unscored questions is left out of SE, CI and p', () => {
  // d = [NaN, 1, 0]; resamples [0,0,0] → NaN (left out), [1,1,2] → 2/3, [1,2,2] → 1/3: m = 2
  // mean of the two 0.5, SE = √((1/6)² + (1/6)²)/1 = √(1/18); #≤0 = 0, #≥0 = 2 → count p = 2·1/3
  // no resample on the far side of 0 and SE > 0: p = min(2/3, erfc(|d̄|/(SE·√2))) with d̄ = 0.5 (NaN left out)
  // SE·√2 = √(1/9) = 1/3, so p = erfc(1.5) = 0.033894853524689 (A&S table 7.1)
  const c = pairedComparison([NaN, 1, 0], [0, 0, 0], rows([0, 0, 0], [1, 1, 2], [1, 2, 2]));
  assert.equal(c.n, 2);
  near(c.mean, 0.5);
  near(c.se, Math.sqrt(1 / 18));
  assert.ok(Math.abs(c.p - 0.033894853524689) < 1.2e-7 * 0.034, String(c.p));
  // type-7 quantiles of (1/3, 2/3): lo = 1/3 + 0.025/3, hi = 1/3 + 0.975/3
  near(c.lo, 1 / 3 + 0.025 / 3);
  near(c.hi, 1 / 3 + 0.975 / 3);
});

test('paired comparison: one usable resample has SE 0 (not NaN); a tie at 0 counts on both sides', () => {
  // d = [1, 0, 0]; one resample [0,1,2] → 1/3: m = 1, SE 0; #≤0 = 0, #≥0 = 1 → p = 2·min(1/2, 2/2) = 1
  const one = pairedComparison([1, 0, 0], [0, 0, 0], rows([0, 1, 2]));
  assert.equal(one.se, 0);
  assert.equal(one.p, 1);
  // d = [−1, 1]; resamples [0,1] → 0 (both sides), [0,0] → −1, [0,0] → −1: #≤0 = 3, #≥0 = 1
  // p = 2·min(4/4, 2/4) = 1 → capped at 1; with [1,1] → +1 instead of one −1: #≤0 = 2, #≥0 = 2 → 2·3/4 → 1
  assert.equal(pairedComparison([0, 1], [1, 0], rows([0, 1], [0, 0], [0, 0])).p, 1);
  // d = [−1, 1] with 7 resamples at −1 and one at 0: #≤0 = 8, #≥0 = 1 → p = 2·2/9; a tie on the far
  // side means no normal tail even though SE > 0
  const c = pairedComparison([0, 1], [1, 0], rows(...Array.from({ length: 7 }, () => [0, 0]), [0, 1]));
  near(c.p, 4 / 9);
  assert.ok(c.se > 0);
});

test('the normal tail applies only when no resample reaches the far side of 0 and SE > 0', () => {
  // d = [−1, −0.5, 0]; resamples [0,0,0] → −1, [1,1,1] → −0.5, [0,1,1] → −2/3: all < 0, #≥0 = 0
  // count p = 2·1/4 = 0.5; mean d̄ = −0.5; SE = sd(−1, −0.5, −2/3) = √(((−1+13/18)² + (−0.5+13/18)² + (−2/3+13/18)²)/2)
  const c = pairedComparison([0, 0.5, 1], [1, 1, 1], rows([0, 0, 0], [1, 1, 1], [0, 1, 1]));
  const avg = (-1 - 0.5 - 2 / 3) / 3;
  const se = Math.sqrt(((-1 - avg) ** 2 + (-0.5 - avg) ** 2 + (-2 / 3 - avg) ** 2) / 2);
  near(c.se, se);
  near(c.p, Math.min(0.5, erfc(0.5 / (se * Math.SQRT2))), 1e-15);
  assert.ok(c.p < 0.5);
  // the mirror image (d positive) gives the same p
  near(pairedComparison([1, 1, 1], [0, 0.5, 1], rows([0, 0, 0], [1, 1, 1], [0, 1, 1])).p, c.p, 1e-15);
});

test('erfc: symmetric about 1 (erfc(−x) = 2 − erfc(x))', () => {
  near(erfc(-0.5) + erfc(0.5), 2, 1e-15);
  near(erfc(-2) + erfc(2), 2, 1e-15);
});

test('Holm: ties keep the input order, NaN is skipped wherever it stands, the running max never drops', () => {
  // m = 3 finite: sorted 0.01, 0.02, 0.02 → 0.03, 0.04, 0.02 → running max 0.03, 0.04, 0.04
  const a = holmAdjust([0.02, NaN, 0.01, 0.02]);
  near(a[0], 0.04);
  assert.ok(Number.isNaN(a[1]));
  near(a[2], 0.03);
  near(a[3], 0.04);
  // Infinity is not finite: skipped like NaN
  const b = holmAdjust([0.2, Infinity]);
  near(b[0], 0.2);
  assert.ok(Number.isNaN(b[1]));
  // 0.4 × 3 = 1.2 → 1; then 0.45 × 2 = 0.9 but the running max keeps 1
  assert.deepEqual(holmAdjust([0.4, 0.45, 0.5]), [1, 1, 1]);
});

test('MDE is NaN for a non-finite SE; questions needed: null for SE ∞ or NaN, the exact ceiling, input errors', () => {
  assert.ok(Number.isNaN(minimalDetectableDifference(NaN)));
  assert.ok(Number.isNaN(minimalDetectableDifference(Infinity)));
  assert.equal(minimalDetectableDifference(0), 0);
  assert.equal(questionsToResolve(10, NaN, 0.05), null);
  assert.equal(questionsToResolve(10, Infinity, 0.05), null);
  assert.equal(questionsToResolve(10, -0.1, 0.05), null);
  // SE = δ/(z₀.₉₇₅ + z₀.₈₀) makes f = 1 up to rounding: n·f² = 20 (± a few ulp) → 20, never 21
  assert.equal(questionsToResolve(20, 0.05 / (Z_975 + Z_80), 0.05), 20);
  assert.equal(questionsToResolve(7, 0.03 / (Z_975 + Z_80), 0.03), 7);
  // n = 1 is allowed; n < 1 and a negative or NaN δ are not
  assert.equal(questionsToResolve(1, 0.05, 0.05), 8); // 2.801585² = 7.849 → 8
  for (const [n, d] of [[0.5, 0.05], [0, 0.05], [NaN, 0.05], [10, -0.05], [10, NaN]]) {
    assert.throws(() => questionsToResolve(n, 0.1, d), (e: Error & { code?: string }) => {
      assert.equal(e.code, 'invariant');
      assert.equal(e.message, `questionsToResolve needs δ > 0 and n ≥ 1 (got δ=${d}, n=${n}).`);
      return true;
    });
  }
});
