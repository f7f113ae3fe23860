/**
 * Reciprocal Rank Fusion (Cormack, Clarke & Büttcher, "Reciprocal rank fusion outperforms Condorcet
 * and individual rank learning methods", SIGIR 2009): score(d) = Σ_lists 1 / (k + rank_list(d)),
 * ranks 1-based, a list that does not contain d contributes nothing. SPEC §5.1 uses k = 60.
 */
import { compareHits, type Hit } from './hit';

/**
 * Fuses ranked lists (each best first; their own scores are ignored, only positions count) and cuts
 * the fused list to `n`. A chunk listed twice in one list counts at its first (best) rank only.
 * Ties of the fused score are broken by ascending chunk index.
 */
export function reciprocalRankFusion(lists: readonly (readonly Hit[])[], n: number, k = 60): Hit[] {
  const fused = new Map<number, number>();
  for (const list of lists) {
    const seen = new Set<number>();
    list.forEach((h, i) => {
      if (seen.has(h.chunk)) return;
      seen.add(h.chunk);
      fused.set(h.chunk, (fused.get(h.chunk) ?? 0) + 1 / (k + i + 1));
    });
  }
  return [...fused].map(([chunk, score]) => ({ chunk, score })).sort(compareHits).slice(0, Math.max(0, n));
}
