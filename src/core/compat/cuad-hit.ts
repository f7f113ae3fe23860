/**
 * Pathway rag_evals' retrieval hit rule (integration_tests/rag_evals/evaluator.py, SEED-SYSTEMS.md
 * §B.4) as a **comparison metric** beside span coverage: for the ranked context documents, the first
 * one where max over labels of |words(label) ∩ words(doc)| / |words(label)| ≥ 0.65 is the hit; the
 * labels are the excerpts plus their concatenation joined by one space.
 *
 * Two modes:
 * - `pathway`: Pathway's numbers, quirks included — words split on a single space (case-sensitive,
 *   punctuation attached), `mean_hit` = Σ hit ranks / N with misses counting 0, `median_hit` over
 *   `filter(None, hits)` (drops rank-0 hits too; NaN when all hits are at rank 0).
 * - `fixed` (default), with P7–P12 fixed:
 *   P7 words are Unicode word segments, lowercased (line breaks, Markdown, case no longer split a hit);
 *   P8 labels with fewer than `minLabelWords` (default 3) words are not evidence ("MA", "Company");
 *      an item whose labels are all short is reported `unscorable`, not a hit;
 *   P9 `meanHitRank`/`medianHitRank` are over hits only, rank 0 included, 1-based; misses counted apart;
 *   P10 labels come from a real Python-literal parser ({@link parsePythonList}), not a quote regex;
 *   P11 empty/NaN labels are dropped (an empty label never matches a double space);
 *   P12 labels must be a list — a bare string throws instead of being iterated character by character.
 */
import { SpanproofError } from '../errors';

export interface CuadHitOptions {
  /** Default `fixed`. */
  mode?: 'pathway' | 'fixed';
  /** Overlap threshold, inclusive (Pathway `STRDIFF_MIN_SIMILARITY` = 0.65). */
  threshold?: number;
  /** `fixed` mode: labels with fewer words are ignored (P8). Default 3. */
  minLabelWords?: number;
}

const seg = new Intl.Segmenter(undefined, { granularity: 'word' });

function words(text: string, mode: 'pathway' | 'fixed'): Set<string> {
  if (mode === 'pathway') return new Set(text.split(' '));
  const out = new Set<string>();
  for (const s of seg.segment(text.normalize('NFKC').toLowerCase())) if (s.isWordLike) out.add(s.segment);
  return out;
}

/**
 * The 0-based index of the first hit among `docs` (ranked context texts), `null` for a miss, or
 * `'unscorable'` (fixed mode) when no label has `minLabelWords` words.
 * @throws SpanproofError('bad-input') when `labels` is not an array (P12).
 */
export function cuadHitIndex(labels: readonly string[], docs: readonly string[], options: CuadHitOptions = {}): number | null | 'unscorable' {
  if (!Array.isArray(labels)) throw new SpanproofError('bad-input', 'labels must be a list of excerpts, not a string (Pathway P12 iterated the characters).', { field: 'labels', fix: 'parse the cell with parsePythonList first.' });
  const mode = options.mode ?? 'fixed';
  const threshold = options.threshold ?? 0.65;
  let ls = mode === 'fixed' ? labels.filter((l) => typeof l === 'string' && l.trim() !== '' && l.toLowerCase() !== 'nan') : [...labels];
  if (ls.length > 1 || mode === 'pathway') ls = [...ls, ls.join(' ')];
  let sets = ls.map((l) => words(l, mode));
  if (mode === 'fixed') {
    sets = sets.filter((s) => s.size >= (options.minLabelWords ?? 3));
    if (!sets.length) return 'unscorable';
  }
  for (const [i, doc] of docs.entries()) {
    if (!doc) continue; // Pathway skips empty docs (keeping their index)
    const d = words(doc, mode);
    let best = 0;
    for (const s of sets) {
      let n = 0;
      for (const w of s) if (d.has(w)) n++;
      best = Math.max(best, s.size ? n / s.size : 0);
    }
    if (best >= threshold) return i;
  }
  return null;
}

export interface CuadRetrievalMetrics {
  /** Items in the denominator (Pathway: all items of the retrieval set; fixed: scorable items). */
  n: number;
  hits: number;
  misses: number;
  unscorable: number;
  mrr: number;
  /** hit@k for each requested k (Pathway reports 3 and 6), keyed `hit@3`. */
  hitAt: Record<string, number>;
  /** pathway: Σ idx / N (misses as 0); fixed: mean 1-based rank over hits (NaN without hits). */
  meanHit: number;
  /** pathway: median of the non-zero 0-based ranks (NaN if none); fixed: median 1-based rank over all hits. */
  medianHit: number;
  mode: 'pathway' | 'fixed';
}

function median(xs: number[]): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; // Python statistics.median
}

/** Aggregates hit indexes (from {@link cuadHitIndex}) the Pathway way or the fixed way. */
export function cuadRetrievalMetrics(hitIndexes: ReadonlyArray<number | null | 'unscorable'>, mode: 'pathway' | 'fixed' = 'fixed', ks: readonly number[] = [3, 6]): CuadRetrievalMetrics {
  const unscorable = hitIndexes.filter((h) => h === 'unscorable').length;
  const scored = hitIndexes.filter((h): h is number | null => h !== 'unscorable');
  const hits = scored.filter((h): h is number => h !== null);
  const n = scored.length;
  const hitAt: Record<string, number> = {};
  for (const k of ks) hitAt[`hit@${k}`] = n ? hits.filter((h) => h <= k - 1).length / n : NaN;
  const mrr = n ? hits.reduce((s, h) => s + 1 / (h + 1), 0) / n : NaN;
  const meanHit = mode === 'pathway' ? (n ? hits.reduce((s, h) => s + h, 0) / n : NaN) : (hits.length ? hits.reduce((s, h) => s + h + 1, 0) / hits.length : NaN);
  const medianHit = mode === 'pathway' ? median(hits.filter((h) => h !== 0)) : median(hits.map((h) => h + 1));
  return { n, hits: hits.length, misses: n - hits.length, unscorable, mrr, hitAt, meanHit, medianHit, mode };
}
