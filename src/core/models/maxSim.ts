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
import { type OnnxEmbedder, openOnnxEmbedder } from './embedder';
import type { ModelOptions, PairScorer } from './types';

/** Passage texts whose token ids are kept (cleared when full; only a speed-up). */
const PASSAGE_CACHE_SIZE = 20_000;

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
 */
export async function createMaxSimReranker(opts: ModelOptions, dir: string = staticGloveDir(), weighting: MaxSimWeighting = 'zipf'): Promise<PairScorer> {
  const embedder = await openOnnxEmbedder(dir, opts);
  return new MaxSimReranker(embedder, weighting);
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

  constructor(
    private readonly embedder: OnnxEmbedder,
    private readonly weighting: MaxSimWeighting,
  ) {
    this.id = `maxsim-baseline/${weighting}:${embedder.id}`;
  }

  async score(query: string, passages: readonly string[]): Promise<Float32Array> {
    const tok = this.embedder.tokenizer;
    const q = tok.idsOf(query);
    const ps = passages.map((p) => this.distinctIds(p));
    await this.ensureVectors([q, ...ps]);
    const dim = this.embedder.dim;
    // Memoised per query: the cosine of each distinct query token with each distinct token id of the
    // pool is computed once (passages of one pool share most of their words), with the same float64
    // accumulation order over d as the direct double loop, so every cosine — and hence every max and
    // every sum below — is bit-identical to computing it per passage (max is exact, the sum over the
    // query tokens keeps its order a = 0, 1, …).
    const qDistinct = [...new Set(q)];
    const slotOf = new Map<number, number>(qDistinct.map((id, k) => [id, k]));
    const qSlot = q.map((id) => slotOf.get(id) as number);
    const qv = qDistinct.map((id) => this.vectors.get(id) as Float32Array);
    const qw = q.map((id) => (this.weighting === 'zipf' ? zipfWeight(id) : 1));
    const nq = qDistinct.length;
    const cosRow = new Map<number, Float64Array>();
    for (const ids of ps) {
      for (const id of ids) {
        if (cosRow.has(id)) continue;
        const y = this.vectors.get(id) as Float32Array;
        const row = new Float64Array(nq);
        for (let k = 0; k < nq; k++) {
          const x = qv[k];
          let dot = 0;
          for (let d = 0; d < dim; d++) dot += x[d] * y[d];
          row[k] = dot;
        }
        cosRow.set(id, row);
      }
    }
    const scores = new Float32Array(passages.length);
    const best = new Float64Array(nq);
    ps.forEach((ids, i) => {
      best.fill(0); // OOV tokens (zero vectors) and empty passages contribute 0
      for (const id of ids) {
        const row = cosRow.get(id) as Float64Array;
        for (let k = 0; k < nq; k++) if (row[k] > best[k]) best[k] = row[k];
      }
      let total = 0;
      for (let a = 0; a < q.length; a++) total += qw[a] * best[qSlot[a]];
      scores[i] = total;
    });
    return scores;
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
    return this.embedder.dispose();
  }
}
