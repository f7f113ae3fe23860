/**
 * Issue #16 item 13: fuzzy excerpt alignment grew ~L³ (a 2,000-character excerpt: 287 s). An excerpt that
 * only a fuzzy alignment could place and that is longer than MAX_FUZZY_CHARS is refused with a sentence
 * saying so ("not aligned: too long"); exact and whitespace/case-insensitive matches of any length still
 * align; a fuzzy excerpt under the limit aligns (its work is bounded by a counted budget, so the result is
 * deterministic). The document is built here; expected offsets follow from its construction.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { alignExcerpt, MAX_FUZZY_CHARS, type Alignment } from '../../../../src/core/align';

const words = (n: number, seed: number) => Array.from({ length: n }, (_, i) => `w${(i * 7919 + seed) % 1009}x`).join(' ');
const typo = (s: string) => s.replace(/x/g, (c, i: number) => (i % 37 === 0 ? 'y' : c)); // a changed letter every ~37 characters

test('a long excerpt that needs fuzzy alignment is refused as too long; exact and normalised ones of any length align', () => {
  const body = words(400, 3); // ~2,400 characters
  const text = `Intro.\n${body}\nOutro.`;
  const long = typo(body.slice(0, 2000));
  assert.ok(long.length > MAX_FUZZY_CHARS && !text.includes(long));
  const r = alignExcerpt(text, long);
  assert.ok(r && 'refused' in r, 'refused');
  assert.equal(r.refused, 'too-long');
  assert.match(r.detail, /^not aligned: too long for fuzzy alignment \(2000 > 1000 characters/);
  const exact = alignExcerpt(text, body.slice(0, 2000)) as Alignment;
  assert.deepEqual([exact.method, exact.start, exact.end], ['exact', 7, 2007]);
  const spaced = alignExcerpt(text, body.slice(0, 2000).replace(/ /g, '  ')) as Alignment;
  assert.deepEqual([spaced.method, spaced.start, spaced.end], ['normalized', 7, 2007]);
});

test('a fuzzy excerpt under the limit still aligns to its place', () => {
  const body = words(200, 11);
  const text = `Intro.\n${body}\nOutro.`;
  const ex = typo(body.slice(100, 500));
  const a = alignExcerpt(text, ex) as Alignment;
  assert.equal(a.method, 'fuzzy');
  assert.ok(Math.abs(a.start - 107) <= 8 && Math.abs(a.end - 507) <= 8, `[${a.start}, ${a.end})`);
  assert.ok(a.similarity > 0.9);
});
