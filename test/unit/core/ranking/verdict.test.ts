// The verdict (SPEC §9 v2): non-inferiority, Holm, evidence status, determinism.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { bootstrapResamples, percentileCI } from '../../../../src/core/stats';
import { stableStringify } from '../../../../src/core/runs';
import { decideVerdict, rankConfigs, type DeterministicCost, type RankInput } from '../../../../src/core/ranking';

const cost = (total: number): DeterministicCost => ({ context: total, contextUnit: 'characters', queryEmbeddings: 0, rerankPasses: 0, compute: 0, total });
function cfg(id: string, col: number[], c: number, rs: Uint32Array[], extra: Partial<RankInput> = {}): RankInput {
  const m = col.reduce((s, x) => s + x, 0) / col.length;
  return { id, quality: percentileCI(col, rs), perQuestion: col, mrr: m, ndcg: m, cost: cost(c), causes: {}, ...extra };
}
const rank = (cs: RankInput[], rs: Uint32Array[], margin = 0.05) => rankConfigs(cs, rs, { primaryMetric: 'hit@5', k: 5, margin });
const ones = (n: number, h: number): number[] => Array.from({ length: n }, (_, i) => (i < h ? 1 : 0));

test('non-inferiority on constructed paired data: constant differences decide exactly', () => {
  const n = 40;
  const rs = bootstrapResamples(n, 2000, 11);
  const best = Array.from({ length: n }, (_, i) => 0.5 + (i % 5) * 0.1); // coverage-like values
  const shift = (d: number) => best.map((x) => x + d);
  // every resample mean of a constant difference is that constant, so CI = [d, d]
  const r = rank([
    cfg('best', best, 1000, rs),
    cfg('minus-0.01', shift(-0.01), 900, rs), // lower bound −0.01 ≥ −0.05: non-inferior
    cfg('minus-0.05', shift(-0.05), 500, rs), // exactly at the margin: non-inferior (≥)
    cfg('minus-0.06', shift(-0.06), 100, rs), // −0.06 < −0.05: not shown non-inferior, though cheapest
  ], rs);
  const by = new Map(r.configs.map((c) => [c.id, c]));
  assert.deepEqual(r.configs.map((c) => c.id), ['best', 'minus-0.01', 'minus-0.05', 'minus-0.06']);
  assert.equal(by.get('minus-0.01')!.nonInferior, true);
  assert.equal(by.get('minus-0.05')!.nonInferior, true);
  assert.equal(by.get('minus-0.06')!.nonInferior, false);
  assert.ok(Math.abs(by.get('minus-0.06')!.diffVsBest.lo + 0.06) < 1e-12);
  // the cheapest non-inferior config
  assert.equal(r.verdict.recommended, 'minus-0.05');
  assert.equal(by.get('minus-0.05')!.recommended, true);
  // the same data with δ = 0.02: only minus-0.01 qualifies besides the best
  assert.equal(rank([cfg('best', best, 1000, rs), cfg('minus-0.01', shift(-0.01), 900, rs), cfg('minus-0.05', shift(-0.05), 500, rs)], rs, 0.02).verdict.recommended, 'minus-0.01');
});

test('a wide CI is never recommended for being cheaper: one lost question in 40 is not shown within 0.05', () => {
  const n = 40;
  const rs = bootstrapResamples(n, 2000, 3);
  const a = ones(n, 36);
  const b = a.map((x, i) => (i === 0 ? 0 : x)); // loses question 0 only
  const r = rank([cfg('A', a, 1000, rs), cfg('B', b, 10, rs)], rs);
  // d̄* = −c/40 with c ~ Binomial(40, 1/40): P(c ≥ 3) = 0.078 > 0.025, so the 2.5% quantile is ≤ −3/40
  const B = r.configs.find((c) => c.id === 'B')!;
  assert.ok(B.diffVsBest.lo <= -3 / 40 + 1e-12, String(B.diffVsBest.lo));
  assert.equal(B.nonInferior, false);
  assert.equal(B.significantlyWorse, false);
  assert.equal(r.verdict.recommended, 'A');
  assert.equal(r.verdict.status, 'provisional');
  assert.deepEqual(r.verdict.unresolved, ['B']);
});

test('status on 2 questions: provisional, the best is recommended', () => {
  const rs = bootstrapResamples(2, 2000, 5);
  const r = rank([cfg('A', [1, 1], 100, rs), cfg('B', [1, 0], 1, rs), cfg('C', [0, 0], 1, rs)], rs);
  assert.equal(r.verdict.status, 'provisional');
  assert.equal(r.verdict.recommended, 'A');
  assert.ok(r.verdict.mde! > 0.5);
  assert.match(r.verdict.summary, /^Provisional: 2 questions cannot tell these/);
});

