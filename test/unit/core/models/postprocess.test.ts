// Build-time word-vector post-processing (src/core/models/build/postprocess.ts): Zipf probabilities,
// SIF weights, int8 quantisation with a folded weight, Jacobi eigen-decomposition, principal
// components and component removal — each against a hand calculation or its defining property.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { principalComponents, quantiseRow, removeComponents, sifWeights, symmetricEigen, weightedMean, zipfProbabilities } from '../../../../src/core/models/build/postprocess';

const close = (a: number, b: number, tol: number, msg = '') => assert.ok(Math.abs(a - b) <= tol, `${msg} ${a} vs ${b}`);

test('zipfProbabilities: p(r) = 1/((r+1)·H_N), summing to 1 over the N ranks', () => {
  // N = 4: H = 1 + 1/2 + 1/3 + 1/4 = 25/12.
  const p = zipfProbabilities([0, 1, 2, 3], 4);
  const expected = [12 / 25, 6 / 25, 4 / 25, 3 / 25];
  expected.forEach((x, i) => close(p[i], x, 1e-15, `p[${i}]`));
  const all = zipfProbabilities([...Array(1000).keys()], 1000);
  close(all.reduce((s, x) => s + x, 0), 1, 1e-12, 'sum');
});

test('sifWeights: w = a/(a+p); a must be positive', () => {
  const w = sifWeights([0.01, 1e-4, 0], 1e-4);
  close(w[0], 1e-4 / 0.0101, 1e-15);
  close(w[1], 0.5, 1e-15);
  assert.equal(w[2], 1);
  assert.throws(() => sifWeights([0.1], 0), /a must be > 0/);
  // The shipped setting: "the" (rank 0 of 341,479 ranked words) is weighted about 1/750 of a rare word.
  const [the, rare] = sifWeights(zipfProbabilities([0, 100_000], 341_479), 1e-4);
  assert.ok(the < 0.002 && rare > 0.99, `${the} ${rare}`);
});

test('quantiseRow: s0 = max|v|/127, q rounds half away from zero, the weight only scales the scale', () => {
  const { q, scale } = quantiseRow([2.5, -2.5, 127, 0.49], 4, 0.25); // s0 = 1
  assert.deepEqual([...q], [3, -3, 127, 0]);
  assert.equal(scale, 0.25);
  const plain = quantiseRow([0.3, -0.7, 0.1], 3);
  const weighted = quantiseRow([0.3, -0.7, 0.1], 3, 1e-3);
  assert.deepEqual(weighted.q, plain.q);
  assert.equal(plain.scale, Math.fround(0.7 / 127));
  assert.equal(weighted.scale, Math.fround(1e-3 * Math.fround(0.7 / 127)));
  assert.deepEqual(quantiseRow([0, 0], 2, 0.5), { q: new Int8Array(2), scale: 0 });
});

test('symmetricEigen: [[2,1],[1,2]] → 3, 1 with (1,1)/√2, (1,−1)/√2; random 6×6 satisfies A·v = λ·v, orthonormal', () => {
  const { values, vectors } = symmetricEigen(Float64Array.of(2, 1, 1, 2), 2);
  close(values[0], 3, 1e-12);
  close(values[1], 1, 1e-12);
  const s = Math.SQRT1_2;
  [s, s, s, -s].forEach((x, i) => close(vectors[i], x, 1e-12, `v[${i}]`));

  const n = 6;
  let seed = 7;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
  const a = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = i; j < n; j++) a[i * n + j] = a[j * n + i] = rnd();
  const e = symmetricEigen(a, n);
  for (let k = 0; k < n; k++) {
    if (k > 0) assert.ok(e.values[k] <= e.values[k - 1]);
    for (let i = 0; i < n; i++) {
      let av = 0;
      for (let j = 0; j < n; j++) av += a[i * n + j] * e.vectors[k * n + j];
      close(av, e.values[k] * e.vectors[k * n + i], 1e-10, `A·v[${k}][${i}]`);
    }
    for (let l = 0; l < n; l++) {
      let dot = 0;
      for (let i = 0; i < n; i++) dot += e.vectors[k * n + i] * e.vectors[l * n + i];
      close(dot, k === l ? 1 : 0, 1e-10, `v${k}·v${l}`);
    }
  }
});

test('principalComponents and removeComponents: the dominant direction of points is found and projected out', () => {
  // Points c + t·(0.6, 0.8) + n_t·(−0.8, 0.6), n_t = 0.1·(−1)^t: Σ t·(n_t − n̄) = 0 over t = −5…5, so the
  // centred second-moment matrix has eigenvectors exactly (0.6, 0.8) (variance 110) and (−0.8, 0.6).
  const rows: number[] = [];
  for (let t = -5; t <= 5; t++) {
    const n = 0.1 * (t % 2 === 0 ? 1 : -1);
    rows.push(10 + 0.6 * t - 0.8 * n, -2 + 0.8 * t + 0.6 * n);
  }
  const x = Float64Array.from(rows);
  const mu = weightedMean(x, 2);
  close(mu[0], 10 - 0.8 * (-0.1 / 11), 1e-12); // n̄ = −0.1/11 (six odd t, five even)
  close(mu[1], -2 + 0.6 * (-0.1 / 11), 1e-12);
  const u = principalComponents(x, 2, 1, { center: mu });
  close(u[0], 0.6, 1e-12); // sign convention: the largest-magnitude entry is positive
  close(u[1], 0.8, 1e-12);
  close(u[0] * u[0] + u[1] * u[1], 1, 1e-12);
  // Uncentred, the mean (10, −2) dominates.
  const raw = principalComponents(x, 2, 1);
  assert.ok(Math.abs(raw[0]) > 0.97, `${raw[0]}`);
  // Removal leaves the component orthogonal to u; removing both axes leaves zero.
  const v = Float64Array.of(3, 1);
  removeComponents(v, u, 2);
  close(v[0] * u[0] + v[1] * u[1], 0, 1e-12);
  const w = Float64Array.of(3, 1);
  removeComponents(w, Float64Array.of(1, 0, 0, 1), 2);
  assert.deepEqual([...w], [0, 0]);
});
