/**
 * Property tests (fast-check) for the code-point boundary: random text with emoji (surrogate pairs),
 * CJK, CRLF, lone CR, zero-width characters; a span given in Python code points must come back as the
 * same substring in UTF-16 offsets, through `codePointToUtf16` and through the Chroma importer.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { codePointToUtf16, importChroma, utf16ToCodePoint } from '../../../../src/core/import';
import { tempDir } from '../../../helpers/tmp';

const pieces = ['a', 'Z', ' ', '\r\n', '\r', '\n', '😀', '🎉', '𝔸', '中', '文', '\u200b', 'é', '.', ','];
const textArb = fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 120 }).map((a) => a.join(''));

test('codePointToUtf16 agrees with Array.from on random text; utf16ToCodePoint inverts it', () => {
  fc.assert(fc.property(textArb, (text) => {
    const cps = Array.from(text);
    const f = codePointToUtf16(text);
    let u = 0;
    for (let i = 0; i <= cps.length; i++) {
      assert.equal(f(i), u);
      assert.equal(utf16ToCodePoint(text, u), i);
      if (i < cps.length) u += cps[i].length;
    }
    assert.equal(f(cps.length + 1), undefined);
  }), { numRuns: 200 });
});

test('Chroma import: a reference at random code-point offsets resolves to the same text in UTF-16', () => {
  const dir = tempDir('spanproof-prop-');
  mkdirSync(path.join(dir, 'corpora'));
  let n = 0;
  fc.assert(fc.property(textArb, textArb, textArb, (before, quote, after) => {
    fc.pre(quote.trim().length > 0);
    const text = `${before}${quote}${after}`;
    const s = Array.from(before).length;
    const e = s + Array.from(quote).length;
    const id = `c${n++}`;
    writeFileSync(path.join(dir, 'corpora', `${id}.md`), text);
    const refs = JSON.stringify([{ content: quote, start_index: s, end_index: e }]);
    writeFileSync(path.join(dir, 'q.csv'), `question,references,corpus_id\nWhat?,"${refs.replace(/"/g, '""')}",${id}\n`);
    const res = importChroma(path.join(dir, 'q.csv'), { workspace: dir });
    assert.equal(res.report.converted, 1, JSON.stringify(res.report.rejected));
    const ev = res.groundTruth.questions[0].evidence[0];
    // a span edge inside a \r\n pair is widened to the whole pair (never split a CRLF, SPEC §4), and counted
    const s16 = before.length - (before.endsWith('\r') && quote.startsWith('\n') ? 1 : 0);
    const e16 = before.length + quote.length + (quote.endsWith('\r') && after.startsWith('\n') ? 1 : 0);
    assert.equal(ev.start, s16);
    assert.equal(ev.end, e16);
    assert.equal(ev.exact, text.slice(s16, e16));
    assert.equal(res.report.counts['widened-to-crlf'] ?? 0, s16 !== before.length || e16 !== before.length + quote.length ? 1 : 0);
  }), { numRuns: 100 });
  rmSync(dir, { recursive: true, force: true });
});
