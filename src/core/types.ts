/**
 * The vocabulary shared by every part of Spanproof (SPEC §1). All offsets are UTF-16 code units
 * (JavaScript string indices), half-open `[start, end)`.
 */
import type { CHUNKER_IDS, RETRIEVER_IDS } from './settings/schema';

/** A file of the corpus. `text` is the UTF-8 decoded file with a leading BOM removed, nothing else changed. */
export interface CorpusDocument {
  /** POSIX path relative to the corpus root, e.g. `tutorial/query-params.md`. */
  readonly source: string;
  readonly text: string;
  /** Hex SHA-256 of `text` encoded as UTF-8 (the BOM-less text, not the raw file). */
  readonly sha256: string;
  /** Size of the file on disk in bytes. */
  readonly bytes: number;
}

/** A half-open character range `[start, end)` of one document, in UTF-16 code units. */
export interface Span {
  readonly source: string;
  readonly start: number;
  readonly end: number;
}

/** A ranked chunk of a result list or a candidate pool: its span and the score that ordered it. */
export interface RankedSpan extends Span {
  readonly score: number;
}

/** A chunk produced by a chunker; invariant `document.text.slice(start, end) === text`. */
export interface Chunk extends Span {
  /** Stable id: `<source>#<start>-<end>`. */
  readonly id: string;
  readonly text: string;
}

/** The built-in chunker ids of the default grid (SPEC §4; the list is src/core/settings CHUNKER_IDS). */
export type ChunkerId = (typeof CHUNKER_IDS)[number];
/** The retriever ids of the default grid (SPEC §5.1; the list is src/core/settings RETRIEVER_IDS). */
export type RetrieverId = (typeof RETRIEVER_IDS)[number];

/** The failure causes of SPEC §8, in precedence order. */
export const CAUSES = [
  'chunker-destroyed',
  'chunker-degraded',
  'passage-split',
  'retriever-missed',
  'reranker-demoted',
  'ranked-too-low',
] as const;
export type Cause = (typeof CAUSES)[number];
