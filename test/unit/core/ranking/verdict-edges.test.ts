// The verdict rule at its boundaries (SPEC §9 v2), with hand-written resamples so every p-value,
// CI bound and SE below is a hand calculation: p exactly α, a zero mean difference, CI bounds exactly
// at ±δ − ε, a CI above +δ, equal costs, NaN questions in the "same as the best" test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bootstrapResamples, percentileCI } from '../../../../src/core/stats';
import { compareQuality, decideVerdict, deterministicCosts, paretoFront, rankConfigs, type DeterministicCost, type VerdictInput } from '../../../../src/core/ranking';

const cost = (total: number): DeterministicCost => ({ context: total, contextUnit: 'characters', queryEmbeddings: 0, rerankPasses: 0, compute: 0, total });
/** A config whose quality mean is given (the order reads it) and whose column is `col`. */
const cfg = (id: string, q: number, col: number[], c = 100, mrr = q): VerdictInput => ({ id, quality: { mean: q, lo: q, hi: q }, perQuestion: col, mrr, ndcg: mrr, cost: cost(c) });
const times = (k: number, r: number[]): Uint32Array[] => Array.from({ length: k }, () => Uint32Array.from(r));
/** The verdict's ε (src/core/ranking/verdict.ts EPS): the slack of comparing a CI bound with ±δ. */
const EPS = 1e-9;

test('p exactly α is not significant: 78 resamples at −0.5 and one at 0 give p = 2·2/80 = 0.05', () => {
  // d = B − A = [−1, 0]; resample [0,1] → −0.5 (≤ 0), [1,1] → 0 (≤ 0 and ≥ 0): #≤0 = 79, #≥0 = 1, m = 79
  // p = 2·min(80/80, 2/80) = 0.05; a resample on each side of 0, so no normal tail; Holm over 1 comparison: 0.05
  const v = decideVerdict([cfg('A', 1, [1, 1]), cfg('B', 0.5, [0, 1])], [...times(78, [0, 1]), Uint32Array.from([1, 1])]);
  assert.equal(v.decisions[1].pHolm, 0.05);
  assert.equal(v.decisions[1].significantlyWorse, false);
  assert.deepEqual(v.tied, [0, 1]);
});

test('significantly worse needs a negative mean difference, not only a small p', () => {
  // d = B − A = [−1, 1], mean 0; every resample is [1,1] → +1: #≤0 = 0, #≥0 = 79 → p = 2·1/80 = 0.025, SE 0
  const v = decideVerdict([cfg('A', 0.5, [1, 0], 100, 1), cfg('B', 0.5, [0, 1], 100, 0)], times(79, [1, 1]));
  assert.equal(v.order[0], 0);
  assert.equal(v.decisions[1].pHolm, 0.025);
  assert.equal(v.decisions[1].vsBest.mean, 0);
  assert.equal(v.decisions[1].significantlyWorse, false);
  // the same p with d = [−1, −1]: every resample mean −1 < 0 → significantly worse, and no longer tied
  const w = decideVerdict([cfg('A', 1, [1, 1]), cfg('W', 0, [0, 0])], times(79, [0, 1]));
  assert.equal(w.decisions[1].pHolm, 0.025);
  assert.equal(w.decisions[1].significantlyWorse, true);
  assert.deepEqual(w.tied, [0]);
});

test('the best compared with itself: zero difference, p 1, no Holm p, n = its scored questions', () => {
  const v = decideVerdict([cfg('A', 2 / 3, [1, 0, 1, NaN]), cfg('B', 0.5, [1, 0, 1, 0])], bootstrapResamples(4, 50, 3));
  assert.deepEqual(v.decisions[0].vsBest, { mean: 0, lo: 0, hi: 0, se: 0, p: 1, n: 3 });
  assert.equal(v.decisions[0].pHolm, null);
  assert.equal(v.n, 3); // the NaN question does not count
});

