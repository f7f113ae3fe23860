/**
 * The `semantic` chunker (SPEC §4), after Greg Kamradt's "5 Levels of Text Splitting" (semantic
 * chunking, as in LangChain `SemanticChunker` with `breakpoint_threshold_type="percentile"`):
 * 1. sentences from `Intl.Segmenter` (trimmed, whitespace-only dropped);
 * 2. window i = sentences `i − w … i + w` (w = `windowSentences`, clamped at the document's ends),
 *    taken as the document text from the first one's start to the last one's end;
 * 3. all windows of the document embedded in one `embed` call (L2-normalised rows);
 * 4. distance dᵢ = 1 − cos(windowᵢ, windowᵢ₊₁);
 * 5. threshold = the `percentile`-th percentile of the document's distances with linear
 *    interpolation between closest ranks (NumPy's default `method="linear"`: rank = p/100·(n−1));
 *    a cut after sentence i where dᵢ > threshold (strictly greater);
 * 6. bounds: walking left to right, a piece shorter than `minSize` absorbs the following piece while
 *    the union stays within `maxSize`; a final piece still shorter than `minSize` joins the previous
 *    one when the union fits in `maxSize`; a piece longer than `maxSize` is split with `recursive`
 *    at `maxSize` (overlap `min(100, ⌊maxSize/2⌋)`).
 * Sizes are UTF-16 code units of the trimmed piece.
 */
import { SpanproofError } from '../errors';
import type { Range } from './ranges';
import { recursiveRanges } from './recursive';
import { sentenceRanges } from './sentences';
import { splitOverlap } from './params';
import type { ChunkerParams } from '../settings';

/** Embeds texts: returns n×dim row-major L2-normalised vectors. */
export type EmbedFn = (texts: readonly string[]) => Promise<Float32Array>;

/** `{minSize, maxSize, percentile, windowSentences}` (sizes in UTF-16 code units). */
export type SemanticParams = ChunkerParams['semantic'];

/**
 * The p-th percentile (0 ≤ p ≤ 100) of `values` with linear interpolation (NumPy
 * `np.percentile(values, p)` default): sorted x, h = (n−1)·p/100, x[⌊h⌋] + (h−⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋]).
 * `NaN` for an empty list.
 */
export function percentileLinear(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const x = [...values].sort((a, b) => a - b);
  const h = ((x.length - 1) * p) / 100;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, x.length - 1);
  return x[lo] + (h - lo) * (x[hi] - x[lo]);
}

/** Cosine distances between consecutive rows of an n×dim matrix of L2-normalised vectors. */
export function neighbourDistances(vectors: Float32Array, n: number, dim: number): number[] {
  const out: number[] = [];
  for (let i = 0; i + 1 < n; i++) {
    let dot = 0;
    const a = i * dim;
    const b = a + dim;
    for (let j = 0; j < dim; j++) dot += vectors[a + j] * vectors[b + j];
    out.push(1 - dot);
  }
  return out;
}

/** Groups sentences into pieces at the cut points (cut after sentence i when distances[i] > threshold). */
export function piecesAtBreakpoints(sentences: readonly Range[], distances: readonly number[], percentile: number): Range[] {
  if (sentences.length === 0) return [];
  const threshold = percentileLinear(distances, percentile);
  const out: Range[] = [];
  let first = 0;
  for (let i = 0; i < distances.length; i++) {
    if (distances[i] > threshold) {
      out.push({ start: sentences[first].start, end: sentences[i].end });
      first = i + 1;
    }
  }
  out.push({ start: sentences[first].start, end: sentences[sentences.length - 1].end });
  return out;
}

/** Step 6: merge pieces shorter than `minSize`, split pieces longer than `maxSize`. */
export function enforceSizeBounds(text: string, pieces: readonly Range[], minSize: number, maxSize: number): Range[] {
  const merged: Range[] = [];
  let acc: Range | null = null;
  for (const p of pieces) {
    if (acc && acc.end - acc.start < minSize && p.end - acc.start <= maxSize) acc = { start: acc.start, end: p.end };
    else {
      if (acc) merged.push(acc);
      acc = { ...p };
    }
  }
  if (acc) {
    const prev = merged[merged.length - 1];
    if (prev && acc.end - acc.start < minSize && acc.end - prev.start <= maxSize) merged[merged.length - 1] = { start: prev.start, end: acc.end };
    else merged.push(acc);
  }
  const out: Range[] = [];
  for (const m of merged) {
    if (m.end - m.start > maxSize) out.push(...recursiveRanges(text, m, maxSize, splitOverlap(maxSize)));
    else out.push(m);
  }
  return out;
}

/** Raw ranges of the `semantic` chunker for one document (one `embed` call for all its windows). */
export async function semanticChunkRanges(text: string, params: SemanticParams, embed: EmbedFn, dim: number, source: string): Promise<Range[]> {
  const sentences = sentenceRanges(text);
  const n = sentences.length;
  if (n === 0) return [];
  let distances: number[] = [];
  if (n > 1) {
    const w = params.windowSentences;
    const windows = sentences.map((_, i) => text.slice(sentences[Math.max(0, i - w)].start, sentences[Math.min(n - 1, i + w)].end));
    const vectors = await embed(windows);
    if (!(vectors instanceof Float32Array) || vectors.length !== n * dim) {
      throw new SpanproofError('model', `the embedder returned ${vectors?.length} numbers for ${n} sentence windows × ${dim} dimensions.`, {
        file: source,
        fix: 'check that the embedding model returns one L2-normalised vector per input text.',
      });
    }
    distances = neighbourDistances(vectors, n, dim);
  }
  return enforceSizeBounds(text, piecesAtBreakpoints(sentences, distances, params.percentile), params.minSize, params.maxSize);
}
