import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DenseIndex, dotRow, TopN, disposeDenseOrt, denseOrtStats, type Hit } from '../../../../src/core/retrieval/index';
import { mulberry32, randomUnitRows } from '../../../helpers/retrieval';

/** Brute force: score every row with the reference dot product, FULL sort (score desc, index asc), cut. */
function bruteForce(m: Float32Array, dim: number, q: Float32Array, qOff: number, n: number): Hit[] {
  const rows = m.length / dim;
  const all: Hit[] = [];
  for (let r = 0; r < rows; r++) all.push({ chunk: r, score: dotRow(m, r * dim, q, qOff, dim) });
  all.sort((a, b) => b.score - a.score || a.chunk - b.chunk);
  return all.slice(0, n);
}

test('dotRow equals a naive dot product to rounding', () => {
  const rnd = mulberry32(7);
  for (const dim of [1, 3, 4, 5, 100, 384]) {
    const a = randomUnitRows(rnd, 2, dim);
    let naive = 0;
    for (let j = 0; j < dim; j++) naive += a[j] * a[dim + j];
    assert.ok(Math.abs(dotRow(a, 0, a, dim, dim) - naive) < 1e-12, `dim ${dim}`);
  }
});

test('TopN keeps the n best under (score desc, index asc) whatever the push order', () => {
  const rnd = mulberry32(11);
  for (let seed = 0; seed < 50; seed++) {
    const scores = Array.from({ length: 40 }, () => Math.floor(rnd() * 6)); // many ties
    const order = scores.map((_, i) => i).sort(() => rnd() - 0.5);
    const t = new TopN(7);
    for (const i of order) t.push(i, scores[i]);
    const want = scores.map((score, chunk) => ({ chunk, score })).sort((a, b) => b.score - a.score || a.chunk - b.chunk).slice(0, 7);
    assert.deepEqual(t.result(), want);
  }
});

test('DenseIndex.search and searchBatch equal a brute-force full sort on random data (many seeds)', () => {
  for (let seed = 1; seed <= 40; seed++) {
    const rnd = mulberry32(seed);
    const dim = [3, 8, 17, 64][seed % 4];
    const rows = 1 + Math.floor(rnd() * 300);
    const m = randomUnitRows(rnd, rows, dim);
    const idx = new DenseIndex(m, dim);
    const nq = 1 + (seed % 5);
    const qs = randomUnitRows(rnd, nq, dim);
    const n = [1, 5, 20, rows + 3][seed % 4];
    const batch = idx.searchBatch(qs, n);
    assert.equal(batch.length, nq);
    for (let i = 0; i < nq; i++) {
      const want = bruteForce(m, dim, qs, i * dim, n);
      assert.deepEqual(idx.search(qs.subarray(i * dim, (i + 1) * dim), n), want, `seed ${seed} query ${i}`);
      assert.deepEqual(batch[i], want, `seed ${seed} batch query ${i}`);
    }
  }
});

test('DenseIndex breaks exact ties by chunk index (duplicate and quantised rows)', () => {
  // Entries in {-1, 0, 1}/2 make every dot product exact, so ties are real ties.
  for (let seed = 100; seed < 130; seed++) {
    const rnd = mulberry32(seed);
    const dim = 4, rows = 60;
    const m = new Float32Array(rows * dim).map(() => (Math.floor(rnd() * 3) - 1) / 2);
    const idx = new DenseIndex(m, dim);
    const q = new Float32Array(dim).map(() => (Math.floor(rnd() * 3) - 1) / 2);
    for (const n of [1, 3, 10, 60]) {
      const got = idx.search(q, n);
      assert.deepEqual(got, bruteForce(m, dim, q, 0, n));
      for (let i = 1; i < got.length; i++) {
        assert.ok(got[i - 1].score > got[i].score || (got[i - 1].score === got[i].score && got[i - 1].chunk < got[i].chunk));
      }
    }
  }
  // Identical rows: a query equal to them returns them in index order.
  const m = new Float32Array([1, 0, 0, 1, 1, 0, 0.6, 0.8, 1, 0]);
  assert.deepEqual(new DenseIndex(m, 2).search(new Float32Array([1, 0]), 3).map((h) => h.chunk), [0, 2, 4]);
});