test('status on 4 questions: the old rule recommended hit 0.00 over 0.50; now the best, provisional', () => {
  const rs = bootstrapResamples(4, 2000, 42);
  const r = rank([cfg('top', [1, 1, 0, 0], 5000, rs), cfg('cheap-zero', [0, 0, 0, 0], 10, rs)], rs);
  assert.equal(r.verdict.recommended, 'top');
  assert.equal(r.verdict.status, 'provisional');
  assert.equal(r.configs[1].nonInferior, false);
});

test('status on 30 questions: decisive when every other config is significantly worse or within ±δ', () => {
  const n = 30;
  const rs = bootstrapResamples(n, 2000, 9);
  // B loses 15 questions: every resample mean < 0 → p from the normal tail (< 1e-6), Holm ×2 → significantly worse
  // C is identical to A and cheaper: CI [0, 0] → non-inferior → recommended
  const r = rank([cfg('A', ones(n, 30), 1000, rs), cfg('B', ones(n, 15), 10, rs), cfg('C', ones(n, 30), 500, rs)], rs);
  assert.equal(r.verdict.status, 'decisive');
  assert.equal(r.verdict.recommended, 'C');
  assert.equal(r.verdict.best, 'C'); // equal Q, MRR and nDCG: the cheaper one is first in the order
  const B = r.configs.find((c) => c.id === 'B')!;
  assert.ok(B.pHolm! < 1e-5 && Math.abs(B.pHolm! - 2 * B.p!) < 1e-15, String(B.pHolm));
  assert.equal(B.significantlyWorse, true);
  assert.match(r.verdict.summary, /^Decisive: use C/);
  // 29 questions, same data: provisional (fewer than 30)
  const rs29 = bootstrapResamples(29, 2000, 9);
  assert.equal(rank([cfg('A', ones(29, 29), 1000, rs29), cfg('B', ones(29, 14), 10, rs29)], rs29).verdict.status, 'provisional');
});

test('all-hit and all-miss grids → no-signal, the cheapest recommended', () => {
  for (const v of [1, 0]) {
    const n = 45;
    const rs = bootstrapResamples(n, 2000, 1);
    const col = Array.from({ length: n }, () => v);
    const r = rank([cfg('x/bm25/rerank', col, 900, rs), cfg('y/bm25/none', col, 300, rs), cfg('z/dense/none', col, 600, rs)], rs);
    assert.equal(r.verdict.status, 'no-signal');
    assert.equal(r.verdict.recommended, 'y/bm25/none');
    assert.equal(r.verdict.mde, null);
    assert.match(r.verdict.summary, new RegExp(v ? 'all hit' : 'all miss'));
  }
});

test('one verdict every time: randomised timings never change the ranking with default weights', () => {
  const n = 20;
  const rs = bootstrapResamples(n, 2000, 42);
  const cols = [ones(n, 14), ones(n, 13), [...ones(n, 12)].reverse(), ones(n, 14).map((x, i) => (i === 3 ? 0 : i === 19 ? 1 : x))];
  const base = stableStringify(rank(cols.map((c, i) => cfg(`c${i}`, c, 100 * (i + 1), rs)), rs));
  fc.assert(fc.property(fc.array(fc.double({ min: 0.01, max: 50, noNaN: true }), { minLength: 4, maxLength: 4 }), (ms) => {
    const cs = cols.map((c, i) => cfg(`c${i}`, c, 100 * (i + 1), rs, { latency: { medianMs: ms[i], p25Ms: ms[i] / 2, p75Ms: ms[i] * 2, n } }));
    const out = rankConfigs(cs, rs, { primaryMetric: 'hit@5', k: 5, weights: { quality: 1, latency: 0, context: 0.1 } });
    assert.equal(stableStringify(out), base);
  }), { numRuns: 50 });
});

test('weights.latency > 0 adds a separate timing-dependent verdict; the deterministic one is unchanged', () => {
  const n = 20;
  const rs = bootstrapResamples(n, 2000, 42);
  const col = ones(n, 15);
  const cs = [cfg('slow', col, 100, rs, { latency: { medianMs: 50, p25Ms: 40, p75Ms: 60, n } }), cfg('fast', col, 200, rs, { latency: { medianMs: 1, p25Ms: 1, p75Ms: 2, n } })];
  const det = rank(cs, rs);
  const timed = rankConfigs(cs, rs, { primaryMetric: 'hit@5', k: 5, weights: { quality: 1, latency: 1, context: 0.1 } });
  assert.deepEqual(timed.verdict, det.verdict);
  assert.equal(det.timedVerdict, undefined);
  assert.equal(timed.verdict.recommended, 'slow'); // cheaper deterministic cost
  assert.equal(timed.timedVerdict!.recommended, 'fast');
  assert.equal(timed.timedVerdict!.dependsOnTimings, true);
  assert.equal(timed.configs.find((c) => c.id === 'fast')!.latency!.medianMs, 1);
});

