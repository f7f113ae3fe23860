/**
 * The `recursive` chunker (SPEC §4): LangChain's `RecursiveCharacterTextSplitter` semantics
 * (langchain_text_splitters/character.py, `_split_text` + `_merge_splits`, with
 * `keep_separator="end"` and `strip_whitespace=True`), computed on offsets instead of strings.
 *
 * - Separators `["\n\n", "\n", ". ", " ", ""]`; the first one that occurs in a piece splits it, the
 *   separator staying at the end of the preceding piece.
 * - Line-ending-aware: `"\n"` matches CRLF, LF or a lone CR; `"\n\n"` matches two of them, so CRLF
 *   files split at paragraphs. `""` splits into code points (a CRLF pair counts as one unit), so no
 *   surrogate pair or CRLF pair is ever cut.
 * - Pieces shorter than `size` are merged greedily up to `size`, keeping at most `overlap` units of
 *   whole trailing pieces as the start of the next chunk; a piece of `size` or more is split again
 *   with the remaining separators.
 * Lengths are UTF-16 code units (LangChain's default `len` counts code points; SPEC §4 says units).
 */
import { EOL, type Range } from './ranges';

const SEPARATORS = ['\n\n', '\n', '. ', ' ', ''] as const;

function separatorPattern(sep: string): RegExp | null {
  switch (sep) {
    case '\n\n':
      return new RegExp(EOL + EOL, 'g');
    case '\n':
      return new RegExp(EOL, 'g');
    case '':
      return null;
    default:
      return new RegExp(sep.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'g');
  }
}

const PATTERNS = SEPARATORS.map(separatorPattern);

/** Splits `r` after every match of `re` (separator kept with the preceding piece); empty pieces dropped. */
function splitAfterMatches(text: string, r: Range, re: RegExp): Range[] {
  const sub = text.slice(r.start, r.end);
  const out: Range[] = [];
  let prev = 0;
  re.lastIndex = 0;
  for (const m of sub.matchAll(re)) {
    const cut = m.index + m[0].length;
    if (cut > prev) out.push({ start: r.start + prev, end: r.start + cut });
    prev = cut;
  }
  if (prev < sub.length) out.push({ start: r.start + prev, end: r.end });
  return out;
}

/** Splits `r` into code points, a CRLF pair being one unit. */
function splitIntoUnits(text: string, r: Range): Range[] {
  const out: Range[] = [];
  let i = r.start;
  while (i < r.end) {
    const c = text.charCodeAt(i);
    let w = 1;
    if (i + 1 < r.end) {
      const d = text.charCodeAt(i + 1);
      if ((c === 13 && d === 10) || (c >= 0xd800 && c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff)) w = 2;
    }
    out.push({ start: i, end: i + w });
    i += w;
  }
  return out;
}

/**
 * LangChain `_merge_splits` on contiguous pieces: emits `[first.start, last.end)` of each merged run.
 * With `keep_separator` the join separator is empty, so lengths simply add up.
 */
function mergePieces(pieces: readonly Range[], size: number, overlap: number, out: Range[]): void {
  let head = 0; // index of the first piece of the current run
  let count = 0; // pieces in the current run: pieces[head .. head+count)
  let total = 0;
  for (let i = 0; i < pieces.length; i++) {
    const len = pieces[i].end - pieces[i].start;
    if (total + len > size && count > 0) {
      out.push({ start: pieces[head].start, end: pieces[head + count - 1].end });
      while (count > 0 && (total > overlap || total + len > size)) {
        total -= pieces[head].end - pieces[head].start;
        head++;
        count--;
      }
    }
    if (count === 0) head = i;
    count++;
    total += len;
  }
  if (count > 0) out.push({ start: pieces[head].start, end: pieces[head + count - 1].end });
}

function splitRecursive(text: string, r: Range, first: number, size: number, overlap: number, out: Range[]): void {
  let idx = SEPARATORS.length - 1;
  for (let i = first; i < SEPARATORS.length; i++) {
    const re = PATTERNS[i];
    if (re === null) {
      idx = i;
      break;
    }
    re.lastIndex = 0;
    if (re.test(text.slice(r.start, r.end))) {
      idx = i;
      break;
    }
  }
  const re = PATTERNS[idx];
  const pieces = re === null ? splitIntoUnits(text, r) : splitAfterMatches(text, r, re);
  const isLast = idx === SEPARATORS.length - 1;
  let good: Range[] = [];
  for (const p of pieces) {
    if (p.end - p.start < size) {
      good.push(p);
      continue;
    }
    if (good.length > 0) {
      mergePieces(good, size, overlap, out);
      good = [];
    }
    if (isLast) out.push(p); // a single unit (≤ 2 code units) cannot be split further
    else splitRecursive(text, p, idx + 1, size, overlap, out);
  }
  if (good.length > 0) mergePieces(good, size, overlap, out);
}

/**
 * Raw (untrimmed) ranges of the `recursive` split of `text.slice(r.start, r.end)`, in document
 * order. `r`'s ends must be safe boundaries; every returned boundary is one. `size` ≥ 1 and
 * 0 ≤ `overlap` < `size` (UTF-16 code units) — validated by the caller.
 */
export function recursiveRanges(text: string, r: Range, size: number, overlap: number): Range[] {
  const out: Range[] = [];
  if (r.end > r.start) splitRecursive(text, r, 0, size, overlap, out);
  return out;
}
