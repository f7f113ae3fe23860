/**
 * The quality order and the Pareto front of the verdict (SPEC §9). Both use only deterministic
 * inputs (metric means and the deterministic cost), never measured time.
 */

/** What the quality order compares. */
export interface QualityKey {
  id: string;
  /** Mean of the primary metric Q. */
  quality: number;
  mrr: number;
  /** Mean nDCG at the run's k. */
  ndcg: number;
  /** Deterministic cost per query (src/core/ranking/cost.ts `total`). */
  cost: number;
}

const desc = (x: number): number => (Number.isFinite(x) ? -x : Infinity);
const asc = (x: number): number => (Number.isFinite(x) ? x : Infinity);

/**
 * Comparator of the quality order: Q descending, then MRR descending, then nDCG@k descending, then
 * deterministic cost ascending, then id ascending (code-unit order). A NaN metric sorts last.
 * Negative when `a` ranks before `b`; 0 only for equal ids.
 */
export function compareQuality(a: QualityKey, b: QualityKey): number {
  return (
    desc(a.quality) - desc(b.quality) ||
    desc(a.mrr) - desc(b.mrr) ||
    desc(a.ndcg) - desc(b.ndcg) ||
    asc(a.cost) - asc(b.cost) ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

/**
 * Pareto front over quality (maximised), context cost and compute cost (both minimised): a point is
 * on the front when no other point is ≥ in quality and ≤ in both costs with one strictly better.
 * Identical points are all on the front. Returned in input order.
 */
export function paretoFront(points: ReadonlyArray<{ quality: number; context: number; compute: number }>): boolean[] {
  return points.map((p, i) =>
    !points.some(
      (o, j) =>
        j !== i &&
        o.quality >= p.quality &&
        o.context <= p.context &&
        o.compute <= p.compute &&
        (o.quality > p.quality || o.context < p.context || o.compute < p.compute),
    ),
  );
}
