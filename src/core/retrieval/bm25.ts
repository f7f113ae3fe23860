/**
 * `bm25` retriever (SPEC §5.1): BM25 over chunk text, scored exactly as MiniSearch 7 scores it
 * (MiniSearch stays the reference: a property test checks every score bit for bit against it).
 *
 * Scoring is MiniSearch 7's `calcBM25Score` with `bm25: { k: 1.2, b: 0.75, d: 0 }`:
 *
 *   score(q, D) = Σ_{t ∈ q} IDF(t) · tf(t, D)·(k1 + 1) / (tf(t, D) + k1·(1 − b + b·|D| / avgdl))
 *   IDF(t)      = ln(1 + (N − n(t) + 0.5) / (n(t) + 0.5))
 *
 * i.e. Okapi BM25 (Robertson & Zaragoza 2009) with the non-negative "Lucene" IDF. `d = 0` turns off
 * MiniSearch's default BM25+ lower bound (its default is d = 0.5, b = 0.7). Two MiniSearch
 * specifics, kept on purpose and pinned by the unit tests:
 * - |D| (and avgdl) is the number of DISTINCT tokens of the chunk, not the total token count;
 * - a query term repeated in the query counts once per occurrence.
 * MiniSearch's `search` also multiplies each score by the number of distinct query terms matched;
 * the score here is that product divided by the same factor again (the plain sum above, rounded
 * exactly as `MiniSearch.search(q).score / queryTerms.length`).
 * N = number of chunks, n(t) = chunks containing t, tf = occurrences of t in the chunk.
 *
 * Tokens: `Intl.Segmenter` (locale `en`, granularity `word`) segments with `isWordLike`, lower-cased
 * with `String.prototype.toLowerCase` (locale-independent). ICU segments Chinese and Japanese by
 * dictionary, so CJK text without spaces gets word tokens. No stemming, no stop words, exact match
 * only (no prefix or fuzzy matching).
 */
import { performance } from 'node:perf_hooks';
import type { Chunk } from '../types';
import { SpanproofError } from '../errors';
import { compareHits, type Hit } from './hit';

/** BM25 parameters of SPEC §5.1, in MiniSearch's names (k = k1). */
export const BM25_PARAMS = Object.freeze({ k: 1.2, b: 0.75, d: 0 });

const segmenter = new Intl.Segmenter('en', { granularity: 'word' });

/** ASCII whitespace: every Unicode word-break rule (UAX #29) breaks on both sides of these. */
const ASCII_SPACE = /[ \t\n\r\f\v]+/;
/** Memo of the word tokens of whitespace-free pieces (most pieces are repeated words); bounded. */
const pieceTokens = new Map<string, readonly string[]>();
const MEMO_LIMIT = 200_000;

function segmentPiece(piece: string): readonly string[] {
  const out: string[] = [];
  for (const s of segmenter.segment(piece)) if (s.isWordLike) out.push(s.segment.toLowerCase());
  return out;
}

/**
 * The BM25 tokens of `text`: word-like `Intl.Segmenter` segments, lower-cased, in order.
 *
 * Speed: V8's segmenter costs several µs per segment and gets slower per character on long strings
 * (a 230k-character string took 29 s), so the text is cut at ASCII whitespace and each distinct
 * piece is segmented once (memoised; pieces are mostly repeated words: 165k pieces, 24k distinct on
 * the FastAPI docs). This gives the same tokens as segmenting the whole text, because no UAX #29
 * word-break rule joins across whitespace or looks past it (WB3a–WB3d; WB4 only attaches marks/ZWJ
 * to the character before them); a property test checks the equivalence on random text with CJK,
 * emoji, marks and punctuation.
 */
export function bm25Tokens(text: string): string[] {
  const out: string[] = [];
  for (const piece of text.split(ASCII_SPACE)) {
    if (!piece) continue;
    let t = pieceTokens.get(piece);
    if (!t) {
      t = segmentPiece(piece);
      if (pieceTokens.size >= MEMO_LIMIT) pieceTokens.clear();
      pieceTokens.set(piece, t);
    }
    for (const x of t) out.push(x);
  }
  return out;
}

