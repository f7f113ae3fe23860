/**
 * Interval arithmetic for span metrics: half-open ranges `[start, end)` of one document, lengths in
 * UTF-16 code units. Small and allocation-light because the grid calls it for every
 * question × config × rank.
 */

/**
 * A growing union of half-open intervals on one axis (one document), kept as sorted, disjoint,
 * non-adjacent runs. `add` returns how many code units were newly covered — the nDCG gain and the
 * coverage increment of SPEC §7.1 in one step.
 */
export class IntervalSet {
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  /** Total covered length (UTF-16 code units). */
  length = 0;

  /** Adds `[start, end)`; returns the number of code units that were not covered before. Empty ranges add 0. */
  add(start: number, end: number): number {
    if (end <= start) return 0;
    const s = this.starts;
    const e = this.ends;
    // First run whose end ≥ start (touching runs merge).
    let i = 0;
    while (i < e.length && e[i] < start) i++;
    let j = i;
    let covered = 0;
    let lo = start;
    let hi = end;
    while (j < s.length && s[j] <= end) {
      covered += Math.min(e[j], end) - Math.max(s[j], start) > 0 ? Math.min(e[j], end) - Math.max(s[j], start) : 0;
      if (s[j] < lo) lo = s[j];
      if (e[j] > hi) hi = e[j];
      j++;
    }
    const added = end - start - covered;
    s.splice(i, j - i, lo);
    e.splice(i, j - i, hi);
    this.length += added;
    return added;
  }

  /** Length of `[start, end)` ∩ this set. */
  overlap(start: number, end: number): number {
    let total = 0;
    for (let i = 0; i < this.starts.length; i++) {
      const a = Math.max(this.starts[i], start);
      const b = Math.min(this.ends[i], end);
      if (b > a) total += b - a;
    }
    return total;
  }

  /** The disjoint runs, sorted. */
  runs(): Array<[number, number]> {
    return this.starts.map((st, i) => [st, this.ends[i]]);
  }
}

/** Length of `[a0, a1)` ∩ `[b0, b1)` (0 when disjoint). */
export function overlapLength(a0: number, a1: number, b0: number, b1: number): number {
  const lo = a0 > b0 ? a0 : b0;
  const hi = a1 < b1 ? a1 : b1;
  return hi > lo ? hi - lo : 0;
}
