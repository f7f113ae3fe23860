// Ranking, Pareto front and the "not significantly different → cheapest" rule (SPEC §9).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bootstrapResamples, percentileCI } from '../../../../src/core/stats';
import { minMaxNormalise, paretoFront, rankConfigs, type ConfigSummary } from '../../../../src/core/ranking/legacy';

const near = (a: number, b: number): void => assert.ok(Math.abs(a - b) < 1e-12, `${a} ≠ ${b}`);
const N = 40;
const rs = bootstrapResamples(N, 2000, 2026);
/** Per-question hit@5 with the first `hits` questions hit. */
const hits = (h: number): number[] => Array.from({ length: N }, (_, i) => (i < h ? 1 : 0));

function cfg(id: string, h: number, latency: number, context: number, causes: ConfigSummary['causes'] = {}): ConfigSummary {
  const q = hits(h);
  return { id, quality: percentileCI(q, rs), perQuestionQuality: q, latencyMedianMs: latency, contextMean: context, causes };
}

test('min–max normalisation; all-equal → 0', () => {
  assert.deepEqual(minMaxNormalise([10, 20, 30]), [0, 0.5, 1]);
  assert.deepEqual(minMaxNormalise([7, 7, 7]), [0, 0, 0]);
  assert.deepEqual(minMaxNormalise([3]), [0]);
});

test('Pareto front: maximise quality, minimise latency and context', () => {
  const front = paretoFront([
    { quality: 0.8, latency: 10, context: 100 }, // front
    { quality: 0.8, latency: 20, context: 100 }, // dominated by the first (same q and context, slower)
    { quality: 0.9, latency: 30, context: 200 }, // front: best quality
    { quality: 0.7, latency: 5, context: 300 }, // front: fastest
    { quality: 0.8, latency: 10, context: 100 }, // equal to the first: neither dominates → front
  ]);
  assert.deepEqual(front, [true, false, true, true, true]);
});

// A: 34/40 = 0.85, latency 30, context 1000; B: 33/40 = 0.825 (A minus question 33), 10, 900;
// C: 8/40 = 0.2, 50, 500; D: 20/40 = 0.5, 40, 1000 (dominated by A).
const configs = [
  cfg('A', 34, 30, 1000, { 'ranked-too-low': 4, 'retriever-missed': 2 }),
  cfg('B', 33, 10, 900, { 'chunker-degraded': 5, 'ranked-too-low': 2 }),
  cfg('C', 8, 50, 500, { 'retriever-missed': 32 }),
  cfg('D', 20, 40, 1000, {}),
];

test('scores, ranks, Pareto and the cheapest-of-the-tied recommendation', () => {
  const r = rankConfigs(configs, rs, { weights: { quality: 1, latency: 0.01, context: 0.01 } });
  // L̂: latency [30,10,50,40] → [0.5, 0, 1, 0.75]; Ĉ: context [1000,900,500,1000] → [1, 0.8, 0, 1]
  // score A = 0.85 − 0.005 − 0.01 = 0.835; B = 0.825 − 0 − 0.008 = 0.817;
  //       C = 0.2 − 0.01 − 0 = 0.19;      D = 0.5 − 0.0075 − 0.01 = 0.4825
  assert.deepEqual(r.configs.map((c) => c.id), ['A', 'B', 'D', 'C']);
  assert.deepEqual(r.configs.map((c) => c.rank), [1, 2, 3, 4]);
  near(r.configs[0].score, 0.835);
  near(r.configs[1].score, 0.817);
  near(r.configs[2].score, 0.4825);
  near(r.configs[3].score, 0.19);
  assert.deepEqual(r.configs.map((c) => c.pareto), [true, true, false, true]);
  // B − A differs on one question only: the paired CI reaches 0 → not significant → tied with A;
  // D − A is −1 on 14 questions → significant; C as well
  assert.equal(r.configs[1].diffToTop.significant, false);
  near(r.configs[1].diffToTop.mean, -1 / 40);
  assert.equal(r.configs[2].diffToTop.significant, true);
  assert.deepEqual(r.tiedWithTop, ['A', 'B']);
  // cheapest of {A, B}: L̂ + Ĉ = 1.5 vs 0.8 → B
  assert.equal(r.top, 'A');
  assert.equal(r.recommended, 'B');
  assert.deepEqual(r.configs.map((c) => c.recommended), [false, true, false, false]);
  assert.match(r.recommendation, /^B is recommended: 2 configs \(A, B\) are not significantly different in hit@5 from the top-scoring A, and it is the cheapest of them\.$/);
  const b = r.configs[1].explanation;
  assert.match(b, /^#2 of 4 \(score 0\.817\)\. hit@5 0\.82 \(95% CI /);
  assert.match(b, /0\.03 below the top \(A\) in hit@5: paired 95% CI of the difference -0\.\d\d to 0\.00, not significant\./);
  assert.match(b, /Recommended: 2 configs, the top one included, are not significantly different in hit@5, and this is the cheapest of them/);
  assert.match(b, /Most misses: chunker-degraded \(5 of 7\): the evidence was split across a boundary/);
  assert.match(b, /Median latency 10\.0 ms; mean context 900 characters\. On the Pareto front/);
  assert.match(r.configs[2].explanation, /significantly worse/);
  assert.match(r.configs[2].explanation, /No misses\./);
  assert.match(r.configs[0].explanation, /Top score\./);
  // the same inputs give the same ranking, explanations included
  assert.deepEqual(rankConfigs(configs, rs, { weights: { quality: 1, latency: 0.01, context: 0.01 } }), r);
});

test('a clear winner is recommended when nothing ties with it', () => {
  const r = rankConfigs([cfg('fast', 10, 1, 100), cfg('good', 38, 50, 2000)], rs);
  // default weights 1, 0.1, 0.1: good = 0.95 − 0.1 − 0.1 = 0.75; fast = 0.25 − 0 − 0 = 0.25
  near(r.configs[0].score, 0.75);
  assert.equal(r.recommended, 'good');
  assert.deepEqual(r.tiedWithTop, ['good']);
  assert.match(r.configs[0].explanation, /Recommended: top score, and no other config is statistically tied with it\./);
});

test('equal cost everywhere: score is quality, ties broken by id', () => {
  const r = rankConfigs([cfg('b', 20, 5, 100), cfg('a', 20, 5, 100)], rs);
  assert.deepEqual(r.configs.map((c) => [c.id, c.score]), [['a', 0.5], ['b', 0.5]]);
  assert.equal(r.recommended, 'a'); // tied and equally cheap → the better-ranked one
  assert.deepEqual(rankConfigs([], rs).configs, []);
});

test('ignoreLatency: deterministic ranking without timings (for results.json)', () => {
  const a = rankConfigs(configs, rs, { ignoreLatency: true });
  // the same configs with other latencies rank and read identically
  const b = rankConfigs(configs.map((c, i) => ({ ...c, latencyMedianMs: 1000 - i * 7 })), rs, { ignoreLatency: true });
  assert.deepEqual(a, b);
  // Ĉ: [1, 0.8, 0, 1]; scores A 0.85 − 0.1 = 0.75, B 0.825 − 0.08 = 0.745, D 0.5 − 0.1 = 0.4, C 0.2
  assert.deepEqual(a.configs.map((c) => c.id), ['A', 'B', 'D', 'C']);
  assert.equal(a.recommended, 'B'); // tied with A, cheaper context
  assert.doesNotMatch(a.configs[0].explanation, /latency/);
  assert.match(a.configs[1].explanation, /Mean context 900 characters\. On the Pareto front \(quality vs context\)\./);
});
