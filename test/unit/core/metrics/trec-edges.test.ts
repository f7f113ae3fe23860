// trec.ts / trecData.ts at the edges StrykerJS found untested (#16 item 25): measure names and their
// error, queries with no relevant document (0, not 0/0 = NaN, as trec_eval's m_*.c guard R = 0), an
// empty mean, the qid order, run-only queries validated too, the file parsers' line errors and C
// `strtod`'s inf/infinity, docno comparison of prefixes and at U+FFFF. Expected values by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  compareDocnoBytes, DEFAULT_ID_MEASURES, evaluateQuery, evaluateRun, normalizeMeasure, parseTrecQrels, parseTrecRun, qrelsFromObject, rankTrec, runFromObject,
  type TrecRun, type TrecRunEntry,
} from '../../../../src/core/metrics/trec';
import { thrown } from '../../../helpers/thrown';

test('measure names: trimmed, anchored at both ends, plain aliases, a trailing comma, cutoff ≥ 1, and the error value', () => {
  assert.deepEqual(normalizeMeasure(' P_5 '), ['precision@5']);
  assert.deepEqual(normalizeMeasure('map'), ['ap']);
  assert.deepEqual(normalizeMeasure('ap'), ['ap']);
  assert.deepEqual(normalizeMeasure('ndcg'), ['ndcg_full']); // trec_eval's ndcg is the full-list nDCG
  assert.deepEqual(normalizeMeasure('P.5,'), ['precision@5']); // trec_eval's list form, empty item dropped
  assert.deepEqual(normalizeMeasure('P_1'), ['precision@1']);
  for (const bad of ['x.P_5', 'P_5x', 'P_0', 'P.5,0']) {
    const e = thrown(() => normalizeMeasure(bad));
    assert.equal(e.code, 'bad-input', bad);
    assert.equal(e.field, 'measures');
    assert.ok(e.message.includes(`Unknown ID-based measure "${bad}".`), e.message);
    assert.equal(e.fix, 'Use precision@k, recall@k, ap, ap_cut@k, ndcg@k, ndcg_full, mrr, hit@k, r_precision, num_rel, num_ret, num_rel_ret or num_q (trec_eval names such as P_5, map, ndcg_cut_10, recip_rank, success_1, Rprec are accepted).');
  }
});

test('the default measures, and a measure named twice computed once', () => {
  const q = qrelsFromObject({ q: { a: 1 } });
  const r = runFromObject({ q: [['a', 1]] });
  // the common trec_eval set with cutoffs 1, 3, 5, 10 (trec.ts docstring of DEFAULT_ID_MEASURES)
  assert.deepEqual(evaluateRun(q, r).measures, [
    'num_q', 'num_ret', 'num_rel', 'num_rel_ret', 'ap', 'r_precision', 'mrr',
    'precision@1', 'precision@3', 'precision@5', 'precision@10', 'recall@1', 'recall@3', 'recall@5', 'recall@10',
    'ndcg@1', 'ndcg@3', 'ndcg@5', 'ndcg@10', 'ndcg_full', 'ap_cut@10', 'hit@1', 'hit@3', 'hit@5', 'hit@10',
  ]);
  assert.deepEqual(evaluateRun(q, r).measures, [...DEFAULT_ID_MEASURES]);
  assert.deepEqual(evaluateRun(q, r, { measures: ['P_5', 'precision@5', 'P.5'] }).measures, ['precision@5']);
});

test('a judged query with no relevant document scores 0 on every measure, not NaN', () => {
  // R = 0 (b judged 0, c judged −1) and no positive gain: trec_eval prints 0.0000 for map, Rprec, recall, ndcg.
  const q = qrelsFromObject({ q: { b: 0, c: -1 } });
  const r = runFromObject({ q: [['b', 2], ['c', 1]] });
  const row = evaluateRun(q, r).perQuery.get('q')!;
  for (const [m, v] of Object.entries(row)) assert.equal(v, m === 'num_ret' ? 2 : 0, m);
});

