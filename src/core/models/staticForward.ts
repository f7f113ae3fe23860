/**
 * The embedded static model (build/staticGraph.ts: a Gather of int8 word vectors, a masked mean and an
 * L2 normalisation) computed in TypeScript instead of by an onnxruntime session, with the very same
 * float32 results: a reference port of what onnxruntime-node 1.30's CPU kernels do with that graph,
 * operation by operation and in their summation order (checked bit for bit against a real session on
 * the FastAPI docs at batch sizes 1, 2, 7 and 32 and 1 and 2 threads, test/unit/core/models/staticForward.test.ts).
 *
 * Why: a session call materialises `[batch, width, dim]` float intermediates (Cast, Mul, Mul): for the
 * widest heading chunks `[32, 1494, 100]`, ≈ 19 MB each, the run's peak memory (docs/results.md), and
 * each call pays the tensor marshalling. Here a row costs O(tokens · dim) and no intermediate.
 *
 * The order that must be reproduced (onnxruntime 1.30, MLAS / Eigen 3.4 with SSE packets of 4 floats):
 * - `x = Cast(q) · scale` and `· mask`: element-wise, one float32 rounding each (a masked token adds 0).
 * - `ReduceSum` over the sequence axis of `[batch, width, dim]`: with one row (batch 1) the tokens are
 *   added in order; with more rows the width is cut into blocks of 4 positions, then (if ≥ 2 remain)
 *   one block of 2, then (if 1 remains) one of 1; each block is summed in order, then the blocks are
 *   added to the total in order. The width is the batch's longest row, so the same text can sum in a
 *   different order in another batch — the batch dependence docs/results.md describes; this port
 *   keeps it, so a run's numbers do not change.
 * - `ReduceSum` of the squares over the last axis (Eigen's vectorised redux, packets of 4): two packet
 *   accumulators over the 8-wide steps, their sum, one more packet if the size is not a multiple of 8,
 *   then the four lanes as (l0 + l2) + (l1 + l3). Only rows of `dim` ≡ 0 mod 4 floats (16-byte aligned
 *   rows, so no unaligned head) are ported; other shapes stay with onnxruntime.
 * - `Sqrt`, `Max`, `Div`: one rounding each. (Float64 arithmetic followed by a float32 rounding gives
 *   the correctly rounded float32 result of +, ·, / and √ of float32 operands: 53 ≥ 2·24 + 2.)
 */
import type { onnx } from 'onnx-proto';
import { DT } from './build/onnxBuilder';
import { staticEmbedderGraph, type StaticModelWeights } from './build/staticGraph';
import type { EncodedRow } from './tokenizer';

export type { StaticModelWeights };

const f32 = Math.fround;

/** Data of an initializer stored as `raw_data` (little-endian), or undefined. */
function raw(t: onnx.ITensorProto | undefined): Uint8Array | undefined {
  return t?.rawData && t.rawData.length > 0 ? t.rawData : undefined;
}

function dimsOf(t: onnx.ITensorProto): number[] {
  return (t.dims ?? []).map((d) => Number(d));
}

function sameAttributes(a: onnx.IAttributeProto[] | null | undefined, b: onnx.IAttributeProto[] | null | undefined): boolean {
  const x = a ?? [];
  const y = b ?? [];
  return x.length === y.length && x.every((p, k) => p.name === y[k].name && Number(p.i ?? 0) === Number(y[k].i ?? 0) && (p.ints ?? []).length === 0 && (y[k].ints ?? []).length === 0);
}

/**
 * The weights of `model` when its graph is exactly the embedded static model's graph (the same nodes,
 * inputs, outputs, attributes and constants as {@link staticEmbedderGraph} writes, int8 table and
 * float scales as raw data, `dim` a multiple of 4), else undefined — then the model runs in
 * onnxruntime as any other. Views into the decoded model's buffer; the scales are copied (alignment).
 */
