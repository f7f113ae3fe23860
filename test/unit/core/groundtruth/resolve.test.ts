import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { decodeDocument, loadCorpus } from '../../../../src/core/corpus';
import {
  excludedQuestionsSummary, lineOf, makeSelector, normaliseSource, resolveEvidence, resolveGroundTruth, type GroundTruthFile,
} from '../../../../src/core/groundtruth';
import { tempDir } from '../../../helpers/tmp';

test('CRLF file, multi-line quote copied with LF line endings → re-anchored to the raw CRLF span', () => {
  const text = 'Title\r\n\r\nFirst line of the quote\r\nsecond line of it.\r\nAfter.\r\n';
  const exact = 'First line of the quote\nsecond line of it.';
  // "Title\r\n\r\n" = 9 units; the quote is 23 + CRLF (2) + 18 = 43 raw units → [9, 52).
  assert.equal(text.slice(9, 52), 'First line of the quote\r\nsecond line of it.');
  // Offsets counted on the LF copy (9..51) are wrong for the CRLF file → moved.
  const r = resolveEvidence({ source: 'a.md', exact, start: 9, end: 51 }, text);
  assert.deepEqual(r, { status: 'moved', span: { source: 'a.md', start: 9, end: 52 } });
  // When the cached offsets already equal the re-anchored span the difference is EOL-only → resolved.
  assert.deepEqual(resolveEvidence({ source: 'a.md', exact, start: 9, end: 52 }, text), { status: 'resolved', span: { source: 'a.md', start: 9, end: 52 } });
  // And the reverse: a CRLF quote against an LF file.
  const lf = text.replace(/\r\n/g, '\n');
  const back = resolveEvidence({ source: 'a.md', exact: text.slice(9, 52), start: 9, end: 52 }, lf);
  assert.deepEqual(back, { status: 'moved', span: { source: 'a.md', start: 7, end: 49 } }); // "Title\n\n" = 7, 23 + 1 + 18 = 42
});

test('BOM file: offsets are into the BOM-less text', () => {
  const doc = decodeDocument('bom.md', new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('Hello world, this is evidence.')]));
  assert.ok('text' in doc);
  // "Hello world, " = 13 units; "this is evidence" = 16 → [13, 29).
  assert.deepEqual(resolveEvidence({ source: 'bom.md', exact: 'this is evidence', start: 13, end: 29 }, doc.text), { status: 'resolved', span: { source: 'bom.md', start: 13, end: 29 } });
  // Offsets that counted the BOM (one UTF-16 unit) are re-anchored.
  assert.deepEqual(resolveEvidence({ source: 'bom.md', exact: 'this is evidence', start: 14, end: 30 }, doc.text), { status: 'moved', span: { source: 'bom.md', start: 13, end: 29 } });
});

test('quote after emoji: UTF-16 offsets, not code points', () => {
  const text = '🚀 Launch: the rocket 🚀 flies over the moon tonight.';
  // Code units: 🚀(2) + " Launch: the rocket "(20) = 22, 🚀(2) = 24, " " → quote starts at 25.
  assert.equal(text.indexOf('flies over the moon'), 25);
  assert.equal([...text.slice(0, 25)].length, 23); // code-point offset would be 23
  const r = resolveEvidence({ source: 'e.md', exact: 'flies over the moon', start: 23, end: 42 }, text);
  assert.deepEqual(r, { status: 'moved', span: { source: 'e.md', start: 25, end: 44 } });
});

test('moved by an edit above the quote', () => {
  const before = 'Intro paragraph.\n\nThe answer is to declare the parameter with a default of None.\n';
  // "Intro paragraph.\n\n" = 18 units; the sentence is 12 words, 50 letters + 11 spaces + "." = 62 → [18, 80).
  const sel = makeSelector(before, 'q.md', 18, 80);
  assert.equal(sel.exact, 'The answer is to declare the parameter with a default of None.');
  const after = `A new paragraph inserted above.\n\n${before}`; // 31 + 2 = 33 units inserted
  assert.deepEqual(resolveEvidence(sel, after), { status: 'moved', span: { source: 'q.md', start: 51, end: 113 } });
  assert.equal(after.slice(51, 113), sel.exact);
});

