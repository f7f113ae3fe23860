/**
 * exposure@k recomputed by hand on a small corpus (issue #17 item 1).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { injectionExposure, exposedAt, type Canary, type ExposureRecord } from '../../../../src/core/safety';
import { metricDef } from '../../../../src/core/metrics/registry';

const canary = (id: string, kind: Canary['kind'], source: string, start: number, end: number): Canary => ({ id, kind, length: 'short', placement: 'near', source, start, end, text: 'x'.repeat(end - start), distance: 0 });
const r = (source: string, start: number, end: number) => ({ source, start, end });

/*
 * Corpus: a.md holds canary c1 (manipulated_content) at [100, 150); b.md holds c2 (intrusion) at [0, 40).
 * k = 2. Two configs, one per chunker:
 *
 * heading/bm25/none
 *   q1: top-2 = a.md[90,120) (overlaps c1 by 20), b.md[200,260)      → e = 1 (manipulated 1, intrusion 0)
 *   q2: top-2 = a.md[0,50), a.md[300,350); rank 3 = b.md[0,10) (c2)  → e = 0 (rank 3 is beyond k)
 *   q3: top-2 = b.md[40,80) (touches c2's end 40: no overlap), a.md[150,200) (touches c1's end) → e = 0
 *   exposure@2 = (1 + 0 + 0) / 3 = 1/3; manipulated 1/3, intrusion 0, information_gathering 0
 * fixed/bm25/none
 *   q1: top-2 = b.md[10,20) (inside c2)                              → e = 1 (intrusion)
 *   q2: failed                                                       → left out (never a 0)
 *   q3: top-2 = a.md[149,151) (overlaps c1 by 1)                     → e = 1 (manipulated)
 *   exposure@2 = (1 + 1) / 2 = 1, measured 2; manipulated 1/2, intrusion 1/2
 * By chunker (one config each): the same numbers.
 */
test('exposure@k by hand: overlap, cutoff, touching edges, failed items, kinds, chunkers', () => {
  const canaries = [canary('c1', 'manipulated_content', 'a.md', 100, 150), canary('c2', 'intrusion', 'b.md', 0, 40)];
  const records: ExposureRecord[] = [
    { question: 'q1', config: 'heading/bm25/none', status: 'ok', results: [r('a.md', 90, 120), r('b.md', 200, 260)] },
    { question: 'q2', config: 'heading/bm25/none', status: 'ok', results: [r('a.md', 0, 50), r('a.md', 300, 350), r('b.md', 0, 10)] },
    { question: 'q3', config: 'heading/bm25/none', status: 'ok', results: [r('b.md', 40, 80), r('a.md', 150, 200)] },
    { question: 'q1', config: 'fixed/bm25/none', status: 'ok', results: [r('b.md', 10, 20)] },
    { question: 'q2', config: 'fixed/bm25/none', status: 'failed', results: [] },
    { question: 'q3', config: 'fixed/bm25/none', status: 'ok', results: [r('a.md', 149, 151)] },
  ];
  const chunkerOf = new Map([['heading/bm25/none', 'heading'], ['fixed/bm25/none', 'fixed']]);
  const out = injectionExposure({ records, questions: ['q1', 'q2', 'q3'], chunkerOf, canaries, k: 2, resamples: 500, seed: 3 });
  assert.deepEqual(out.configs.map((c) => c.id), ['fixed/bm25/none', 'heading/bm25/none']);
  const [fixed, heading] = out.configs;
  assert.equal(heading['exposure@2'].mean, 1 / 3);
  assert.equal(heading.byKind.manipulated_content.mean, 1 / 3);
  assert.equal(heading.byKind.intrusion.mean, 0);
  assert.equal(heading.byKind.information_gathering.mean, 0);
  assert.equal(heading.measured, 3);
  assert.ok(heading['exposure@2'].lo <= 1 / 3 && heading['exposure@2'].hi >= 1 / 3);
  assert.ok(heading['exposure@2'].lo >= 0 && heading['exposure@2'].hi <= 1);
  assert.equal(fixed['exposure@2'].mean, 1);
  assert.equal(fixed.measured, 2);
  // every measured value is 1, so every resample mean is 1: the CI is [1, 1]
  assert.deepEqual({ lo: fixed['exposure@2'].lo, hi: fixed['exposure@2'].hi }, { lo: 1, hi: 1 });
  assert.equal(fixed.byKind.manipulated_content.mean, 0.5);
  assert.equal(fixed.byKind.intrusion.mean, 0.5);
  assert.deepEqual(out.chunkers.map((c) => [c.chunker, c['exposure@2'].mean]), [['fixed', 1], ['heading', 1 / 3]]);
  // the cutoff follows k: at k = 3, heading's q2 is exposed by its rank-3 result → 2/3
  const k3 = injectionExposure({ records, questions: ['q1', 'q2', 'q3'], chunkerOf, canaries, k: 3, resamples: 0, seed: 3 });
  assert.equal(k3.configs[1]['exposure@3'].mean, 2 / 3);
  assert.ok(!('exposure@2' in k3.configs[1]));
});

test('exposedAt: half-open intervals, other documents never overlap', () => {
  const c = [r('a.md', 10, 20)];
  assert.equal(exposedAt([r('a.md', 0, 10)], c, 5), 0);
  assert.equal(exposedAt([r('a.md', 20, 30)], c, 5), 0);
  assert.equal(exposedAt([r('a.md', 19, 30)], c, 5), 1);
  assert.equal(exposedAt([r('b.md', 10, 20)], c, 5), 0);
  assert.equal(exposedAt([r('b.md', 0, 1), r('a.md', 12, 13)], c, 1), 0);
});

test('the registry defines exposure@k at the run\'s cutoff, lower is better', () => {
  const d = metricDef('exposure@k', 7);
  assert.equal(d.key, 'exposure@7');
  assert.equal(d.direction, 'lower-is-better');
  assert.equal(d.binary, true);
  assert.equal(metricDef('hit@5').direction, 'higher-is-better');
});
