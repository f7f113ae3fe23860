// Edges of the bootstrap module: input checks, empty resample sets, NaN pairs in Pearson's r, and
// that percentileOf leaves its input alone. Written to kill the mutants StrykerJS left alive in
// src/core/stats/bootstrap.ts (docs/testing.md, "Mutation testing"); expected values by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bootstrapResamples, pairedDifferenceCI, pearson, pearsonCI, percentileCI, percentileOf } from '../../../../src/core/stats';
import { SpanproofError } from '../../../../src/core/errors';

const near = (a: number, b: number, eps = 1e-12): void => assert.ok(Math.abs(a - b) < eps, `${a} ≠ ${b}`);
const invariant = (e: unknown): boolean => e instanceof SpanproofError && e.code === 'invariant';

test('bootstrapResamples refuses a negative or fractional n or B, and accepts 0', () => {
  const badInput = (e: unknown): boolean =>
    e instanceof SpanproofError &&
    e.code === 'bad-input' &&
    e.field === 'bootstrap' &&
    e.fix === 'Use a whole number of resamples, e.g. 2000.' &&
    /integer n ≥ 0 and B ≥ 0 \(got n=-1, B=10\)/.test(e.message);
  assert.throws(() => bootstrapResamples(-1, 10, 1), badInput);
  assert.throws(() => bootstrapResamples(3, -1, 1), (e: unknown) => e instanceof SpanproofError && e.code === 'bad-input');
  assert.throws(() => bootstrapResamples(2.5, 10, 1), (e: unknown) => e instanceof SpanproofError && e.code === 'bad-input');
  // n = 0: B empty resamples; B = 0: none
  assert.deepEqual(bootstrapResamples(0, 2, 1), [new Uint32Array(0), new Uint32Array(0)]);
  assert.deepEqual(bootstrapResamples(3, 0, 1), []);
});

test('no resamples: the mean stands, lo = hi = NaN; resamples drawn for another n are an invariant error', () => {
  const ci = percentileCI([1, 2], []);
  near(ci.mean, 1.5);
  assert.ok(Number.isNaN(ci.lo) && Number.isNaN(ci.hi));
  assert.throws(() => percentileCI([1, 2], [Uint32Array.from([0, 1, 2])]), (e: unknown) => invariant(e) && /over 3 questions but 2 values/.test((e as Error).message));
});

test('percentileOf does not reorder the statistics it is given', () => {
  const stats = Float64Array.from([3, 1, 2, 0]);
  // sorted [0, 1, 2, 3], p = 0.25 → h = 0.75 → 0.75; p = 0.75 → h = 2.25 → 2.25
  const { lo, hi } = percentileOf(stats, 0.5);
  near(lo, 0.75);
  near(hi, 2.25);
  assert.deepEqual(Array.from(stats), [3, 1, 2, 0]);
});

test('paired difference and pearson over arrays of different lengths are invariant errors', () => {
  const rs = [Uint32Array.from([0, 1])];
  assert.throws(() => pairedDifferenceCI([1, 2], [1], rs), (e: unknown) => invariant(e) && /over 2 vs 1 questions/.test((e as Error).message));
  assert.throws(() => pearson([1, 2, 3], [1, 2]), (e: unknown) => invariant(e) && /pearson over 3 vs 2 values/.test((e as Error).message));
});

test('pearson drops a pair with a NaN on either side, and two points define r', () => {
  // by hand for [1,2,3] vs [2,4,7]: Σdxdy = 5, Σdx² = 2, Σdy² = 114/9 (bootstrap.test.ts)
  const r = 5 / Math.sqrt(2 * (114 / 9));
  near(pearson([1, 2, NaN, 3], [2, 4, 5, 7]), r);
  near(pearson([1, 2, 4, 3], [2, 4, NaN, 7]), r);
  // two distinct points lie on a line: r = ±1
  near(pearson([1, 2], [3, 5]), 1);
  near(pearson([1, 2], [5, 3]), -1);
  // one point: undefined
  assert.ok(Number.isNaN(pearson([1], [2])));
  // pearsonCI with the NaN pair: every resample of the 4 indices below is r of its finite pairs
  const ci = pearsonCI([1, 2, NaN, 3], [2, 4, 5, 7], [Uint32Array.from([0, 1, 2, 3])]);
  near(ci.r, r);
  near(ci.lo, r);
  near(ci.hi, r);
});