test('stale: the quote is gone; the nearest near-match is reported with its line and similarity, never used', () => {
  const text = 'Intro\r\n\r\nThe quick brown fox jumps over the lazy dog.\r\n';
  const r = resolveEvidence({ source: 's.md', exact: 'The quick red fox jumps over the lazy dog', start: 9, end: 50 }, text);
  // Quote tokens: the quick red fox jumps over the lazy dog (9); the window matches 8 of them
  // (all but "red") → similarity 8/9 = 0.889. Window "The … dog" = [9, 52) on line 3.
  assert.deepEqual(r, {
    status: 'stale',
    reason: 'quote not found in s.md',
    nearest: { start: 9, end: 52, line: 3, text: 'The quick brown fox jumps over the lazy dog', similarity: 0.889 },
  });
  // Nothing close at all → no nearest.
  assert.deepEqual(resolveEvidence({ source: 's.md', exact: 'completely unrelated sentence here' }, text), { status: 'stale', reason: 'quote not found in s.md' });
});

test('stale: a source that is not in the corpus', () => {
  assert.deepEqual(resolveEvidence({ source: 'gone.md', exact: 'some long enough quote' }, undefined), { status: 'stale', reason: 'source not found' });
});

const REPEAT = 'Step one: run the install command now.\nStep two: run the install command now.';
// "Step one: " = 10 → first occurrence [10, 33); line 1 is 38 units + "\n" → line 2 starts at 39, "Step two: " → [49, 72).

test('ambiguous occurrences resolved by prefix, by suffix, and by nearness to the old start', () => {
  const exact = 'run the install command';
  assert.deepEqual(resolveEvidence({ source: 'r.md', exact, prefix: 'Step two: ' }, REPEAT), { status: 'moved', span: { source: 'r.md', start: 49, end: 72 } });
  assert.deepEqual(resolveEvidence({ source: 'r.md', exact, prefix: 'Step one: ' }, REPEAT), { status: 'moved', span: { source: 'r.md', start: 10, end: 33 } });
  // Suffix " now.\nStep" only follows the first occurrence.
  assert.deepEqual(resolveEvidence({ source: 'r.md', exact, suffix: ' now.\r\nStep' }, REPEAT), { status: 'moved', span: { source: 'r.md', start: 10, end: 33 } });
  // Equal context: the occurrence nearest the stale start (45 → 49 is 4 away, 10 is 35 away).
  assert.deepEqual(resolveEvidence({ source: 'r.md', exact, start: 45, end: 68 }, REPEAT), { status: 'moved', span: { source: 'r.md', start: 49, end: 72 } });
});

test('ambiguous without context: candidates with 1-based lines', () => {
  assert.deepEqual(resolveEvidence({ source: 'r.md', exact: 'run the install command' }, REPEAT), {
    status: 'ambiguous', candidates: [{ start: 10, end: 33, line: 1 }, { start: 49, end: 72, line: 2 }],
  });
  // An old start exactly between two equally good occurrences does not break the tie.
  const tie = 'xx repeat this quote xxx repeat this quote'; // occurrences at 3 and 25; midpoint 14
  assert.deepEqual(resolveEvidence({ source: 't.md', exact: 'repeat this quote', start: 13, end: 30 }, tie), { status: 'moved', span: { source: 't.md', start: 3, end: 20 } }); // 10 vs 12 away
  assert.deepEqual(resolveEvidence({ source: 't.md', exact: 'repeat this quote', start: 14, end: 31 }, tie).status, 'ambiguous'); // 11 vs 11
  assert.deepEqual(resolveEvidence({ source: 't.md', exact: 'repeat this quote', start: 14, end: 31 }, tie), {
    status: 'ambiguous', candidates: [{ start: 3, end: 20, line: 1 }, { start: 25, end: 42, line: 1 }],
  });
});

test('too short: quotes under 12 characters (ignoring surrounding whitespace) are rejected', () => {
  const r = resolveEvidence({ source: 'x.md', exact: 'short quote' }, 'a short quote here'); // 11 characters
  assert.equal(r.status, 'rejected');
  assert.match((r as { reason: string }).reason, /11 characters long .* minimum of 12/);
  assert.equal(resolveEvidence({ source: 'x.md', exact: '   padded   ' }, '   padded   ').status, 'rejected');
  // 12 characters is enough; configurable minimum.
  assert.equal(resolveEvidence({ source: 'x.md', exact: 'twelve chars' }, 'twelve chars').status, 'moved');
  assert.equal(resolveEvidence({ source: 'x.md', exact: 'tiny' }, 'a tiny text', { minQuoteLength: 4 }).status, 'moved');
});

