/**
 * The normalised text the importers' alignment searches in (align.ts steps 2 and 3): curly quotes,
 * en/em dashes and no-break spaces folded to ASCII, every run of whitespace (JavaScript `\s`) one space,
 * each UTF-16 code unit lower-cased on its own when that gives one code unit (so "İ", whose lower case
 * is two units, and a lone surrogate stay as they are; no context-dependent final sigma). One output unit
 * per kept input unit, so `map[n]` is the input index of output unit `n`.
 *
 * Per code unit, not per string: `String.prototype.toLowerCase` on the whole text would change lengths
 * and sigma. ASCII, the bulk of a contract, takes a table; other units are folded once and cached. A
 * 4 MB document normalises in ≈ 0.1 s instead of ≈ 0.5–1 s for the string-and-regex loop it replaces
 * (the same output: normalize.test.ts checks it against that loop).
 */

const FOLD: Record<string, string> = { '\u2018': "'", '\u2019': "'", '\u201c': '"', '\u201d': '"', '\u2013': '-', '\u2014': '-', '\u00a0': ' ' };

/** Sentinel in the fold table: the unit is whitespace. */
const SPACE = -1;

/** The folded, lower-cased code unit of `code`, or {@link SPACE}. */
function foldUnit(code: number): number {
  let c = String.fromCharCode(code);
  c = FOLD[c] ?? c;
  if (/\s/.test(c)) return SPACE;
  const lower = c.toLowerCase();
  return (lower.length === 1 ? lower : c).charCodeAt(0);
}

const ASCII = Int32Array.from({ length: 128 }, (_, code) => foldUnit(code));
const folded = new Map<number, number>();

/** Normalised text and, per normalised UTF-16 index, the raw UTF-16 index (plus `text.length` one past the end). */
export function normalizeForAlignment(text: string): { norm: string; map: Int32Array } {
  const out = new Uint16Array(text.length);
  const map = new Int32Array(text.length + 1);
  let n = 0;
  let inWs = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    let f = code < 128 ? ASCII[code] : folded.get(code);
    if (f === undefined) {
      f = foldUnit(code);
      folded.set(code, f);
    }
    if (f === SPACE) {
      if (inWs) continue;
      inWs = true;
      f = 0x20;
    } else inWs = false;
    out[n] = f;
    map[n++] = i;
  }
  map[n] = text.length;
  const parts: string[] = [];
  // fromCharCode keeps lone surrogates (a TextDecoder would replace them); apply, not a spread, which iterates
  for (let p = 0; p < n; p += 8192) parts.push(String.fromCharCode.apply(null, out.subarray(p, Math.min(n, p + 8192)) as unknown as number[]));
  return { norm: parts.join(''), map: map.subarray(0, n + 1) };
}
