/**
 * `dense` retriever (SPEC §5.1): exact cosine similarity by dot product of L2-normalised vectors over
 * every chunk; no approximate index. Top-N by partial selection ({@link TopN}, a bounded heap), never
 * a full sort of all scores.
 *
 * Scores are {@link dotRow} values (float32 products accumulated in float64); this is THE reference
 * score every path returns, including
 * the onnxruntime batch path, which re-scores its candidates with it (see dense-ort.ts).
 */
import { SpanproofError } from '../errors';
import type { Hit } from './hit';
import { TopN } from './topk';
import { dotRow } from './dot';
import { denseOrtWarm, ortSearchBatch } from './dense-ort';

/** Exact dense search over a chunks × dim row-major matrix of L2-normalised embeddings. */
export class DenseIndex {
  /** Number of chunks (rows). */
  readonly size: number;
  private scratch: Float64Array | undefined;

  /**
   * @param matrix chunks × dim, row-major, rows L2-normalised (row i = chunk i). Not copied: do not mutate it afterwards.
   * @param dim embedding dimension (> 0). Throws SpanproofError('invariant') when matrix.length is not a multiple of dim.
   */
  constructor(readonly matrix: Float32Array, readonly dim: number) {
    if (!Number.isInteger(dim) || dim <= 0 || matrix.length % dim !== 0) {
      throw new SpanproofError('invariant', `dense index: matrix of ${matrix.length} floats is not rows × ${dim}.`);
    }
    this.size = matrix.length / dim;
  }

  private checkQueries(queries: Float32Array): number {
    if (queries.length % this.dim !== 0) {
      throw new SpanproofError('invariant', `dense index: query buffer of ${queries.length} floats is not q × ${this.dim}.`);
    }
    return queries.length / this.dim;
  }

  /** The `n` chunks with the highest dot product with `query` (length dim), best first; ties by chunk index. */
  search(query: Float32Array, n: number): Hit[] {
    this.checkQueries(query);
    if (query.length !== this.dim) throw new SpanproofError('invariant', `dense index: query has ${query.length} floats, expected ${this.dim}.`);
    const { matrix, dim, size } = this;
    // Two passes — a tight scoring loop, then selection over the scores — measured ~30% faster in V8
    // than selecting inside the scoring loop.
    const scores = (this.scratch ??= new Float64Array(size));
    for (let r = 0, off = 0; r < size; r++, off += dim) scores[r] = dotRow(matrix, off, query, 0, dim);
    const top = new TopN(Math.min(n, size));
    for (let r = 0; r < size; r++) {
      const s = scores[r];
      if (s >= top.threshold) top.push(r, s);
    }
    return top.result();
  }

  /**
   * {@link search} for q queries at once (`queries` is q × dim row-major): a single pass over the
   * chunk matrix (each chunk row is read once and dotted with every query while it is in cache).
   * Returns one best-first list per query.
   */
  searchBatch(queries: Float32Array, n: number): Hit[][] {
    const q = this.checkQueries(queries);
    const { matrix, dim, size } = this;
    const tops = Array.from({ length: q }, () => new TopN(Math.min(n, size)));
    for (let r = 0, off = 0; r < size; r++, off += dim) {
      for (let i = 0; i < q; i++) {
        const s = dotRow(matrix, off, queries, i * dim, dim);
        const t = tops[i];
        if (s >= t.threshold) t.push(r, s);
      }
    }
    return tops.map((t) => t.result());
  }

  /**
   * {@link searchBatch} choosing the fastest exact path: onnxruntime (Gemm → TopK, see
   * `dense-ort.ts`) when the work is large enough and onnxruntime-node loads, else the JS scan.
   * "Large enough" is {@link ORT_MIN_WORK} once the search session exists, and
   * {@link ORT_COLD_MIN_WORK} for the call that would have to load onnxruntime and build it.
   * Both return identical hits (same chunks, same order, same reference scores).
   * @param opts.threads intra-op threads of the onnxruntime session (default 2).
   * @param opts.path force 'js' or 'ort' (tests and benchmarks).
   */
  async searchBatchAsync(queries: Float32Array, n: number, opts: { threads?: number; path?: 'js' | 'ort' | 'auto' } = {}): Promise<Hit[][]> {
    const q = this.checkQueries(queries);
    const path = opts.path ?? 'auto';
    const work = q * this.size * this.dim;
    const threads = opts.threads ?? 2;
    if (path === 'ort' || (path === 'auto' && work >= (denseOrtWarm(threads) ? ORT_MIN_WORK : ORT_COLD_MIN_WORK))) {
      const r = await ortSearchBatch(this, queries, n, threads, path === 'ort');
      if (r) return r;
    }
    return this.searchBatch(queries, n);
  }
}

/** Multiply-adds (queries × chunks × dim) from which the onnxruntime path pays off over the JS scan (measured, bench/retrieval.bench.ts). */
export const ORT_MIN_WORK = 4_000_000;

/**
 * The same bound for the first call, which pays for loading onnxruntime-node and creating the search
 * session: 70–85 ms and ≈ 30 MB of resident memory measured here (2 cores, 2026-12-02), about what the
 * JS scan needs for 64 M multiply-adds (0.7 ns each at 100 and 384 d). Below it the JS scan answers, so
 * a one-shot run over a few thousand chunks (the FastAPI sample: 45 queries × 2,145 chunks × 100 d =
 * 9.7 M per chunker) never loads onnxruntime: peak RSS 301 → 271 MB, wall unchanged, same hits.
 */
export const ORT_COLD_MIN_WORK = 64_000_000;