test('lone \\r line endings: EOL-insensitive match, lines counted at \\r', () => {
  const text = 'line one\rline two has the quote here\rline three';
  const r = resolveEvidence({ source: 'mac.txt', exact: 'line two has the quote here\nline three' }, text);
  // "line one\r" = 9; "line two has the quote here" = 27 → \r at 36; "line three" = 10 → end 47.
  assert.deepEqual(r, { status: 'moved', span: { source: 'mac.txt', start: 9, end: 47 } });
  assert.equal(lineOf(text, 9), 2);
  assert.equal(lineOf(text, 37), 3);
  const amb = resolveEvidence({ source: 'mac.txt', exact: 'repeat this quote' }, 'x\rrepeat this quote\r\nrepeat this quote\r');
  assert.deepEqual(amb, { status: 'ambiguous', candidates: [{ start: 2, end: 19, line: 2 }, { start: 21, end: 38, line: 3 }] });
});

test('lineOf counts \\r\\n, \\r and \\n as one break each', () => {
  const t = 'a\rb\r\nc\nd';
  assert.deepEqual([0, 2, 5, 7].map((o) => lineOf(t, o)), [1, 2, 3, 4]);
  assert.equal(lineOf(t, 4), 2); // between \r and \n: still the line the \r ends
});

test('resolveGroundTruth: acceptance report, moved offsets applied to a copy, exclusion rules', () => {
  const docs: Record<string, string> = {
    'a.md': 'Alpha paragraph with a distinctive sentence.\n\nBeta paragraph with another sentence.\n',
    'b.md': 'zz repeat this quote zz repeat this quote',
  };
  const gt: GroundTruthFile = {
    spanproof: 1,
    questions: [
      { id: 'ok', question: 'q1', evidence: [{ source: 'a.md', exact: 'Alpha paragraph with a distinctive sentence', start: 0, end: 43 }] },
      { id: 'mv', question: 'q2', answer: 'A', evidence: [{ source: 'a.md', exact: 'Beta paragraph with another sentence', start: 0, end: 36 }], tags: ['t'], note: 'kept' },
      { id: 'st', question: 'q3', evidence: [
        { source: 'a.md', exact: 'Alpha paragraph with a distinctive sentence' },
        { source: 'missing.md', exact: 'a quote from a deleted file' },
      ] },
      { id: 'any', question: 'q4', match: 'any', evidence: [
        { source: 'a.md', exact: 'Beta paragraph with another sentence' },
        { source: 'a.md', exact: 'Gamma paragraph that was deleted' },
      ] },
      { id: 'amb', question: 'q5', evidence: [{ source: 'b.md', exact: 'repeat this quote' }] },
      { id: 'rej', question: 'q6', evidence: [{ source: 'a.md', exact: 'Alpha' }] },
    ],
  };
  const snapshot = structuredClone(gt);
  const r = resolveGroundTruth(gt, (s) => docs[s]);
  assert.deepEqual(gt, snapshot, 'input untouched');
  assert.equal(r.acceptance.total, 6);
  assert.equal(r.acceptance.resolved, 2);
  assert.equal(r.acceptance.moved, 1);
  assert.deepEqual(r.questions.map((q) => q.id), ['ok', 'mv']);
  assert.deepEqual(r.questions[1], { id: 'mv', question: 'q2', answer: 'A', match: 'all', tags: ['t'], spans: [{ source: 'a.md', start: 46, end: 82 }] });
  assert.deepEqual(r.acceptance.stale.map((s) => [s.id, s.source, s.evidence, s.reason]), [
    ['st', 'missing.md', 1, 'source not found'],
    ['any', 'a.md', 1, 'quote not found in a.md'],
  ]);
  assert.deepEqual(r.acceptance.ambiguous, [{ id: 'amb', source: 'b.md', exact: 'repeat this quote', evidence: 0, candidates: [{ start: 3, end: 20, line: 1 }, { start: 24, end: 41, line: 1 }] }]);
  assert.deepEqual(r.acceptance.rejected.map((x) => [x.id, x.evidence]), [['rej', 0]]);
  // Moved/filled offsets: mv (0..36 → 46..82), st[0] and any[0] (no offsets → filled in).
  assert.deepEqual(r.acceptance.relocated.map((x) => [x.id, x.evidence, x.to.start, x.to.end, x.to.line]), [
    ['mv', 0, 46, 82, 3], ['st', 0, 0, 43, 1], ['any', 0, 46, 82, 3],
  ]);
  assert.equal(r.changed, true);
  assert.deepEqual(r.updated.questions[1].evidence[0], { source: 'a.md', exact: 'Beta paragraph with another sentence', start: 46, end: 82 });
  assert.equal(r.updated.questions[1].note, 'kept');
  assert.deepEqual(r.perEvidence.map((p) => p.map((e) => e.status)), [
    ['resolved'], ['moved'], ['moved', 'stale'], ['moved', 'stale'], ['ambiguous'], ['rejected'],
  ]);
  // Resolving the updated file again: nothing moves any more.
  const again = resolveGroundTruth(r.updated, (s) => docs[s]);
  assert.equal(again.changed, false);
  assert.equal(again.acceptance.moved, 0);
});

