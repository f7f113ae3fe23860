import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { isSpanproofError } from '../../../../src/core/errors';
import { makeSelector, resolveEvidence } from '../../../../src/core/groundtruth';

// Random text from pieces that stress offsets: CRLF, lone CR, LF, emoji (surrogate pairs), CJK,
// zero-width characters, a BOM-like U+FEFF inside the text, and repeated words (for ambiguity).
const PIECES = ['a', 'b', 'word', ' ', '\r\n', '\r', '\n', '😀', '🚀', '中文', '日本', '\u200b', '\u200d', '\ufeff', 'é', '.'];
const textArb = fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 60 }).map((p) => p.join(''));
const caseArb = textArb.chain((text) => fc.tuple(fc.constant(text), fc.nat(text.length), fc.nat(text.length)));

test('property: makeSelector then resolveEvidence returns the same span (with offsets, and re-anchored without them)', () => {
  fc.assert(fc.property(caseArb, ([text, a, b]) => {
    const start = Math.min(a, b);
    const end = Math.max(a, b);
    let sel;
    try {
      sel = makeSelector(text, 'doc.md', start, end);
    } catch (e) {
      // Only empty / whitespace-only selections are refused.
      assert.ok(isSpanproofError(e) && e.code === 'bad-input');
      assert.equal(text.slice(start, end).trim(), '');
      return;
    }
    const s = sel.start!;
    const e = sel.end!;
    // Widened by at most one unit per side, never splitting a surrogate or CRLF pair.
    assert.ok(s <= start && start - s <= 1 && e >= end && e - end <= 1);
    assert.equal(sel.exact, text.slice(s, e));
    for (const piece of [sel.prefix ?? '', sel.exact, sel.suffix ?? '']) {
      assert.ok(!/^[\udc00-\udfff]|[\ud800-\udbff]$/.test(piece), `surrogate pair cut in ${JSON.stringify(piece)}`);
    }
    assert.ok((sel.prefix ?? '').length <= 32 && (sel.suffix ?? '').length <= 32);
    assert.equal(`${sel.prefix ?? ''}${sel.exact}${sel.suffix ?? ''}`, text.slice(s - (sel.prefix ?? '').length, e + (sel.suffix ?? '').length));

    const opts = { minQuoteLength: 1 };
    assert.deepEqual(resolveEvidence(sel, text, opts), { status: 'resolved', span: { source: 'doc.md', start: s, end: e } });

    // Without offsets the quote must be re-found by its context: the original occurrence has the
    // maximal prefix/suffix agreement, so the result is that span, or a tie that includes it.
    const { start: _s, end: _e, ...quoteOnly } = sel;
    const r = resolveEvidence(quoteOnly, text, opts);
    if (r.status === 'ambiguous') {
      assert.ok(r.candidates.some((c) => c.start === s && c.end === e), 'the original span is among the candidates');
    } else {
      assert.deepEqual(r, { status: 'moved', span: { source: 'doc.md', start: s, end: e } });
    }
  }), { numRuns: 2000, seed: 20261129 });
});

test('property: after converting the document to LF the quote re-anchors onto the LF form of itself', () => {
  fc.assert(fc.property(caseArb, ([text, a, b]) => {
    let sel;
    try {
      sel = makeSelector(text, 'doc.md', Math.min(a, b), Math.max(a, b));
    } catch {
      return;
    }
    const lf = text.replace(/\r\n?/g, '\n');
    const r = resolveEvidence(sel, lf, { minQuoteLength: 1 });
    if (r.status === 'ambiguous') return;
    assert.ok(r.status === 'resolved' || r.status === 'moved');
    assert.equal(lf.slice(r.span.start, r.span.end), sel.exact.replace(/\r\n?/g, '\n'));
  }), { numRuns: 2000, seed: 7 });
});
