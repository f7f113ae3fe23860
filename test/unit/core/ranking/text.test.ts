// The words of the verdict (SPEC §9): every sentence of explainConfig, recommendedWhy and verdictText
// written out in full from hand-built inputs, so a changed number, clause or plural shows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { costText, explainConfig, latencyText, signed, type DeterministicCost, type VerdictDecision } from '../../../../src/core/ranking';
import { recommendedWhy, verdictText, type ExplainInput } from '../../../../src/core/ranking/text';

const noModel: DeterministicCost = { context: 100, contextUnit: 'characters', queryEmbeddings: 0, rerankPasses: 0, compute: 0, total: 100 };

test('signed numbers: a real minus, a plus, a bare zero, n/a for non-finite', () => {
  assert.equal(signed(0.0444), '+0.044');
  assert.equal(signed(-0.0444), '−0.044');
  assert.equal(signed(0), '0.000');
  assert.equal(signed(NaN), 'n/a');
  assert.equal(signed(-Infinity), 'n/a');
});

test('cost text: rounding, singular and plural passes, each part alone', () => {
  // the context keeps one decimal when fractional (312.4, a mean over questions), so the parts add up:
  // 312.4 + 105.04 = 417.44 → 417.4; 105.04 → 105.0 (it printed 312, and 312 + 105.0 ≠ 417.4)
  assert.equal(
    costText({ context: 312.4, contextUnit: 'tokens', queryEmbeddings: 1, rerankPasses: 20, compute: 105.04, total: 417.44 }),
    'context 312.4 tokens + compute 105.0 (1 query embedding, 20 reranker passes, in million-parameter passes) = 417.4 per query',
  );
  // only reranker passes: no empty part and no leading comma
  assert.equal(
    costText({ context: 10, contextUnit: 'characters', queryEmbeddings: 0, rerankPasses: 1, compute: 22.5, total: 32.5 }),
    'context 10 characters + compute 22.5 (1 reranker pass, in million-parameter passes) = 32.5 per query',
  );
  assert.equal(
    costText({ context: 10, contextUnit: 'characters', queryEmbeddings: 2, rerankPasses: 0, compute: 1, total: 11 }),
    'context 10 characters + compute 1.0 (2 query embeddings, in million-parameter passes) = 11.0 per query',
  );
  assert.equal(costText(noModel), 'context 100 characters + compute 0 (no model call) = 100.0 per query');
});

test('latency text: the median and IQR with decimals by size; no timed query', () => {
  // < 10 → 2 decimals, < 100 → 1 decimal, else none
  assert.equal(latencyText({ medianMs: 9.999, p25Ms: 10, p75Ms: 100, n: 2 }), 'median 10.00 ms per query (IQR 10.0–100 ms, 2 timed queries; timings vary between runs)');
  assert.equal(latencyText({ medianMs: 99.94, p25Ms: 1.234, p75Ms: 250.4, n: 1 }), 'median 99.9 ms per query (IQR 1.23–250 ms, 1 timed query; timings vary between runs)');
  assert.equal(latencyText(null), 'no timed query');
  assert.equal(latencyText(undefined), 'no timed query');
  assert.equal(latencyText({ medianMs: NaN, p25Ms: NaN, p75Ms: NaN, n: 0 }), 'no timed query');
});

const explain = (e: Partial<ExplainInput>): string => explainConfig({
  id: 'B', rank: 2, total: 3, metric: 'hit@5', k: 5, quality: { mean: 0.5, lo: 0.3, hi: 0.7 },
  best: { id: 'A', quality: 0.9 }, diff: { mean: -0.4, lo: -0.6, hi: -0.2 }, pHolm: 0.0123, significantlyWorse: true,
  nonInferior: false, margin: 0.05, recommended: false, recommendedWhy: 'WHY', dominant: null, cost: noModel, pareto: false, ...e,
});