test('a CI lower bound of exactly −δ − ε is non-inferior and within the margin', () => {
  // one question: d = 0 − b with b = δ + ε, so CI = [−b, −b]; −δ − ε is the same double as −b
  const b = 0.05 + EPS;
  const v = decideVerdict([cfg('A', b, [b]), cfg('B', 0, [0])], [Uint32Array.from([0])]);
  assert.equal(v.decisions[1].vsBest.lo, -b);
  assert.equal(v.decisions[1].nonInferior, true);
  assert.equal(v.decisions[1].unresolved, false);
  assert.deepEqual(v.unresolved, []);
  assert.equal(v.status, 'provisional'); // 1 question < 30
});

test('a CI upper bound of exactly +δ + ε is within the margin; above +δ it is unresolved', () => {
  // d = [NaN, b − 0] (B is not scored where A hits); the one resample [1,1] → b: CI [b, b]
  const b = 0.05 + EPS;
  const v = decideVerdict([cfg('A', 0.5, [1, 0]), cfg('B', b, [NaN, b])], [Uint32Array.from([1, 1])]);
  assert.equal(v.decisions[1].vsBest.hi, b);
  assert.equal(v.decisions[1].unresolved, false);
  // d = [0.25, −0.25]; resamples [0,1] → 0 and [0,0] → 0.25. Type-7 quantiles of (0, 0.25):
  // lo = 0.025·0.25 = 0.00625 ≥ −δ, hi = 0.975·0.25 = 0.24375 > δ → unresolved (B may be better by more than δ)
  // SE = sd(0, 0.25) = √(2·0.125²/1) = 0.1767767; MDE = 2.801585·SE = 0.495255;
  // questions needed = ⌈2·(0.495255/0.05)²⌉ = ⌈2·98.111⌉ = 197
  const w = decideVerdict([cfg('A', 0.625, [0.5, 0.75], 100, 1), cfg('B', 0.625, [0.75, 0.5], 100, 0)], [Uint32Array.from([0, 1]), Uint32Array.from([0, 0])]);
  assert.ok(Math.abs(w.decisions[1].vsBest.lo - 0.00625) < 1e-15 && Math.abs(w.decisions[1].vsBest.hi - 0.24375) < 1e-15);
  assert.equal(w.decisions[1].nonInferior, true);
  assert.equal(w.decisions[1].significantlyWorse, false);
  assert.deepEqual(w.unresolved, [1]);
  assert.ok(Math.abs(w.se!.value - Math.sqrt(0.03125)) < 1e-15);
  assert.ok(Math.abs(w.mde! - 0.495255) < 1e-6, String(w.mde));
  assert.equal(w.questionsNeeded, 197);
});

test('equal costs keep the quality order: the best stays recommended over an equally cheap non-inferior config', () => {
  const rs = bootstrapResamples(2, 200, 1);
  // B = A − 0.01 on every question: CI [−0.01, −0.01], non-inferior; same cost as A
  const v = decideVerdict([cfg('A', 0.55, [0.5, 0.6]), cfg('B', 0.54, [0.49, 0.59])], rs);
  assert.equal(v.decisions[1].nonInferior, true);
  assert.equal(v.recommended, 0);
});

test('"same as the best" treats NaN as equal only where both are NaN', () => {
  const rs = bootstrapResamples(4, 50, 8);
  // identical, with the same unscored question: nothing can be told apart
  assert.equal(decideVerdict([cfg('A', 2 / 3, [1, 0, 1, NaN]), cfg('B', 2 / 3, [1, 0, 1, NaN], 50)], rs).status, 'no-signal');
  // the best is scored where the other is not, and the other way round: they differ
  assert.equal(decideVerdict([cfg('A', 0.75, [1, 1, 1, 0]), cfg('B', 2 / 3, [1, 1, NaN, 0])], rs).status, 'provisional');
  const v = decideVerdict([cfg('A', 2 / 3, [1, 0, 1, NaN]), cfg('B', 0.5, [1, 0, 1, 0])], rs);
  assert.equal(v.status, 'provisional');
  assert.equal(v.decisions[1].sameAsBest, false);
});