export function readStaticModel(model: onnx.IModelProto): StaticModelWeights | undefined {
  const g = model.graph;
  if (!g) return undefined;
  const init = new Map((g.initializer ?? []).map((t) => [t.name ?? '', t]));
  const table = init.get('table_int8');
  const scale = init.get('row_scale');
  const special = raw(init.get('last_special_id'));
  if (!table || !scale || !special || table.dataType !== DT.INT8 || scale.dataType !== DT.FLOAT) return undefined;
  const [vocab, dim] = dimsOf(table);
  const tableBytes = raw(table);
  const scaleBytes = raw(scale);
  if (!tableBytes || !scaleBytes || dim % 4 !== 0 || dim < 4 || tableBytes.length !== vocab * dim || scaleBytes.length !== vocab * 4) return undefined;
  if (dimsOf(scale).join() !== `${vocab},1` || special.length !== 8) return undefined;
  const lastSpecialId = Number(new DataView(special.buffer, special.byteOffset, 8).getBigInt64(0, true));
  const weights: StaticModelWeights = {
    table: new Int8Array(tableBytes.buffer, tableBytes.byteOffset, tableBytes.length),
    scales: new Float32Array(new Uint8Array(scaleBytes).buffer),
    vocab,
    dim,
    lastSpecialId,
  };
  // The graph must be the one the builder writes for these weights, constant for constant.
  const expected = staticEmbedderGraph(weights, '');
  const nodes = g.node ?? [];
  if (nodes.length !== expected.nodes.length) return undefined;
  const nodesMatch = expected.nodes.every((e, k) => {
    const n = nodes[k];
    return n.opType === e.opType && (n.domain ?? '') === '' && (n.input ?? []).join() === (e.input ?? []).join() && (n.output ?? []).join() === (e.output ?? []).join() && sameAttributes(n.attribute, e.attribute);
  });
  if (!nodesMatch || init.size !== expected.initializers.length) return undefined;
  const constantsMatch = expected.initializers.every((e) => {
    const t = init.get(e.name ?? '');
    if (!t || t.dataType !== e.dataType || dimsOf(t).join() !== dimsOf(e).join()) return false;
    if (e.name === 'table_int8' || e.name === 'row_scale') return true;
    const a = raw(t);
    const b = raw(e);
    return a !== undefined && b !== undefined && a.length === b.length && a.every((v, i) => v === b[i]);
  });
  const io = (vs: onnx.IValueInfoProto[] | null | undefined) => (vs ?? []).map((v) => `${v.name}:${v.type?.tensorType?.elemType}`).join();
  if (!constantsMatch || io(g.input) !== io(expected.inputs) || io(g.output) !== io(expected.outputs)) return undefined;
  return weights;
}

/**
 * Dequantised rows `f32(table[id] · scale[id])` of one model, filled lazily: `slot[id]` is the row's
 * offset in `pool` or −1. A row is computed once per process instead of once per token (the FastAPI
 * sample: ≈ 600 k tokens, ≈ 4 k distinct ids, 1.6 MB); the values are the ones the Cast and Mul give.
 */
interface RowCache {
  slot: Int32Array;
  pool: Float32Array;
  used: number;
}

const rowCaches = new WeakMap<StaticModelWeights, RowCache>();

function rowCacheOf(w: StaticModelWeights): RowCache {
  let c = rowCaches.get(w);
  if (!c) {
    c = { slot: new Int32Array(w.vocab).fill(-1), pool: new Float32Array(Math.min(w.vocab, 256) * w.dim), used: 0 };
    rowCaches.set(w, c);
  }
  return c;
}

/** Offset in `c.pool` of the dequantised row of `id` (computed on first use; may replace `c.pool`). */
function rowOffset(w: StaticModelWeights, c: RowCache, id: number): number {
  const known = c.slot[id];
  if (known >= 0) return known;
  const { dim, table } = w;
  const at = c.used * dim;
  if (at + dim > c.pool.length) {
    const grown = new Float32Array(Math.min(w.vocab * dim, c.pool.length * 2));
    grown.set(c.pool);
    c.pool = grown;
  }
  const s = w.scales[id];
  const o = id * dim;
  const pool = c.pool;
  for (let d = 0; d < dim; d++) pool[at + d] = f32(table[o + d] * s);
  c.slot[id] = at;
  c.used++;
  return at;
}

/**
 * `sentence_embedding` of one `session.run` over `rows` (padded to the longest row, at least 1 wide),
 * as onnxruntime computes it: `[rows.length × dim]` float32, row-major; a row without a known token
 * ([PAD]/[UNK] only, or empty) is the zero vector. Pure in its result and synchronous (it fills the
 * model's row cache); O(Σ tokens · dim). A block of ≤ 4 positions is summed in float32 locals (one
 * rounding per add, as the Float32Array it replaces) and added to the total once: ≈ 3.7× faster than
 * summing through arrays on the FastAPI docs, the same bits (test/unit/core/models/staticForward.test.ts).
 */
