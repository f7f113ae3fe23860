/**
 * Whitespace- and quote-insensitive search, used ONLY to re-anchor a drafted quote that a model
 * copied with changed spacing or typographic quotes to the exact document text — the written
 * evidence is then the document's own characters, verified by the §3.2 resolver, and marked
 * (`reanchored`). Ground-truth resolution itself never uses this.
 *
 * Normal form: every run of whitespace (`\s`, which includes line breaks, tabs, U+00A0 and the other
 * Unicode spaces) becomes one space; ‘ ’ ‚ ‛ become ' and “ ” „ ‟ become "; the quote is trimmed.
 * Nothing else changes (no case folding, no dashes, no ellipses). Offsets are UTF-16 code units.
 */

const SINGLE = /[\u2018\u2019\u201a\u201b]/g;
const DOUBLE = /[\u201c\u201d\u201e\u201f]/g;

/** The normal form of a quote (trimmed). */
export function looseForm(s: string): string {
  return s.replace(/\s+/g, ' ').replace(SINGLE, "'").replace(DOUBLE, '"').trim();
}

/** What the normal form changed between the model's `quote` and the document's `exact`. */
export function looseDifferences(quote: string, exact: string): Array<'whitespace' | 'quotes'> {
  const ws = (s: string) => s.replace(/\s+/g, ' ').trim();
  const qt = (s: string) => s.replace(SINGLE, "'").replace(DOUBLE, '"');
  const out: Array<'whitespace' | 'quotes'> = [];
  if (qt(quote) !== qt(exact)) out.push('whitespace');
  if (ws(quote) !== ws(exact)) out.push('quotes');
  return out;
}

/** `text` in normal form (not trimmed) with `raw[i]` = the raw offset of normal-form code unit i. */
function looseText(text: string): { norm: string; raw: Int32Array } {
  const raw = new Int32Array(text.length + 1);
  const parts: string[] = [];
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    if (/\s/.test(text[i])) {
      raw[n++] = i;
      parts.push(' ');
      while (i + 1 < text.length && /\s/.test(text[i + 1])) i++;
    } else {
      raw[n++] = i;
      parts.push(text[i]);
    }
  }
  raw[n] = text.length;
  const norm = parts.join('').replace(SINGLE, "'").replace(DOUBLE, '"');
  return { norm, raw: raw.subarray(0, n + 1) };
}

/**
 * Every raw span `[start, end)` of `text` whose normal form equals the normal form of `quote`, in
 * order. A match never starts or ends inside a whitespace run (the quote's normal form is trimmed).
 */
export function looseOccurrences(quote: string, text: string): Array<{ start: number; end: number }> {
  const q = looseForm(quote);
  if (!q) return [];
  const { norm, raw } = looseText(text);
  const out: Array<{ start: number; end: number }> = [];
  for (let i = norm.indexOf(q); i >= 0; i = norm.indexOf(q, i + 1)) {
    out.push({ start: raw[i], end: raw[i + q.length - 1] + 1 });
  }
  return out;
}
