/**
 * Sections, passages and the seeded sampling that spreads passages over documents and sections
 * (issue #14 §4). Expected sections and counts are read off the test documents by hand.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sha256Hex } from '../../../../src/core/corpus';
import { documentSections, samplePassages, sectionPassages } from '../../../../src/core/draft';
import type { CorpusDocument } from '../../../../src/core/types';

const doc = (source: string, text: string): CorpusDocument => ({ source, text, sha256: sha256Hex(text), bytes: Buffer.byteLength(text) });
const para = (tag: string) => `This paragraph about ${tag} is long enough to be a passage of its own, with more than eighty characters in it.`;

test('documentSections: front matter skipped, text before the first heading is a section without heading, ATX and Setext headings, code fences are not headings', () => {
  const text = `---\ntitle: x\n---\nIntro text.\n\n# First #\n\n${para('a')}\n\n\`\`\`\n# not a heading\n\`\`\`\n\nSecond\n======\n\n${para('b')}\n`;
  const s = documentSections(doc('a.md', text));
  assert.deepEqual(s.map((x) => [x.heading, x.line]), [[null, 4], ['First', 6], ['Second', 14]]);
  assert.equal(s[0].start, text.indexOf('Intro'));
  assert.equal(s[1].start, text.indexOf('# First'));
  assert.equal(s[2].end, text.length);
  assert.deepEqual(documentSections(doc('a.txt', `# not markdown\n${para('c')}`)).map((x) => x.heading), [null]);
});

test('sectionPassages: verbatim slices of at most maxChars, cut at blank lines, lone headings dropped', () => {
  const text = `# H\n\n${para('a')}\n\n${para('b')}\n\n${para('c')}\n\n## Empty\n\n## Last\n\n${para('d')}\n`;
  const d = doc('a.md', text);
  const [h, empty, last] = documentSections(d);
  const ps = sectionPassages(d, h, 250);
  // Each paragraph is 110 characters: "# H\n\n" + a (115) fits with b? 115 + 2 + 110 = 227 ≤ 250 → [H+a+b], [c].
  assert.deepEqual(ps.map((p) => text.slice(p.start, p.end)), [`# H\n\n${para('a')}\n\n${para('b')}`, para('c')]);
  assert.deepEqual(sectionPassages(d, empty, 250), []);
  assert.equal(sectionPassages(d, last, 250).length, 1);
  for (const p of ps) assert.ok(p.end - p.start <= 250);
});

function corpus(): CorpusDocument[] {
  return ['a', 'b', 'c'].map((n) => doc(`${n}.md`, `# ${n}1\n\n${para(`${n}1`)}\n\n# ${n}2\n\n${para(`${n}2`)}\n`));
}

test('samplePassages spreads round-robin: 6 questions over 3 documents × 2 sections → every section once', () => {
  const plan = samplePassages(corpus(), { count: 6, seed: 1 });
  assert.equal(plan.length, 6);
  assert.deepEqual(plan.map((p) => p.questions), [1, 1, 1, 1, 1, 1]);
  const headings = plan.map((p) => p.passage.heading).sort();
  assert.deepEqual(headings, ['a1', 'a2', 'b1', 'b2', 'c1', 'c2']);
  // The first round visits each document once before any document is visited twice.
  assert.equal(new Set(plan.slice(0, 3).map((p) => p.passage.source)).size, 3);
});

test('samplePassages is deterministic for a seed, different for another, and honours perDocument and perPassage', () => {
  const key = (seed: number) => samplePassages(corpus(), { count: 4, seed }).map((p) => `${p.passage.source}:${p.passage.start}`).join(' ');
  assert.equal(key(7), key(7));
  assert.ok([1, 2, 3, 4, 5, 6, 7, 8].some((s) => key(s) !== key(7)), 'some other seed gives another order');
  const capped = samplePassages(corpus(), { count: 6, perDocument: 1 });
  assert.equal(capped.length, 3);
  assert.equal(new Set(capped.map((p) => p.passage.source)).size, 3);
  const twoEach = samplePassages(corpus(), { count: 5, perPassage: 2 });
  assert.deepEqual(twoEach.map((p) => p.questions), [2, 2, 1]);
  // More questions wanted than passages exist: every passage once, then stop.
  assert.equal(samplePassages(corpus(), { count: 50 }).length, 6);
});