test('rule 5: a quote longer than maxQuoteLength is rejected before any search (code units, untrimmed)', () => {
  const text = 'x'.repeat(40);
  // 20 001 UTF-16 code units > the default maximum of 20 000.
  const long = 'y'.repeat(20001);
  assert.deepEqual(resolveEvidence({ source: 'l.md', exact: long }, text), {
    status: 'rejected',
    reason: 'too long (20001 code units; maximum 20000): quote a shorter passage or raise maxQuoteLength',
  });
  // Exactly at the maximum is allowed (here: stale, since the text does not contain it) …
  assert.equal(resolveEvidence({ source: 'l.md', exact: 'y'.repeat(20000) }, text).status, 'stale');
  // … and the maximum is configurable: 12 code units of "😀😀😀😀😀😀" (6 emoji × 2 units) > 11.
  const emoji = '😀'.repeat(6);
  assert.deepEqual(resolveEvidence({ source: 'l.md', exact: emoji }, emoji, { maxQuoteLength: 11 }), {
    status: 'rejected',
    reason: 'too long (12 code units; maximum 11): quote a shorter passage or raise maxQuoteLength',
  });
  // (no cached offsets → the found span counts as moved)
  assert.equal(resolveEvidence({ source: 'l.md', exact: emoji }, emoji, { maxQuoteLength: 12 }).status, 'moved');
  // Through resolveGroundTruth: the rejected item excludes its question and carries no copy of the quote.
  const gt: GroundTruthFile = { spanproof: 1, questions: [{ id: 'q1', question: 'long?', evidence: [{ source: 'l.md', exact: long }] }] };
  const r = resolveGroundTruth(gt, () => text);
  assert.equal(r.questions.length, 0);
  assert.deepEqual(r.acceptance.rejected, [{ id: 'q1', reason: 'too long (20001 code units; maximum 20000): quote a shorter passage or raise maxQuoteLength', source: 'l.md', evidence: 0 }]);
});

test('stale: a source the corpus loader skipped says why, not "source not found"', async () => {
  // A real loader run: a Latin-1 file (0xE9 is not valid UTF-8 at byte 3) and a symlink out of the root.
  const parent = tempDir('spanproof-skipgt-');
  const root = path.join(parent, 'ws');
  try {
    mkdirSync(root);
    writeFileSync(path.join(root, 'latin1.txt'), new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x20, 0x6c, 0x61, 0x74, 0x74, 0x65, 0x20, 0x61, 0x72, 0x74, 0x20]));
    writeFileSync(path.join(parent, 'out.md'), 'outside the root, a long enough quote');
    let linked = true;
    try { symlinkSync(path.join(parent, 'out.md'), path.join(root, 'out.md')); } catch { linked = false; }
    const corpus = await loadCorpus(root);
    const texts = new Map(corpus.documents.map((d) => [d.source, d.text]));
    const gt: GroundTruthFile = {
      spanproof: 1,
      questions: [
        { id: 'q1', question: 'latin?', evidence: [{ source: 'latin1.txt', exact: 'latte art is here' }] },
        { id: 'q2', question: 'outside?', evidence: [{ source: 'out.md', exact: 'a long enough quote' }] },
        { id: 'q3', question: 'missing?', evidence: [{ source: 'nope.md', exact: 'a long enough quote' }] },
      ],
    };
    for (const skipped of [corpus.skipped, new Map(corpus.skipped.map((s) => [s.source, s]))]) {
      const r = resolveGroundTruth(gt, (s) => texts.get(s), { skipped });
      assert.deepEqual(r.acceptance.stale.map((s) => [s.id, s.reason]), [
        ['q1', 'source skipped: not-utf8 (invalid UTF-8 at byte 3)'],
        ['q2', linked ? `source skipped: outside-root (symbolic link to ${path.join(realpathSync(parent), 'out.md')}, outside the corpus root)` : 'source not found'],
        ['q3', 'source not found'],
      ]);
    }
    // Without opts.skipped the old wording stays.
    assert.equal(resolveGroundTruth(gt, (s) => texts.get(s)).acceptance.stale[0].reason, 'source not found');
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
});

