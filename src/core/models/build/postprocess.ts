/**
 * Build-time post-processing and quantisation of static word vectors for the embedded default
 * embedder (used by scripts/build-models.ts; never at run time). Everything here is computed from the
 * word vectors and their frequency RANKS alone — no corpus, no evaluation data.
 *
 * - {@link zipfProbabilities}: p(r) = 1 / ((r + 1) · H), r = 0-based frequency rank, H = Σ_{r<N} 1/(r + 1)
 *   (Zipf's law with exponent 1 over the N ranked words of the source list).
 * - {@link sifWeights}: w = a / (a + p) — "smooth inverse frequency", Arora, Liang & Ma, "A Simple but
 *   Tough-to-Beat Baseline for Sentence Embeddings", ICLR 2017 (their eq. for the weighted average).
 * - {@link principalComponents}: eigenvectors of the (optionally centred, optionally weighted) second-moment
 *   matrix of the rows, by the cyclic Jacobi method (deterministic; float64).
 * - {@link removeComponents}: v ← v − Σ_d (u_d · v) u_d — the common-component removal of Arora et al.
 *   (one u) and "all-but-the-top" of Mu & Viswanath, ICLR 2018 (mean removal + top D components).
 *   The shipped model does NOT use it (measured in docs/models.md); `build:models -- --abtt D` builds
 *   that variant for comparison.
 * - {@link quantiseRow}: symmetric per-row int8, q = round(v / s₀) with s₀ = max|v| / 127 (round half
 *   away from zero), stored scale = weight · s₀ — so a weight changes the scale only, never the int8 row.
 *
 * Why these can be baked into the table without changing the ONNX graph: the graph computes
 * normalise(Σ_t x_t / n). Multiplying row t by w(t) makes that normalise(Σ_t w(t)·v_t / n), whose
 * direction is exactly the SIF-weighted mean (the 1/n and the L2 normalisation do not change the
 * direction). A projection P is linear, so Σ_t w(t)·P v_t = P Σ_t w(t)·v_t: removing components from
 * every row equals removing them from the sentence vector.
 */

/** Zipf probabilities of 0-based frequency ranks among `total` ranked words: p(r) = 1/((r+1)·H_total). */
export function zipfProbabilities(ranks: readonly number[], total: number): Float64Array {
  let h = 0;
  for (let r = total - 1; r >= 0; r--) h += 1 / (r + 1); // smallest terms first: less rounding error
  return Float64Array.from(ranks, (r) => 1 / ((r + 1) * h));
}

/** SIF weights w = a / (a + p) (Arora, Liang & Ma 2017). `a` > 0; the paper's useful range is 1e-4…1e-3. */
export function sifWeights(p: ArrayLike<number>, a: number): Float64Array {
  if (!(a > 0)) throw new Error(`SIF parameter a must be > 0, got ${a}`);
  return Float64Array.from(p as ArrayLike<number>, (x) => a / (a + x));
}

/** Mean of the `n` rows (`dim` wide) of `rows`, each counted with `weight[i]` (default 1). */
export function weightedMean(rows: Float64Array, dim: number, weight?: ArrayLike<number>): Float64Array {
  const n = rows.length / dim;
  const mu = new Float64Array(dim);
  let total = 0;
  for (let i = 0; i < n; i++) {
    const w = weight ? weight[i] : 1;
    total += w;
    for (let d = 0; d < dim; d++) mu[d] += w * rows[i * dim + d];
  }
  for (let d = 0; d < dim; d++) mu[d] /= total;
  return mu;
}

/**
 * Eigen-decomposition of a symmetric `n × n` matrix (row-major) by cyclic Jacobi rotations.
 * Returns eigenvalues in descending order and the matching unit eigenvectors as rows of `vectors`.
 */