/** Reference tokenizer: the whole text through one `Intl.Segmenter` pass (used by the tests). */
export function bm25TokensUnsplit(text: string): string[] {
  return [...segmentPiece(text)];
}

const JSON_KIND = 'spanproof-bm25';
/** 2: Spanproof's own postings (1 was MiniSearch's JSON). */
const JSON_VERSION = 2;

/** One term's postings: chunk indexes ascending and the term's count in each. */
interface Postings { docs: number[]; tfs: number[] }

/** Options of {@link Bm25Index.buildAsync}. */
export interface Bm25BuildOptions {
  /**
   * Called between chunks about every `yieldMs` ms of work; awaited (so the host can send progress,
   * let the event loop run and throw to cancel — the build then stops with that error).
   */
  onYield?: () => Promise<void>;
  /** ms of synchronous work between two `onYield` calls (default 25). */
  yieldMs?: number;
}

/**
 * A BM25 index over one chunker's chunks. Immutable once built.
 *
 * Own postings (term → ascending chunk indexes with term counts) instead of MiniSearch's radix tree:
 * on the FastAPI grid MiniSearch's build + search were half the CPU of a warm run (radix-tree
 * inserts, a Map and a result object per matched chunk per query term). The arithmetic is MiniSearch
 * 7's, operation for operation, so every score is bit-identical to `MiniSearch.search(...).score /
 * queryTerms.length` (a property test compares both on random corpora and queries):
 * - avgdl is MiniSearch's running mean `(avg·i + |Dᵢ|)/(i + 1)` over chunks in index order;
 * - one clause per query token, `calcBM25Score` verbatim, clauses summed in query-token order;
 * - the final `(sum·q)/q` with q = number of distinct query tokens matched (MiniSearch multiplies,
 *   {@link Bm25Index.search} used to divide).
 */
export class Bm25Index {
  private constructor(
    private readonly postings: Map<string, Postings>,
    /** Distinct tokens per chunk (MiniSearch's field length). */
    private readonly lengths: Float64Array,
    private readonly avgLength: number,
    readonly size: number,
  ) {}

  /** Indexes `chunks[i].text` under id i (synchronously). */
  static build(chunks: readonly Chunk[]): Bm25Index {
    const b = new Builder(chunks.length);
    for (let i = 0; i < chunks.length; i++) b.add(i, chunks[i].text);
    return new Bm25Index(b.postings, b.lengths, b.avg, chunks.length);
  }

  /**
   * As {@link Bm25Index.build}, but hands the event loop back through `opts.onYield` about every
   * `yieldMs` ms, so progress keeps flowing and a cancel is seen during a long build.
   */
  static async buildAsync(chunks: readonly Chunk[], opts: Bm25BuildOptions = {}): Promise<Bm25Index> {
    const b = new Builder(chunks.length);
    const every = opts.yieldMs ?? 25;
    let last = performance.now();
    for (let i = 0; i < chunks.length; i++) {
      b.add(i, chunks[i].text);
      if (opts.onYield && performance.now() - last > every) {
        await opts.onYield();
        last = performance.now();
      }
    }
    return new Bm25Index(b.postings, b.lengths, b.avg, chunks.length);
  }