test('evidence source is normalised to the POSIX relative form; "../" never escapes the root', () => {
  const text = 'A document about emoji and other symbols.';
  const looked: string[] = [];
  const textOf = (s: string): string | undefined => {
    looked.push(s);
    return s === 'emoji.md' || s === 'a/b.md' ? text : undefined;
  };
  const exact = 'emoji and other symbols';
  // "A document about " = 17 units → [17, 40).
  const gt: GroundTruthFile = {
    spanproof: 1,
    questions: [
      { id: 'dot', question: '?', evidence: [{ source: './emoji.md', exact, start: 17, end: 40 }] },
      { id: 'bs', question: '?', evidence: [{ source: 'a\\b.md', exact, start: 17, end: 40 }] },
      { id: 'dd', question: '?', evidence: [{ source: 'a//./x/../b.md', exact, start: 17, end: 40 }] },
      { id: 'up', question: '?', evidence: [{ source: '../emoji.md', exact }] },
      { id: 'up2', question: '?', evidence: [{ source: 'a/../../emoji.md', exact }] },
      { id: 'abs', question: '?', evidence: [{ source: '/etc/emoji.md', exact }] },
      { id: 'win', question: '?', evidence: [{ source: 'C:\\emoji.md', exact }] },
    ],
  };
  const r = resolveGroundTruth(gt, textOf);
  assert.deepEqual(r.questions.map((q) => [q.id, q.spans]), [
    ['dot', [{ source: 'emoji.md', start: 17, end: 40 }]],
    ['bs', [{ source: 'a/b.md', start: 17, end: 40 }]],
    ['dd', [{ source: 'a/b.md', start: 17, end: 40 }]],
  ]);
  const outside = 'source is outside the corpus root: use a path relative to the corpus root, e.g. "docs/intro.md"';
  assert.deepEqual(r.acceptance.stale.map((s) => [s.id, s.source, s.reason]), [
    ['up', '../emoji.md', outside], ['up2', 'a/../../emoji.md', outside], ['abs', '/etc/emoji.md', outside], ['win', 'C:\\emoji.md', outside],
  ]);
  // textOf only ever saw normalised, in-root sources (each once: views are memoised).
  assert.deepEqual(looked, ['emoji.md', 'a/b.md']);
  // The file itself is untouched: sources stay as written.
  assert.equal(r.updated.questions[0].evidence[0].source, './emoji.md');
  assert.equal(r.changed, false);
});

test('normaliseSource', () => {
  assert.equal(normaliseSource('./emoji.md'), 'emoji.md');
  assert.equal(normaliseSource('docs\\a.md'), 'docs/a.md');
  assert.equal(normaliseSource('docs/./x/../a.md'), 'docs/a.md');
  assert.equal(normaliseSource('docs/a.md'), 'docs/a.md');
  assert.equal(normaliseSource('../a.md'), undefined);
  assert.equal(normaliseSource('..\\a.md'), undefined);
  assert.equal(normaliseSource('/a.md'), undefined);
  assert.equal(normaliseSource('c:/a.md'), undefined);
  assert.equal(normaliseSource('.'), undefined);
});

test('excludedQuestionsSummary: questions and evidence items are counted separately and named', () => {
  const text = 'The first sentence of the document. The second sentence of the document.';
  const gt: GroundTruthFile = {
    spanproof: 1,
    questions: [
      // Two stale items in one question, plus a rejected one (too short) → counts under stale and rejected.
      { id: 'q1', question: '?', evidence: [{ source: 'd.md', exact: 'not in the text at all' }, { source: 'd.md', exact: 'also missing here' }, { source: 'd.md', exact: 'short' }] },
      { id: 'q2', question: '?', evidence: [{ source: 'd.md', exact: 'sentence of the document' }] }, // twice → ambiguous
      { id: 'q3', question: '?', evidence: [{ source: 'd.md', exact: 'The first sentence' }] }, // resolves
      { id: 'q4', question: '?', evidence: [{ source: 'gone.md', exact: 'a quote of a missing file' }] }, // stale
    ],
  };
  const a = resolveGroundTruth(gt, (s) => (s === 'd.md' ? text : undefined)).acceptance;
  assert.deepEqual([a.total, a.resolved, a.stale.length, a.ambiguous.length, a.rejected.length], [4, 1, 3, 1, 1]);
  // Excluded questions: q1, q2, q4 = 3. With stale evidence: q1, q4 = 2; ambiguous: q2 = 1; rejected: q1 = 1.
  assert.equal(excludedQuestionsSummary(a), '3 of 4 questions excluded: 2 with stale, 1 with ambiguous, 1 with rejected evidence (evidence items: 3 stale, 1 ambiguous, 1 rejected)');
  assert.equal(excludedQuestionsSummary(resolveGroundTruth({ spanproof: 1, questions: [gt.questions[2]] }, () => text).acceptance), undefined);
});
