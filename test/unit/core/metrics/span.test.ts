// Span metrics (SPEC §7.1) against hand-computed cases; the arithmetic is written beside each value.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Chunk, Span } from '../../../../src/core/types';
import {
  analyzeIndex,
  coverageAt,
  hitAt,
  hitFromCoverages,
  questionMetrics,
  reciprocalRank,
  spanCoveragesAt,
} from '../../../../src/core/metrics/span';

/** A chunk of a synthetic document whose text is all 'x' (metrics only read offsets). */
function chunk(source: string, start: number, end: number): Chunk {
  return { source, start, end, id: `${source}#${start}-${end}`, text: 'x'.repeat(end - start) };
}
const span = (source: string, start: number, end: number): Span => ({ source, start, end });
const near = (a: number, b: number): void => assert.ok(Math.abs(a - b) < 1e-12, `${a} ≠ ${b}`);

// Index A: doc a = c0 [0,50), c1 [40,100) (overlaps c0 on [40,50)), c2 [100,150); doc b = c3 [0,100).
const A = [chunk('a', 0, 50), chunk('a', 40, 100), chunk('a', 100, 150), chunk('b', 0, 100)];
const eA = [span('a', 30, 70)]; // |e| = 40

test('two overlapping chunks covering one span: coverage counts the overlap once', () => {
  // c0 ∩ e = [30,50) = 20 → 20/40
  near(coverageAt(eA[0], A, [0], 1), 0.5);
  // c1 ∩ e = [40,70) = 30 → 30/40
  near(coverageAt(eA[0], A, [1], 1), 0.75);
  // (c0 ∪ c1) ∩ e = [30,70) = 40 (not 20 + 30 = 50) → 1
  near(coverageAt(eA[0], A, [0, 1], 2), 1);
  // k larger than the list uses the whole list
  near(coverageAt(eA[0], A, [0, 1], 10), 1);
});

test('questionMetrics on index A with final order [c3, c0, c1, c2], k = 5, τ = 0.9', () => {
  const an = analyzeIndex(eA, 'all', A, 0.9);
  // best single chunk c1: 30/40 = 0.75 < 0.9 → not reachable; c0+c1 are adjacent and reach 1.0
  assert.equal(an.reachable, false);
  assert.equal(an.bestChunk, 1);
  near(an.bestCoverage, 0.75);
  assert.deepEqual(an.answering, []);
  assert.equal(an.adjacentPairReaches, true);
  assert.deepEqual(an.touching, [0, 1]);
  const m = questionMetrics(eA, 'all', A, [3, 0, 1, 2], an, 5, 0.9);
  near(m['coverage@1'], 0); // c3 is in doc b
  near(m['coverage@3'], 1); // c3, c0, c1 → [30,70)
  assert.equal(m['hit@1'], 0);
  assert.equal(m['hit@3'], 1);
  near(m.rr, 1 / 3); // first hit at rank 3
  // gains: r1 0, r2 20/40 (c0), r3 20/40 (c1 adds [50,70)), r4 0
  // DCG = 0.5/log2(3) + 0.5/log2(4); ideal greedy = c1 (30/40) then c0 (10/40): 0.75 + 0.25/log2(3)
  near(m['ndcg@5'], (0.5 / Math.log2(3) + 0.5 / 2) / (0.75 + 0.25 / Math.log2(3))); // ≈ 0.6229
  near(m['ndcg@10'], m['ndcg@5']);
  // ∪R₁..R₄ = a:[0,150) (150) + b:[0,100) (100) = 250; ∩E = 40; Σ|Rᵢ| = 100 + 50 + 60 + 50 = 260
  near(m['precision@5'], 40 / 250);
  near(m['iou@5'], 40 / (250 + 40 - 40)); // union form |∪R ∩ E| / |∪R ∪ E|
  near(m['iou_chroma@5'], 40 / (260 + 40 - 40)); // Chroma: Σ|Rᵢ| + |E| − |∩|
  assert.equal(m.contextChars, 250);
  assert.equal(m['sumChars@5'], 260);
  // Precision_Ω: touching c0, c1 → ∪ = [0,100) = 100, ∩E = 40
  near(m.precision_omega, 0.4);
  assert.equal(m.reachable, 0);
  // τ = 0.7: c1 alone (0.75) answers
  const an7 = analyzeIndex(eA, 'all', A, 0.7);
  assert.equal(an7.reachable, true);
  assert.deepEqual(an7.answering, [1]);
  assert.equal(questionMetrics(eA, 'all', A, [3, 1, 0, 2], an7, 5, 0.7).rr, 1 / 2);
});

