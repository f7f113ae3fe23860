/**
 * From an external retriever's returned items to passages of the corpus (issue #18): an item with
 * offsets is checked (the source is a corpus document; integers with 0 ≤ start < end ≤ its length, so
 * `text.slice(start, end)` exists and is not empty); an item with `text` is aligned to its document
 * with the importers' alignment (src/core/align `alignExcerpt`) and used when the similarity is at
 * least {@link MIN_ALIGNMENT_SIMILARITY} — below it the item counts as not retrieved, and the item's
 * record says so. Unknown sources, bad offsets and repeats of a passage are not retrieved either and
 * are reported. An item not counted keeps its rank as an empty passage `[0, 0)` (it covers nothing,
 * but the retriever did fill that slot, so later items are not moved up into the top k). Offsets are
 * UTF-16 code units.
 */
import { alignExcerpt } from '../align';
import type { Chunk, CorpusDocument } from '../types';
import type { RawItem } from './protocol';

/** Below this difflib ratio an aligned `text` item is not counted as retrieved (the importers' threshold). */
export const MIN_ALIGNMENT_SIMILARITY = 0.9;

/** Why a returned item was not used. */
export type DropReason = 'unknown-source' | 'bad-offsets' | 'low-similarity' | 'not-found' | 'duplicate';

export interface DroppedItem {
  /** 1-based rank in the retriever's list. */
  rank: number;
  source: string;
  reason: DropReason;
  /** For `text` items: the best alignment's similarity (0–1), when one was found. */
  similarity?: number;
  detail?: string;
}

export interface MappedPassages {
  /** One passage per returned item (empty `[0, 0)` for an item not counted), sorted by (source, start, end, rank): the item's own "index". */
  chunks: Chunk[];
  /** Indices into `chunks`, in the retriever's rank order, with the score it gave (else N − rank). */
  ranked: Array<{ chunk: number; score: number }>;
  dropped: DroppedItem[];
  /** Similarities of the aligned `text` items that were used, by 1-based rank. */
  aligned: Array<{ rank: number; similarity: number }>;
}

/**
 * Maps one question's returned items (rank order) to passages of `byName`. At most `limit` items are
 * read (the rest are ignored: N was asked for). Never throws on bad items: they are dropped and listed.
 */
export function mapReturnedItems(items: readonly RawItem[], byName: ReadonlyMap<string, CorpusDocument>, limit: number): MappedPassages {
  const dropped: DroppedItem[] = [];
  const aligned: MappedPassages['aligned'] = [];
  const spans: Array<{ source: string; start: number; end: number; score: number; rank: number; used: boolean }> = [];
  const seen = new Set<string>();
  const head = items.slice(0, limit);
  const drop = (d: DroppedItem, score: number) => {
    dropped.push(d);
    // The item keeps its rank as an empty passage: what the retriever put in a slot still fills it.
    spans.push({ source: d.source, start: 0, end: 0, score, rank: d.rank, used: false });
  };
  head.forEach((it, i) => {
    const rank = i + 1;
    const score = it.score ?? head.length - i;
    const doc = byName.get(it.source);
    if (!doc) return drop({ rank, source: it.source, reason: 'unknown-source' }, score);
    let start: number;
    let end: number;
    if ('text' in it) {
      const a = alignExcerpt(doc.text, it.text);
      if (a && 'refused' in a) return drop({ rank, source: it.source, reason: 'not-found', detail: a.detail }, score);
      if (!a) return drop({ rank, source: it.source, reason: 'not-found', detail: 'no part of the text occurs in the document' }, score);
      if (a.similarity < MIN_ALIGNMENT_SIMILARITY) return drop({ rank, source: it.source, reason: 'low-similarity', similarity: a.similarity }, score);
      ({ start, end } = a);
      aligned.push({ rank, similarity: a.similarity });
    } else {
      ({ start, end } = it);
      if (!(start < end && end <= doc.text.length)) {
        return drop({ rank, source: it.source, reason: 'bad-offsets', detail: `[${start}, ${end}) is not a non-empty range of the document's ${doc.text.length} code units` }, score);
      }
    }
    const key = `${it.source}\u0000${start}\u0000${end}`;
    if (seen.has(key)) return drop({ rank, source: it.source, reason: 'duplicate' }, score);
    seen.add(key);
    spans.push({ source: it.source, start, end, score, rank, used: true });
  });
  const order = spans.map((_, i) => i).sort((a, b) => cmp(spans[a], spans[b]) || spans[a].rank - spans[b].rank);
  const chunkOf = new Map<number, number>();
  const chunks = order.map((si, ci) => {
    chunkOf.set(si, ci);
    const s = spans[si];
    const id = s.used ? `${s.source}#${s.start}-${s.end}` : `${s.source}#not-retrieved@${s.rank}`;
    return { id, source: s.source, start: s.start, end: s.end, text: s.used ? byName.get(s.source)!.text.slice(s.start, s.end) : '' };
  });
  return { chunks, ranked: spans.map((s, si) => ({ chunk: chunkOf.get(si)!, score: s.score })), dropped, aligned };
}

function cmp(a: { source: string; start: number; end: number }, b: { source: string; start: number; end: number }): number {
  return a.source < b.source ? -1 : a.source > b.source ? 1 : a.start - b.start || a.end - b.end;
}

/** What questions.jsonl keeps of an external item (`external` key): returned count, dropped items, alignments. */
export interface ExternalItemInfo {
  returned: number;
  dropped: DroppedItem[];
  aligned: Array<{ rank: number; similarity: number }>;
}
