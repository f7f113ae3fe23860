/**
 * Python's `difflib.SequenceMatcher` (CPython Lib/difflib.py, Ratcliff/Obershelp "gestalt pattern
 * matching"), ported for `ratio()`: the same `__chain_b` (b2j index, junk purge, the "popular element"
 * autojunk heuristic for len(b) ≥ 200), `find_longest_match` (with its junk-extension loops) and
 * `get_matching_blocks` (queue order), so ratios equal CPython's to the last bit.
 *
 * Sequences are compared element-wise; strings are split into **code points** (Python `str` items).
 * `autojunk` defaults to **false** here (Pathway's judge used Python's default `true`, which makes the
 * ratio of a long label asymmetric — SEED-SYSTEMS.md P6, cpython #83430 / #76070); pass `true` to
 * reproduce Python's default.
 */

export class SequenceMatcher {
  private readonly a: readonly string[];
  private readonly b: readonly string[];
  private readonly b2j = new Map<string, number[]>();
  private readonly bjunk = new Set<string>();

  /**
   * @param a first sequence (string → code points)
   * @param b second sequence; the junk/popular analysis is done on `b`, as in difflib
   * @param isjunk difflib's `isjunk` (elements of b never matched), default none
   */
  constructor(a: string | readonly string[], b: string | readonly string[], options: { autojunk?: boolean; isjunk?: (x: string) => boolean } = {}) {
    this.a = typeof a === 'string' ? Array.from(a) : a;
    this.b = typeof b === 'string' ? Array.from(b) : b;
    const b2j = this.b2j;
    this.b.forEach((elt, i) => {
      const l = b2j.get(elt);
      if (l) l.push(i);
      else b2j.set(elt, [i]);
    });
    if (options.isjunk) {
      for (const elt of b2j.keys()) if (options.isjunk(elt)) this.bjunk.add(elt);
      for (const elt of this.bjunk) b2j.delete(elt);
    }
    const n = this.b.length;
    if (options.autojunk === true && n >= 200) {
      const ntest = Math.floor(n / 100) + 1;
      const popular: string[] = [];
      for (const [elt, idxs] of b2j) if (idxs.length > ntest) popular.push(elt);
      for (const elt of popular) b2j.delete(elt); // popular ≠ junk: not added to bjunk (difflib)
    }
  }

  /** difflib `find_longest_match(alo, ahi, blo, bhi)` → [i, j, size]. */
  findLongestMatch(alo: number, ahi: number, blo: number, bhi: number): [number, number, number] {
    const { a, b, b2j, bjunk } = this;
    let besti = alo;
    let bestj = blo;
    let bestsize = 0;
    let j2len = new Map<number, number>();
    for (let i = alo; i < ahi; i++) {
      const newj2len = new Map<number, number>();
      const js = b2j.get(a[i]);
      if (js) {
        for (const j of js) {
          if (j < blo) continue;
          if (j >= bhi) break;
          const k = (j2len.get(j - 1) ?? 0) + 1;
          newj2len.set(j, k);
          if (k > bestsize) {
            besti = i - k + 1;
            bestj = j - k + 1;
            bestsize = k;
          }
        }
      }
      j2len = newj2len;
    }
    while (besti > alo && bestj > blo && !bjunk.has(b[bestj - 1]) && a[besti - 1] === b[bestj - 1]) {
      besti--; bestj--; bestsize++;
    }
    while (besti + bestsize < ahi && bestj + bestsize < bhi && !bjunk.has(b[bestj + bestsize]) && a[besti + bestsize] === b[bestj + bestsize]) bestsize++;
    while (besti > alo && bestj > blo && bjunk.has(b[bestj - 1]) && a[besti - 1] === b[bestj - 1]) {
      besti--; bestj--; bestsize++;
    }
    while (besti + bestsize < ahi && bestj + bestsize < bhi && bjunk.has(b[bestj + bestsize]) && a[besti + bestsize] === b[bestj + bestsize]) bestsize++;
    return [besti, bestj, bestsize];
  }

  /** difflib `get_matching_blocks()` without the final sentinel: sorted [i, j, size] triples (adjacent blocks not collapsed; sizes sum the same). */
  matchingBlocks(): Array<[number, number, number]> {
    const queue: Array<[number, number, number, number]> = [[0, this.a.length, 0, this.b.length]];
    const blocks: Array<[number, number, number]> = [];
    while (queue.length) {
      const [alo, ahi, blo, bhi] = queue.pop()!;
      const x = this.findLongestMatch(alo, ahi, blo, bhi);
      const [i, j, k] = x;
      if (k) {
        blocks.push(x);
        if (alo < i && blo < j) queue.push([alo, i, blo, j]);
        if (i + k < ahi && j + k < bhi) queue.push([i + k, ahi, j + k, bhi]);
      }
    }
    return blocks.sort((p, q) => p[0] - q[0] || p[1] - q[1] || p[2] - q[2]);
  }

  /** difflib `ratio()` = 2·M / (len(a) + len(b)), 1.0 when both are empty. */
  ratio(): number {
    const total = this.a.length + this.b.length;
    if (total === 0) return 1;
    let m = 0;
    for (const [, , k] of this.matchingBlocks()) m += k;
    return (2 * m) / total;
  }
}

/** `SequenceMatcher(None, a, b, autojunk).ratio()` over code points; autojunk off unless asked. */
export function sequenceMatcherRatio(a: string, b: string, autojunk = false): number {
  return new SequenceMatcher(a, b, { autojunk }).ratio();
}
