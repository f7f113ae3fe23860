// Holm–Bonferroni, the paired bootstrap p-value and SE, MDE and "questions needed" (SPEC §7.4, §9).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bootstrapResamples, erfc, holmAdjust, minimalDetectableDifference, pairedComparison, questionsToResolve, Z_80, Z_975 } from '../../../../src/core/stats';

const near = (a: number, b: number, eps = 1e-12): void => assert.ok(Math.abs(a - b) < eps, `${a} ≠ ${b}`);

test('Holm on a known p-value set (hand-computed; same as R p.adjust(p, "holm"))', () => {
  // sorted 0.005, 0.01, 0.03, 0.04 → ×4 = 0.02, ×3 = 0.03, ×2 = 0.06, ×1 = 0.04 → running max 0.02, 0.03, 0.06, 0.06
  const adj = holmAdjust([0.01, 0.04, 0.03, 0.005]);
  [0.03, 0.06, 0.06, 0.02].forEach((x, i) => near(adj[i], x));
  // 0.01×5 = 0.05, 0.02×4 = 0.08, 0.03×3 = 0.09, 0.04×2 = 0.08 → 0.09, 0.05×1 → 0.09
  const b = holmAdjust([0.01, 0.02, 0.03, 0.04, 0.05]);
  [0.05, 0.08, 0.09, 0.09, 0.09].forEach((x, i) => near(b[i], x));
  // capped at 1; NaN is not tested and not counted in m (m = 2 here)
  const c = holmAdjust([0.5, 0.6, NaN]);
  assert.deepEqual([c[0], c[1]], [1, 1]);
  assert.ok(Number.isNaN(c[2]));
  assert.deepEqual(holmAdjust([]), []);
});

test('paired comparison with hand-written resamples: CI, SE and p-value', () => {
  const rs = [[0, 1, 2], [0, 0, 0], [1, 1, 2], [2, 2, 2]].map((r) => Uint32Array.from(r));
  // d = a − b = [0, 1, 0]; resample means 1/3, 0, 2/3, 0; their mean 0.25
  const c = pairedComparison([1, 1, 0], [1, 0, 0], rs);
  near(c.mean, 1 / 3);
  // SE² = ((1/3 − 1/4)² + (1/4)² + (2/3 − 1/4)² + (1/4)²) / 3 = 0.30555…/3
  near(c.se, Math.sqrt((1 / 144 + 1 / 16 + 25 / 144 + 1 / 16) / 3));
  // #{≤ 0} = 2, #{≥ 0} = 4 → 2·min(3/5, 5/5) = 1.2 → capped 1
  assert.equal(c.p, 1);
  // sorted 0, 0, 1/3, 2/3: type 7 at 0.025·3 = 0.075 → 0; at 0.975·3 = 2.925 → 1/3 + 0.925·1/3
  near(c.lo, 0);
  near(c.hi, 1 / 3 + 0.925 / 3);
  assert.equal(c.n, 3);
  // every resample mean 1 > 0: p = 2·(1 + 0)/(4 + 1) = 0.4; SE 0, so no normal tail
  const all = pairedComparison([1, 1, 1], [0, 0, 0], rs);
  near(all.p, 0.4);
  assert.equal(all.se, 0);
  // identical configs: every difference 0 → p = 1
  assert.equal(pairedComparison([1, 0, 1], [1, 0, 1], rs).p, 1);
});

test('paired comparison: p < 0.05 for a clear difference with B = 2000; NaN questions left out', () => {
  const n = 30;
  const rs = bootstrapResamples(n, 2000, 7);
  const a = Array.from({ length: n }, () => 1);
  const b = Array.from({ length: n }, (_, i) => (i < 15 ? 1 : 0));
  const c = pairedComparison(b, a, rs);
  near(c.mean, -0.5);
  // all 2000 resample means are < 0 (a resample of only the first 15 questions has probability 2^-30),
  // so the count only bounds p ≤ 2/2001; the normal tail with the bootstrap SE gives the value
  assert.ok(c.se > 0.07 && c.se < 0.11, String(c.se)); // ≈ √(0.25/30) = 0.0913
  near(c.p, erfc(0.5 / (c.se * Math.SQRT2)), 1e-15);
  assert.ok(c.p < 1e-6);
  const withNaN = pairedComparison([1, NaN, 0], [0, 0, 0], [Uint32Array.from([0, 1, 2])]);
  near(withNaN.mean, 0.5);
  assert.equal(withNaN.n, 2);
});

test('MDE and questions needed from the paired SE (α = 0.05 two-sided, power 0.80)', () => {
  near(Z_975 + Z_80, 2.801585218, 1e-9);
  near(minimalDetectableDifference(0.1), 0.2801585218, 1e-9);
  // n = 15, SE = 0.05, δ = 0.05: 15 · 2.801585² = 117.73 → 118
  assert.equal(questionsToResolve(15, 0.05, 0.05), 118);
  // n = 45, SE = 0.02, δ = 0.05: 45 · (2.801585·0.4)² = 56.51 → 57
  assert.equal(questionsToResolve(45, 0.02, 0.05), 57);
  assert.equal(questionsToResolve(10, 0, 0.05), null);
  assert.throws(() => questionsToResolve(10, 0.1, 0), /δ > 0/);
});

test('erfc against reference values (Abramowitz & Stegun table 7.1; fractional error < 1.2e-7)', () => {
  for (const [x, ref] of [[0, 1], [0.5, 0.4795001221869535], [1, 0.15729920705028513], [2, 0.004677734981047266], [3, 2.209049699858544e-5], [-1, 1.8427007929497148]]) {
    assert.ok(Math.abs(erfc(x) - ref) <= 1.2e-7 * ref, `erfc(${x}) = ${erfc(x)} ≠ ${ref}`);
  }
});