test('nDCG with a worse-than-ideal order', () => {
  // e = [0,100) of doc a; c0 [0,30), c1 [30,100), c2 [100,200)
  const idx = [chunk('a', 0, 30), chunk('a', 30, 100), chunk('a', 100, 200)];
  const e = [span('a', 0, 100)];
  const an = analyzeIndex(e, 'all', idx, 0.9);
  assert.deepEqual(an.idealGains, [0.7, 0.3]); // greedy: c1 (70) then c0 (30)
  near(an.idcg.at5, 0.7 + 0.3 / Math.log2(3)); // ≈ 0.88928
  const m = questionMetrics(e, 'all', idx, [2, 0, 1], an, 5, 0.9);
  // gains 0, 0.3, 0.7 → DCG = 0.3/log2(3) + 0.7/log2(4) ≈ 0.53928; nDCG ≈ 0.60642
  near(m['ndcg@5'], (0.3 / Math.log2(3) + 0.7 / 2) / (0.7 + 0.3 / Math.log2(3)));
  // the ideal order scores 1
  near(questionMetrics(e, 'all', idx, [1, 0, 2], an, 5, 0.9)['ndcg@5'], 1);
  // nothing relevant retrieved → 0
  near(questionMetrics(e, 'all', idx, [2], an, 5, 0.9)['ndcg@5'], 0);
});

test('nDCG is clamped to 1 where the greedy ideal is not optimal at a small k', () => {
  // e = [0,10); B [0,5) (idx 0), A [2,8) (idx 1), C [5,10) (idx 2)
  const idx = [chunk('a', 0, 5), chunk('a', 2, 8), chunk('a', 5, 10)];
  const e = [span('a', 0, 10)];
  const an = analyzeIndex(e, 'all', idx, 0.9);
  // greedy: A (6/10), then B and C add 2/10 each, tie → lowest index B, then C
  assert.deepEqual(an.idealGains, [0.6, 0.2, 0.2]);
  // list [B, C] at k = 2: DCG = 0.5 + 0.5/log2(3) ≈ 0.8155 > greedy IDCG@2 = 0.6 + 0.2/log2(3) ≈ 0.7262 → clamped to 1
  assert.equal(questionMetrics(e, 'all', idx, [0, 2], an, 2, 0.9)['ndcg@2'], 1);
});

// Index M: doc a = a0 [0,5), a1 [5,30); doc b = b0 [0,20), b1 [20,40). Evidence e1 = a[0,10) (10), e2 = b[0,20) (20).
const M = [chunk('a', 0, 5), chunk('a', 5, 30), chunk('b', 0, 20), chunk('b', 20, 40)];
const eM = [span('a', 0, 10), span('b', 0, 20)];
const finalM = [2, 1, 0, 3]; // b0, a1, a0, b1

test('multi-span `all`: hit needs every span, coverage is the mean, nDCG/precision/IoU use the union E', () => {
  const an = analyzeIndex(eM, 'all', M, 0.9);
  assert.equal(an.evidenceLength, 30);
  // e1: best a1 covers [5,10) = 0.5, a0 covers 0.5 → not reachable; e2: b0 covers 1 → reachable
  assert.equal(an.reachable, false);
  near(an.bestCoverage, (0.5 + 1) / 2);
  assert.equal(an.bestChunk, 0); // best chunk of the worst span e1 (a0 and a1 tie at 0.5 → lowest index)
  assert.equal(an.adjacentPairReaches, true); // e1 by a0+a1, e2 by b0 alone
  const m = questionMetrics(eM, 'all', M, finalM, an, 5, 0.9);
  near(m['coverage@1'], (0 + 1) / 2); // e1 0, e2 20/20
  assert.equal(m['hit@1'], 0);
  near(m['coverage@3'], 1); // r2 adds [5,10) of e1, r3 adds [0,5)
  assert.equal(m['hit@3'], 1);
  near(m.rr, 1 / 3);
  // gains over E (30): 20/30, 5/30, 5/30, 0; the greedy ideal (b0, a0, a1) has the same gains → 1
  near(m['ndcg@5'], 1);
  // ∪R = a:[0,30) 30 + b:[0,40) 40 = 70; ∩E = 30; Σ|Rᵢ| = 20 + 25 + 5 + 20 = 70
  near(m['precision@5'], 30 / 70);
  near(m['iou@5'], 30 / (70 + 30 - 30));
  near(m['iou_chroma@5'], 30 / (70 + 30 - 30));
  // Precision_Ω: touching a0, a1, b0 → ∪ = 30 + 20 = 50; ∩E = 30
  near(m.precision_omega, 30 / 50);
});

