/**
 * Offset arithmetic shared by every chunker: safe cut points (never inside a surrogate pair or a
 * CRLF pair), line-ending-aware separators, trimming of ranges, and the conversion of raw ranges into
 * the final `Chunk` list. All offsets are UTF-16 code units into the document text.
 */
import type { Chunk } from '../types';

/** A half-open range `[start, end)` of a document's text, in UTF-16 code units. */
export interface Range {
  start: number;
  end: number;
}

/**
 * One line ending: CRLF, LF, or a lone CR. A CR followed by LF is never matched on its own, so a
 * cut after a match never falls between `\r` and `\n`.
 */
export const EOL = String.raw`(?:\r\n|\r(?!\n)|\n)`;

/**
 * Whitespace as JavaScript's `\s` and `String.prototype.trim` define it (also what coverage is
 * measured against): TAB, LF, VT, FF, CR, SPACE, U+00A0, U+1680, U+2000–U+200A, U+2028, U+2029,
 * U+202F, U+205F, U+3000, U+FEFF. Zero-width U+200B/U+200C/U+200D are not whitespace.
 */
export function isWhitespaceCode(c: number): boolean {
  if (c < 128) return c === 32 || (c >= 9 && c <= 13);
  return (
    c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 ||
    c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
  );
}

/**
 * True when offset `i` may be a chunk boundary: it is not between a high and a low surrogate and not
 * between `\r` and `\n`. `0` and `text.length` are always safe.
 */
export function isSafeBoundary(text: string, i: number): boolean {
  if (i <= 0 || i >= text.length) return true;
  const a = text.charCodeAt(i - 1);
  const b = text.charCodeAt(i);
  if (a === 13 && b === 10) return false;
  return !(a >= 0xd800 && a <= 0xdbff && b >= 0xdc00 && b <= 0xdfff);
}

/**
 * The nearest safe boundary at or before `i` (moving back one unit always suffices: both unsafe
 * cases are two-unit pairs). Returns `i + 1` instead when moving back would reach `floor` or below,
 * so callers that need progress get it.
 */
export function safeBoundaryAtOrBefore(text: string, i: number, floor: number): number {
  if (isSafeBoundary(text, i)) return i;
  return i - 1 > floor ? i - 1 : i + 1;
}

/** Shrinks `r` to exclude surrounding whitespace; `null` when nothing but whitespace is left. */
export function trimRange(text: string, r: Range): Range | null {
  let { start, end } = r;
  while (start < end && isWhitespaceCode(text.charCodeAt(start))) start++;
  while (end > start && isWhitespaceCode(text.charCodeAt(end - 1))) end--;
  return start < end ? { start, end } : null;
}

/** Length of `r` after trimming (0 when whitespace-only). */
export function trimmedLength(text: string, r: Range): number {
  const t = trimRange(text, r);
  return t ? t.end - t.start : 0;
}

/** The id of a chunk: `<source>#<start>-<end>`. */
export function chunkId(source: string, start: number, end: number): string {
  return `${source}#${start}-${end}`;
}

/**
 * Turns raw ranges into the final chunk list: each trimmed of surrounding whitespace, whitespace-only
 * ranges dropped, sorted by (start, end), exact duplicates removed.
 */
export function rangesToChunks(source: string, text: string, ranges: readonly Range[]): Chunk[] {
  const trimmed: Range[] = [];
  for (const r of ranges) {
    const t = trimRange(text, r);
    if (t) trimmed.push(t);
  }
  trimmed.sort((a, b) => a.start - b.start || a.end - b.end);
  const out: Chunk[] = [];
  let prev: Range | undefined;
  for (const r of trimmed) {
    if (prev && prev.start === r.start && prev.end === r.end) continue;
    prev = r;
    out.push({ id: chunkId(source, r.start, r.end), source, start: r.start, end: r.end, text: text.slice(r.start, r.end) });
  }
  return out;
}