export function symmetricEigen(matrix: Float64Array, n: number): { values: Float64Array; vectors: Float64Array } {
  const a = Float64Array.from(matrix);
  const v = new Float64Array(n * n);
  for (let i = 0; i < n; i++) v[i * n + i] = 1;
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += a[p * n + q] * a[p * n + q];
    if (off < 1e-30) break;
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = a[p * n + q];
        if (Math.abs(apq) < 1e-300) continue;
        const theta = (a[q * n + q] - a[p * n + p]) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = a[k * n + p];
          const akq = a[k * n + q];
          a[k * n + p] = c * akp - s * akq;
          a[k * n + q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = a[p * n + k];
          const aqk = a[q * n + k];
          a[p * n + k] = c * apk - s * aqk;
          a[q * n + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < n; k++) {
          const vkp = v[k * n + p];
          const vkq = v[k * n + q];
          v[k * n + p] = c * vkp - s * vkq;
          v[k * n + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  const order = [...Array(n).keys()].sort((i, j) => a[j * n + j] - a[i * n + i] || i - j);
  const values = Float64Array.from(order, (i) => a[i * n + i]);
  const vectors = new Float64Array(n * n);
  order.forEach((col, r) => {
    // Sign convention (for reproducible output only): the largest-magnitude entry is positive.
    let big = 0;
    for (let k = 0; k < n; k++) if (Math.abs(v[k * n + col]) > Math.abs(big)) big = v[k * n + col];
    const sign = big < 0 ? -1 : 1;
    for (let k = 0; k < n; k++) vectors[r * n + k] = sign * v[k * n + col];
  });
  return { values, vectors };
}

/**
 * The top `count` principal directions of the rows: eigenvectors of Σ_i weight_i (x_i − c)(x_i − c)ᵀ,
 * c = `center` (or 0 for the uncentred second moment, as in Arora et al.'s SVD). Rows of the result.
 */
export function principalComponents(rows: Float64Array, dim: number, count: number, opts: { weight?: ArrayLike<number>; center?: Float64Array } = {}): Float64Array {
  const n = rows.length / dim;
  const cov = new Float64Array(dim * dim);
  const x = new Float64Array(dim);
  for (let i = 0; i < n; i++) {
    const w = opts.weight ? opts.weight[i] : 1;
    for (let d = 0; d < dim; d++) x[d] = rows[i * dim + d] - (opts.center ? opts.center[d] : 0);
    for (let r = 0; r < dim; r++) {
      const wr = w * x[r];
      for (let c = r; c < dim; c++) cov[r * dim + c] += wr * x[c];
    }
  }
  for (let r = 0; r < dim; r++) for (let c = 0; c < r; c++) cov[r * dim + c] = cov[c * dim + r];
  return symmetricEigen(cov, dim).vectors.slice(0, count * dim);
}

/** v ← v − Σ_d (u_d · v) u_d for unit, orthogonal rows u_d of `components`; in place on one vector. */
export function removeComponents(v: Float64Array, components: Float64Array, dim: number): void {
  const count = components.length / dim;
  for (let k = 0; k < count; k++) {
    let dot = 0;
    for (let d = 0; d < dim; d++) dot += components[k * dim + d] * v[d];
    for (let d = 0; d < dim; d++) v[d] -= dot * components[k * dim + d];
  }
}

/**
 * Per-row symmetric int8 quantisation with a row weight folded into the scale: s₀ = fround(max|v| / 127),
 * q[d] = clamp(round_half_away(v[d] / s₀), ±127), scale = fround(weight · s₀). Dequantised row =
 * q · scale ≈ weight · v (error ≤ weight · s₀ / 2 per component). An all-zero row gives q = 0, scale 0.
 */
export function quantiseRow(v: ArrayLike<number>, dim: number, weight = 1): { q: Int8Array; scale: number } {
  const q = new Int8Array(dim);
  let maxAbs = 0;
  for (let d = 0; d < dim; d++) maxAbs = Math.max(maxAbs, Math.abs(v[d]));
  const s0 = Math.fround(maxAbs / 127);
  if (s0 === 0) return { q, scale: 0 };
  for (let d = 0; d < dim; d++) {
    const x = v[d] / s0;
    q[d] = Math.max(-127, Math.min(127, Math.sign(x) * Math.round(Math.abs(x))));
  }
  return { q, scale: Math.fround(weight * s0) };
}

/**
 * Per-column symmetric int8 quantisation of a row-major `rows × cols` matrix (one scale per output
 * column of `x · W`, so every output feature keeps its own range): the {@link quantiseRow} rule applied
 * to each column. Returns `q` row-major like the input and `scales[cols]`.
 */
export function quantiseColumns(m: Float32Array, rows: number, cols: number): { q: Int8Array; scales: Float32Array } {
  if (m.length !== rows * cols) throw new Error(`matrix has ${m.length} values, expected ${rows} × ${cols}`);
  const q = new Int8Array(rows * cols);
  const scales = new Float32Array(cols);
  const column = new Float64Array(rows);
  for (let c = 0; c < cols; c++) {
    for (let r = 0; r < rows; r++) column[r] = m[r * cols + c];
    const col = quantiseRow(column, rows);
    scales[c] = col.scale;
    for (let r = 0; r < rows; r++) q[r * cols + c] = col.q[r];
  }
  return { q, scales };
}
