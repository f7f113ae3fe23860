// Seeded PRNG, percentile bootstrap and Pearson's r (SPEC §7.4).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  bootstrapResamples,
  createRng,
  meanOf,
  pairedDifferenceCI,
  pearson,
  pearsonCI,
  percentileCI,
  percentileOf,
  percentileCIs,
  resampleMeansMany,
  quantileType7,
  resampleMeans,
} from '../../../../src/core/stats';

const near = (a: number, b: number, eps = 1e-12): void => assert.ok(Math.abs(a - b) < eps, `${a} ≠ ${b}`);

test('mulberry32 matches an independent Python implementation', () => {
  // Reference: a Python port with explicit `& 0xffffffff` masking (written for this test):
  //   a = (a + 0x6D2B79F5) & M; t = imul(t ^ t>>15, t|1); t ^= (t + imul(t ^ t>>7, t|61)) & M
  //   return ((t ^ t>>14) & M) / 2**32
  const r = createRng(42);
  assert.deepEqual([r(), r(), r(), r()], [0.6011037519201636, 0.44829055899754167, 0.8524657934904099, 0.6697340414393693]);
  const z = createRng(0);
  assert.deepEqual([z(), z()], [0.26642920868471265, 0.0003297457005828619]);
});

test('bootstrapResamples: deterministic, seeded, floor(rng·n)', () => {
  // Same Python port, seed 7, n = 3, B = 2: floor(u·3) for the first six draws
  assert.deepEqual(bootstrapResamples(3, 2, 7).map((a) => [...a]), [[0, 0, 2], [2, 1, 1]]);
  const a = bootstrapResamples(45, 2000, 1234);
  const b = bootstrapResamples(45, 2000, 1234);
  assert.deepEqual(a, b);
  assert.notDeepEqual(bootstrapResamples(45, 10, 1235), bootstrapResamples(45, 10, 1234));
  const values = Array.from({ length: 45 }, (_, i) => (i % 3 === 0 ? 0 : 1));
  assert.deepEqual(percentileCI(values, a), percentileCI(values, b));
  assert.throws(() => bootstrapResamples(3, 1.5, 1), { name: 'SpanproofError' });
});

test('quantile type 7 equals NumPy percentile (linear interpolation)', () => {
  // numpy.percentile([1,2,3,4], [2.5, 50, 97.5]) = [1.075, 2.5, 3.925]: h = 3·p
  near(quantileType7([1, 2, 3, 4], 0.025), 1.075);
  near(quantileType7([1, 2, 3, 4], 0.5), 2.5);
  near(quantileType7([1, 2, 3, 4], 0.975), 3.925);
  assert.equal(quantileType7([10], 0.975), 10);
  assert.ok(Number.isNaN(quantileType7([], 0.5)));
});

test('percentileCI by hand with B = 4 given resamples', () => {
  const values = [1, 0, 1];
  const rs = [[0, 0, 2], [2, 1, 1], [1, 1, 1], [0, 2, 0]].map((x) => Uint32Array.from(x));
  // resample means: [1,1,1] → 1; [1,0,0] → 1/3; [0,0,0] → 0; [1,1,1] → 1; sorted [0, 1/3, 1, 1]
  // level 0.5 → p = 0.25: h = 3·0.25 = 0.75 → 0 + 0.75·(1/3) = 0.25; p = 0.75: h = 2.25 → 1
  const ci = percentileCI(values, rs, 0.5);
  near(ci.mean, 2 / 3);
  near(ci.lo, 0.25);
  near(ci.hi, 1);
  // level 0.95 → p = 0.025: h = 0.075 → 0.075·(1/3) = 0.025; p = 0.975: h = 2.925 → 1
  const ci95 = percentileCI(values, rs);
  near(ci95.lo, 0.025);
  near(ci95.hi, 1);
  // a failed item (NaN) is left out, never averaged as zero
  near(meanOf([1, NaN, 0]), 0.5);
  assert.throws(() => percentileCI([1, 2], rs), /resamples/);
});

test('failed items (NaN) are left out of every resample mean, never averaged as 0 (by hand, B = 4)', () => {
  // #16 item 23: with `s / n` instead of `s / c` every stats and ranking test still passed.
  const values = [1, NaN, 0.5, 0];
  const rs = [[0, 1, 2, 3], [1, 1, 0, 0], [1, 1, 1, 1], [2, 2, 3, 1]].map((x) => Uint32Array.from(x));
  // finite entries per resample: {1, 0.5, 0} → 0.5; {1, 1} → 1; none → NaN; {0.5, 0.5, 0} → 1/3
  const m = resampleMeans(values, rs);
  near(m[0], 0.5);
  near(m[1], 1);
  assert.ok(Number.isNaN(m[2]), 'a resample of failed items only has no mean');
  near(m[3], 1 / 3);
  // CI over the 3 finite means, sorted [1/3, 0.5, 1]: p = 0.25 → h = 0.5 → 1/3 + 0.5·(1/6) = 5/12; p = 0.75 → h = 1.5 → 0.75
  const ci = percentileCI(values, rs, 0.5);
  near(ci.mean, 0.5);
  near(ci.lo, 5 / 12);
  near(ci.hi, 0.75);
  // paired: a question failed by one config drops out of the difference, d = [1, NaN, 0]
  const d = pairedDifferenceCI([1, NaN, 1], [0, 0, 1], [[1, 1, 0], [0, 2, 2], [1, 0, 1]].map((x) => Uint32Array.from(x)), 0.5);
  // resample means: {1} → 1; {1, 0, 0} → 1/3; {1} → 1; sorted [1/3, 1, 1]: p = 0.25 → h = 0.5 → 2/3; p = 0.75 → 1
  near(d.mean, 0.5);
  near(d.lo, 2 / 3);
  near(d.hi, 1);
  assert.equal(d.significant, true);
});