test('rankConfigs: Pareto flags, recommended flags, tied ids, the best named in each explanation', () => {
  const n = 20;
  const rs = bootstrapResamples(n, 500, 4);
  const col = Array.from({ length: n }, (_, i) => (i < 15 ? 1 : 0));
  const worse = col.map((x, i) => (i < 5 ? x : 0)); // 5 of 20: significantly worse
  const mk = (id: string, c: number, column: number[]) => {
    const m = column.reduce((s, x) => s + x, 0) / n;
    return { id, quality: percentileCI(column, rs), perQuestion: column, mrr: m, ndcg: m, cost: cost(c), causes: {} };
  };
  // A and B equal in quality (B cheaper → first, best); W much worse
  const r = rankConfigs([mk('A', 300, col), mk('B', 200, col), mk('W', 10, worse)], rs, { primaryMetric: 'hit@5', k: 5 });
  assert.deepEqual(r.configs.map((c) => [c.id, c.pareto, c.recommended, c.best]), [['B', true, true, true], ['A', false, false, false], ['W', true, false, false]]);
  assert.deepEqual(r.verdict.tied, ['B', 'A']);
  assert.equal(r.verdict.dependsOnTimings, false);
  assert.equal(r.configs[0].pHolm, null);
  assert.equal(r.configs[0].p, null);
  assert.deepEqual(r.configs[0].diffVsBest, { mean: 0, lo: 0, hi: 0, se: 0 });
  assert.match(r.configs[1].explanation, /Versus the best, B: 0\.000 \(paired 95% CI 0\.000 to 0\.000\)/);
  assert.doesNotMatch(r.configs[1].explanation, /Recommended/);
  // 2 of the 3 configs are non-inferior (W is not): the count is in the reason
  assert.equal(r.verdict.reasons[1], 'recommended: B — the best by quality and the cheapest of the 2 configs shown within 0.05 of it');
  // A recommended over the best B when A is cheaper and within δ = 0.2 (B wins one question of 20:
  // d̄* = −c/20, c ~ Binomial(20, 1/20), P(c ≥ 4) = 0.016 < 0.025, so the lower bound is ≥ −3/20)
  const r2 = rankConfigs([mk('A', 100, col), mk('B', 200, col.map((x, i) => (i === 19 ? 1 : x))), mk('W', 10, worse)], rs, { primaryMetric: 'hit@5', k: 5, margin: 0.2 });
  assert.equal(r2.verdict.best, 'B');
  assert.equal(r2.verdict.recommended, 'A');
  assert.match(r2.verdict.reasons[1], /^recommended: A — the cheapest of the 2 configs shown within 0\.20 of the best \(B; lower bound of the paired 95% CI ≥ −0\.20\)$/);
});

test('quality order: the id decides last, in both directions; 0 only for the same id', () => {
  const k = (id: string) => ({ id, quality: 0.5, mrr: 0.5, ndcg: 0.5, cost: 1 });
  assert.equal(compareQuality(k('a'), k('b')), -1);
  assert.equal(compareQuality(k('b'), k('a')), 1);
  assert.equal(compareQuality(k('a'), k('a')), 0);
});

test('Pareto front: dominated by quality alone, by context alone, by compute alone; a worse compute keeps a point', () => {
  assert.deepEqual(paretoFront([
    { quality: 0.8, context: 100, compute: 0 }, // front
    { quality: 0.7, context: 100, compute: 0 }, // worse quality only
    { quality: 0.8, context: 150, compute: 0 }, // more context only (equal compute)
    { quality: 0.8, context: 100, compute: 1 }, // more compute only
    { quality: 0.9, context: 100, compute: 2 }, // better quality but dearer compute: front
  ]), [true, false, false, false, true]);
});

test('cost: a named embedder without a by-name table falls back; a retriever only ending in "dense" embeds nothing', () => {
  const [named, ext] = deterministicCosts([
    { retriever: 'dense:minilm', rerank: false, contextChars: 10 },
    { retriever: 'external/dense', rerank: false, contextChars: 10 },
  ], { embedderParameters: 2_000_000, rerankerParameters: null, poolSize: 20 });
  assert.equal(named.compute, 2);
  assert.equal(ext.compute, 0);
  assert.equal(ext.queryEmbeddings, 0);
});
