/**
 * The reference dense score: float32 products accumulated in float64 with four interleaved partial
 * sums, combined as `(s0 + s1) + (s2 + s3)`, then the tail. Every dense path returns exactly this.
 */

/** Dot product of `matrix[row*dim .. row*dim+dim)` with `q[qOff .. qOff+dim)`, the reference score. */
export function dotRow(matrix: Float32Array, rowOff: number, q: Float32Array, qOff: number, dim: number): number {
  let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  let j = 0;
  const end4 = dim - (dim & 3);
  for (; j < end4; j += 4) {
    s0 += matrix[rowOff + j] * q[qOff + j];
    s1 += matrix[rowOff + j + 1] * q[qOff + j + 1];
    s2 += matrix[rowOff + j + 2] * q[qOff + j + 2];
    s3 += matrix[rowOff + j + 3] * q[qOff + j + 3];
  }
  let s = (s0 + s1) + (s2 + s3);
  for (; j < dim; j++) s += matrix[rowOff + j] * q[qOff + j];
  return s;
}
