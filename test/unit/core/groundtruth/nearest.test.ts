import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { decodeDocument } from '../../../../src/core/corpus';
import { resolveEvidence } from '../../../../src/core/groundtruth';
import { nearestMatch } from '../../../../src/core/groundtruth/nearest';
import { SHARED_DATA } from '../../../helpers/paths';
import { createRng } from '../../../../src/core/stats/rng';

test('nearest: the window covers the quote\'s leading and trailing punctuation where the document has it', () => {
  const text = 'He said: “Hello there, my old friend.” Then left.';
  // One word edited ("old" → "dear"): tokens hello there my dear friend (5); the window matches 4 → 0.8.
  const n = nearestMatch('“Hello there, my dear friend.”', text)!;
  // "He said: " = 9 units, so “ is at 9; the closing ” is at 37 → [9, 38).
  assert.equal(text.slice(9, 38), '“Hello there, my old friend.”');
  assert.deepEqual(n, { start: 9, end: 38, line: 1, text: '“Hello there, my old friend.”', similarity: 0.8 });
  // Punctuation the document does not have next to the window is not invented: ". " vs "!".
  const m = nearestMatch('Hello there, my dear friend!', text)!;
  assert.equal(m.text, 'Hello there, my old friend');
  // Edge token differs from the quote's edge token ("friend" edited) → no widening at that end.
  assert.equal(nearestMatch('“Hello there, my old pal.”', text)!.text, '“Hello there, my old');
});

test('nearest: widening never splits a surrogate pair', () => {
  // The quote ends with 😀 (D83D DE00); the document with 🙀 (D83D DE40): only the high surrogate agrees.
  const text = 'alpha beta gamma delta 🙀 end';
  const n = nearestMatch('alpha beta gamma delta 😀', text)!;
  assert.equal(n.text, 'alpha beta gamma delta ');
  assert.equal(n.end, 23);
});

const DEVIL = path.join(SHARED_DATA, 'prose', 'devils-dictionary_pg972.txt');
test('nearest: real case — an edited word inside the CYNIC quote keeps the closing "." (prose corpus)', () => {
  const doc = decodeDocument('devils-dictionary_pg972.txt', readFileSync(DEVIL));
  assert.ok('text' in doc);
  // From ../shared/data/prose.groundtruth.json pr-d-001 (start 51030, end 51124), "blackguard" → "scoundrel".
  const original = 'CYNIC, n.  A blackguard whose faulty vision sees things as they are,\r\nnot as they ought to be.';
  assert.equal(doc.text.slice(51030, 51124), original);
  const r = resolveEvidence({ source: doc.source, exact: original.replace('blackguard', 'scoundrel'), start: 51030, end: 51124 }, doc.text);
  assert.equal(r.status, 'stale');
  const near = (r as { nearest?: { start: number; end: number; text: string } }).nearest!;
  assert.ok(near.text.endsWith('be.'), near.text);
  assert.equal(near.start, 51030);
  assert.equal(near.end, 51124);
  assert.equal(near.text, original);
});

test('nearest (#16 item 14): the typed-array window finds the same best window as a brute-force count of every window (random documents, repeated and absent words)', () => {
  const rng = createRng(7);
  const words = ['alpha', 'beta', 'gamma', 'delta', 'eps', 'zeta', 'eta', 'theta', 'Alpha', 'BETA'];
  const pick = () => words[Math.floor(rng() * words.length)];
  const tok = (s: string) => [...s.matchAll(/[\p{L}\p{N}\p{M}_]+/gu)].map((m) => m[0].toLowerCase());
  for (let round = 0; round < 300; round++) {
    const docWords = Array.from({ length: 5 + Math.floor(rng() * 60) }, pick);
    const text = docWords.join(rng() < 0.5 ? ' ' : ', ') + '.';
    const qWords = Array.from({ length: 2 + Math.floor(rng() * 8) }, () => (rng() < 0.15 ? 'absent' : pick()));
    const quote = qWords.join(' ');
    // brute force: overlap of every window of m document tokens with the quote's multiset, first best
    const d = tok(text), q = tok(quote), m = q.length, w = Math.min(m, d.length);
    let best = -1;
    for (let i = 0; i + w <= d.length; i++) {
      const need = new Map<string, number>();
      for (const t of q) need.set(t, (need.get(t) ?? 0) + 1);
      let o = 0;
      for (const t of d.slice(i, i + w)) if ((need.get(t) ?? 0) > 0) { need.set(t, need.get(t)! - 1); o++; }
      best = Math.max(best, o);
    }
    const want = Math.round((best / m) * 1000) / 1000;
    const got = nearestMatch(quote, text);
    if (want < 0.5) assert.equal(got, undefined, `round ${round}: ${quote} in ${text}`);
    else {
      assert.equal(got?.similarity, want, `round ${round}: ${quote} in ${text}`);
      assert.equal(got!.text, text.slice(got!.start, got!.end));
    }
  }
});
