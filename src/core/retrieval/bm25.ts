/**
 * `bm25` retriever (SPEC §5.1): MiniSearch 7 with BM25 k1 = 1.2, b = 0.75 over chunk text. MiniSearch
 * builds, searches and serialises the index (project rule: BM25 indexing uses a well-kept library,
 * even a slower one — see docs/retrieval.md for what it costs).
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
 * {@link Bm25Index.search} divides that factor out again, so the score is the plain sum above
 * (`MiniSearch.search(q).score / queryTerms.length`).
 * N = number of chunks, n(t) = chunks containing t, tf = occurrences of t in the chunk.
 *
 * Tokens: `Intl.Segmenter` (locale `en`, granularity `word`) segments with `isWordLike`, lower-cased
 * with `String.prototype.toLowerCase` (locale-independent), given to MiniSearch as its `tokenize`
 * (and an identity `processTerm`). ICU segments Chinese and Japanese by dictionary, so CJK text
 * without spaces gets word tokens. No stemming, no stop words, exact match only (no prefix or fuzzy
 * matching).
 */
import { performance } from 'node:perf_hooks';
import type { Chunk } from '../types';
import MiniSearch from 'minisearch';
import { SpanproofError } from '../errors';
import { ASCII_WHITESPACE } from '../text/whitespace';
import { compareHits, type Hit } from './hit';

/** BM25 parameters of SPEC §5.1, in MiniSearch's names (k = k1). */
export const BM25_PARAMS = Object.freeze({ k: 1.2, b: 0.75, d: 0 });

const segmenter = new Intl.Segmenter('en', { granularity: 'word' });

/** Memo of the word tokens of whitespace-free pieces (most pieces are repeated words); bounded. */
const pieceTokens = new Map<string, readonly string[]>();
const MEMO_LIMIT = 200_000;

/**
 * A piece that is ASCII letters and digits with, at most, ASCII punctuation other than `_` before and
 * after them. UAX #29 never breaks between letters and digits (WB5, WB8–WB10) and joins punctuation
 * to a word only with a letter or digit on BOTH sides (WB6/7, WB11/12) or for `_` (ExtendNumLet,
 * WB13a/b); at the ends of a piece there is no second side, so its one word-like segment is the
 * letters and digits. Such pieces (≈ 9 in 10 on the FastAPI docs) skip `Intl.Segmenter`, whose every
 * `segment()` call also clones an ICU break iterator in native memory (≈ 1 KB each, 30k calls
 * ≈ 30 MB of RSS that stays).
 */
