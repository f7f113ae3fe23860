/**
 * Hand-checked cases: the expected offsets are worked out in the comments from SPEC §4's rules.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chunkCorpus, chunkDocument, chunkerConfigKey, assertChunkInvariants } from '../../../../src/core/chunking';
import { isSpanproofError } from '../../../../src/core/errors';
import { DEFAULT_SETTINGS, type ChunkerParams } from '../../../../src/core/settings';
import { isWhitespaceCode } from '../../../../src/core/chunking/ranges';
import { doc } from '../../../helpers/chunking';

function withParams(over: Partial<ChunkerParams>): ChunkerParams {
  return { ...DEFAULT_SETTINGS.chunkerParams, ...over };
}
const spans = (chunks: { start: number; end: number }[]): Array<[number, number]> => chunks.map((c) => [c.start, c.end]);

test('fixed: windows of size 10 every 10 − 3 = 7 units over 25 units', () => {
  // starts 0, 7, 14, 21; ends min(start + 10, 25): [0,10) [7,17) [14,24) [21,25); 21 + 10 ≥ 25 ends the loop.
  const text = 'abcdefghijklmnopqrstuvwxy';
  const chunks = chunkDocument(doc(text), 'fixed', withParams({ fixed: { size: 10, overlap: 3 } }));
  assert.deepEqual(spans(chunks), [[0, 10], [7, 17], [14, 24], [21, 25]]);
  assert.deepEqual(chunks.map((c) => c.text), ['abcdefghij', 'hijklmnopq', 'opqrstuvwx', 'vwxy']);
  assert.equal(chunks[1].id, 'doc.md#7-17');
});

test('fixed: a window end inside a surrogate pair or a CRLF pair moves one unit back', () => {
  // 9 × "a", then 😀 at units 9–10 (U+1F600 = D83D DE00), then "bbbb" at 11–14; length 15.
  // size 10, overlap 0: end 10 splits the pair → 9: [0,9); next start 9: [9, min(19,15)) = [9,15).
  const emoji = chunkDocument(doc('aaaaaaaaa😀bbbb'), 'fixed', withParams({ fixed: { size: 10, overlap: 0 } }));
  assert.deepEqual(spans(emoji), [[0, 9], [9, 15]]);
  assert.equal(emoji[1].text, '😀bbbb');
  // Same with CRLF at 9–10: [0,9); [9,15) trimmed of the leading CRLF → [11,15).
  const crlf = chunkDocument(doc('aaaaaaaaa\r\nbbbb'), 'fixed', withParams({ fixed: { size: 10, overlap: 0 } }));
  assert.deepEqual(spans(crlf), [[0, 9], [11, 15]]);
  // Overlap start inside the pair also moves back: size 12, overlap 2 → [0,12) then start 10 is between
  // D83D (9) and DE00 (10) → 9: [9,15).
  const ov = chunkDocument(doc('aaaaaaaaa😀bbbb'), 'fixed', withParams({ fixed: { size: 12, overlap: 4 } }));
  // start 0: end 12 → [0,12); next 12 − 4 = 8 (safe): [8,15) reaches the end.
  assert.deepEqual(spans(ov), [[0, 12], [8, 15]]);
});

test('recursive: separators kept with the preceding piece, merged with overlap (LangChain _merge_splits)', () => {
  // No "\n", no ". ": separator " " → pieces "aaa "(4) "bbb "(4) "ccc "(4) "ddd"(3).
  // size 8, overlap 4: [aaa bbb ] total 8; +ccc → 12 > 8 → emit [0,8), drop "aaa " (8 > 4) → total 4;
  // [bbb ccc ] = 8; +ddd → 11 > 8 → emit [4,12), drop "bbb " → 4; [ccc ddd] → emit [8,15).
  // Trimmed: [0,7) [4,11) [8,15).
  const chunks = chunkDocument(doc('aaa bbb ccc ddd'), 'recursive', withParams({ recursive: { size: 8, overlap: 4 } }));
  assert.deepEqual(spans(chunks), [[0, 7], [4, 11], [8, 15]]);
  assert.deepEqual(chunks.map((c) => c.text), ['aaa bbb', 'bbb ccc', 'ccc ddd']);
});

test('recursive: CRLF paragraphs split at paragraphs ("\\n\\n" matches "\\r\\n\\r\\n")', () => {
  const text = 'para one line a\r\nline b\r\n\r\npara two\r\n\r\npara three';
  // "\n\n" (as CRLF CRLF) → "para one line a\r\nline b\r\n\r\n"(27) "para two\r\n\r\n"(12) "para three"(10).
  // size 30, overlap 0: 27; +12 = 39 > 30 → emit [0,27); 12 + 10 = 22 ≤ 30 → emit [27,49).
  const p30 = chunkDocument(doc(text), 'recursive', withParams({ recursive: { size: 30, overlap: 0 } }));
  assert.deepEqual(p30.map((c) => c.text), ['para one line a\r\nline b', 'para two\r\n\r\npara three']);
  // size 18: the 27-unit piece (≥ 18) is re-split on "\n" (CRLF): "para one line a\r\n"(17) "line b\r\n"(8)
  // "\r\n"(2) → [0,17) then [17,27); then "para two\r\n\r\n"(12) + "para three"(10) = 22 > 18 → two chunks.
  const p18 = chunkDocument(doc(text), 'recursive', withParams({ recursive: { size: 18, overlap: 0 } }));
  assert.deepEqual(p18.map((c) => c.text), ['para one line a', 'line b', 'para two', 'para three']);
  assert.deepEqual(spans(p18), [[0, 15], [17, 23], [27, 35], [39, 49]]);
  // The same text with LF endings splits at the same places (pieces 24 → 16 + 7 + 1; 10 + 10 = 20 > 18).
  const lf = chunkDocument(doc(text.replace(/\r\n/g, '\n')), 'recursive', withParams({ recursive: { size: 18, overlap: 0 } }));
  assert.deepEqual(lf.map((c) => c.text), ['para one line a', 'line b', 'para two', 'para three']);
});

test('recursive: the last-resort "" separator splits by code point, never inside 😀 or CRLF', () => {
  const text = '😀😀😀\r\n😀';
  for (let size = 2; size <= 6; size++) {
    const chunks = chunkDocument(doc(text, 'x.txt'), 'recursive', withParams({ recursive: { size, overlap: 0 } }));
    assertChunkInvariants(doc(text, 'x.txt'), chunks, 'recursive');
  }
  // size 3: "\n" splits "😀😀😀\r\n"(8) "😀"(2); 8 ≥ 3 → no ". " or " " → code points of 2 units each:
  // merge: 2, +2 > 3 → one emoji per chunk; "\r\n" alone is whitespace and dropped.
  const c3 = chunkDocument(doc(text), 'recursive', withParams({ recursive: { size: 3, overlap: 0 } }));
  assert.deepEqual(spans(c3), [[0, 2], [2, 4], [4, 6], [8, 10]]);
});

test('sentence: greedy packing with a one-sentence overlap that is dropped when it does not fit', () => {
  // Sentences (trimmed): [0,8) [9,17) [18,26) [27,35).
  const text = 'Aaaa aa. Bbbb bb. Cccc cc. Dddd dd.';
  // size 17: [0,17) (A+B = 17); C does not fit → next starts with B: 26 − 9 = 17 → [9,26); then [18,35).
  assert.deepEqual(spans(chunkDocument(doc(text), 'sentence', withParams({ sentence: { size: 17 } }))), [[0, 17], [9, 26], [18, 35]]);
  // size 16: no two sentences fit together, so every overlap is dropped: one sentence per chunk.
  assert.deepEqual(spans(chunkDocument(doc(text), 'sentence', withParams({ sentence: { size: 16 } }))), [[0, 8], [9, 17], [18, 26], [27, 35]]);
  // size 26: A+B+C = 26; D: 35 − 0 > 26 → emit [0,26); overlap C: 35 − 18 = 17 ≤ 26 → [18,35).
  assert.deepEqual(spans(chunkDocument(doc(text), 'sentence', withParams({ sentence: { size: 26 } }))), [[0, 26], [18, 35]]);
});

test('sentence: a sentence longer than the size is split with recursive and shares no chunk', () => {
  // "Hi. " is [0,3); the long sentence [4,36) is 32 units > 12 → recursive(size 12, overlap 6) on " ":
  // pieces "alpha "(6) "beta "(5) "gamma "(6) "delta "(6) "epsilon."(8) (offsets from 4).
  const text = 'Hi. alpha beta gamma delta epsilon. Yo.';
  const chunks = chunkDocument(doc(text), 'sentence', withParams({ sentence: { size: 12 } }));
  assert.equal(chunks[0].text, 'Hi.');
  assert.equal(chunks[chunks.length - 1].text, 'Yo.');
  // merge: alpha(6)+beta(5)=11; +gamma 17 > 12 → emit "alpha beta "; drop alpha (11 > 6) → 5; beta+gamma 11;
  // +delta 17 > 12 → emit "beta gamma "; drop beta → 6; gamma+delta 12; +epsilon 20 > 12 → emit; drop gamma → 6;
  // delta + epsilon 14 > 12 → drop delta → 0; emit "epsilon.".
  assert.deepEqual(chunks.slice(1, -1).map((c) => c.text), ['alpha beta', 'beta gamma', 'gamma delta', 'epsilon.']);
});

const MD = [
  '---', 'title: Setext trap', '---', // front matter: without special handling "title: …\n---" is a Setext h2
  'Intro text.', '',
  '# One', '', '```', '# not a heading', '```', '',
  'Two', '===', '', 'body two', '',
  'Three', '-----', 'body three',
].join('\n');

test('heading: front matter is its own chunk; # in a code fence is ignored; Setext headings start sections', () => {
  const chunks = chunkDocument(doc(MD, 'guide.md'), 'heading', DEFAULT_SETTINGS.chunkerParams);
  assert.deepEqual(chunks.map((c) => c.text), [
    '---\ntitle: Setext trap\n---',
    'Intro text.',
    '# One\n\n```\n# not a heading\n```',
    'Two\n===\n\nbody two',
    'Three\n-----\nbody three',
  ]);
  assert.equal(chunks[0].start, 0);
  assert.equal(chunks[2].start, MD.indexOf('# One'));
  assert.equal(chunks[3].start, MD.indexOf('Two\n==='));
});

test('heading: CRLF and emoji offsets stay UTF-16 code units', () => {
  const text = MD.replace(/\n/g, '\r\n').replace('Intro text.', 'Intro 😀😀 text.');
  const chunks = chunkDocument(doc(text, 'guide.md'), 'heading', DEFAULT_SETTINGS.chunkerParams);
  assert.deepEqual(chunks.map((c) => c.text), [
    '---\r\ntitle: Setext trap\r\n---',
    'Intro 😀😀 text.',
    '# One\r\n\r\n```\r\n# not a heading\r\n```',
    'Two\r\n===\r\n\r\nbody two',
    'Three\r\n-----\r\nbody three',
  ]);
  assert.equal(chunks[2].start, text.indexOf('# One'));
});

test('heading: an unclosed leading --- is not front matter', () => {
  // "---" then "x": a thematic break, then a paragraph; no headings → one preamble section.
  const chunks = chunkDocument(doc('---\nx\n\ny', 'a.md'), 'heading', DEFAULT_SETTINGS.chunkerParams);
  assert.deepEqual(chunks.map((c) => c.text), ['---\nx\n\ny']);
});

test('heading: a long section is split with recursive at maxSize', () => {
  const body = Array.from({ length: 30 }, (_, i) => `Line ${i} of the section.`).join('\n');
  const text = `# Big\n${body}\n# Small\nend`;
  const chunks = chunkDocument(doc(text, 'a.md'), 'heading', withParams({ heading: { maxSize: 200 } }));
  assertChunkInvariants(doc(text, 'a.md'), chunks, 'heading');
  assert.ok(chunks.length > 3);
  for (const c of chunks) assert.ok(c.end - c.start <= 200);
  assert.equal(chunks[0].text.startsWith('# Big\nLine 0'), true);
  assert.equal(chunks[chunks.length - 1].text, '# Small\nend');
});

test('heading: non-Markdown files pack blank-line paragraphs greedily up to 1500', () => {
  const p = (ch: string): string => ch.repeat(700);
  // paragraphs [0,700) [702,1402) [1404,2104): 1402 − 0 ≤ 1500 → [0,1402); 2104 − 0 > 1500 → new chunk.
  const text = `${p('a')}\n\n${p('b')}\n\n${p('c')}`;
  const chunks = chunkDocument(doc(text, 'notes.txt'), 'heading', DEFAULT_SETTINGS.chunkerParams);
  assert.deepEqual(spans(chunks), [[0, 1402], [1404, 2104]]);
  // CRLF blank lines, one holding a space: paragraphs [0,700) [704,1404) [1409,2109) → [0,1404) [1409,2109).
  // (Were " " not a blank line, [704,2109) would be one 1405-unit paragraph and the chunks [0,700) [704,2109).)
  const t2 = `${p('a')}\r\n\r\n${p('b')}\r\n \r\n${p('c')}`;
  assert.deepEqual(spans(chunkDocument(doc(t2, 'notes.txt'), 'heading', DEFAULT_SETTINGS.chunkerParams)), [[0, 1404], [1409, 2109]]);
  // "# x" in a .txt file is not a heading (in a .md file it starts a section).
  const t3 = 'intro\n# x\nfoo';
  assert.deepEqual(chunkDocument(doc(t3, 'notes.txt'), 'heading', DEFAULT_SETTINGS.chunkerParams).map((c) => c.text), [t3]);
  assert.deepEqual(chunkDocument(doc(t3, 'notes.md'), 'heading', DEFAULT_SETTINGS.chunkerParams).map((c) => c.text), ['intro', '# x\nfoo']);
});

test('whitespace-only documents give no chunks; invalid params are bad input naming the field', async () => {
  for (const c of ['fixed', 'recursive', 'sentence', 'heading'] as const) assert.deepEqual(chunkDocument(doc(' \r\n\t\u200b'.slice(0, 4)), c, DEFAULT_SETTINGS.chunkerParams), []);
  assert.throws(
    () => chunkDocument(doc('x'), 'fixed', withParams({ fixed: { size: 100, overlap: 100 } })),
    (e: unknown) => isSpanproofError(e) && e.code === 'bad-input' && /chunkerParams\.fixed\.overlap/.test(e.message),
  );
  await assert.rejects(chunkCorpus([doc('x')], 'semantic', DEFAULT_SETTINGS.chunkerParams), (e: unknown) => isSpanproofError(e) && e.code === 'bad-input');
});

test('assertChunkInvariants names the source and offsets of a broken chunk', () => {
  const d = doc('hello world', 'a.md');
  const bad = [{ id: 'a.md#0-5', source: 'a.md', start: 0, end: 5, text: 'hellx' }, { id: 'a.md#6-11', source: 'a.md', start: 6, end: 11, text: 'world' }];
  assert.throws(() => assertChunkInvariants(d, bad, 'fixed'), (e: unknown) => isSpanproofError(e) && e.code === 'invariant' && /a\.md/.test(e.message) && /\[0, 5\)/.test(e.message));
  const gap = [{ id: 'a.md#0-5', source: 'a.md', start: 0, end: 5, text: 'hello' }];
  assert.throws(() => assertChunkInvariants(d, gap, 'fixed'), /non-whitespace offset 6 is in no chunk/);
  const split = doc('a😀', 'b.md');
  assert.throws(() => assertChunkInvariants(split, [{ id: 'b.md#0-2', source: 'b.md', start: 0, end: 2, text: 'a\ud83d' }, { id: 'b.md#2-3', source: 'b.md', start: 2, end: 3, text: '\ude00' }], 'x'), /surrogate/);
});

test('chunkerConfigKey is stable and changes with params', () => {
  const p = DEFAULT_SETTINGS.chunkerParams;
  assert.equal(chunkerConfigKey('fixed', p), 'fixed/v1/{"overlap":100,"size":800}');
  assert.equal(chunkerConfigKey('semantic', p), 'semantic/v1/{"maxSize":2000,"minSize":200,"percentile":95,"windowSentences":1}');
  assert.notEqual(chunkerConfigKey('recursive', withParams({ recursive: { size: 400, overlap: 100 } })), chunkerConfigKey('recursive', p));
});

test('isWhitespaceCode agrees with JavaScript \\s on every BMP code unit', () => {
  for (let c = 0; c < 0x10000; c++) assert.equal(isWhitespaceCode(c), /\s/.test(String.fromCharCode(c)), `U+${c.toString(16)}`);
});
