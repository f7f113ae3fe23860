// The metric registry at the edges StrykerJS found untested (#16 item 25): every family's definition
// (label, cutoff in the texts, source, binary, direction, range, per-question key), key parsing at
// its bounds, and the error values of metricDef and resolvePrimaryMetric.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DEFAULT_PRIMARY_METRIC, METRIC_FAMILIES, metricDef, metricLabel, parseMetricKey, resolvePrimaryMetric, UNIT_RANGE,
} from '../../../../src/core/metrics/registry';
import { thrown } from '../../../helpers/thrown';

// family → [key at cutoff 7 (or bare), label, binary, direction, a word the source names]
const TABLE: Array<[string, string, boolean, 'higher-is-better' | 'lower-is-better', string]> = [
  ['hit@7', 'hit@7', true, 'higher-is-better', 'success@k of trec_eval'],
  ['coverage@7', 'coverage@7', false, 'higher-is-better', 'SPEC §7.1'],
  ['ndcg@7', 'nDCG@7', false, 'higher-is-better', 'Järvelin & Kekäläinen (2002)'],
  ['mrr', 'MRR', false, 'higher-is-better', 'Voorhees (1999)'],
  ['precision@7', 'precision@7', false, 'higher-is-better', 'SPEC §7.1'],
  ['iou@7', 'IoU@7', false, 'higher-is-better', 'SPEC §7.1'],
  ['iou_chroma@7', 'IoU_chroma@7', false, 'higher-is-better', 'Evaluating Chunking Strategies for Retrieval'],
  ['precision_omega', 'precision_Ω', false, 'higher-is-better', 'Chroma technical report (2024)'],
  ['reachable', 'reachable', true, 'higher-is-better', 'SPEC §7.1'],
  ['exposure@7', 'exposure@7', true, 'lower-is-better', 'issue #17'],
];

test('every family: label, texts at its cutoff, source, binary, direction, range [0, 1], per-question key', () => {
  assert.deepEqual(TABLE.map(([k]) => k.split('@')[0]), [...METRIC_FAMILIES]);
  assert.deepEqual(UNIT_RANGE, [0, 1]);
  for (const [key, label, binary, direction, sourceWord] of TABLE) {
    const d = metricDef(key);
    const cut = key.includes('@');
    assert.equal(d.key, key);
    assert.equal(d.cutoff, cut ? 7 : null, key);
    assert.equal(d.label, label, key);
    assert.equal(metricLabel(key), label, key);
    assert.equal(d.binary, binary, key);
    assert.equal(d.direction, direction, key);
    assert.deepEqual(d.range, [0, 1], key);
    assert.equal(d.questionKey, key === 'mrr' ? 'rr' : key, key);
    assert.ok(d.source.includes(sourceWord), `${key}: ${d.source}`);
    if (key !== 'exposure@7') assert.ok(d.source.startsWith('SPEC §7.1 (span metrics over UTF-16 code-unit intervals)'), key);
    assert.equal(typeof d.formula, 'string');
    assert.equal(typeof d.perQuestion, 'string');
    assert.ok(d.formula.length > 20 && d.perQuestion.length > 20, key);
    // a metric with a cutoff says it in both texts; one without never prints a stray cutoff
    if (cut) assert.ok(d.formula.includes('7') && d.perQuestion.includes('7'), key);
    else assert.ok(!/undefined|null|Stryker/.test(d.formula + d.perQuestion), key);
  }
});

test('key parsing: trimmed, anchored, cutoff 1 is the smallest, a non-integer run k is refused', () => {
  assert.deepEqual(parseMetricKey(' hit@5 '), { family: 'hit', cutoff: 5 });
  assert.deepEqual(parseMetricKey('hit@1'), { family: 'hit', cutoff: 1 });
  assert.equal(parseMetricKey('Xhit@5'), null);
  assert.equal(parseMetricKey('hit@k', 2.5), null);
  assert.equal(parseMetricKey('hit@k', 0), null);
  assert.equal(parseMetricKey('hit@k'), null);
});

test('metricDef of an unknown key: the error value lists every family', () => {
  const e = thrown(() => metricDef('bleu@4'));
  assert.equal(e.code, 'bad-input');
  assert.equal(e.field, 'metric');
  assert.ok(e.message.includes('"bleu@4" is not a span metric.'), e.message);
  assert.equal(e.fix, 'use one of hit@K, coverage@K, ndcg@K, mrr, precision@K, iou@K, iou_chroma@K, precision_omega, reachable, exposure@K (K a whole number ≥ 1, or "k" for the run\'s k).');
});

test('primary metric: the default is hit@k; a cutoff equal to the pool is allowed, one above is refused with its error value', () => {
  assert.equal(DEFAULT_PRIMARY_METRIC, 'hit@k');
  assert.equal(resolvePrimaryMetric(DEFAULT_PRIMARY_METRIC, 5, 20), 'hit@5');
  assert.equal(resolvePrimaryMetric('hit@20', 5, 20), 'hit@20');
  const fix = 'set primaryMetric to hit@k (the default: hit at the run\'s k), hit@K, coverage@K, ndcg@K with K from 1 to poolSize (20), or mrr.';
  const big = thrown(() => resolvePrimaryMetric('hit@21', 5, 20));
  assert.deepEqual({ code: big.code, field: big.field, fix: big.fix }, { code: 'bad-input', field: 'primaryMetric', fix });
  assert.ok(big.message.includes('primaryMetric "hit@21" has cutoff 21, larger than the candidate pool (poolSize 20).'), big.message);
  const bad = thrown(() => resolvePrimaryMetric('iou@5', 5, 20));
  assert.deepEqual({ code: bad.code, field: bad.field, fix: bad.fix }, { code: 'bad-input', field: 'primaryMetric', fix });
  assert.ok(bad.message.includes('primaryMetric "iou@5" cannot be the primary metric.'), bad.message);
});
