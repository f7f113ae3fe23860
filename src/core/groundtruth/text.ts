/**
 * Line-ending-aware text helpers for resolution. `\r\n`, a lone `\r` and `\n` are all one line break.
 * All offsets are UTF-16 code units.
 */

/** 1-based line number of UTF-16 offset `offset` in `text`; `\r\n`, `\r` and `\n` each count as one break. */
export function lineOf(text: string, offset: number): number {
  let line = 1;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) line++;
    else if (c === 13 && text.charCodeAt(i + 1) !== 10) line++; // lone \r; the \r of \r\n counts at its \n
  }
  // An offset between \r and \n is still on the line the \r ends.
  return line;
}

/** Sorted start offsets of every line (line n starts at `starts[n-1]`); for many look-ups in one text. */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 13) {
      if (text.charCodeAt(i + 1) === 10) i++;
      starts.push(i + 1);
    } else if (c === 10) starts.push(i + 1);
  }
  return starts;
}

/** 1-based line of `offset` given `lineStarts(text)` (binary search). */
export function lineAt(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

/** EOL-normalised text (`\r\n` and `\r` → `\n`) with a map back to raw offsets. */
export interface NormalisedText {
  /** The normalised string. */
  text: string;
  /** `raw[i]` = raw offset of normalised code unit i; `raw[text.length]` = raw length. */
  raw: Int32Array;
}

/** Normalise line endings to `\n`, keeping the map from normalised to raw UTF-16 offsets. */
export function normaliseEol(s: string): NormalisedText {
  if (s.indexOf('\r') < 0) {
    const raw = new Int32Array(s.length + 1);
    for (let i = 0; i <= s.length; i++) raw[i] = i;
    return { text: s, raw };
  }
  const raw = new Int32Array(s.length + 1);
  const parts: string[] = [];
  let n = 0;
  let runStart = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 13) {
      parts.push(s.slice(runStart, i), '\n');
      raw[n++] = i;
      if (s.charCodeAt(i + 1) === 10) i++;
      runStart = i + 1;
    } else {
      raw[n++] = i;
    }
  }
  parts.push(s.slice(runStart));
  raw[n] = s.length;
  return { text: parts.join(''), raw: raw.subarray(0, n + 1) };
}

/** Just the normalised string (for quotes and contexts). */
export function normaliseEolString(s: string): string {
  return s.replace(/\r\n?/g, '\n');
}
