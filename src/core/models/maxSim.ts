/**
 * The built-in baseline reranker (SPEC §5.3): late-interaction MaxSim (Khattab & Zaharia 2020,
 * ColBERT) over the static GloVe word vectors of the embedded default model — NOT a trained
 * cross-encoder, and labelled "baseline" in every report.
 *
 *   score(q, p) = Σ_{t ∈ tokens(q)} w(t) · max_{u ∈ tokens(p)} cos(v_t, v_u)
 *
 * Out-of-vocabulary tokens have a zero vector and add nothing. w(t) is the Zipf weight below; the
 * unweighted variant is kept for the measurement in docs/models.md. It differs from the first-stage
 * retrievers: BM25 needs exact token matches, dense compares one averaged vector per text, MaxSim lets
 * every query word find its closest passage word.
 */
import { staticGloveDir } from './defaultModel';
import { resolve } from 'node:path';
import { DEFAULT_BATCH_SIZE, type OnnxEmbedder, openOnnxEmbedder } from './embedder';
import type { ModelOptions, PairScorer } from './types';

/** Passage texts whose token ids are kept (cleared when full; only a speed-up). */
const PASSAGE_CACHE_SIZE = 20_000;

/**
 * Rows (distinct passage token ids) kept over all query memos: ≈ 8 bytes × query tokens each, so
 * ≈ 10 MB for 10-token queries; the least recently used queries are dropped beyond it.
 */
const QUERY_MEMO_ROWS = 120_000;

/** One query's cosines with the passage token ids seen so far: row r of `rows` (nq wide) is token `slot⁻¹(r)`. */
interface QueryMemo {
  nq: number;
  /** Unit vectors of the distinct query tokens. */
  qv: Float32Array[];
  /** Per query token (with repeats): its distinct slot. */
  qSlot: number[];
  /** Per query token: its weight. */
  qw: number[];
  slot: Map<number, number>;
  rows: Float64Array;
}

/** Query-token weighting. 'zipf': w = ln(rank + 2), rank = 0-based frequency rank of the word. */
export type MaxSimWeighting = 'none' | 'zipf';

/**
 * Token-id → frequency rank. The default model's vocabulary is [PAD]=0, [UNK]=1, then words in
 * descending corpus frequency from id 2, so rank = id − 2. By Zipf's law p(w) ∝ 1/rank, so
 * ln(rank + 2) ≈ −ln p(w) + const: an IDF-like weight that needs no corpus statistics and does not
 * depend on which passages happen to be in the candidate pool.
 */
export function zipfWeight(tokenId: number): number {
  return Math.log(Math.max(0, tokenId - 2) + 2);
}

/**
 * Creates the MaxSim baseline over the static model in `dir` (default: the embedded model).
 * `baseline` is true. Scores are sums of (weighted) cosines, comparable within one query only.
 *
 * `shared`: an embedder of the run already open on the same folder with `opts.threads` threads and
 * the default batch size (the grid's static-glove embedder) — the baseline then reads its session and
 * tokenizer instead of opening a second ONNX session and tokenizer of the same files (≈ 14 MB of
 * native memory and the tokenizer's heap), with the very same vectors; its `dispose()` leaves that
 * embedder to its owner. Any other `shared` is ignored.
 */
export async function createMaxSimReranker(opts: ModelOptions, dir: string = staticGloveDir(), weighting: MaxSimWeighting = 'zipf', shared?: OnnxEmbedder): Promise<PairScorer> {
  const usable = shared && shared.dir === resolve(dir) && shared.threads === opts.threads && shared.batch === (opts.batchSize ?? DEFAULT_BATCH_SIZE);
  if (usable) return new MaxSimReranker(shared, weighting, false);
  const embedder = await openOnnxEmbedder(dir, opts);
  return new MaxSimReranker(embedder, weighting, true);
}

class MaxSimReranker implements PairScorer {
  readonly id: string;
  readonly baseline = true;
  /** The static word vectors it reads (the default embedder's table). */
  get parameters(): number {
    return this.embedder.parameters;
  }
  private readonly vectors = new Map<number, Float32Array>();
  /** Distinct token ids per passage text: the same chunks recur in many queries' pools. */
  private readonly passageIds = new Map<string, number[]>();
  /** Per query text: its cosine memo (insertion order = least recently used first). */
  private readonly memos = new Map<string, QueryMemo>();
  private memoRows = 0;

  constructor(
    private readonly embedder: OnnxEmbedder,
    private readonly weighting: MaxSimWeighting,
    /** Whether `dispose()` releases the embedder (false when it is the run's shared embedder). */
    private readonly ownsEmbedder: boolean,
  ) {
    this.id = `maxsim-baseline/${weighting}:${embedder.id}`;
  }

