/**
 * The `fixed` chunker (SPEC §4): windows of `size` UTF-16 code units starting every
 * `size − overlap` units. A window end (or next start) that would fall inside a surrogate pair or a
 * CRLF pair is moved one unit back, so windows never split either.
 */
import { safeBoundaryAtOrBefore, type Range } from './ranges';

/**
 * Raw windows over `text`: `[0, size)`, `[size−overlap, 2·size−overlap)`, … up to `text.length`,
 * each boundary nudged back to a safe one. Requires `size ≥ 1`, `0 ≤ overlap < size`.
 */
export function fixedRanges(text: string, size: number, overlap: number): Range[] {
  const out: Range[] = [];
  const n = text.length;
  let start = 0;
  while (start < n) {
    const end = Math.min(n, safeBoundaryAtOrBefore(text, Math.min(n, start + size), start));
    out.push({ start, end });
    if (end >= n) break;
    let next = safeBoundaryAtOrBefore(text, end - overlap, start);
    if (next <= start || next > end) next = end; // guarantees progress for tiny windows
    start = next;
  }
  return out;
}