test('paired difference CI: significant only when it excludes 0', () => {
  const rs = bootstrapResamples(40, 2000, 99);
  const top = Array.from({ length: 40 }, () => 1);
  // worse on 10 of 40 questions: every difference ≤ 0, mean −0.25; a resample without any of the
  // 10 has probability 0.75^40 ≈ 1e−5, so the CI lies below 0
  const worse = top.map((v, i) => (i < 10 ? 0 : v));
  const d = pairedDifferenceCI(worse, top, rs);
  near(d.mean, -0.25);
  assert.ok(d.hi < 0);
  assert.equal(d.significant, true);
  // +1 and −1 alternating: mean 0, the CI straddles 0
  const a = Array.from({ length: 40 }, (_, i) => i % 2);
  const b = a.map((v) => 1 - v);
  const n = pairedDifferenceCI(a, b, rs);
  near(n.mean, 0);
  assert.ok(n.lo < 0 && n.hi > 0);
  assert.equal(n.significant, false);
  // identical configs: [0, 0], not significant
  assert.deepEqual(pairedDifferenceCI(top, top, rs), { mean: 0, lo: 0, hi: 0, significant: false });
  // the paired CI is narrower than the unpaired spread would suggest: one question apart → hi = 0
  const oneOff = top.map((v, i) => (i === 0 ? 0 : v));
  const o = pairedDifferenceCI(oneOff, top, rs);
  near(o.mean, -1 / 40);
  assert.equal(o.hi, 0);
  assert.equal(o.significant, false);
});

test('Pearson r by hand, and its bootstrap CI', () => {
  // x = [1,2,3], y = [2,4,7]: dx = [−1,0,1], dy = [−7/3,−1/3,8/3]; Σdxdy = 5, Σdx² = 2, Σdy² = 114/9
  near(pearson([1, 2, 3], [2, 4, 7]), 5 / Math.sqrt(2 * (114 / 9)));
  assert.ok(Number.isNaN(pearson([1, 1, 1], [1, 2, 3]))); // zero variance
  const rs = bootstrapResamples(20, 500, 5);
  const x = Array.from({ length: 20 }, (_, i) => i);
  const ci = pearsonCI(x, x.map((v) => 2 * v + 1), rs);
  // perfectly linear: r = 1 in every resample with two distinct values
  near(ci.r, 1);
  near(ci.lo, 1, 1e-9);
  near(ci.hi, 1, 1e-9);
  assert.deepEqual(pearsonCI(x, x.map((v) => v * v), rs), pearsonCI(x, x.map((v) => v * v), rs));
});

test('percentileOf selects the order statistics it needs: the same interval, bit for bit, as sorting all B', () => {
  // Reference: the definition — sort ascending, then quantileType7 at (1 − level)/2 and (1 + level)/2.
  const bySort = (stats: Float64Array, level: number) => {
    const s = stats.filter((v) => v === v).sort();
    const a = (1 - level) / 2;
    return { lo: quantileType7(s, a), hi: quantileType7(s, 1 - a) };
  };
  const rng = createRng(99);
  for (const m of [1, 2, 63, 64, 65, 100, 999, 2000, 5001]) {
    for (const kind of ['uniform', 'ties', 'sorted', 'reversed', 'constant', 'nan'] as const) {
      const x = new Float64Array(m);
      for (let i = 0; i < m; i++) {
        x[i] = kind === 'uniform' ? rng() - 0.5 : kind === 'ties' ? Math.floor(rng() * 5) / 45
          : kind === 'sorted' ? i / m : kind === 'reversed' ? (m - i) / m : kind === 'constant' ? 0.25 : (rng() < 0.1 ? NaN : rng());
      }
      for (const level of [0.95, 0.9, 0.5, 0.99, 0.999]) {
        const want = bySort(x, level);
        const got = percentileOf(x, level);
        assert.ok(Object.is(got.lo, want.lo) && Object.is(got.hi, want.hi), `m=${m} ${kind} level=${level}: ${JSON.stringify(got)} ≠ ${JSON.stringify(want)}`);
      }
    }
  }
});

test('resampleMeansMany and percentileCIs equal the one-column functions bit for bit (groups of four, remainders, NaN columns)', () => {
  const rs = bootstrapResamples(45, 500, 3);
  const rng = createRng(5);
  const cols: number[][] = [];
  for (let c = 0; c < 11; c++) {
    cols.push(Array.from({ length: 45 }, (_, i) => (c === 3 && i % 7 === 0 ? NaN : c % 2 ? Math.floor(rng() * 2) : rng() / 3)));
  }
  const many = resampleMeansMany(cols, rs);
  cols.forEach((col, c) => {
    const one = resampleMeans(col, rs);
    assert.ok(many[c].every((v, b) => Object.is(v, one[b])), `column ${c}`);
  });
  assert.deepEqual(percentileCIs(cols, rs), cols.map((col) => percentileCI(col, rs)));
  assert.deepEqual(resampleMeansMany([], rs), []);
  assert.throws(() => resampleMeansMany([[1, 2]], rs), { name: 'SpanproofError' });
});
