/**
 * Canary planting (issue #17 item 1): deterministic by seed, never inside evidence, never splitting a
 * CRLF or surrogate pair, and every offset exact in the copy (a planted canary shifts later offsets).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { plantCanaries, XPIA_KINDS, CANARY_LENGTHS, type PlantedCorpus } from '../../../../src/core/safety';
import type { Span } from '../../../../src/core/types';

const para = (i: number, eol: string) => `Paragraph ${i} explains setting number ${i} in some detail, with enough words to matter.${eol}`;
/** Three documents: LF, CRLF and one with astral characters (surrogate pairs) on every line. */
function corpus(): { docs: { source: string; text: string }[]; spans: Span[] } {
  const lf = Array.from({ length: 60 }, (_, i) => para(i, '\n') + '\n').join('');
  const crlf = Array.from({ length: 40 }, (_, i) => para(i, '\r\n') + '\r\n').join('');
  const astral = Array.from({ length: 30 }, (_, i) => `Line ${i} 😀 has an emoji 🎉 and text.\n`).join('');
  const docs = [{ source: 'a/lf.md', text: lf }, { source: 'b/crlf.md', text: crlf }, { source: 'c/astral.md', text: astral }];
  const at = (text: string, q: string) => ({ start: text.indexOf(q), end: text.indexOf(q) + q.length });
  const spans: Span[] = [
    { source: 'a/lf.md', ...at(lf, 'setting number 3 in some detail, with enough words to matter.\n\nParagraph 4 explains') },
    { source: 'a/lf.md', ...at(lf, para(40, '\n')) }, // starts and ends at a line start: canaries right before and right after it
    { source: 'b/crlf.md', ...at(crlf, 'number 7 in some detail, with enough words to matter.\r') }, // ends between the \r and \n of a CRLF
    { source: 'c/astral.md', ...at(astral, '😀 has an emoji 🎉 and text.\nLine 11') },
  ];
  for (const s of spans) assert.ok(s.start >= 0);
  return { docs, spans };
}

/** The copy with every canary block (text + two EOLs) cut out again. */
function unplant(p: PlantedCorpus, source: string): string {
  let t = p.texts.get(source)!;
  for (const c of [...p.canaries].filter((x) => x.source === source).sort((a, b) => b.start - a.start)) {
    const eol = t.slice(c.end, c.end + 2) === '\r\n' ? '\r\n' : '\n';
    assert.equal(t.slice(c.end, c.end + 2 * eol.length), eol + eol, `${c.id} is followed by a blank line`);
    t = t.slice(0, c.start) + t.slice(c.end + 2 * eol.length);
  }
  return t;
}

test('planting is deterministic by seed and differs across seeds', () => {
  const { docs, spans } = corpus();
  const a = plantCanaries(docs, spans, { seed: 42 });
  const b = plantCanaries(docs, spans, { seed: 42 });
  assert.deepEqual(a.canaries, b.canaries);
  assert.deepEqual([...a.texts], [...b.texts]);
  const c = plantCanaries(docs, spans, { seed: 43 });
  assert.notDeepEqual(c.canaries.map((x) => [x.source, x.start, x.text]), a.canaries.map((x) => [x.source, x.start, x.text]));
  // input order does not matter (documents are taken in source order)
  assert.deepEqual(plantCanaries([...docs].reverse(), spans, { seed: 42 }).canaries, a.canaries);
});

test('4 per kind: every kind and length, near and far, several documents; markers unique', () => {
  const { docs, spans } = corpus();
  const p = plantCanaries(docs, spans, { seed: 42, perKind: 4 });
  assert.equal(p.canaries.length, 12);
  for (const k of XPIA_KINDS) assert.equal(p.canaries.filter((c) => c.kind === k).length, 4);
  for (const l of CANARY_LENGTHS) assert.ok(p.canaries.some((c) => c.length === l), l);
  assert.ok(p.canaries.some((c) => c.placement === 'near') && p.canaries.some((c) => c.placement === 'far'));
  assert.ok(new Set(p.canaries.map((c) => c.source)).size >= 2);
  const tags = p.canaries.map((c) => /SPX-[0-9A-F]{6}/.exec(c.text)![0]);
  assert.equal(new Set(tags).size, tags.length);
  assert.equal(new Set(p.canaries.map((c) => c.id)).size, 12);
  // near canaries sit closer to evidence than far ones (FAR_MIN = 1500 is reachable in a/lf.md)
  const near = p.canaries.filter((c) => c.placement === 'near').map((c) => c.distance ?? Infinity);
  assert.ok(Math.max(...near) < 200, `near distances ${near}`);
});

test('offsets are exact in the copy: canaries, every evidence span, and the rest of the text', () => {
  const { docs, spans } = corpus();
  for (const seed of [1, 2, 3, 42, 99]) {
    const p = plantCanaries(docs, spans, { seed, perKind: 5 });
    for (const c of p.canaries) {
      const t = p.texts.get(c.source)!;
      assert.equal(t.slice(c.start, c.end), c.text, `${seed} ${c.id}`);
      assert.ok(c.start === 0 || t[c.start - 1] === '\n', 'at a line start');
    }
    for (const s of spans) {
      const orig = docs.find((d) => d.source === s.source)!.text;
      const m = p.mapSpan(s);
      assert.equal(p.texts.get(s.source)!.slice(m.start, m.end), orig.slice(s.start, s.end), `seed ${seed} span ${s.source}@${s.start}`);
      for (const c of p.canaries.filter((x) => x.source === s.source)) assert.ok(c.end <= m.start || c.start >= m.end, 'never inside evidence');
    }
    for (const d of docs) assert.equal(unplant(p, d.source), d.text, 'removing the canaries gives the original back');
    // a planted document shifts later offsets: some evidence moved
    assert.ok(spans.some((s) => p.mapSpan(s).start !== s.start) || seed !== 42);
  }
});

test('never splits a CRLF or a surrogate pair; CRLF documents get CRLF blank lines', () => {
  const { docs, spans } = corpus();
  for (const seed of [5, 6, 7, 8]) {
    const p = plantCanaries(docs, spans, { seed, perKind: 6 });
    const crlf = p.texts.get('b/crlf.md')!;
    assert.doesNotMatch(crlf, /\r(?!\n)|(?<!\r)\n/);
    const astral = p.texts.get('c/astral.md')!;
    assert.doesNotMatch(astral, /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
  }
});

test('bad input: no documents, perKind < 1', () => {
  assert.throws(() => plantCanaries([], [], { seed: 1 }), /at least one document/);
  assert.throws(() => plantCanaries([{ source: 'a', text: 'x\n' }], [], { seed: 1, perKind: 0 }), /canaries per kind/);
});
