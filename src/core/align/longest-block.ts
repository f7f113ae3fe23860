/**
 * The longest common block of a short string `a` (an excerpt) and a long one `b` (a document) in one pass
 * over `b`: the block difflib's `SequenceMatcher(None, a, b, autojunk=False).find_longest_match(0,
 * len(a), 0, len(b))` returns (CPython Lib/difflib.py), without its cost. difflib's loop visits every
 * occurrence in `b` of every element of `a` — |a| × |b| / (alphabet size) map updates, ≈ 0.5 s for a
 * 1,000-character excerpt in an 80 kB contract and 2.6 s in 390 kB (issue #16 item 13) — and builds its
 * `b2j` index over all of `b`. Here a suffix automaton of `a` (Blumer et al. 1985; the "longest common
 * substring" walk, e.g. Crochemore & Hancart, *Automata for matching patterns*, 1997) is walked along `b`:
 * at each position of `b` it holds the longest suffix of `b[..j]` that occurs in `a`, in O(|a|) to build
 * and amortised O(|b|) to walk (each step of `b` takes one transition plus suffix links, and the links
 * taken never exceed the transitions taken).
 *
 * Equal to difflib's answer, tie-breaking included: difflib keeps the first block of the greatest size
 * in the order of its loops (i ascending, then j ascending), i.e. the smallest `i`, then the smallest
 * `j`. Every block of the greatest size K ends at some position of `b` where the longest common suffix
 * has length exactly K; its smallest start in `a` is the first occurrence of that suffix in `a`, which
 * the automaton records per state (`firstEnd`, copied to clones). With no junk difflib's extension loops
 * change nothing (a longest block cannot be extended), so they are not needed here.
 *
 * Elements are **code points**, as difflib compares Python `str` items (and {@link SequenceMatcher}
 * does); the result is given in **UTF-16 code units** of `a` and `b`, so it can be sliced directly.
 * Checked against {@link SequenceMatcher.findLongestMatch} by a property test (longest-block.test.ts).
 */

/** A common block: `a.slice(aStart, aStart + aLength) === b.slice(bStart, bStart + aLength)` (UTF-16 code units). */
export interface CommonBlock {
  aStart: number;
  bStart: number;
  /** Length in UTF-16 code units (the same text in both strings). */
  length: number;
  /** Length in code points: difflib's `size`. */
  size: number;
  /** Steps of the walk over `b`: one per code point of `b` plus one per suffix link followed (≤ 2 × code points of `b`). */
  steps: number;
}

/** Suffix automaton of `a` over code points: per state, its longest length, suffix link, transitions and the end (code point index) of its first occurrence. */
function suffixAutomaton(cps: readonly number[]): { len: number[]; link: number[]; next: Array<Map<number, number>>; firstEnd: number[] } {
  const len = [0];
  const link = [-1];
  const next: Array<Map<number, number>> = [new Map()];
  const firstEnd = [-1];
  let last = 0;
  cps.forEach((c, pos) => {
    const cur = len.length;
    len.push(len[last] + 1); link.push(-1); next.push(new Map()); firstEnd.push(pos);
    let p = last;
    while (p !== -1 && !next[p].has(c)) { next[p].set(c, cur); p = link[p]; }
    if (p === -1) link[cur] = 0;
    else {
      const q = next[p].get(c)!;
      if (len[p] + 1 === len[q]) link[cur] = q;
      else {
        const clone = len.length;
        len.push(len[p] + 1); link.push(link[q]); next.push(new Map(next[q])); firstEnd.push(firstEnd[q]);
        while (p !== -1 && next[p].get(c) === q) { next[p].set(c, clone); p = link[p]; }
        link[q] = clone; link[cur] = clone;
      }
    }
    last = cur;
  });
  return { len, link, next, firstEnd };
}

/**
 * The longest common block of `a` and `b` as difflib's `find_longest_match(0, len(a), 0, len(b))` (autojunk
 * off, no junk) finds it — the greatest size, then the smallest start in `a`, then in `b` — in O(|a| + |b|).
 * `{aStart: 0, bStart: 0, length: 0, size: 0}` when no element is shared (difflib's `(0, 0, 0)`).
 */
export function longestCommonBlock(a: string, b: string): CommonBlock {
  const aCps = Array.from(a, (ch) => ch.codePointAt(0)!);
  const { len, link, next, firstEnd } = suffixAutomaton(aCps);
  // UTF-16 offset of each code point of `a` (and one past the end), to report offsets in code units
  const aUnit: number[] = [];
  let u = 0;
  for (const c of aCps) { aUnit.push(u); u += c > 0xffff ? 2 : 1; }
  aUnit.push(u);
  // ASCII transitions in a dense table (the bulk of a contract), others in the maps
  const ascii = new Int32Array(len.length * 128).fill(-1);
  next.forEach((m, st) => { for (const [c, to] of m) if (c < 128) ascii[st * 128 + c] = to; });
  const step = (st: number, c: number): number => (c < 128 ? ascii[st * 128 + c] : next[st].get(c) ?? -1);
  let state = 0;
  let matched = 0; // code points of the current common suffix
  let best = { aCp: 0, bEndUnit: 0, size: 0 };
  let steps = 0;
  for (let j = 0; j < b.length;) {
    const c = b.codePointAt(j)!;
    j += c > 0xffff ? 2 : 1;
    steps++;
    let to = step(state, c);
    while (to === -1) {
      state = link[state];
      steps++;
      if (state === -1) break;
      matched = len[state];
      to = step(state, c);
    }
    if (state === -1) { state = 0; matched = 0; continue; }
    state = to;
    matched++;
    if (matched < best.size) continue;
    const aCp = firstEnd[state] - matched + 1;
    if (matched > best.size || aCp < best.aCp) best = { aCp, bEndUnit: j, size: matched };
  }
  if (best.size === 0) return { aStart: 0, bStart: 0, length: 0, size: 0, steps };
  const aStart = aUnit[best.aCp];
  const length = aUnit[best.aCp + best.size] - aStart;
  return { aStart, bStart: best.bEndUnit - length, length, size: best.size, steps };
}
