// Span metrics and their building blocks at the edges StrykerJS found untested (#16 item 25):
// the τ comparison at exactly τ − ε, the evidence checks' error values, the greedy ideal's tie-break
// by chunk index whatever the candidates' order, pair coverage across sources, questionMetrics'
// analysis check, the key set, coverageAt's cut at k and a hit at the last rank. Expected values by
// hand in the comments.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Chunk, Span } from '../../../../src/core/types';
import { analyzeIndex, coverageAt, questionMetrics, reciprocalRank } from '../../../../src/core/metrics/span';
import { checkEvidence, greedyIdealGains, pairCoverage, reaches, targetOf, TAU_EPSILON } from '../../../../src/core/metrics/spanSets';

const ch = (source: string, start: number, end: number): Chunk => ({ source, start, end, id: `${source}#${start}-${end}`, text: '' });
const sp = (source: string, start: number, end: number): Span => ({ source, start, end });
const near = (a: number, b: number): void => assert.ok(Math.abs(a - b) < 1e-12, `${a} ≠ ${b}`);

test('reaches: coverage exactly τ − ε counts, anything below does not', () => {
  assert.equal(reaches(1 - TAU_EPSILON, 1), true); // the same double on both sides of ≥
  assert.equal(reaches(1 - 2 * TAU_EPSILON, 1), false);
});

test('checkEvidence: no span, an empty span and a negative start are bad input naming the field and the fix', () => {
  assert.throws(() => checkEvidence([]), (e: Error & { code?: string; field?: string; fix?: string }) =>
    e.code === 'bad-input' && e.field === 'evidence' && e.fix === 'Exclude unresolved questions before scoring.' && /A question has no resolved evidence span\./.test(e.message));
  const cases: Array<[Span[], number, string]> = [
    [[sp('a', 0, 4), sp('d', 5, 5)], 1, '[5, 5)'],
    [[sp('d', -3, 4)], 0, '[-3, 4)'],
    [[sp('d', 6, 2)], 0, '[6, 2)'],
  ];
  for (const [bad, i, range] of cases) {
    assert.throws(() => checkEvidence(bad), (e: Error & { code?: string; field?: string; fix?: string }) =>
      e.code === 'bad-input' && e.field === `evidence[${i}]` && e.fix === 'Spans are half-open [start, end) with 0 ≤ start < end.' &&
      e.message.includes(`Evidence span ${range} of d is empty or negative.`));
  }
  // the scorers check too: a negative start would otherwise be counted as covered length
  assert.throws(() => coverageAt(sp('a', -5, 5), [ch('a', 0, 10)], [0], 1), { name: 'SpanproofError' });
});

test('greedy ideal gains: ties go to the lowest chunk index whatever the candidates\' order; a larger gain beats a lower index', () => {
  // target [0,8); c0 [2,6), c1 [0,4), c2 [4,8): each adds 4 first.
  // lowest index c0 first → c1 adds [0,2) = 2, c2 adds [6,8) = 2, tie → c1, then c2 adds 2: gains 4/8, 2/8, 2/8.
  // (c2 or c1 first would give 4/8, 4/8.)
  const chunks = [ch('a', 2, 6), ch('a', 0, 4), ch('a', 4, 8)];
  const t = targetOf([sp('a', 0, 8)]);
  for (const order of [[0, 1, 2], [2, 1, 0], [1, 2, 0]]) assert.deepEqual(greedyIdealGains(chunks, order, t.target, t.length), [0.5, 0.25, 0.25], String(order));
  // c0 [0,2) adds 2, c1 [0,6) adds 6: c1 first although listed later and of a higher index → 6/8, then c0 adds 0.
  const two = [ch('a', 0, 2), ch('a', 0, 6)];
  assert.deepEqual(greedyIdealGains(two, [1, 0], t.target, t.length), [0.75]);
  assert.deepEqual(greedyIdealGains(two, [0, 1], t.target, t.length), [0.75]);
  // a candidate of another document adds nothing (and is no error)
  assert.deepEqual(greedyIdealGains([ch('zz', 0, 8), ch('a', 0, 2)], [0, 1], t.target, t.length), [0.25]);
});