test('no evaluated query: the mean is 0, num_q 0', () => {
  const res = evaluateRun(qrelsFromObject({ q: { a: 1 } }), runFromObject({ other: [['a', 1]] }), { measures: ['P_5', 'num_q', 'num_ret'] });
  assert.deepEqual(res.mean, { 'precision@5': 0, num_q: 0, num_ret: 0 });
});

test('queries come out in numeric-aware qid order whatever the order of the qrels', () => {
  const q = qrelsFromObject({ q10: { a: 1 }, q9: { a: 1 }, q2: { a: 1 }, b1: { a: 1 } });
  const r = runFromObject({ q10: [['a', 1]], q9: [['a', 1]], q2: [['a', 1]], b1: [['a', 1]] });
  assert.deepEqual([...evaluateRun(q, r, { measures: ['P_1'] }).perQuery.keys()], ['b1', 'q2', 'q9', 'q10']);
});

test('skipZeroRelevant keeps a query that has a relevant and a non-relevant judgment', () => {
  const q = qrelsFromObject({ q1: { a: 1, b: 0 }, q2: { c: 0 } });
  const r = runFromObject({ q1: [['b', 2], ['a', 1]], q2: [['c', 1]] });
  const res = evaluateRun(q, r, { measures: ['mrr'], skipZeroRelevant: true });
  assert.deepEqual([...res.perQuery.keys()], ['q1']);
  assert.equal(res.mean.mrr, 1 / 2); // a at rank 2
  assert.equal(res.counts.zeroRelevantSkipped, 1);
});

test('a run-only query with a duplicate docno is an error too (trec_eval reads the whole run)', () => {
  const dup: TrecRunEntry[] = [{ docno: 'a', score: 1 }, { docno: 'a', score: 2 }];
  const run: TrecRun = new Map([['q', [{ docno: 'a', score: 1 }]], ['runOnly', dup]]);
  const e = thrown(() => evaluateRun(qrelsFromObject({ q: { a: 1 } }), run, { measures: ['P_1'] }));
  assert.equal(e.code, 'bad-input');
  assert.equal(e.field, 'run[runOnly]');
  assert.equal(e.fix, 'Keep one line per (query, docno) pair in the run.');
  assert.ok(e.message.includes('Duplicate docno "a" in the run for query "runOnly" (trec_eval rejects this).'), e.message);
  assert.ok(thrown(() => rankTrec(dup)).message.includes('for query "?"')); // no qid given
});

test('a judged query missing from the run, with missingRunQueries error: the error value', () => {
  const e = thrown(() => evaluateRun(qrelsFromObject({ q1: { a: 1 }, q2: { a: 1 } }), runFromObject({ q1: [['a', 1]] }), { missingRunQueries: 'error' }));
  assert.equal(e.code, 'bad-input');
  assert.equal(e.field, 'run[q2]');
  assert.equal(e.fix, 'Add the query to the run, or evaluate with completeQueries (trec_eval -c) to score it 0.');
  assert.ok(e.message.includes('Query "q2" is judged in the qrels but has no lines in the run (trec_eval v10 stops here).'), e.message);
});

test('evaluateQuery leaves out num_q (a mean-row measure) and uses linear gains by default', () => {
  const judged = new Map([['a', 2], ['b', 1]]);
  const ranked = rankTrec([{ docno: 'b', score: 2 }, { docno: 'a', score: 1 }]);
  const row = evaluateQuery(judged, ranked, ['num_q', 'P_1', 'ndcg_cut_2']);
  assert.deepEqual(Object.keys(row), ['precision@1', 'ndcg@2']);
  // linear: DCG = 1 + 2/log2 3; IDCG = 2 + 1/log2 3
  assert.ok(Math.abs(row['ndcg@2'] - (1 + 2 / Math.log2(3)) / (2 + 1 / Math.log2(3))) < 1e-12);
});