  async score(query: string, passages: readonly string[]): Promise<Float32Array> {
    const q = this.embedder.tokenizer.idsOf(query);
    const ps = passages.map((p) => this.distinctIds(p));
    await this.ensureVectors([q, ...ps]);
    // Memoised per query, across calls (one query is reranked over every chunker's and retriever's
    // pool, which share most of their words): the cosine of each distinct query token with each
    // distinct passage token id is computed once, with the same float64 accumulation order over d as
    // the direct double loop, so every cosine — and hence every max and every sum below — is
    // bit-identical to computing it per passage (max is exact, the sum over the query tokens keeps
    // its order a = 0, 1, …).
    const memo = this.queryMemo(query, q);
    const { nq, qSlot, qw } = memo;
    const scores = new Float32Array(passages.length);
    const best = new Float64Array(nq);
    ps.forEach((ids, i) => {
      best.fill(0); // OOV tokens (zero vectors) and empty passages contribute 0
      for (const id of ids) {
        const o = this.cosRow(memo, id) * nq;
        const rows = memo.rows;
        for (let k = 0; k < nq; k++) if (rows[o + k] > best[k]) best[k] = rows[o + k];
      }
      let total = 0;
      for (let a = 0; a < qSlot.length; a++) total += qw[a] * best[qSlot[a]];
      scores[i] = total;
    });
    return scores;
  }

  /** The memo of `query` (most recently used last; the oldest dropped beyond QUERY_MEMO_ROWS rows in all). */
  private queryMemo(query: string, q: readonly number[]): QueryMemo {
    let m = this.memos.get(query);
    if (m) {
      this.memos.delete(query);
      this.memos.set(query, m);
      return m;
    }
    const qDistinct = [...new Set(q)];
    const slotOf = new Map<number, number>(qDistinct.map((id, k) => [id, k]));
    m = {
      nq: qDistinct.length,
      qv: qDistinct.map((id) => this.vectors.get(id) as Float32Array),
      qSlot: q.map((id) => slotOf.get(id) as number),
      qw: q.map((id) => (this.weighting === 'zipf' ? zipfWeight(id) : 1)),
      slot: new Map<number, number>(),
      rows: new Float64Array(qDistinct.length * 256),
    };
    this.memos.set(query, m);
    return m;
  }

  /** Row index of token `id`'s cosines with the memo's query tokens, computed on first use. */
  private cosRow(m: QueryMemo, id: number): number {
    const known = m.slot.get(id);
    if (known !== undefined) return known;
    const r = m.slot.size;
    if ((r + 1) * m.nq > m.rows.length) {
      const grown = new Float64Array(m.rows.length * 2);
      grown.set(m.rows);
      m.rows = grown;
    }
    const y = this.vectors.get(id) as Float32Array;
    const dim = this.embedder.dim;
    for (let k = 0; k < m.nq; k++) {
      const x = m.qv[k];
      let dot = 0;
      for (let d = 0; d < dim; d++) dot += x[d] * y[d];
      m.rows[r * m.nq + k] = dot;
    }
    m.slot.set(id, r);
    this.memoRows++;
    if (this.memoRows > QUERY_MEMO_ROWS) this.evictOldest();
    return r;
  }

  private evictOldest(): void {
    while (this.memoRows > QUERY_MEMO_ROWS / 2 && this.memos.size > 1) {
      const [oldest, m] = this.memos.entries().next().value as [string, QueryMemo];
      this.memos.delete(oldest);
      this.memoRows -= m.slot.size;
    }
  }

  private distinctIds(text: string): number[] {
    let ids = this.passageIds.get(text);
    if (!ids) {
      if (this.passageIds.size >= PASSAGE_CACHE_SIZE) this.passageIds.clear();
      ids = [...new Set(this.embedder.tokenizer.idsOf(text))];
      this.passageIds.set(text, ids);
    }
    return ids;
  }

  /** Embeds each not-yet-seen token id as a one-token row: the unit word vector (zero for [UNK]). */
  private async ensureVectors(lists: ReadonlyArray<readonly number[]>): Promise<void> {
    const missing = [...new Set(lists.flat())].filter((id) => !this.vectors.has(id));
    if (missing.length === 0) return;
    const m = await this.embedder.embedRows(missing.map((id) => ({ ids: [id], typeIds: [0], contentTokens: 1 })));
    const dim = this.embedder.dim;
    missing.forEach((id, i) => this.vectors.set(id, m.slice(i * dim, (i + 1) * dim)));
  }

  dispose(): Promise<void> {
    return this.ownsEmbedder ? this.embedder.dispose() : Promise.resolve();
  }
}