test('multi-span `any`: each alternative alone, the best counts', () => {
  const an = analyzeIndex(eM, 'any', M, 0.9);
  assert.equal(an.reachable, true); // e2 by b0
  assert.equal(an.bestChunk, 2);
  const m = questionMetrics(eM, 'any', M, finalM, an, 5, 0.9);
  near(m['coverage@1'], 1); // max(0, 1)
  assert.equal(m['hit@1'], 1);
  near(m.rr, 1);
  near(m['ndcg@5'], 1); // e2: DCG 1 / IDCG 1 (e1 alone: (0.5/log2 3 + 0.5/2)/(0.5 + 0.5/log2 3) ≈ 0.693)
  near(m['precision@5'], 20 / 70); // max(e1: 10/70, e2: 20/70)
  near(m['iou@5'], 20 / (70 + 20 - 20));
  near(m.precision_omega, 1); // e2: touching b0 = [0,20) all evidence; e1: 10/30
  // with only a1 retrieved: e1 0.5, e2 0 → coverage 0.5, no hit; precision max(5/25, 0)
  const m2 = questionMetrics(eM, 'any', M, [1], an, 5, 0.9);
  near(m2['coverage@5'], 0.5);
  assert.equal(m2['hit@5'], 0);
  near(m2['precision@5'], 5 / 25);
  near(m2['iou@5'], 5 / (25 + 10 - 5)); // e1: |∪R ∪ e1| = [0,30) = 30
  assert.equal(m2.rr, 0);
});

test('IoU, both forms, with overlapping retrieved chunks', () => {
  // e = [10,30) (20); c0 [0,20), c1 [10,40)
  const idx = [chunk('a', 0, 20), chunk('a', 10, 40)];
  const e = [span('a', 10, 30)];
  const an = analyzeIndex(e, 'all', idx, 0.9);
  const m = questionMetrics(e, 'all', idx, [0, 1], an, 2, 0.9);
  // ∪R = [0,40) = 40, ∩E = 20, Σ|Rᵢ| = 20 + 30 = 50
  near(m['precision@2'], 20 / 40);
  near(m['iou@2'], 20 / (40 + 20 - 20)); // 0.5
  near(m['iou_chroma@2'], 20 / (50 + 20 - 20)); // 0.4: the overlap [10,20) counted twice
  // single chunk c0: ∩E = [10,20) = 10, ∪R = 20, |∪R ∪ E| = [0,30) = 30 → both forms 1/3
  const m1 = questionMetrics(e, 'all', idx, [0], an, 1, 0.9);
  near(m1['iou@1'], 10 / 30);
  near(m1['iou_chroma@1'], 10 / (20 + 20 - 10));
});

test('Precision_Ω counts every chunk touching E, once', () => {
  // e = [45,60); chunks [0,50), [40,100), [100,120): touching the first two, ∪ = [0,100)
  const idx = [chunk('a', 0, 50), chunk('a', 40, 100), chunk('a', 100, 120)];
  const an = analyzeIndex([span('a', 45, 60)], 'all', idx, 0.9);
  near(an.precisionOmega, 15 / 100);
  // nothing touches the span → 0, unreachable, no best chunk
  const none = analyzeIndex([span('zzz', 0, 10)], 'all', idx, 0.9);
  assert.equal(none.precisionOmega, 0);
  assert.equal(none.bestChunk, -1);
  assert.equal(none.reachable, false);
});

test('building blocks: hitAt, reciprocalRank, τ sweep from span coverages', () => {
  assert.equal(hitAt(eM, 'all', M, finalM, 2, 0.9), 0);
  assert.equal(hitAt(eM, 'all', M, finalM, 3, 0.9), 1);
  assert.equal(hitAt(eM, 'all', M, finalM, 2, 0.5), 1); // e1 0.5 ≥ 0.5, e2 1
  near(reciprocalRank(eM, 'all', M, finalM, 0.9), 1 / 3);
  const cov = spanCoveragesAt(eM, M, finalM, 2); // [0.5, 1]
  assert.deepEqual(cov, [0.5, 1]);
  assert.deepEqual([0.3, 0.5, 0.7, 0.9, 1.0].map((t) => hitFromCoverages(cov, 'all', t)), [1, 1, 0, 0, 0]);
  // 9/10 ≥ 0.9 holds exactly at the threshold
  assert.equal(hitFromCoverages([9 / 10], 'all', 0.9), 1);
});

test('bad input is rejected with a SpanproofError', () => {
  assert.throws(() => analyzeIndex([], 'all', M, 0.9), { name: 'SpanproofError' });
  assert.throws(() => analyzeIndex([span('a', 5, 5)], 'all', M, 0.9), { name: 'SpanproofError' });
  const an = analyzeIndex(eM, 'all', M, 0.9);
  assert.throws(() => questionMetrics(eM, 'all', M, [99], an, 5, 0.9), /outside the index/);
  assert.throws(() => questionMetrics(eM, 'all', M, finalM, an, 5, 0.5), /another τ/);
});
