// ID-based retrieval metrics (src/core/metrics/trec.ts) against hand calculations and against
// trec_eval v10's own test outputs (test/fixtures/metrics/trec_eval_test, copied from
// ../shared/reference/metrics/trec_eval_test = usnistgov/trec_eval commit f4253652).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  compareDocnoBytes, evaluateRun, normalizeMeasure, parseTrecQrels, parseTrecRun, qrelsFromObject, rankTrec, runFromObject,
} from '../../../../src/core/metrics/trec';
import { isSpanproofError } from '../../../../src/core/errors';
import { FIXTURES } from '../../../helpers/paths';

const close = (a: number, b: number, tol = 1e-12): void => assert.ok(Math.abs(a - b) <= tol, `${a} != ${b}`);

// One query: relevant d1, d3, d6, d9 (d9 never retrieved); run d1..d8 by descending score.
const qrels = qrelsFromObject({ q1: { d1: 1, d2: 0, d3: 1, d4: 0, d6: 1, d9: 1 } });
const run = runFromObject({ q1: [['d1', 0.9], ['d2', 0.8], ['d3', 0.7], ['d4', 0.6], ['d5', 0.5], ['d6', 0.4], ['d7', 0.3], ['d8', 0.2]] });

test('P@k divides by k even past the end of the run; recall divides by all relevant', () => {
  const r = evaluateRun(qrels, run, { measures: ['precision@3', 'precision@10', 'recall@3', 'recall@10'] }).perQuery.get('q1')!;
  close(r['precision@3'], 2 / 3); // d1, d3 relevant in top 3
  close(r['precision@10'], 3 / 10); // 3 relevant retrieved, k = 10 though only 8 retrieved
  close(r['recall@3'], 2 / 4); // R = 4 including the never-retrieved d9
  close(r['recall@10'], 3 / 4);
});

test('AP = Σ precision at each relevant rank / R; map_cut divides by the full R', () => {
  const r = evaluateRun(qrels, run, { measures: ['ap', 'ap_cut@3', 'r_precision', 'mrr'] }).perQuery.get('q1')!;
  // relevant at ranks 1, 3, 6: (1/1 + 2/3 + 3/6) / 4 = (1 + 0.6667 + 0.5) / 4 = 0.541666…
  close(r.ap, (1 + 2 / 3 + 3 / 6) / 4);
  close(r['ap_cut@3'], (1 + 2 / 3) / 4); // ranks ≤ 3 only, still / 4
  close(r.r_precision, 2 / 4); // top R = 4: d1, d3 relevant
  close(r.mrr, 1);
});

test('nDCG@k: linear gain, 1/log2(rank+1), ideal from all judged docs', () => {
  const q = qrelsFromObject({ q: { a: 3, b: 2, c: 0, d: 1 } });
  const rr = runFromObject({ q: [['c', 4], ['b', 3], ['x', 2], ['a', 1]] });
  const r = evaluateRun(q, rr, { measures: ['ndcg@3', 'ndcg_full'] }).perQuery.get('q')!;
  // DCG@3 = 0/log2(2) + 2/log2(3) + 0/log2(4); IDCG@3 = 3/1 + 2/log2(3) + 1/log2(4) = 3 + 1.26186 + 0.5
  close(r['ndcg@3'], (2 / Math.log2(3)) / (3 + 2 / Math.log2(3) + 1 / 2));
  // full: DCG adds a (3) at rank 4 → 3/log2(5); IDCG over all judged rel>0: 3 + 2/log2(3) + 1/2
  close(r.ndcg_full, (2 / Math.log2(3) + 3 / Math.log2(5)) / (3 + 2 / Math.log2(3) + 0.5));
  const e = evaluateRun(q, rr, { measures: ['ndcg@3'], gain: 'exponential' }).perQuery.get('q')!;
  // gains 2^rel − 1: a 7, b 3, d 1 → (3/log2 3) / (7 + 3/log2 3 + 1/2)
  close(e['ndcg@3'], (3 / Math.log2(3)) / (7 + 3 / Math.log2(3) + 0.5));
});

test('tie order: score descending, then docno descending byte-wise (doc9 before doc10)', () => {
  const ranked = rankTrec([{ docno: 'doc10', score: 1 }, { docno: 'doc9', score: 1 }, { docno: 'A', score: 1 }, { docno: 'C', score: 2 }, { docno: 'B', score: 1 }]);
  assert.deepEqual(ranked.map((e) => e.docno), ['C', 'doc9', 'doc10', 'B', 'A']);
  // byte order, not UTF-16 order: U+FF5E (3 UTF-8 bytes, EF BD 9E) sorts below U+1F600 (F0 …)
  assert.ok(compareDocnoBytes('\uff5e', '\u{1f600}') < 0);
  assert.ok('\uff5e' > '\u{1f600}'); // UTF-16 comparison would get it backwards
  // equal scores: relevant "doc9" ranks first → P@1 = 1 (trec_eval#22 / pytrec_eval#56 behaviour)
  const r = evaluateRun(qrelsFromObject({ q: { doc9: 1 } }), runFromObject({ q: [['doc10', 0.5], ['doc9', 0.5]] }), { measures: ['P_1'] });
  assert.equal(r.perQuery.get('q')!['precision@1'], 1);
});

