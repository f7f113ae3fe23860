/**
 * Top-N selection without sorting all scores: a bounded binary min-heap whose root is the worst of
 * the N best hits seen so far. O(m log N) for m scores; only the N survivors are sorted at the end.
 */
import { compareHits, type Hit } from './hit';

/**
 * Collects the N best (score, chunk) pairs under {@link compareHits}. Offer chunks in ascending
 * chunk order (as every scan here does) and a later chunk with an equal score never displaces an
 * earlier one, which gives the (source, start) tie-break for free.
 */
export class TopN {
  private readonly scores: Float64Array;
  private readonly chunks: Int32Array;
  private size = 0;
  /** Score of the current worst survivor once the heap is full; -Infinity before. */
  threshold = -Infinity;

  constructor(readonly n: number) {
    this.scores = new Float64Array(Math.max(0, n));
    this.chunks = new Int32Array(Math.max(0, n));
  }

  /** True when (score, chunk) ranks before (other, otherChunk) — i.e. is "better". */
  private static better(s: number, c: number, os: number, oc: number): boolean {
    return s > os || (s === os && c < oc);
  }

  /** Offers one hit. NaN scores are ignored. */
  push(chunk: number, score: number): void {
    if (this.n <= 0 || Number.isNaN(score)) return;
    const { scores, chunks } = this;
    if (this.size < this.n) {
      // sift up
      let i = this.size++;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!TopN.better(scores[p], chunks[p], score, chunk)) break; // parent is worse or equal: stop
        scores[i] = scores[p];
        chunks[i] = chunks[p];
        i = p;
      }
      scores[i] = score;
      chunks[i] = chunk;
      if (this.size === this.n) this.threshold = scores[0];
      return;
    }
    if (!TopN.better(score, chunk, scores[0], chunks[0])) return;
    // replace the root and sift down
    const size = this.size;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= size) break;
      const r = l + 1;
      let w = l; // the worse child
      if (r < size && TopN.better(scores[l], chunks[l], scores[r], chunks[r])) w = r;
      if (!TopN.better(score, chunk, scores[w], chunks[w])) break; // new item is worse than the worse child
      scores[i] = scores[w];
      chunks[i] = chunks[w];
      i = w;
    }
    scores[i] = score;
    chunks[i] = chunk;
    this.threshold = scores[0];
  }

  /** The survivors, best first. */
  result(): Hit[] {
    const out: Hit[] = [];
    for (let i = 0; i < this.size; i++) out.push({ chunk: this.chunks[i], score: this.scores[i] });
    return out.sort(compareHits);
  }
}
