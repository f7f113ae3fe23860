// IntervalSet and analyzeIndex at their edges (SPEC §7.1, §8): empty and touching ranges, runs kept
// apart, the adjacent-pair tie-break, cross-source neighbours, the span picked by the match mode, and
// the union's ideal gains. Expected values by hand in the comments.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IntervalSet } from '../../../../src/core/metrics/intervals';
import { analyzeIndex } from '../../../../src/core/metrics/spanIndex';
import type { Chunk, Span } from '../../../../src/core/types';

const ch = (source: string, start: number, end: number): Chunk => ({ source, start, end, id: `${source}#${start}-${end}`, text: '' });
const sp = (start: number, end: number, source = 'a'): Span => ({ source, start, end });
// a: [0,10) [10,20) [20,30); then b: [0,10)
const CHUNKS = [ch('a', 0, 10), ch('a', 10, 20), ch('a', 20, 30), ch('b', 0, 10)];

test('IntervalSet: empty and reversed ranges add nothing; touching runs merge; a range inside a run leaves the others alone', () => {
  const s = new IntervalSet();
  assert.equal(s.add(5, 5), 0);
  assert.equal(s.add(7, 3), 0);
  assert.deepEqual(s.runs(), []);
  assert.equal(s.add(0, 10), 10);
  assert.equal(s.add(10, 15), 5); // touches [0,10) at 10 → one run
  assert.equal(s.add(20, 30), 10);
  assert.equal(s.add(17, 20), 3); // touches [20,30) at 20 → one run
  assert.deepEqual(s.runs(), [[0, 15], [17, 30]]);
  assert.equal(s.length, 28);
  const t = new IntervalSet();
  t.add(0, 5); t.add(10, 15); t.add(20, 25);
  assert.equal(t.add(11, 12), 0); // inside the middle run
  assert.deepEqual(t.runs(), [[0, 5], [10, 15], [20, 25]]);
});

test('adjacent pairs: ties keep the first pair; a neighbour of another source is no pair', () => {
  // span [5,25): pairs (0,1) = (5 + 10)/20 = 0.75 and (1,2) = (10 + 5)/20 = 0.75 → the first; τ = 0.9 not reached
  const a = analyzeIndex([sp(5, 25)], 'all', CHUNKS, 0.9);
  assert.deepEqual(a.spans[0].bestPair, { first: 0, second: 1, coverage: 0.75 });
  assert.equal(a.spans[0].reachable, false); // best single 10/20
  assert.equal(a.adjacentPairReaches, false);
  // span [25,30) touches only chunk 2, the last of a; chunk 3 is of b
  assert.equal(analyzeIndex([sp(25, 30)], 'all', CHUNKS, 0.9).spans[0].bestPair, null);
  // a span inside one chunk: ideal gains [1] → IDCG 1/log2(2) = 1 at 5 and 10
  assert.deepEqual(analyzeIndex([sp(2, 8)], 'all', CHUNKS, 0.9).spans[0].idcg, { at5: 1, at10: 1 });
});

test('several spans: sorted touching and answering chunks, the union\'s ideal gains, the span picked by match', () => {
  // spans in chunks 2, 0, 1 (6 units each, all reachable): E = 18 units, each chunk adds 6/18
  const ev = [sp(22, 28), sp(2, 8), sp(12, 18)];
  const all = analyzeIndex(ev, 'all', CHUNKS, 0.9);
  assert.deepEqual(all.touching, [0, 1, 2]);
  assert.deepEqual(all.answering, [0, 1, 2]);
  assert.deepEqual(all.idealGains, [1 / 3, 1 / 3, 1 / 3]);
  assert.equal(all.bestChunk, 2); // equal coverage 1: the lowest span index decides
  assert.equal(analyzeIndex(ev, 'any', CHUNKS, 0.9).bestChunk, 2);
  // [2,8) covered 1 by chunk 0; [8,20) best chunk 1 with 10/12
  const two = [sp(2, 8), sp(8, 20)];
  assert.equal(analyzeIndex(two, 'all', CHUNKS, 0.9).bestChunk, 1); // the worse-covered span's
  assert.equal(analyzeIndex(two, 'any', CHUNKS, 0.9).bestChunk, 0); // the better-covered span's
});

test('adjacentPairReaches: every span for all, some span for any', () => {
  // [2,8) reachable by chunk 0; [5,25) neither reachable (0.5) nor by a pair (0.75 < 0.9)
  const ev = [sp(2, 8), sp(5, 25)];
  assert.equal(analyzeIndex(ev, 'all', CHUNKS, 0.9).adjacentPairReaches, false);
  assert.equal(analyzeIndex(ev, 'any', CHUNKS, 0.9).adjacentPairReaches, true);
});