test('query set: run-only queries ignored, zero-relevant judged queries count, -c counts missing queries as 0', () => {
  const q = qrelsFromObject({ q1: { a: 1 }, q2: { b: 0 }, q3: { c: 1 } });
  const rr = runFromObject({ q1: [['a', 1]], q2: [['b', 1]], qX: [['z', 1]] });
  const plain = evaluateRun(q, rr, { measures: ['P_1', 'num_q', 'num_rel'] });
  assert.deepEqual(plain.counts, { evaluated: 2, ignored: 1, missingFromRun: 1, zeroRelevantSkipped: 0 });
  close(plain.mean['precision@1'], (1 + 0) / 2); // q2 judged, zero relevant, scores 0 and counts
  assert.equal(plain.mean.num_rel, 1); // num_* are sums
  const c = evaluateRun(q, rr, { measures: ['P_1', 'num_q', 'num_rel'], completeQueries: true });
  assert.equal(c.mean.num_q, 3);
  close(c.mean['precision@1'], 1 / 3);
  assert.equal(c.mean.num_rel, 2);
  // the non-trec_eval convention, as an option: mean over queries with R ≥ 1 only
  const skip = evaluateRun(q, rr, { measures: ['P_1'], skipZeroRelevant: true });
  assert.equal(skip.mean['precision@1'], 1);
  assert.equal(skip.counts.zeroRelevantSkipped, 1);
  assert.throws(() => evaluateRun(q, rr, { missingRunQueries: 'error' }), (e: unknown) => isSpanproofError(e) && /q3/.test((e as Error).message));
});

test('-l: relevance level changes what is relevant but not nDCG gains', () => {
  const q = qrelsFromObject({ q: { a: 1, b: 2 } });
  const rr = runFromObject({ q: [['a', 2], ['b', 1]] });
  const l1 = evaluateRun(q, rr, { measures: ['P_1', 'ndcg@2'], relevanceLevel: 1 }).perQuery.get('q')!;
  const l2 = evaluateRun(q, rr, { measures: ['P_1', 'ndcg@2'], relevanceLevel: 2 }).perQuery.get('q')!;
  assert.equal(l1['precision@1'], 1);
  assert.equal(l2['precision@1'], 0);
  assert.equal(l1['ndcg@2'], l2['ndcg@2']);
});

test('duplicate docno in a query is an error naming the query (file parser names the line)', () => {
  assert.throws(() => runFromObject({ q: [['a', 1], ['a', 2]] }), (e: unknown) => isSpanproofError(e) && /Duplicate docno "a"/.test((e as Error).message));
  assert.throws(() => parseTrecRun('q Q0 a 1 1.0 t\nq Q0 a 2 0.5 t\n', 'r.txt'), (e: unknown) => isSpanproofError(e) && /r\.txt: line 2/.test((e as Error).message));
  assert.throws(() => parseTrecQrels('q 0 a\n', 'qrels.txt'), (e: unknown) => isSpanproofError(e) && /line 1/.test((e as Error).message));
});

test('measure names: ours and trec_eval\'s', () => {
  assert.deepEqual(normalizeMeasure('P.5,10'), ['precision@5', 'precision@10']);
  assert.deepEqual(normalizeMeasure('ndcg_cut_10'), ['ndcg@10']);
  assert.deepEqual(normalizeMeasure('recip_rank'), ['mrr']);
  assert.deepEqual(normalizeMeasure('success_1'), ['hit@1']);
  assert.deepEqual(normalizeMeasure('Rprec'), ['r_precision']);
  assert.throws(() => normalizeMeasure('bpref'), (e: unknown) => isSpanproofError(e));
});

// trec_eval's own regression outputs (-q per query, 4 decimals). Invocations inferred from the files:
// out.test.aq = -a -q qrels.test results.test; .aqc = -c with results.trunc; .aql = -l2 with qrels.rel_level.
const TE = join(FIXTURES, 'metrics', 'trec_eval_test');
for (const [out, qrelsFile, runFile, opts] of [
  ['out.test.aq', 'qrels.test', 'results.test', {}],
  ['out.test.aqc', 'qrels.test', 'results.trunc', { completeQueries: true }],
  ['out.test.aql', 'qrels.rel_level', 'results.test', { relevanceLevel: 2 }],
] as const) {
  test(`trec_eval test data: ${out} reproduced to 4 decimals`, () => {
    const expected = new Map<string, Map<string, number>>();
    for (const line of readFileSync(join(TE, out), 'utf8').split('\n')) {
      const f = line.trim().split(/\s+/);
      if (f.length !== 3) continue;
      let names: string[];
      try {
        names = normalizeMeasure(f[0]);
      } catch {
        continue; // measures Spanproof does not compute (bpref, iprec_at_recall, …)
      }
      if (!expected.has(f[1])) expected.set(f[1], new Map());
      expected.get(f[1])!.set(names[0], Number(f[2]));
    }
    const measures = [...new Set([...expected.values()].flatMap((m) => [...m.keys()]))];
    const r = evaluateRun(parseTrecQrels(readFileSync(join(TE, qrelsFile), 'utf8')), parseTrecRun(readFileSync(join(TE, runFile), 'utf8')), { ...opts, measures });
    let checked = 0;
    for (const [qid, row] of expected) {
      for (const [m, v] of row) {
        const got = qid === 'all' ? r.mean[m] : r.perQuery.get(qid)?.[m];
        assert.ok(got !== undefined && Math.abs(got - v) <= 5.0001e-5, `${out} ${qid} ${m}: trec_eval ${v}, ours ${got}`);
        checked++;
      }
    }
    assert.ok(measures.length >= 40 && checked >= 180, `checked ${checked} values of ${measures.length} measures`);
  });
}
