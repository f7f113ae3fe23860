// The metric registry: keys carry their real cutoff (SPEC §7.1, §9, §11).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { metricDef, metricLabel, parseMetricKey, primaryCutoffs, resolvePrimaryMetric, resultMetricKeys } from '../../../../src/core/metrics/registry';

test('parses ranx-style keys', () => {
  assert.deepEqual(parseMetricKey('ndcg@5'), { family: 'ndcg', cutoff: 5 });
  assert.deepEqual(parseMetricKey('hit@10'), { family: 'hit', cutoff: 10 });
  assert.deepEqual(parseMetricKey('mrr'), { family: 'mrr', cutoff: null });
  assert.deepEqual(parseMetricKey('hit@k', 7), { family: 'hit', cutoff: 7 });
  for (const bad of ['hit', 'mrr@5', 'hit@0', 'hit@-1', 'hit@1.5', 'foo@3', 'hit@k', 'reachable@5', '']) assert.equal(parseMetricKey(bad), null, bad);
});

test('results.json keys at k = 5 are exactly the historical set; at k = 10 every @k key says 10', () => {
  assert.deepEqual(resultMetricKeys(5), ['hit@1', 'hit@3', 'hit@5', 'hit@10', 'mrr', 'ndcg@5', 'ndcg@10', 'coverage@5', 'precision@5', 'iou@5', 'iou_chroma@5', 'precision_omega', 'reachable']);
  const k10 = resultMetricKeys(10);
  assert.deepEqual(k10, ['hit@1', 'hit@3', 'hit@5', 'hit@10', 'mrr', 'ndcg@5', 'ndcg@10', 'coverage@10', 'precision@10', 'iou@10', 'iou_chroma@10', 'precision_omega', 'reachable']);
  assert.ok(!k10.includes('coverage@5'));
  assert.deepEqual(resultMetricKeys(7).filter((x) => x.endsWith('@7')), ['hit@7', 'ndcg@7', 'coverage@7', 'precision@7', 'iou@7', 'iou_chroma@7']);
  assert.ok(resultMetricKeys(5, 'coverage@8').includes('coverage@8'));
});

test('any hit@K, coverage@K, ndcg@K (K ≤ poolSize) or mrr can be the primary metric; hit@k follows the run', () => {
  assert.equal(resolvePrimaryMetric('hit@k', 5, 20), 'hit@5');
  assert.equal(resolvePrimaryMetric('hit@k', 10, 20), 'hit@10');
  assert.equal(resolvePrimaryMetric('hit@7', 5, 20), 'hit@7');
  assert.equal(resolvePrimaryMetric('ndcg@k', 3, 20), 'ndcg@3');
  assert.equal(resolvePrimaryMetric('coverage@12', 5, 20), 'coverage@12');
  assert.equal(resolvePrimaryMetric('mrr', 5, 20), 'mrr');
  assert.throws(() => resolvePrimaryMetric('precision@5', 5, 20), /cannot be the primary metric/);
  assert.throws(() => resolvePrimaryMetric('hit@30', 5, 20), /larger than the candidate pool/);
  assert.throws(() => resolvePrimaryMetric('recall@5', 5, 20), (e: Error & { field?: string }) => e.field === 'primaryMetric');
  assert.deepEqual(primaryCutoffs('hit@7'), { hitCoverage: [7], ndcg: [] });
  assert.deepEqual(primaryCutoffs('ndcg@3'), { hitCoverage: [], ndcg: [3] });
  assert.deepEqual(primaryCutoffs('mrr'), { hitCoverage: [], ndcg: [] });
});

test('definitions: label, per-question key, direction', () => {
  const d = metricDef('ndcg@10');
  assert.equal(d.label, 'nDCG@10');
  assert.equal(d.cutoff, 10);
  assert.equal(d.direction, 'higher-is-better');
  assert.match(d.formula, /log2/);
  assert.equal(metricDef('mrr').questionKey, 'rr');
  assert.equal(metricDef('hit@k', 10).key, 'hit@10');
  assert.equal(metricDef('hit@5').binary, true);
  assert.equal(metricLabel('mrr'), 'MRR');
  assert.equal(metricLabel('contextChars'), 'contextChars');
  assert.throws(() => metricDef('bleu@4'), /not a span metric/);
});
