/**
 * The verification gate of drafted quotes (issue #14 §3): only quotes that resolve exactly by the
 * SPEC §3.2 rules are kept, written with offsets and a prefix/suffix that re-anchor them alone;
 * whitespace / typographic-quote variants are re-anchored to the document's own text and marked;
 * anything else is rejected with the reason (and the nearest match). Expected offsets are computed
 * from the document text in the test (indexOf), reasons from the rules.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveEvidence } from '../../../../src/core/groundtruth';
import { verifyQuote } from '../../../../src/core/draft';

const TEXT = '# Title\r\n\r\nThe quick brown fox jumps over the lazy dog.\r\nIt was a \u201cbright\u201d day,  and the  sun shone.\r\n\r\n## Repeat\r\n\r\nRepeated sentence here.\r\nRepeated sentence here.\r\n';
const ALL = { start: 0, end: TEXT.length };

function kept(quote: string, passage = ALL, opts = {}) {
  const r = verifyQuote(quote, 'a.md', TEXT, passage, opts);
  assert.ok(r.ok, `expected kept: ${!r.ok ? r.reason : ''}`);
  const e = r.evidence;
  // What is written resolves exactly at its offsets (§3.2 rule 1) and re-anchors alone by its prefix/suffix.
  assert.equal(TEXT.slice(e.start, e.end), e.exact);
  assert.equal(resolveEvidence(e, TEXT).status, 'resolved');
  const { start, end, ...alone } = e;
  const re = resolveEvidence(alone, TEXT);
  assert.ok(re.status === 'moved' || re.status === 'resolved');
  assert.deepEqual(re.span, { source: 'a.md', start, end });
  return r;
}

function rejected(quote: string, passage = ALL, opts = {}): string {
  const r = verifyQuote(quote, 'a.md', TEXT, passage, opts);
  assert.ok(!r.ok, 'expected rejected');
  return r.reason;
}

test('a verbatim quote is kept at its offsets, with prefix and suffix, unmarked', () => {
  const q = 'The quick brown fox jumps over the lazy dog.';
  const r = kept(q);
  assert.equal(r.evidence.start, TEXT.indexOf(q));
  assert.equal(r.evidence.exact, q);
  assert.equal(r.evidence.prefix, '# Title\r\n\r\n');
  assert.equal(r.reanchored, false);
  assert.equal(r.evidence.reanchored, undefined);
});

test('a quote copied with LF from a CRLF document is exact by §3.2 (line endings equal): written as the document text, unmarked', () => {
  const r = kept('lazy dog.\nIt was a');
  assert.equal(r.evidence.exact, 'lazy dog.\r\nIt was a');
  assert.equal(r.reanchored, false);
});

test('whitespace-shifted quote: re-anchored to the exact document text and marked', () => {
  const q = 'It was a \u201cbright\u201d day, and the sun shone.';
  const r = kept(q);
  const exact = 'It was a \u201cbright\u201d day,  and the  sun shone.';
  assert.equal(r.evidence.exact, exact);
  assert.equal(r.evidence.start, TEXT.indexOf(exact));
  assert.equal(r.reanchored, true);
  assert.deepEqual(r.evidence.reanchored, { quote: q, normalised: ['whitespace'] });
});

test('straight quotes for typographic ones (and surrounding spaces) are re-anchored and marked "quotes"', () => {
  const r = kept('  It was a "bright" day,  and the  sun shone. ');
  assert.equal(r.evidence.exact, 'It was a \u201cbright\u201d day,  and the  sun shone.');
  assert.deepEqual((r.evidence.reanchored as { normalised: string[] }).normalised, ['whitespace', 'quotes']);
});

test('an altered quote is rejected with the nearest match (8 of its 9 word tokens found: similarity 0.889)', () => {
  const reason = rejected('The quick red fox jumps over the lazy dog.');
  assert.equal(reason, 'not in the document: nearest match "The quick brown fox jumps over the lazy dog." at line 3 (similarity 0.889)');
});

test('an invented quote is rejected: not in the document, no near match', () => {
  assert.equal(rejected('Elephants migrate across the savannah in spring.'), 'not in the document: no near match');
});

test('too short (under minQuoteLength 12) and too long (over maxQuoteLength) are rejected', () => {
  assert.match(rejected('lazy dog.'), /quote is 9 characters long .* shorter than the minimum of 12/);
  assert.match(rejected('The quick brown fox jumps over the lazy dog.', ALL, { maxQuoteLength: 20 }), /^too long \(44 code units; maximum 20\)/);
  // The length rules apply to the re-anchored exact text too: 11 characters after normalisation.
  assert.match(rejected(' sun   shone. ', ALL), /shorter than the minimum of 12/);
});

test('a repeated quote: the occurrence in the passage is kept, with context that tells it from the other', () => {
  const q = 'Repeated sentence here.';
  const first = TEXT.indexOf(q);
  const second = TEXT.indexOf(q, first + 1);
  assert.match(rejected(q), /^ambiguous: the quote occurs 2 times in the passage/);
  assert.equal(kept(q, { start: 0, end: second }).evidence.start, first);
  assert.equal(kept(q, { start: second, end: TEXT.length }).evidence.start, second);
  assert.match(rejected(q, { start: 0, end: 20 }), /^ambiguous: the quote occurs 2 times in the document, none of them in the passage/);
});

test('a unique quote outside the shown passage is still exact in the document and kept', () => {
  const q = 'The quick brown fox jumps over the lazy dog.';
  assert.equal(kept(q, { start: TEXT.indexOf('## Repeat'), end: TEXT.length }).evidence.start, TEXT.indexOf(q));
});

test('identical text with identical surroundings (longer than 256 code units) cannot be made unambiguous: rejected', () => {
  const block = `${'x'.repeat(300)}\nThe same sentence is repeated.\n${'y'.repeat(300)}\n`;
  const text = block + block;
  const r = verifyQuote('The same sentence is repeated.', 'b.md', text, { start: 0, end: block.length });
  assert.ok(!r.ok);
  assert.match(r.reason, /same 256 characters around it/);
});

test('an empty quote is rejected', () => {
  assert.equal(rejected('   '), 'empty quote');
});