test('pairCoverage counts only chunks of the span\'s document, and their shared part once', () => {
  const e = sp('a', 0, 10);
  // a of doc b covers nothing of e; b = a[0,5) → 5/10
  near(pairCoverage(sp('b', 0, 10), sp('a', 0, 5), e), 0.5);
  // both of doc b → 0 (no shared part subtracted)
  near(pairCoverage(sp('b', 0, 10), sp('b', 0, 10), e), 0);
  // a = a[0,10) (10), b of doc b: no shared part → 10/10
  near(pairCoverage(sp('a', 0, 10), sp('b', 0, 10), e), 1);
  // same document, overlap [3,5) counted once: (5 + 7 − 2)/10
  near(pairCoverage(sp('a', 0, 5), sp('a', 3, 10), e), 1);
});

// doc a: a0 [0,5), a1 [5,30); doc b: b0 [0,20), b1 [20,40). e1 = a[0,10), e2 = b[0,20).
const M = [ch('a', 0, 5), ch('a', 5, 30), ch('b', 0, 20), ch('b', 20, 40)];
const eM = [sp('a', 0, 10), sp('b', 0, 20)];

test('questionMetrics refuses an analysis of another match mode or another number of spans, as an invariant', () => {
  const all = analyzeIndex(eM, 'all', M, 0.9);
  const isInvariant = (e: Error & { code?: string }) => e.code === 'invariant' && /another τ, match or evidence/.test(e.message);
  assert.throws(() => questionMetrics(eM, 'any', M, [0], all, 5, 0.9), isInvariant);
  assert.throws(() => questionMetrics([eM[0]], 'all', M, [0], all, 5, 0.9), isInvariant);
  assert.throws(() => questionMetrics(eM, 'all', M, [9], all, 5, 0.9), (e: Error & { code?: string }) =>
    e.code === 'invariant' && e.message.includes('Ranked list holds chunk index 9, outside the index of 4 chunks.'));
});

test('`any` nDCG normalises each alternative by its own ideal', () => {
  const an = analyzeIndex(eM, 'any', M, 0.9);
  // final b1, a1, a0, b0. e1: gains r2 5/10, r3 5/10; its ideal (a0, a1 tie at 5) [0.5, 0.5]
  //   → (0.5/log2 3 + 0.5/2) / (0.5 + 0.5/log2 3) ≈ 0.6934
  // e2: b0 at rank 4 → 1/log2 5 over its ideal 1 ≈ 0.4307; the best counts
  const m = questionMetrics(eM, 'any', M, [3, 1, 0, 2], an, 5, 0.9);
  near(m['ndcg@5'], (0.5 / Math.log2(3) + 0.25) / (0.5 + 0.5 / Math.log2(3)));
});

test('the keys of questionMetrics: the fixed cutoffs, k and the extra cutoffs, nothing else', () => {
  const an = analyzeIndex(eM, 'all', M, 0.9);
  const keys = (extra?: { hitCoverage?: number[]; ndcg?: number[] }) => Object.keys(questionMetrics(eM, 'all', M, [0], an, 5, 0.9, extra)).sort();
  const base = ['coverage@1', 'hit@1', 'coverage@3', 'hit@3', 'coverage@5', 'hit@5', 'coverage@10', 'hit@10', 'rr', 'ndcg@5', 'ndcg@10',
    'precision@5', 'iou@5', 'iou_chroma@5', 'precision_omega', 'reachable', 'contextChars', 'sumChars@5'];
  assert.deepEqual(keys(), [...base].sort());
  assert.deepEqual(keys({ hitCoverage: [7], ndcg: [3] }), [...base, 'coverage@7', 'hit@7', 'ndcg@3'].sort());
});

test('coverageAt cuts the list at k; reciprocalRank finds a hit at the last rank', () => {
  // doc a: c0 [0,50), c1 [40,100); e = [30,70): c0 alone covers [30,50) = 20/40
  const A = [ch('a', 0, 50), ch('a', 40, 100), ch('b', 0, 100)];
  near(coverageAt(sp('a', 30, 70), A, [0, 1], 1), 0.5);
  // [c2, c0, c1]: coverage 0, 0.5, 1 → first hit (τ = 0.9) at rank 3, the last
  near(reciprocalRank([sp('a', 30, 70)], 'all', A, [2, 0, 1], 0.9), 1 / 3);
});
