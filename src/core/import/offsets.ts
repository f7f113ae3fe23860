/**
 * Offsets at the import boundary. Python strings index by code point; Spanproof (SPEC §1) indexes by
 * UTF-16 code unit. A character outside the Basic Multilingual Plane (emoji, rare CJK) is one code
 * point and two UTF-16 code units, so every offset after it shifts by one.
 */

/**
 * A converter from code-point offsets of `text` to UTF-16 offsets. `cp` may be `0 … codePointCount`
 * (an end offset may equal the length). Returns `undefined` for an offset outside the text.
 * Linear set-up once per text, O(1) per lookup; identity when the text has no surrogate pairs.
 */
export function codePointToUtf16(text: string): (cp: number) => number | undefined {
  if (!/[\ud800-\udfff]/.test(text)) return (cp) => (Number.isInteger(cp) && cp >= 0 && cp <= text.length ? cp : undefined);
  const map: number[] = [];
  let i = 0;
  while (i < text.length) {
    map.push(i);
    const c = text.charCodeAt(i);
    i += c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
  }
  map.push(text.length);
  return (cp) => (Number.isInteger(cp) && cp >= 0 && cp < map.length ? map[cp] : undefined);
}

/** The code-point offset of UTF-16 offset `u` of `text` (for exports to Python tools). */
export function utf16ToCodePoint(text: string, u: number): number {
  let n = 0;
  for (let i = 0; i < u && i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (!(c >= 0xdc00 && c <= 0xdfff && i > 0 && (text.charCodeAt(i - 1) & 0xfc00) === 0xd800)) n++;
  }
  return n;
}