test('a 4-question ground truth never gets a worse-than-best or decisive recommendation (property)', () => {
  const rs = bootstrapResamples(4, 2000, 42);
  const col = fc.array(fc.constantFrom(0, 1), { minLength: 4, maxLength: 4 });
  fc.assert(fc.property(fc.array(fc.tuple(col, fc.integer({ min: 1, max: 5000 })), { minLength: 2, maxLength: 8 }), (cs) => {
    const r = rank(cs.map(([c, k], i) => cfg(`c${i}`, c, k, rs)), rs);
    const q = new Map(r.configs.map((c) => [c.id, c.score]));
    assert.notEqual(r.verdict.status, 'decisive');
    assert.ok(q.get(r.verdict.recommended!)! >= q.get(r.verdict.best!)!, `${r.verdict.recommended} worse than ${r.verdict.best}`);
  }), { numRuns: 300 });
});

test('explanations name rank, CI, Holm p, non-inferiority, cause and cost', () => {
  const n = 30;
  const rs = bootstrapResamples(n, 2000, 9);
  const r = rank([cfg('A', ones(n, 30), 1000, rs), cfg('B', ones(n, 15), 10, rs, { causes: { 'ranked-too-low': 10, 'retriever-missed': 5 } })], rs);
  const b = r.configs[1].explanation;
  assert.match(b, /^#2 of 2 \(order: hit@5, then MRR, nDCG@5, cost\)\. hit@5 0\.500 \(95% CI /);
  assert.match(b, /Holm-adjusted p < 0\.001, significantly worse\./);
  assert.match(b, /Not shown non-inferior: the CI's lower bound −0\.\d{3} is below −0\.05\./);
  assert.match(b, /Most misses: ranked-too-low \(10 of 15\): raise k or add a reranker\./);
  assert.match(r.configs[0].explanation, /Best by quality\. Recommended: /);
});

test('Holm over 59 comparisons still finds clearly worse configs (no 2/(B+1) floor on p)', () => {
  const n = 45;
  const rs = bootstrapResamples(n, 2000, 42);
  // 2/2001 × 59 = 0.059 > 0.05: with only the count-based p no config could ever be significantly worse
  const cs = [cfg('best', ones(n, 40), 100, rs), ...Array.from({ length: 59 }, (_, i) => cfg(`w${String(i).padStart(2, '0')}`, ones(n, 10), 10, rs))];
  const r = rank(cs, rs);
  assert.equal(r.configs.filter((c) => c.significantlyWorse).length, 59);
  assert.equal(r.verdict.status, 'decisive');
});

test('the runner-up is the config ranked second; when it duplicates the best, the SE comes from the next config that differs, and the words name each correctly', () => {
  const n = 10;
  const rs = bootstrapResamples(n, 500, 1);
  const A = ones(n, 7); // q0–q6 hit
  const C = ones(n, 6); // loses q6 only
  const D = ones(n, 5);
  // input order is not the quality order; B hits exactly A's questions but has the lower MRR, so it is #2
  const cs = [cfg('D', D, 1, rs), cfg('C', C, 5, rs), cfg('A', A, 10, rs, { mrr: 0.9 }), cfg('B', [...A], 20, rs, { mrr: 0.8 })];
  const decision = decideVerdict(cs, rs, 0.05);
  assert.deepEqual(decision.order.map((i) => cs[i].id), ['A', 'B', 'C', 'D']);
  assert.equal(cs[decision.runnerUp!].id, 'B', 'the runner-up is #2 of the ranking');
  assert.equal(cs[decision.se!.from].id, 'C', 'the SE is of the first config that differs from the best');
  const r = rank(cs, rs);
  assert.deepEqual(r.configs.map((c) => c.id), ['A', 'B', 'C', 'D']);
  assert.equal(r.configs[1].id, 'B');
  // before: "… between the best and the runner-up, C" while the table's #2 is B
  assert.doesNotMatch(r.verdict.summary, /runner-up, C/);
  assert.match(r.verdict.summary, /about \d+ would resolve a 0\.05 difference between the best and C, the highest-ranked config that differs from the best on some question \(the runner-up, B, has the same hit@5 as the best on every question\)\./);
  assert.ok(r.verdict.reasons.some((x) => /from the paired bootstrap standard error \d\.\d{4} of C − best\)$/.test(x)), r.verdict.reasons.join('\n'));
  // without the duplicate, the runner-up is C and is named so
  const r2 = rank([cfg('D', D, 1, rs), cfg('C', C, 5, rs), cfg('A', A, 10, rs)], rs);
  assert.equal(r2.configs[1].id, 'C');
  assert.match(r2.verdict.summary, /difference between the best and the runner-up, C\./);
  assert.ok(r2.verdict.reasons.some((x) => /standard error \d\.\d{4} of runner-up C − best\)$/.test(x)));
  // the duplicate changes nothing but the words: the SE is C's against A either way
  assert.equal(decision.se!.value, decideVerdict([cfg('C', C, 5, rs), cfg('A', A, 10, rs)], rs, 0.05).se!.value);
  // one config: no runner-up
  assert.equal(decideVerdict([cfg('A', A, 10, rs)], rs, 0.05).runnerUp, null);
});