export function staticForward(w: StaticModelWeights, rows: readonly EncodedRow[]): Float32Array {
  const { dim, lastSpecialId } = w;
  const cache = rowCacheOf(w);
  const n = rows.length;
  let width = 1;
  for (const r of rows) width = Math.max(width, r.ids.length);
  // With one row the tokens are added to the total one by one: blocks of one position.
  const full = n === 1 ? 0 : width - (width % 4);
  const pairEnd = n === 1 ? 0 : width - full >= 2 ? full + 2 : full;
  const out = new Float32Array(n * dim);
  const total = new Float32Array(dim);
  const mean = new Float32Array(dim);
  for (let r = 0; r < n; r++) {
    const ids = rows[r].ids;
    const len = ids.length;
    total.fill(0);
    let count = 0;
    for (let start = 0; start < len; ) {
      const end = n === 1 ? start + 1 : start < full ? start + 4 : start < pairEnd ? pairEnd : width;
      const stop = Math.min(end, len);
      // Offsets of the block's known tokens, in order (at most 4); looked up before reading the pool.
      let c = 0;
      let o0 = 0;
      let o1 = 0;
      let o2 = 0;
      let o3 = 0;
      for (let j = start; j < stop; j++) {
        const id = ids[j];
        if (!(id > lastSpecialId)) continue;
        const o = rowOffset(w, cache, id);
        if (c === 0) o0 = o;
        else if (c === 1) o1 = o;
        else if (c === 2) o2 = o;
        else o3 = o;
        c++;
      }
      start = end;
      if (c === 0) continue;
      count += c;
      const p = cache.pool;
      // block = ((0 + v0) + v1) + …, each add rounded to float32; total += block. (0 + v0 differs from
      // v0 only for v0 = −0, and total + (±0) is the same: total is never −0, it starts at +0.)
      if (c === 1) for (let d = 0; d < dim; d++) total[d] += p[o0 + d];
      else if (c === 2) for (let d = 0; d < dim; d++) total[d] += f32(p[o0 + d] + p[o1 + d]);
      else if (c === 3) for (let d = 0; d < dim; d++) total[d] += f32(f32(p[o0 + d] + p[o1 + d]) + p[o2 + d]);
      else for (let d = 0; d < dim; d++) total[d] += f32(f32(f32(p[o0 + d] + p[o1 + d]) + p[o2 + d]) + p[o3 + d]);
    }
    const divisor = Math.max(count, 1);
    for (let d = 0; d < dim; d++) mean[d] = total[d] / divisor;
    const norm = Math.max(f32(Math.sqrt(sumOfSquaresEigen(mean))), f32(1e-12));
    const o = r * dim;
    for (let d = 0; d < dim; d++) out[o + d] = mean[d] / norm;
  }
  return out;
}

/**
 * Σ v² over a float32 vector whose length is a multiple of 4, in the order of Eigen 3.4's vectorised
 * redux with SSE packets of 4 (Eigen/src/Core/Redux.h, LinearVectorizedTraversal, aligned start):
 * lanes `p0` ← v[0..3], `p1` ← v[4..7]; for each further 8: p0 += v[i..i+3], p1 += v[i+4..i+7];
 * p0 += p1; one more packet into p0 if 4 remain; result (p0₀ + p0₂) + (p0₁ + p0₃) (SSE `predux`).
 */
function sumOfSquaresEigen(v: Float32Array): number {
  const size = v.length;
  const sq = (i: number) => f32(v[i] * v[i]);
  let a0 = sq(0);
  let a1 = sq(1);
  let a2 = sq(2);
  let a3 = sq(3);
  if (size > 4) {
    let b0 = sq(4);
    let b1 = sq(5);
    let b2 = sq(6);
    let b3 = sq(7);
    const end2 = size - (size % 8);
    for (let i = 8; i < end2; i += 8) {
      a0 = f32(a0 + sq(i));
      a1 = f32(a1 + sq(i + 1));
      a2 = f32(a2 + sq(i + 2));
      a3 = f32(a3 + sq(i + 3));
      b0 = f32(b0 + sq(i + 4));
      b1 = f32(b1 + sq(i + 5));
      b2 = f32(b2 + sq(i + 6));
      b3 = f32(b3 + sq(i + 7));
    }
    a0 = f32(a0 + b0);
    a1 = f32(a1 + b1);
    a2 = f32(a2 + b2);
    a3 = f32(a3 + b3);
    if (size > end2) {
      a0 = f32(a0 + sq(end2));
      a1 = f32(a1 + sq(end2 + 1));
      a2 = f32(a2 + sq(end2 + 2));
      a3 = f32(a3 + sq(end2 + 3));
    }
  }
  return f32(f32(a0 + a2) + f32(a1 + a3));
}
