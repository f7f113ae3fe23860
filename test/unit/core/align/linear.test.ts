/**
 * Issue #16 item 13 follow-up: the fuzzy step searched the longest common block with difflib's
 * find_longest_match over the whole document (|excerpt| × |document| region; a 999-character excerpt
 * took seconds in an 80 kB contract and more in 390 kB). The work is counted, never timed: the block
 * search must be one pass over the document (≤ 2 steps per code unit of the normalised document) and
 * the ratio work stays within its budget, so a 5× longer document costs ≤ 5× the search and the same
 * ratios; of those, only the windows whose length could beat the best ratio are compared with difflib. The spans are the ones the whole-document difflib search gave (computed with that
 * implementation, commit 762ca9c, before the change) on CUAD-like excerpts in long generated contracts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { alignExcerpt, MAX_RATIO_WORK, type Alignment, type AlignmentWork } from '../../../../src/core/align';
import { cuadLikeCases, generatedContract, passage } from '../../../helpers/contracts';

/** [start, end, similarity] per case, from the whole-document difflib search (762ca9c). */
const BEFORE: Record<string, [number, number, number]> = {
  '999 chars in 80 kB: a changed word, a dropped comma, curly quotes': [48002, 49001, 0.985],
  '999 chars in 390 kB: a changed word, a dropped comma, curly quotes': [117008, 118006, 0.989],
  '300 chars in 390 kB: a typo and a double space': [300004, 300304, 0.995],
  'the start of the contract, a changed word': [2, 500, 0.999],
  'the end of the contract, a dropped word': [79405, 80000, 0.997],
  'a short clause with a typo': [200007, 200067, 0.983],
  'all punctuation dropped, line breaks for spaces': [20002, 20805, 0.976],
  'a repeated clause: the typo\'d copy of section 40': [46504, 46728, 0.969],
};

test('CUAD-like excerpts in long contracts align to the same spans as the whole-document search', () => {
  const cases = cuadLikeCases();
  assert.deepEqual(cases.map((c) => c.name).sort(), Object.keys(BEFORE).sort());
  for (const c of cases) {
    const a = alignExcerpt(c.text, c.excerpt) as Alignment;
    assert.equal(a.method, 'fuzzy', c.name);
    assert.deepEqual([a.start, a.end, a.similarity], BEFORE[c.name], c.name);
  }
});

test('the fuzzy step is linear in the document: one pass for the block, the ratio work within its budget', () => {
  const fresh = (): AlignmentWork => ({ blockSteps: 0, ratio: 0, compared: 0 });
  const runs = [80_000, 390_000].map((chars) => {
    const text = generatedContract(chars, 5);
    const excerpt = passage(text, Math.floor(chars * 0.6), 999).text.replace(' shall ', ' will ').replace(',', '');
    const work = fresh();
    const a = alignExcerpt(text, excerpt, work) as Alignment;
    assert.equal(a.method, 'fuzzy');
    assert.ok(a.similarity > 0.98, `${chars}: similarity ${a.similarity}`);
    assert.ok(work.blockSteps <= 2 * text.length, `${chars}: ${work.blockSteps} block steps for a ${text.length}-unit document`);
    assert.ok(work.ratio <= MAX_RATIO_WORK + 4 * excerpt.length ** 2, `${chars}: ratio work ${work.ratio}`);
    // the edge moves that change the length too much to beat the best ratio are not compared
    assert.ok(work.compared <= 20, `${chars}: ${work.compared} windows compared`);
    return { chars, work };
  });
  const [small, large] = runs;
  const docRatio = large.chars / small.chars;
  assert.ok(large.work.blockSteps / small.work.blockSteps <= docRatio * 1.05, `block steps ×${(large.work.blockSteps / small.work.blockSteps).toFixed(2)} for a ×${docRatio.toFixed(2)} document`);
  assert.ok(large.work.ratio <= small.work.ratio * 1.5, `ratio work ${small.work.ratio} → ${large.work.ratio}`);
});