test('DenseIndex edge cases: n = 0, empty index, bad shapes', () => {
  const idx = new DenseIndex(new Float32Array([1, 0, 0, 1]), 2);
  assert.deepEqual(idx.search(new Float32Array([1, 0]), 0), []);
  assert.deepEqual(new DenseIndex(new Float32Array(0), 2).search(new Float32Array([1, 0]), 5), []);
  assert.throws(() => new DenseIndex(new Float32Array(3), 2), /not rows × 2/);
  assert.throws(() => idx.search(new Float32Array(3), 1), /not q × 2/);
});

test('the onnxruntime Gemm→TopK path returns exactly the JS results (many seeds, ties included)', async () => {
  try {
    const before = { ...denseOrtStats };
    for (let seed = 1; seed <= 16; seed++) {
      const rnd = mulberry32(seed * 31);
      const dim = [8, 100, 33, 384][seed % 4];
      const rows = [1, 10, 500, 3000][seed % 4] + Math.floor(rnd() * 50);
      const m = randomUnitRows(rnd, rows, dim);
      if (seed % 3 === 0) m.copyWithin(dim * 5, 0, dim * 5); // duplicate rows → exact ties at the top
      const idx = new DenseIndex(m, dim);
      const nq = 1 + (seed % 7);
      const qs = randomUnitRows(rnd, nq, dim);
      if (seed % 3 === 0) qs.set(m.subarray(0, dim)); // query 0 = row 0 = row 5
      for (const n of [1, 20, rows + 1]) {
        const js = idx.searchBatch(qs, n);
        const ort = await idx.searchBatchAsync(qs, n, { path: 'ort', threads: 1 });
        assert.deepEqual(ort, js, `seed ${seed} n ${n}`);
      }
    }
    // on continuous random data the graph's candidates suffice (no fallback to the JS scan), so the
    // equality above really tests the Gemm → TopK path
    assert.ok(denseOrtStats.queries - before.queries > 50);
    assert.equal(denseOrtStats.fallbacks, before.fallbacks);
    // views into larger buffers (byteOffset ≠ 0) for both the matrix and the queries
    {
      const rnd2 = mulberry32(99);
      const dim = 16;
      const big = new Float32Array(7 * dim + 800 * dim);
      big.set(randomUnitRows(rnd2, 800, dim), 7 * dim);
      const view = new DenseIndex(big.subarray(7 * dim), dim);
      const qs = randomUnitRows(rnd2, 4, dim).subarray(dim, 3 * dim);
      const f0 = denseOrtStats.fallbacks;
      assert.deepEqual(await view.searchBatchAsync(qs, 5, { path: 'ort' }), view.searchBatch(qs, 5));
      assert.equal(denseOrtStats.fallbacks, f0);
    }
    // quantised data: many exact ties straddle the TopK cut; the fallback keeps results identical
    const rnd = mulberry32(5);
    const dim = 4, rows = 400;
    const m = new Float32Array(rows * dim).map(() => (Math.floor(rnd() * 3) - 1) / 2);
    const qs = new Float32Array(3 * dim).map(() => (Math.floor(rnd() * 3) - 1) / 2);
    const idx = new DenseIndex(m, dim);
    const f1 = denseOrtStats.fallbacks;
    assert.deepEqual(await idx.searchBatchAsync(qs, 10, { path: 'ort', threads: 1 }), idx.searchBatch(qs, 10));
    assert.ok(denseOrtStats.fallbacks > f1, 'ties at the cut take the fallback');
    assert.deepEqual(await idx.searchBatchAsync(qs, 0, { path: 'ort' }), [[], [], []]);
  } finally {
    await disposeDenseOrt();
  }
});
