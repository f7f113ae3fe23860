// The auto path of exact dense search loads onnxruntime only when the first call's work pays for it
// (ORT_COLD_MIN_WORK), and uses the ORT_MIN_WORK bound once the search session exists.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DenseIndex, ORT_COLD_MIN_WORK, ORT_MIN_WORK, denseOrtStats, disposeDenseOrt } from '../../../../src/core/retrieval/index';

/** Unit rows from a fixed LCG (no ties near the cut: distinct random directions in 100 d). */
function unitRows(n: number, dim: number, seed: number): Float32Array {
  let s = seed >>> 0;
  const m = new Float32Array(n * dim);
  for (let i = 0; i < n; i++) {
    let ss = 0;
    for (let d = 0; d < dim; d++) {
      s = (Math.imul(s, 1103515245) + 12345) >>> 0;
      m[i * dim + d] = s / 2 ** 32 - 0.5;
      ss += m[i * dim + d] ** 2;
    }
    for (let d = 0; d < dim; d++) m[i * dim + d] /= Math.sqrt(ss);
  }
  return m;
}

test('a first call between ORT_MIN_WORK and ORT_COLD_MIN_WORK scans in JS; after a session exists the same call goes to onnxruntime, with the same hits', async (t) => {
  t.after(() => disposeDenseOrt());
  const dim = 100;
  const q = 45;
  const size = 2200; // 45 × 2,200 × 100 = 9.9 M multiply-adds
  const work = q * size * dim;
  assert.ok(work >= ORT_MIN_WORK && work < ORT_COLD_MIN_WORK);
  const idx = new DenseIndex(unitRows(size, dim, 7), dim);
  const qs = unitRows(q, dim, 99);
  const js = idx.searchBatch(qs, 20);
  const before = denseOrtStats.queries;
  assert.deepEqual(await idx.searchBatchAsync(qs, 20), js);
  assert.equal(denseOrtStats.queries, before, 'cold: no onnxruntime query');
  assert.deepEqual(await idx.searchBatchAsync(qs, 20, { path: 'ort' }), js); // creates the 2-thread session
  const warm = denseOrtStats.queries;
  assert.deepEqual(await idx.searchBatchAsync(qs, 20), js);
  assert.equal(denseOrtStats.queries - warm, q, 'warm: answered by onnxruntime');
});
