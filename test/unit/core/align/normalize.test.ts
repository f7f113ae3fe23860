/**
 * normalizeForAlignment equals the per-character definition it replaced (align.ts before this change:
 * fold quotes/dashes/no-break space, one space per whitespace run, lower-case a unit when that keeps
 * one unit) on random strings of any UTF-16 units — whitespace of every kind, the folded characters,
 * "İ" (two-unit lower case), "Σ" (final sigma), astral characters and lone surrogates.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { normalizeForAlignment } from '../../../../src/core/align/normalize';

const FOLD: Record<string, string> = { '\u2018': "'", '\u2019': "'", '\u201c': '"', '\u201d': '"', '\u2013': '-', '\u2014': '-', '\u00a0': ' ' };

/** The definition: the loop align.ts had. */
function reference(text: string): { norm: string; map: number[] } {
  let norm = '';
  const map: number[] = [];
  let inWs = false;
  for (let i = 0; i < text.length; i++) {
    let c = text[i];
    c = FOLD[c] ?? c;
    if (/\s/.test(c)) {
      if (inWs) continue;
      inWs = true;
      c = ' ';
    } else inWs = false;
    norm += c.toLowerCase().length === 1 ? c.toLowerCase() : c;
    map.push(i);
  }
  map.push(text.length);
  return { norm, map };
}

const special = ['\u2018', '\u2019', '\u201c', '\u201d', '\u2013', '\u2014', '\u00a0', ' ', '\t', '\r\n', '\u2028', '\u3000', '\ufeff', 'İ', 'Σ', 'ΑΣ ', 'É', '😀', '\ud800', '\udc00', 'A', 'z'];
const texts = fc.array(fc.oneof(fc.constantFrom(...special), fc.string({ unit: 'binary', maxLength: 4 }), fc.string({ unit: 'grapheme-ascii', maxLength: 6 })), { maxLength: 40 }).map((xs) => xs.join(''));

test('normalizeForAlignment = the per-character loop it replaced', () => {
  fc.assert(fc.property(texts, (text) => {
    const got = normalizeForAlignment(text);
    const want = reference(text);
    assert.equal(got.norm, want.norm);
    assert.deepEqual(Array.from(got.map), want.map);
  }), { numRuns: 2000, seed: 16 });
});

test('normalizeForAlignment: every unit of the BMP on its own', () => {
  for (let code = 0; code < 0x10000; code++) {
    const c = String.fromCharCode(code);
    assert.equal(normalizeForAlignment(`${c}${c}`).norm, reference(`${c}${c}`).norm, `U+${code.toString(16)}`);
  }
});
