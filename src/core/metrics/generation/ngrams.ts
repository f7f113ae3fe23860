/** N-gram counting shared by the BLEU/GLEU/ROUGE implementations. Tokens are compared exactly. */

const SEP = '\u0000';

/** Multiset of the n-grams of `tokens` (keys join tokens with U+0000). Empty when tokens.length < n. */
export function ngramCounts(tokens: readonly string[], n: number): Map<string, number> {
  const out = new Map<string, number>();
  for (let i = 0; i + n <= tokens.length; i++) {
    const key = tokens.slice(i, i + n).join(SEP);
    out.set(key, (out.get(key) ?? 0) + 1);
  }
  return out;
}

/** Multiset of all n-grams with minN ≤ n ≤ maxN (NLTK `everygrams`). Keys are prefixed by n. */
export function everygramCounts(tokens: readonly string[], minN: number, maxN: number): Map<string, number> {
  const out = new Map<string, number>();
  for (let n = minN; n <= maxN; n++) {
    for (const [k, v] of ngramCounts(tokens, n)) out.set(`${n}${SEP}${k}`, v);
  }
  return out;
}

export function sumCounts(m: ReadonlyMap<string, number>): number {
  let s = 0;
  for (const v of m.values()) s += v;
  return s;
}

/** Σ min(a[g], b[g]) — the size of the multiset intersection (Python `Counter & Counter`). */
export function overlapCount(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): number {
  let s = 0;
  for (const [k, v] of a) {
    const w = b.get(k);
    if (w !== undefined) s += Math.min(v, w);
  }
  return s;
}

/** Python `str.split()` with no argument: split on runs of Unicode whitespace, no empty strings. */
export function pySplit(s: string): string[] {
  return s.split(PY_WS).filter((t) => t !== '');
}

/** Characters Python's `str.isspace()` accepts (U+001C–U+001F are whitespace to Python). */
// eslint-disable-next-line no-control-regex
export const PY_WS = /[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/;

/** Python `str.rstrip()` with no argument. */
export function pyRstrip(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/, '');
}