test('explanation of a config below the best, every sentence', () => {
  assert.equal(
    explain({ dominant: { cause: 'ranked-too-low', count: 2, misses: 3, advice: 'ADVICE' } }),
    '#2 of 3 (order: hit@5, then MRR, nDCG@5, cost). hit@5 0.500 (95% CI 0.300–0.700). ' +
      'Versus the best, A: −0.400 (paired 95% CI −0.600 to −0.200); Holm-adjusted p = 0.012, significantly worse. ' +
      "Not shown non-inferior: the CI's lower bound −0.600 is below −0.05. " +
      'Most misses: ranked-too-low (2 of 3): ADVICE. ' +
      'Cost: context 100 characters + compute 0 (no model call) = 100.0 per query.',
  );
  assert.equal(
    explain({ diff: { mean: -0.01, lo: -0.02, hi: 0 }, pHolm: 0.001, significantlyWorse: false, nonInferior: true, recommended: true, pareto: true, margin: 0.1 }),
    '#2 of 3 (order: hit@5, then MRR, nDCG@5, cost). hit@5 0.500 (95% CI 0.300–0.700). ' +
      'Versus the best, A: −0.010 (paired 95% CI −0.020 to 0.000); Holm-adjusted p = 0.001, not significantly worse. ' +
      "Non-inferior: the CI's lower bound −0.020 is within the margin −0.10. " +
      'Recommended: WHY. No misses. Cost: context 100 characters + compute 0 (no model call) = 100.0 per query. ' +
      'On the Pareto front (quality vs context cost vs compute cost).',
  );
  // p below 0.001 is not printed as 0.000; a missing Holm p reads as 1
  assert.match(explain({ pHolm: 0.000999 }), /Holm-adjusted p < 0\.001, /);
  assert.match(explain({ pHolm: null }), /Holm-adjusted p = 1\.000, /);
});

test('explanation of the best config; NaN quality prints n/a', () => {
  assert.equal(
    explain({ id: 'A', rank: 1, best: null, diff: null, pHolm: null, significantlyWorse: false, nonInferior: true, quality: { mean: NaN, lo: NaN, hi: NaN }, metric: 'mrr', k: 10 }),
    '#1 of 3 (order: MRR, then MRR, nDCG@10, cost). MRR n/a (95% CI n/a–n/a). Best by quality. No misses. ' +
      'Cost: context 100 characters + compute 0 (no model call) = 100.0 per query.',
  );
});

function decision(d: Partial<VerdictDecision>): VerdictDecision {
  return { order: [0, 1, 2], decisions: [], best: 0, recommended: 0, status: 'provisional', n: 12, margin: 0.05, tied: [0], unresolved: [], runnerUp: 1, se: null, mde: null, questionsNeeded: null, ...d };
}

test('why the recommended config is recommended: one clause per case', () => {
  const ids = ['A', 'B', 'C'];
  assert.equal(recommendedWhy(decision({ status: 'no-signal', recommended: 2 }), ids, 3), 'every config scores the same on every question, so the choice is by cost alone (the cheapest, then the quality order)');
  assert.equal(recommendedWhy(decision({}), ids, 2), 'the best by quality and the cheapest of the 2 configs shown within 0.05 of it');
  assert.equal(recommendedWhy(decision({ margin: 0.1 }), ids, 1), 'the best by quality; no cheaper config is shown within 0.10 of it');
  assert.equal(recommendedWhy(decision({ recommended: 2, status: 'decisive' }), ids, 3), 'the cheapest of the 3 configs shown within 0.05 of the best (A; lower bound of the paired 95% CI ≥ −0.05)');
});

const q = (mean: number, lo: number, hi: number) => ({ mean, lo, hi });

test('verdict text, provisional with an unresolved contender: every reason and the summary', () => {
  const t = verdictText({
    decision: decision({ recommended: 1, tied: [0, 1], unresolved: [1], se: { value: 0.0312, from: 1 }, mde: 0.0874, questionsNeeded: 47 }),
    ids: ['A', 'B', 'C'], quality: [q(0.75, 0.5, 1), q(0.7, 0.45, 0.95), q(0.2, 0, 0.4)], perQuestion: [], metric: 'hit@5', why: 'W',
  });
  assert.deepEqual(t.reasons, [
    'best by quality: A, hit@5 0.750 (95% CI 0.500–1.000)',
    'recommended: B — W',
    '2 configs of 3 are not significantly worse than the best (paired bootstrap, Holm–Bonferroni over 2 comparisons, family-wise α = 0.05)',
    '1 config is neither significantly worse than the best nor shown within ±0.05 of it: B',
    '12 questions scored; a decisive verdict needs at least 30',
    'minimal detectable difference at n = 12: 0.09 of hit@5 (two-sided α = 0.05, power 0.8, from the paired bootstrap standard error 0.0312 of runner-up B − best)',
    'about 47 would resolve a 0.05 difference between the best and the runner-up, B (same α and power)',
  ]);
  assert.equal(t.summary, 'Provisional: 12 questions cannot tell these 2 configs apart; about 47 would resolve a 0.05 difference between the best and the runner-up, B. For now use B — W. Differences smaller than about 0.09 cannot be detected yet (80% power).');
});

