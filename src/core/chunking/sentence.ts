/**
 * The `sentence` chunker (SPEC §4): `Intl.Segmenter` sentences packed greedily while the chunk (from
 * the first sentence's first non-whitespace unit to the last one's last) stays within `size` UTF-16
 * code units. Each new chunk starts with the previous chunk's last sentence (one-sentence overlap)
 * when that sentence and the next one fit together; otherwise the overlap is dropped. A sentence
 * longer than `size` is split with `recursive` (size `size`, overlap `min(100, ⌊size/2⌋)`) and never
 * shares a chunk.
 */
import { recursiveRanges } from './recursive';
import type { Range } from './ranges';
import { sentenceRanges } from './sentences';
import { splitOverlap } from './params';

export function sentenceChunkRanges(text: string, size: number): Range[] {
  return packSentences(text, sentenceRanges(text), size);
}

/** Greedy packing of trimmed sentence ranges (shared with nothing else; exported for tests). */
export function packSentences(text: string, sentences: readonly Range[], size: number): Range[] {
  const out: Range[] = [];
  let first = -1; // index of the current chunk's first sentence, -1 = empty
  let last = -1;
  const flush = (): void => {
    if (first >= 0) out.push({ start: sentences[first].start, end: sentences[last].end });
    first = last = -1;
  };
  for (let i = 0; i < sentences.length; i++) {
    const s = sentences[i];
    if (s.end - s.start > size) {
      flush();
      out.push(...recursiveRanges(text, s, size, splitOverlap(size)));
      continue;
    }
    if (first >= 0 && s.end - sentences[first].start > size) {
      const prev = last;
      flush();
      if (s.end - sentences[prev].start <= size) first = last = prev; // one-sentence overlap
    }
    if (first < 0) first = i;
    last = i;
  }
  flush();
  return out;
}
