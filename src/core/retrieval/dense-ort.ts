/**
 * The onnxruntime path of exact dense search for query batches (TESTING.md §3: a MatMul → TopK graph
 * on 2 threads is the fastest exact search measured on this machine).
 *
 * Graph (opset 17, built in code with onnx-proto, one session per thread count, reused for every
 * shape): inputs Q [q, d] float, M [c, d] float (the chunk matrix, passed as an input so it is not
 * copied into the session), K [1] int64; `S = Gemm(Q, M, transB=1)` [q, c];
 * `V, I = TopK(S, K, axis=-1, largest=1, sorted=1)`.
 *
 * Identical results to the JS scan: the graph returns K' = min(c, n + MARGIN) candidates per query;
 * their scores are recomputed with the reference {@link dotRow} and the top n chosen with the same
 * total order (score desc, chunk asc). This is provably the same top n when the n-th reference score
 * exceeds the graph's K'-th score by more than the float32 dot-product error bound
 * (|ort − ref| ≤ 2·d·2⁻²⁴·‖q‖·max‖row‖, Higham 2002 §3.1 with a factor-2 margin); when it does not
 * (near-ties at the cut), that query falls back to the JS scan.
 */
import '../ortEnv'; // before onnxruntime-node: no telemetry
import type { InferenceSession } from 'onnxruntime-node';
import { SpanproofError } from '../errors';
import type { Hit } from './hit';
import { TopN } from './topk';
import { dotRow } from './dot';

/** The structural part of DenseIndex this path needs (avoids an import cycle). */
interface DenseMatrix { readonly matrix: Float32Array; readonly dim: number; readonly size: number; search(query: Float32Array, n: number): Hit[] }

/** Counters of this path (tests and benchmarks): queries answered, and those that fell back to the JS scan. */
export const denseOrtStats = { queries: 0, fallbacks: 0 };

/** Extra candidates the graph returns beyond n, so the reference re-scoring has room. */
const MARGIN = 16;

type Ort = typeof import('onnxruntime-node');
let ortModule: Promise<Ort | null> | undefined;
const sessions = new Map<number, Promise<InferenceSession>>();
const maxRowNorms = new WeakMap<Float32Array, number>();

/** Whether a search session for `threads` already exists (the library is loaded and the graph built). */
export function denseOrtWarm(threads: number): boolean {
  return sessions.has(threads);
}

function loadOrt(): Promise<Ort | null> {
  ortModule ??= import('onnxruntime-node').then((m) => ((m as { default?: Ort }).default ?? m) as Ort, () => null);
  return ortModule;
}

/** The Gemm → TopK model as ONNX protobuf bytes. */
export async function buildDenseTopKModel(): Promise<Uint8Array> {
  const mod = await import('onnx-proto');
  const onnx = mod.onnx ?? (mod as unknown as { default: typeof mod }).default.onnx; // CJS module under ESM interop
  const INT = onnx.AttributeProto.AttributeType.INT;
  const vi = (name: string, elemType: number, dims: Array<string | number>) => onnx.ValueInfoProto.create({
    name,
    type: { tensorType: { elemType, shape: { dim: dims.map((d) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d })) } } },
  });
  const FLOAT = onnx.TensorProto.DataType.FLOAT;
  const INT64 = onnx.TensorProto.DataType.INT64;
  const model = onnx.ModelProto.create({
    irVersion: 8,
    producerName: 'spanproof',
    opsetImport: [{ domain: '', version: 17 }],
    graph: onnx.GraphProto.create({
      name: 'dense_topk',
      node: [
        onnx.NodeProto.create({ opType: 'Gemm', input: ['Q', 'M'], output: ['S'], attribute: [{ name: 'transB', type: INT, i: 1 }] }),
        onnx.NodeProto.create({
          opType: 'TopK', input: ['S', 'K'], output: ['V', 'I'],
          attribute: [{ name: 'axis', type: INT, i: -1 }, { name: 'largest', type: INT, i: 1 }, { name: 'sorted', type: INT, i: 1 }],
        }),
      ],
      input: [vi('Q', FLOAT, ['q', 'd']), vi('M', FLOAT, ['c', 'd']), vi('K', INT64, [1])],
      output: [vi('V', FLOAT, ['q', 'k']), vi('I', INT64, ['q', 'k'])],
    }),
  });
  return onnx.ModelProto.encode(model).finish();
}

async function session(ort: Ort, threads: number): Promise<InferenceSession> {
  let s = sessions.get(threads);
  if (!s) {
    s = buildDenseTopKModel().then((bytes) => ort.InferenceSession.create(bytes, {
      intraOpNumThreads: threads, interOpNumThreads: 1, graphOptimizationLevel: 'all', executionMode: 'sequential',
    }));
    sessions.set(threads, s);
    s.catch(() => sessions.delete(threads));
  }
  return s;
}

/** Releases the cached onnxruntime sessions of this path (call at the end of a run). */
export async function disposeDenseOrt(): Promise<void> {
  const all = [...sessions.values()];
  sessions.clear();
  for (const s of all) await (await s.catch(() => null))?.release();
}

function maxRowNorm(m: Float32Array, dim: number): number {
  let v = maxRowNorms.get(m);
  if (v === undefined) {
    v = 0;
    for (let off = 0; off < m.length; off += dim) v = Math.max(v, Math.sqrt(dotRow(m, off, m, off, dim)));
    maxRowNorms.set(m, v);
  }
  return v;
}

/**
 * Batch search on onnxruntime; same contract and identical results as DenseIndex.searchBatch.
 * Returns null when onnxruntime-node cannot be loaded and `required` is false; throws
 * SpanproofError('model') when it is required.
 */
export async function ortSearchBatch(index: DenseMatrix, queries: Float32Array, n: number, threads: number, required: boolean): Promise<Hit[][] | null> {
  const { matrix, dim, size } = index;
  const q = queries.length / dim;
  if (q === 0) return [];
  if (n <= 0 || size === 0) return Array.from({ length: q }, () => []);
  const ort = await loadOrt();
  if (!ort) {
    if (required) throw new SpanproofError('model', 'onnxruntime-node could not be loaded.', { fix: 'Reinstall Spanproof for this platform.' });
    return null;
  }
  const sess = await session(ort, threads);
  const kk = Math.min(size, n + MARGIN);
  const out = await sess.run({
    Q: new ort.Tensor('float32', queries, [q, dim]),
    M: new ort.Tensor('float32', matrix, [size, dim]),
    K: new ort.Tensor('int64', BigInt64Array.of(BigInt(kk)), [1]),
  });
  const values = out.V.data as Float32Array;
  const indices = out.I.data as BigInt64Array;
  const rowNorm = kk < size ? maxRowNorm(matrix, dim) : 0;
  const results: Hit[][] = [];
  for (let i = 0; i < q; i++) {
    const top = new TopN(Math.min(n, size));
    for (let j = 0; j < kk; j++) {
      const c = Number(indices[i * kk + j]);
      top.push(c, dotRow(matrix, c * dim, queries, i * dim, dim));
    }
    const hits = top.result();
    if (kk < size) {
      const qNorm = Math.sqrt(dotRow(queries, i * dim, queries, i * dim, dim));
      const err = 2 * dim * 2 ** -24 * qNorm * rowNorm;
      const cut = values[i * kk + kk - 1];
      denseOrtStats.queries++;
      if (!(hits[hits.length - 1].score > cut + err)) {
        denseOrtStats.fallbacks++;
        results.push(index.search(queries.subarray(i * dim, (i + 1) * dim), n));
        continue;
      }
    }
    results.push(hits);
  }
  return results;
}
