/**
 * The context cost of a result list in tokens (SPEC §7.1), part of stage "score & attribute": the
 * union of the list's chunks, merged per document into maximal intervals, each tokenised once with
 * the embedder's tokenizer — memoised by document hash and interval, across runs when the host passes
 * a persistent memo (src/core/cache TokenCountCache).
 */
import type { Chunk, CorpusDocument } from '../types';

/** A token counter (the embedder's `countTokens`). */
export interface TokenCounter {
  countTokens(text: string): number;
}

/** Token counts keyed `<document SHA-256>:<start>:<end>`. */
export interface TokenMemo {
  get(key: string): number | undefined;
  set(key: string, n: number): void;
}

/** Maximal intervals of `ivs` (sorted in place by start). */
function merge(ivs: Array<[number, number]>): Array<[number, number]> {
  ivs.sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const [a, b] of ivs) {
    const last = merged[merged.length - 1];
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else merged.push([a, b]);
  }
  return merged;
}

/**
 * A function giving the tokens of a result list's text (overlapping chunks counted once).
 * @param documents the corpus (every chunk's source must be one of them).
 */
export function contextTokenCounter(documents: readonly CorpusDocument[], counter: TokenCounter, memo: TokenMemo = new Map<string, number>()): (list: readonly Chunk[]) => number {
  const docOf = new Map(documents.map((d) => [d.source, d]));
  return (list) => {
    const bySource = new Map<string, Array<[number, number]>>();
    for (const c of list) {
      let l = bySource.get(c.source);
      if (!l) bySource.set(c.source, (l = []));
      l.push([c.start, c.end]);
    }
    let total = 0;
    for (const [source, ivs] of bySource) {
      const doc = docOf.get(source)!;
      for (const [a, b] of merge(ivs)) {
        const key = `${doc.sha256}:${a}:${b}`;
        let n = memo.get(key);
        if (n === undefined) memo.set(key, (n = counter.countTokens(doc.text.slice(a, b))));
        total += n;
      }
    }
    return total;
  };
}