test('a score that is not a number is bad input naming the query and the docno', () => {
  for (const score of [Number.NaN, '1' as unknown as number]) {
    const e = thrown(() => rankTrec([{ docno: 'd', score }], 'q7'));
    assert.equal(e.code, 'bad-input');
    assert.equal(e.field, 'run[q7]');
    assert.equal(e.fix, 'Give every retrieved document a numeric score.');
    assert.ok(e.message.includes('Score of docno "d" in query "q7" is not a number.'), e.message);
  }
  assert.throws(() => runFromObject({ q: [['a', Number.NaN]] }), { name: 'SpanproofError' });
  // the object form of a row
  assert.deepEqual(runFromObject({ q: [{ docno: 'a', score: 3 }] }).get('q'), [{ docno: 'a', score: 3 }]);
});

test('compareDocnoBytes: a prefix sorts first; U+FFFF is one code unit', () => {
  assert.equal(compareDocnoBytes('ab', 'abc'), -1);
  assert.equal(compareDocnoBytes('abc', 'ab'), 1);
  assert.equal(compareDocnoBytes('ab', 'ab'), 0);
  assert.equal(compareDocnoBytes('\uffffa', '\uffffb'), -1);
  assert.equal(compareDocnoBytes('\u{1f600}b', '\u{1f600}a'), 1);
});

test('qrels parser: leading blanks, tabs and runs of spaces separate fields; each bad line is named with its number', () => {
  const q = parseTrecQrels('  q1\t0  a   1\n\n   \nq1 0 b 0 trailing words\n');
  assert.deepEqual([...q.get('q1')!], [['a', 1], ['b', 0]]);
  const cases: Array<[string, string, string, string]> = [
    ['q 0 a 1\nq 0 a\n', 'line 2', 'Expected 4 fields "qid iter docno rel", found 3.', 'Write qrels lines as `qid 0 docno rel`.'],
    ['q 0 a x\n', 'line 1', 'Relevance "x" is not a number.', 'Use an integer relevance level (0 = not relevant).'],
    ['q 0 a 1\nq 0 b 1\nq 0 a 0\n', 'line 3', 'Docno "a" is judged twice for query "q".', 'Keep one judgment per (query, docno).'],
  ];
  for (const [text, field, message, fix] of cases) {
    const e = thrown(() => parseTrecQrels(text));
    assert.deepEqual({ code: e.code, file: e.file, field: e.field, fix: e.fix }, { code: 'bad-input', file: 'qrels', field, fix });
    assert.ok(e.message.includes(message), e.message);
  }
});

test('run parser: blanks, bad lines named with their number, and C strtod\'s inf / infinity', () => {
  const r = parseTrecRun(' q1  Q0\ta 1 inf t\n\t\nq1 Q0 b 2 -INF t\nq1 Q0 c 3 +Infinity t extra\nq1 Q0 d 4 -infinity t\n');
  assert.deepEqual(r.get('q1'), [
    { docno: 'a', score: Infinity }, { docno: 'b', score: -Infinity }, { docno: 'c', score: Infinity }, { docno: 'd', score: -Infinity },
  ]);
  const cases: Array<[string, string, string, string]> = [
    ['q Q0 a 1 1 t\nq Q0 b 2\n', 'line 2', 'Expected 6 fields "qid Q0 docno rank score tag", found 4.', 'Write run lines as `qid Q0 docno rank score tag`.'],
    ['q Q0 a 1 abc t\n', 'line 1', 'Score "abc" is not a number.', 'Use a numeric score.'],
    ['q Q0 a 1 xinf t\n', 'line 1', 'Score "xinf" is not a number.', 'Use a numeric score.'],
    ['q Q0 a 1 infx t\n', 'line 1', 'Score "infx" is not a number.', 'Use a numeric score.'],
    ['q Q0 a 1 1 t\n\nq Q0 a 2 0.5 t\n', 'line 3', 'Duplicate docno "a" for query "q" (trec_eval rejects this).', 'Keep one line per (query, docno) pair.'],
  ];
  for (const [text, field, message, fix] of cases) {
    const e = thrown(() => parseTrecRun(text));
    assert.deepEqual({ code: e.code, file: e.file, field: e.field, fix: e.fix }, { code: 'bad-input', file: 'run', field, fix });
    assert.ok(e.message.includes(message), e.message);
  }
});