const ASCII_WORD = /^[!-/:-@[-^`{-~]*([A-Za-z0-9]+)[!-/:-@[-^`{-~]*$/;

function segmentPiece(piece: string): readonly string[] {
  const ascii = ASCII_WORD.exec(piece);
  if (ascii) return [ascii[1].toLowerCase()];
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
  for (const piece of text.split(ASCII_WHITESPACE)) {
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

interface Doc { id: number; text: string }

/** MiniSearch 7's `toJSON()` format version (its `serializationVersion`). */
const SERIALIZATION_VERSION = 2;

/** The fields of a MiniSearch 7 instance that its `toJSON()` reads ({@link Bm25Index.toJSONText}). */
interface MiniSearchFields {
  _index: Iterable<[string, Map<number, Map<number, number>>]>;
  _documentCount: number;
  _nextId: number;
  _documentIds: Map<number, unknown>;
  _fieldIds: Record<string, number>;
  _fieldLength: Map<number, number[]>;
  _avgFieldLength: number[];
  _storedFields: Map<number, unknown>;
  _dirtCount: number;
}

function hasMiniSearchFields(ms: Partial<MiniSearchFields>): ms is MiniSearchFields {
  return ms._index !== undefined && typeof (ms._index as Partial<Iterable<unknown>>)[Symbol.iterator] === 'function'
    && ms._documentIds instanceof Map && ms._fieldLength instanceof Map && ms._storedFields instanceof Map
    && typeof ms._documentCount === 'number' && typeof ms._nextId === 'number' && typeof ms._dirtCount === 'number'
    && Array.isArray(ms._avgFieldLength) && typeof ms._fieldIds === 'object' && ms._fieldIds !== null;
}

/** `[key, value]` pairs of integer keys in ascending key order (as JSON.stringify orders an object's integer keys). */
function ascending<V>(m: Map<number, V>): Iterable<[number, V]> {
  let prev = -1;
  for (const k of m.keys()) {
    if (!(k > prev)) return [...m].sort((a, b) => a[0] - b[0]);
    prev = k;
  }
  return m;
}

/**
 * `JSON.stringify` of `{ [fieldId]: Object.fromEntries(freqs) }` for one term (MiniSearch 7's `toJSON`
 * of a term's postings), written as text without building the objects (≈ 2.5× faster on the FastAPI
 * index: 85–105 → 30–60 ms per chunker). Keys are non-negative integers, which an object lists in
 * ascending order; chunk ids are added in ascending order, so the Map order usually is already.
 */
export function postingsJson(fieldIndex: Map<number, Map<number, number>>): string {
  let out = '{';
  let field = 0;
  for (const [fieldId, freqs] of ascending(fieldIndex)) {
    out += `${field++ ? ',' : ''}"${fieldId}":{`;
    let n = 0;
    for (const [doc, f] of ascending(freqs)) out += `${n++ ? ',' : ''}"${doc}":${JSON.stringify(f)}`;
    out += '}';
  }
  return `${out}}`;
}

/** MiniSearch options of the `bm25` retriever (the same for building and for loading from JSON). */
const OPTIONS = {
  fields: ['text'],
  storeFields: [] as string[],
  tokenize: bm25Tokens,
  processTerm: (t: string) => t,
  searchOptions: { bm25: BM25_PARAMS, prefix: false, fuzzy: false, combineWith: 'OR' as const },
  autoVacuum: false,
};

const JSON_KIND = 'spanproof-bm25';
/** 3: MiniSearch's JSON again (1 was MiniSearch's JSON, 2 Spanproof's own postings of d6088d6). */
const JSON_VERSION = 3;

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

/** A BM25 index over one chunker's chunks: a MiniSearch index whose document ids are chunk indexes. Immutable once built. */
export class Bm25Index {
  private constructor(private readonly ms: MiniSearch<Doc>, readonly size: number) {}

  /** Indexes `chunks[i].text` under id i (synchronously, `MiniSearch.add` in index order). */
  static build(chunks: readonly Chunk[]): Bm25Index {
    const ms = new MiniSearch<Doc>(OPTIONS);
    for (let i = 0; i < chunks.length; i++) ms.add({ id: i, text: chunks[i].text });
    return new Bm25Index(ms, chunks.length);
  }

  /**
   * As {@link Bm25Index.build} (same `MiniSearch.add` calls in the same order, so the same index), but
   * hands the event loop back through `opts.onYield` about every `yieldMs` ms, so progress keeps
   * flowing and a cancel is seen during a long build. (MiniSearch's own `addAllAsync` yields through
   * `setTimeout` only, which would give the host no point to send progress or throw a cancel.)
   */
  static async buildAsync(chunks: readonly Chunk[], opts: Bm25BuildOptions = {}): Promise<Bm25Index> {
    const ms = new MiniSearch<Doc>(OPTIONS);
    const every = opts.yieldMs ?? 25;
    let last = performance.now();
    for (let i = 0; i < chunks.length; i++) {
      ms.add({ id: i, text: chunks[i].text });
      if (opts.onYield && performance.now() - last > every) {
        await opts.onYield();
        last = performance.now();
      }
    }
    return new Bm25Index(ms, chunks.length);
  }

  /**
   * The `n` best chunks for `query` (only chunks sharing at least one token with it), best first;
   * equal scores in ascending chunk index, i.e. (source, start) order. Deterministic. A query with no
   * word tokens returns [].
   */
  search(query: string, n: number): Hit[] {
    if (n <= 0) return [];
    const results = this.ms.search(query);
    // MiniSearch multiplies each result's score by its number of matched query terms ("quality");
    // divide it out so the score is the plain BM25 sum above.
    const hits: Hit[] = results.map((r) => ({ chunk: r.id as number, score: r.score / (r.queryTerms.length || 1) }));
    hits.sort(compareHits);
    return hits.length > n ? hits.slice(0, n) : hits;
  }

  /**
   * A JSON-serialisable form for the disk cache: `{ kind, version, size, index }` where `index` is
   * MiniSearch's own `toJSON()` ({@link Bm25Index.fromJSON} reads it back with `MiniSearch.loadJS`).
   */
  toJSON(): unknown {
    return { kind: JSON_KIND, version: JSON_VERSION, size: this.size, index: this.ms.toJSON() };
  }

  /**
   * `JSON.stringify(this.toJSON())`, the same text, written term by term: `MiniSearch.toJSON()` first
   * builds the whole index as objects — per term an `Object.fromEntries` of its postings, whose
   * integer chunk-id keys give V8 arrays as long as the largest id — which took the worker's heap
   * from 70 to 158 MB for ≈ 2,100 chunks of the FastAPI docs (the peak RSS of a cold 24-config run).
   * Here each term's objects are garbage as soon as its text is written. Reads MiniSearch 7's own
   * fields (those `toJSON` reads); when they are not there (another MiniSearch), it is
   * `JSON.stringify(this.toJSON())` itself. A test checks the equality on generated corpora.
   */
  toJSONText(): string {
    const ms = this.ms as unknown as MiniSearchFields;
    if (!hasMiniSearchFields(ms)) return JSON.stringify(this.toJSON());
    const terms: string[] = [];
    for (const [term, fieldIndex] of ms._index) terms.push(`[${JSON.stringify(term)},${postingsJson(fieldIndex)}]`);
    // MiniSearch.toJSON's keys in its order, `index` (the terms) and `serializationVersion` last.
    const head = JSON.stringify({
      documentCount: ms._documentCount, nextId: ms._nextId, documentIds: Object.fromEntries(ms._documentIds), fieldIds: ms._fieldIds,
      fieldLength: Object.fromEntries(ms._fieldLength), averageFieldLength: ms._avgFieldLength, storedFields: Object.fromEntries(ms._storedFields), dirtCount: ms._dirtCount,
    });
    const index = `${head.slice(0, -1)},"index":[${terms.join(',')}],"serializationVersion":${SERIALIZATION_VERSION}}`;
    return `{"kind":${JSON.stringify(JSON_KIND)},"version":${JSON_VERSION},"size":${this.size},"index":${index}}`;
  }

  /**
   * Rebuilds an index from the parsed {@link Bm25Index.toJSON} object (`MiniSearch.loadJS`, which is
   * `MiniSearch.loadJSON` after its `JSON.parse`). Throws SpanproofError('bad-input') on a foreign,
   * older-format or damaged object.
   */
  static fromJSON(json: unknown): Bm25Index {
    const j = json as { kind?: unknown; version?: unknown; size?: unknown; index?: unknown } | null;
    if (!j || j.kind !== JSON_KIND || j.version !== JSON_VERSION || typeof j.size !== 'number' || typeof j.index !== 'object' || j.index === null) {
      throw new SpanproofError('bad-input', 'not a Spanproof BM25 index (wrong kind or version).', { fix: 'Delete the cache entry; it is rebuilt.' });
    }
    let ms: MiniSearch<Doc>;
    try {
      ms = MiniSearch.loadJS<Doc>(j.index as Parameters<typeof MiniSearch.loadJS>[0], OPTIONS);
    } catch (e) {
      throw new SpanproofError('bad-input', 'damaged BM25 index.', { fix: 'Delete the cache entry; it is rebuilt.', cause: e });
    }
    if (ms.documentCount !== j.size) {
      throw new SpanproofError('bad-input', `damaged BM25 index (${ms.documentCount} documents, size ${j.size}).`, { fix: 'Delete the cache entry; it is rebuilt.' });
    }
    return new Bm25Index(ms, j.size);
  }
}
