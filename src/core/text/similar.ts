/**
 * "Did you mean …?" for a mistyped name: the nearest of the known names by edit distance (insertions,
 * deletions, substitutions and swaps of two neighbours each count 1; letter case is ignored).
 */

/** The optimal-string-alignment distance between `a` and `b` (Levenshtein plus adjacent swaps). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/**
 * The known name nearest to `name` when it is near enough to be a typo — at most 40 % of the
 * name's length apart (at least 1, fewer edits than the name has letters, so `x` does not suggest
 * `k`), and not the name itself; the first of equally near ones.
 */
export function closestName(name: string, known: readonly string[]): string | undefined {
  const w = name.toLowerCase();
  const limit = Math.min(Math.max(1, Math.floor(w.length * 0.4)), w.length - 1);
  let best: { name: string; d: number } | undefined;
  for (const k of known) {
    if (k === name) continue;
    const d = editDistance(w, k.toLowerCase());
    if (d <= limit && (!best || d < best.d)) best = { name: k, d };
  }
  return best?.name;
}