test('verdict text, provisional because too few questions: one tied, several unresolved, nothing estimable', () => {
  const t = verdictText({
    decision: decision({ n: 1, tied: [0], unresolved: [1, 2] }),
    ids: ['A', 'B', 'C'], quality: [q(1, 1, 1), q(0, 0, 0), q(0, 0, 0)], perQuestion: [], metric: 'hit@5', why: 'W',
  });
  assert.deepEqual(t.reasons, [
    'best by quality: A, hit@5 1.000 (95% CI 1.000–1.000)',
    'recommended: A — W',
    '1 config of 3 is not significantly worse than the best (paired bootstrap, Holm–Bonferroni over 2 comparisons, family-wise α = 0.05)',
    '2 configs are neither significantly worse than the best nor shown within ±0.05 of it: B, C',
    '1 question scored; a decisive verdict needs at least 30',
    'minimal detectable difference at n = 1: n/a of hit@5 (two-sided α = 0.05, power 0.8, from the paired bootstrap standard error n/a of runner-up n/a − best)',
  ]);
  assert.equal(t.summary, 'Provisional: A is significantly better than every other config on these 1 question, but that is fewer than 30. For now use A — W. Differences smaller than about n/a cannot be detected yet (80% power).');
});

test('verdict text, decisive at 30 questions: no "too few" reason, one comparison', () => {
  const t = verdictText({
    decision: decision({ status: 'decisive', n: 30, order: [0, 1], tied: [0, 1], se: { value: 0.01, from: 1 }, mde: 0.028, questionsNeeded: 4 }),
    ids: ['A', 'B'], quality: [q(0.9, 0.8, 1), q(0.9, 0.8, 1)], perQuestion: [], metric: 'hit@5', why: 'W',
  });
  assert.deepEqual(t.reasons, [
    'best by quality: A, hit@5 0.900 (95% CI 0.800–1.000)',
    'recommended: A — W',
    '2 configs of 2 are not significantly worse than the best (paired bootstrap, Holm–Bonferroni over 1 comparison, family-wise α = 0.05)',
    'minimal detectable difference at n = 30: 0.03 of hit@5 (two-sided α = 0.05, power 0.8, from the paired bootstrap standard error 0.0100 of runner-up B − best)',
    'about 4 would resolve a 0.05 difference between the best and the runner-up, B (same α and power)',
  ]);
  assert.equal(t.summary, 'Decisive: use A — W. With 30 questions, every other config is significantly worse than the best or shown within ±0.05 of it; differences of 0.03 or more are detectable (80% power).');
  // 29 questions are too few by one
  const t29 = verdictText({ decision: decision({ n: 29, tied: [0, 1], order: [0, 1] }), ids: ['A', 'B'], quality: [q(1, 1, 1), q(1, 1, 1)], perQuestion: [], metric: 'hit@5', why: 'W' });
  assert.ok(t29.reasons.includes('29 questions scored; a decisive verdict needs at least 30'));
});

test('verdict text, no signal: one config; the same pattern (all hit, all miss, other) with NaN gaps', () => {
  const one = verdictText({ decision: decision({ status: 'no-signal', order: [0] }), ids: ['A'], quality: [q(1, 1, 1)], perQuestion: [[1]], metric: 'hit@5', why: 'W' });
  assert.deepEqual(one.reasons, [
    'only one config ran, so there is nothing to compare',
    'recommended by cost alone: A',
    'no difference between configs can be estimated from these questions; add questions that some configs answer and others miss',
  ]);
  assert.equal(one.summary, 'No signal: only one config ran, so there is nothing to compare, so these questions cannot tell the configs apart. A is recommended only because it is the cheapest. Add questions that some configs miss.');
  const why = (cols: number[][], n: number) => verdictText({ decision: decision({ status: 'no-signal', n, recommended: 1, order: [0, 1] }), ids: ['A', 'B'], quality: [q(1, 1, 1), q(1, 1, 1)], perQuestion: cols, metric: 'hit@5', why: 'W' }).reasons;
  assert.deepEqual(why([[1, NaN, 1], [1, NaN, 1]], 2), ['all 2 configs score the same hit@5 on every one of the 2 questions (all hit)', 'recommended by cost alone: B', 'no difference between configs can be estimated from these questions; add questions that some configs answer and others miss']);
  assert.equal(why([[0, NaN], [0, NaN]], 1)[0], 'all 2 configs score the same hit@5 on every one of the 1 question (all miss)');
  assert.equal(why([[1, 0], [1, 0]], 2)[0], 'all 2 configs score the same hit@5 on every one of the 2 questions (the same per-question values)');
  assert.equal(why([[0.5], [0.5]], 1)[0], 'all 2 configs score the same hit@5 on every one of the 1 question (the same per-question values)');
});