  /**
   * The `n` best chunks for `query` (only chunks sharing at least one token with it), best first;
   * equal scores in ascending chunk index, i.e. (source, start) order. Deterministic. A query with no
   * word tokens returns [].
   */
  search(query: string, n: number): Hit[] {
    if (n <= 0) return [];
    const { k, b, d } = BM25_PARAMS;
    const N = this.size;
    const avg = this.avgLength;
    const terms = bm25Tokens(query);
    const acc = new Map<number, number>();
    const quality = new Map<number, number>();
    const seenTerm = new Set<string>();
    for (const term of terms) {
      const p = this.postings.get(term);
      const first = !seenTerm.has(term);
      seenTerm.add(term);
      if (!p) continue;
      const matching = p.docs.length;
      // MiniSearch 7 calcBM25Score, verbatim (same operation order, so the same doubles).
      const invDocFreq = Math.log(1 + (N - matching + 0.5) / (matching + 0.5));
      for (let j = 0; j < matching; j++) {
        const doc = p.docs[j];
        const termFreq = p.tfs[j];
        const raw = invDocFreq * (d + termFreq * (k + 1) / (termFreq + k * (1 - b + b * this.lengths[doc] / avg)));
        const prev = acc.get(doc);
        acc.set(doc, prev === undefined ? raw : prev + raw);
        if (first) quality.set(doc, (quality.get(doc) ?? 0) + 1);
      }
    }
    const hits: Hit[] = [];
    for (const [doc, sum] of acc) {
      const q = quality.get(doc) || 1;
      hits.push({ chunk: doc, score: (sum * q) / q });
    }
    hits.sort(compareHits);
    return hits.length > n ? hits.slice(0, n) : hits;
  }

  /** A JSON-serialisable form for the disk cache ({@link Bm25Index.fromJSON} reads it back). */
  toJSON(): unknown {
    const terms: Array<[string, number[], number[]]> = [];
    for (const [t, p] of this.postings) terms.push([t, p.docs, p.tfs]);
    return { kind: JSON_KIND, version: JSON_VERSION, size: this.size, avgLength: this.avgLength, lengths: [...this.lengths], terms };
  }

  /** Rebuilds an index from {@link Bm25Index.toJSON}. Throws SpanproofError('bad-input') on a foreign or damaged object. */
  static fromJSON(json: unknown): Bm25Index {
    const j = json as { kind?: unknown; version?: unknown; size?: unknown; avgLength?: unknown; lengths?: unknown; terms?: unknown } | null;
    if (!j || j.kind !== JSON_KIND || j.version !== JSON_VERSION || typeof j.size !== 'number') {
      throw new SpanproofError('bad-input', 'not a Spanproof BM25 index (wrong kind or version).', { fix: 'Delete the cache entry; it is rebuilt.' });
    }
    const damaged = () => new SpanproofError('bad-input', 'damaged BM25 index.', { fix: 'Delete the cache entry; it is rebuilt.' });
    if (typeof j.avgLength !== 'number' || !Array.isArray(j.lengths) || j.lengths.length !== j.size || !Array.isArray(j.terms)) throw damaged();
    const postings = new Map<string, Postings>();
    for (const e of j.terms as unknown[]) {
      if (!Array.isArray(e) || typeof e[0] !== 'string' || !Array.isArray(e[1]) || !Array.isArray(e[2]) || e[1].length !== e[2].length) throw damaged();
      for (const x of e[1] as unknown[]) if (typeof x !== 'number' || !(x >= 0 && x < j.size)) throw damaged();
      postings.set(e[0], { docs: e[1] as number[], tfs: e[2] as number[] });
    }
    return new Bm25Index(postings, Float64Array.from(j.lengths as number[]), j.avgLength, j.size);
  }
}

/** Accumulates postings chunk by chunk, in index order (the order MiniSearch's running avgdl needs). */
class Builder {
  readonly postings = new Map<string, Postings>();
  readonly lengths: Float64Array;
  avg = 0;
  constructor(size: number) {
    this.lengths = new Float64Array(size);
  }

  add(i: number, text: string): void {
    const tf = new Map<string, number>();
    for (const t of bm25Tokens(text)) tf.set(t, (tf.get(t) ?? 0) + 1);
    const length = tf.size;
    this.lengths[i] = length;
    // MiniSearch 7 addFieldLength with count = i: avg' = (avg·i + length)/(i + 1).
    const averageFieldLength = this.avg || 0;
    this.avg = (averageFieldLength * i + length) / (i + 1);
    for (const [t, c] of tf) {
      let p = this.postings.get(t);
      if (!p) this.postings.set(t, (p = { docs: [], tfs: [] }));
      p.docs.push(i);
      p.tfs.push(c);
    }
  }
}
