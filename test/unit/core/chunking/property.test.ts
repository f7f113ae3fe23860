/**
 * Property tests (fast-check) on generated documents mixing CRLF, lone CR, LF, emoji surrogate
 * pairs, CJK, zero-width characters, Markdown headings (ATX, Setext), code fences containing `#`,
 * and leading front matter — with small random sizes so that every split path is exercised.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { assertChunkInvariants, chunkDocument, semanticChunkDocument, type SyncChunkerId } from '../../../../src/core/chunking';
import { sentenceRanges, sentenceRangesWholeText } from '../../../../src/core/chunking/sentences';
import type { ChunkerParams } from '../../../../src/core/settings';
import { doc, hashedBagOfWords } from '../../../helpers/chunking';

const FRAGMENTS = [
  '\r\n', '\r', '\n', '\r\n\r\n', '\n\n', '  ', '\t', ' ', '\u00a0', '\u3000',
  '😀', '👩‍👩‍👧', '𝔘𝔫𝔦', '中文字符', '日本語の文。', '한국어', '\u200b', '\u200d', '\ufeff',
  'word', 'Sentence one. ', 'Is it? Yes! ', 'Mr. Smith went.', 'e.g. this',
  '# Heading', '## Sub heading 😀', 'Setext\n===', 'Setext CRLF\r\n---', '```\n# not a heading\n```',
  '```\r\n# not either\r\n```', '> # quoted', '- item\n- item', '---', '...', 'a.b.c', '{* include *}',
  '`# code span`', '``', '[link](x)', '[ref]: /u', '<div>', '</div>', '<!--', '-->', '\\#', '*em*', '&amp;', '    # indented code', '~~~',
];

const text = fc
  .tuple(
    fc.constantFrom('', '---\ntitle: x\n---\n', '---\r\nk: v\r\n---\r\n', '---\n---\n', '---\nno close'),
    fc.array(fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ maxLength: 6 }), fc.string({ unit: 'grapheme', maxLength: 4 })), { maxLength: 60 }),
  )
  .map(([fm, parts]) => fm + parts.join(''));

const sizes = fc.integer({ min: 2, max: 120 }).chain((size) => fc.record({ size: fc.constant(size), overlap: fc.integer({ min: 0, max: size - 1 }) }));

const params = fc.record({
  fixed: sizes,
  recursive: sizes,
  sentence: fc.record({ size: fc.integer({ min: 2, max: 120 }) }),
  heading: fc.record({ maxSize: fc.integer({ min: 2, max: 200 }) }),
  semantic: fc.integer({ min: 2, max: 150 }).chain((maxSize) =>
    fc.record({
      minSize: fc.integer({ min: 0, max: maxSize }),
      maxSize: fc.constant(maxSize),
      percentile: fc.double({ min: 0, max: 100, noNaN: true }),
      windowSentences: fc.integer({ min: 0, max: 2 }),
    }),
  ),
}) as fc.Arbitrary<ChunkerParams>;

const SYNC: SyncChunkerId[] = ['fixed', 'recursive', 'sentence', 'heading'];
const source = fc.constantFrom('a.md', 'b.markdown', 'c.MDX', 'd.txt', 'e.rst');

test('sync chunkers keep every invariant on generated documents, deterministically', () => {
  fc.assert(
    fc.property(text, params, source, (t, p, src) => {
      const d = doc(t, src);
      for (const c of SYNC) {
        const chunks = chunkDocument(d, c, p);
        assertChunkInvariants(d, chunks, c);
        assert.deepEqual(chunkDocument(d, c, p), chunks);
      }
      // Sizes that the algorithms bound (a lone unit of 2 code units may exceed a size of 2 only in `recursive`'s last resort).
      for (const ch of chunkDocument(d, 'fixed', p)) assert.ok(ch.end - ch.start <= p.fixed.size);
      for (const ch of chunkDocument(d, 'recursive', p)) assert.ok(ch.end - ch.start <= Math.max(p.recursive.size, 2));
      for (const ch of chunkDocument(d, 'sentence', p)) assert.ok(ch.end - ch.start <= Math.max(p.sentence.size, 2));
    }),
    { numRuns: 400, seed: 20261129 },
  );
});

test('semantic keeps every invariant on generated documents', async () => {
  await fc.assert(
    fc.asyncProperty(text, params, source, async (t, p, src) => {
      const d = doc(t, src);
      const e = hashedBagOfWords(64);
      const chunks = await semanticChunkDocument(d, p.semantic, e.fn, e.dim);
      assertChunkInvariants(d, chunks, 'semantic');
      assert.ok(e.calls.length <= 1, 'one embed call per document');
      for (const ch of chunks) assert.ok(ch.end - ch.start <= Math.max(p.semantic.maxSize, 2));
    }),
    { numRuns: 200, seed: 20261129 },
  );
});

test('sentence segmentation in runs of lines equals a whole-text Intl.Segmenter pass on generated text', () => {
  fc.assert(
    fc.property(text, fc.integer({ min: 1, max: 80 }), (t, blockChars) => {
      const whole = sentenceRangesWholeText(t);
      assert.deepEqual(sentenceRanges(t), whole);
      assert.deepEqual(sentenceRanges(t, 1), whole); // one line per call
      assert.deepEqual(sentenceRanges(t, blockChars), whole);
    }),
    { numRuns: 500, seed: 7 },
  );
});
