// Failure attribution (SPEC §8) on constructed indexes where each of the five causes is forced.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Chunk, Span } from '../../../../src/core/types';
import { analyzeIndex, type MatchMode } from '../../../../src/core/metrics/span';
import { attributeMiss, CAUSE_ADVICE } from '../../../../src/core/attribution';

function chunk(source: string, start: number, end: number): Chunk {
  return { source, start, end, id: `${source}#${start}-${end}`, text: 'x'.repeat(end - start) };
}
const span = (source: string, start: number, end: number): Span => ({ source, start, end });
const TAU = 0.9;
// One evidence span [50,90) of doc d (40 code units) in every single-span case.
const E = [span('d', 50, 90)];

function attribute(chunks: Chunk[], pool: number[], final: number[], opts: { k?: number; reranked?: boolean; evidence?: Span[]; match?: MatchMode } = {}) {
  const evidence = opts.evidence ?? E;
  const match = opts.match ?? 'all';
  const analysis = analyzeIndex(evidence, match, chunks, TAU);
  return attributeMiss({ evidence, match, chunks, analysis, pool, final, reranked: opts.reranked ?? false, k: opts.k ?? 1, tau: TAU });
}

test('chunker-destroyed: no single chunk and no adjacent pair reaches τ', () => {
  // [0,60) covers 10/40, [60,75) 15/40, [75,200) 15/40; pairs: 25/40 = 0.625 and 30/40 = 0.75 < 0.9
  const idx = [chunk('d', 0, 60), chunk('d', 60, 75), chunk('d', 75, 200)];
  const a = attribute(idx, [0, 1, 2], [0, 1, 2], { k: 2 });
  assert.equal(a.cause, 'chunker-destroyed');
  // best chunk: [60,75) and [75,200) tie at 15 → lowest index 1
  assert.deepEqual(a.bestChunk, { chunk: 1, coverage: 15 / 40 });
  assert.equal(a.cut?.charsBefore, 10); // [50,60)
  assert.equal(a.cut?.charsAfter, 15); // [75,90)
  assert.equal(a.cut?.coverageAtK, 25 / 40); // top 2 = [0,75) → [50,75)
  // a config retrieving all three chunks still hits: the cause is only given to misses
  assert.equal(attribute(idx, [0, 1, 2], [0, 1, 2], { k: 3 }).cause, null);
});

test('chunker-degraded: two adjacent chunks together reach τ', () => {
  // [0,70) covers [50,70) = 20/40, [70,200) covers 20/40; together 40/40
  const idx = [chunk('d', 0, 70), chunk('d', 70, 200)];
  const a = attribute(idx, [0, 1], [0, 1], { k: 1 });
  assert.equal(a.cause, 'chunker-degraded');
  assert.equal(a.cut?.bestChunk?.chunk, 0); // tie at 0.5 → lowest index
  assert.equal(a.cut?.charsBefore, 0);
  assert.equal(a.cut?.charsAfter, 20); // evidence [70,90) lies after the cut at 70
  assert.deepEqual(
    { chunk: a.cut?.neighbour?.chunk, side: a.cut?.neighbour?.side, pairCoverage: a.cut?.neighbour?.pairCoverage },
    { chunk: 1, side: 'after', pairCoverage: 1 },
  );
  assert.equal(a.cut?.bestChunkRank, 1);
  assert.equal(a.cut?.coverageAtK, 0.5);
});

test('the adjacent-two-chunks test: the same two chunks, not consecutive, leave it destroyed', () => {
  // [0,70) and [70,200) still cover everything together, but [60,65) sits between them in document order:
  // pairs (0,1): [50,70) = 20/40; (1,2): [60,65) ∪ [70,90) = 25/40 → no adjacent pair reaches 0.9
  const idx = [chunk('d', 0, 70), chunk('d', 60, 65), chunk('d', 70, 200)];
  assert.equal(attribute(idx, [0, 1, 2], [0, 1, 2], { k: 1 }).cause, 'chunker-destroyed');
  // chunks of different documents are never adjacent: c [0,1000) then d [70,200)
  const cross = [chunk('c', 0, 1000), chunk('d', 70, 200)];
  assert.equal(attribute(cross, [0, 1], [0, 1], { k: 1, evidence: [span('d', 50, 90)] }).cause, 'chunker-destroyed');
});

// Index with an answering chunk: [0,100) (idx 0) holds the whole span; [100,150) (1), [150,200) (2).
const R = [chunk('d', 0, 100), chunk('d', 100, 150), chunk('d', 150, 200)];

test('retriever-missed: an answering chunk exists but is not in the candidate pool', () => {
  const a = attribute(R, [1, 2], [1, 2], { k: 1 });
  assert.equal(a.cause, 'retriever-missed');
  assert.equal(a.cut?.bestChunkRank, null);
  assert.equal(a.cut?.bestChunkPoolRank, null);
});

test('reranker-demoted: answering chunk in the pool top-k before reranking, none after', () => {
  const a = attribute(R, [0, 1, 2], [1, 2, 0], { k: 1, reranked: true });
  assert.equal(a.cause, 'reranker-demoted');
  assert.equal(a.cut?.bestChunkPoolRank, 1);
  assert.equal(a.cut?.bestChunkRank, 3);
  // the same lists without a reranker are not a demotion
  assert.equal(attribute(R, [0, 1, 2], [1, 2, 0], { k: 1, reranked: false }).cause, 'ranked-too-low');
});

test('ranked-too-low: answering chunk in the pool but below k', () => {
  assert.equal(attribute(R, [1, 2, 0], [1, 2, 0], { k: 1, reranked: true }).cause, 'ranked-too-low');
  assert.equal(attribute(R, [1, 0, 2], [1, 0, 2], { k: 1 }).cause, 'ranked-too-low');
});

test('reranker-demoted needs the answering chunk in the top k BEFORE reranking: at pool rank k + 1 it is ranked-too-low', () => {
  // #16 item 22: a "before reranking" window of k + 1 (pool.slice(0, k + 1)) turned these into reranker-demoted.
  assert.equal(attribute(R, [1, 0, 2], [1, 2, 0], { k: 1, reranked: true }).cause, 'ranked-too-low'); // pool rank 2 = k + 1
  assert.equal(attribute(R, [1, 2, 0], [2, 1, 0], { k: 2, reranked: true }).cause, 'ranked-too-low'); // pool rank 3 = k + 1
  // pool rank exactly k, below k after reranking: demoted
  assert.equal(attribute(R, [1, 0, 2], [1, 2, 0], { k: 2, reranked: true }).cause, 'reranker-demoted');
});

// Two spans of d that fail with the same cause (ranked-too-low) but different coverage@k:
// index 0 d[0,40) answers A, 1 d[20,40) holds half of A, 2 d[100,110) a quarter of B, 3 d[100,140) answers B,
// 4 e[0,10) touches neither.
const TIE = [chunk('d', 0, 40), chunk('d', 20, 40), chunk('d', 100, 110), chunk('d', 100, 140), chunk('e', 0, 10)];
const A = span('d', 0, 40);
const B = span('d', 100, 140);

test('same cause on two spans: `all` → the lowest coverage@k decides, `any` → the highest; equal → the lowest index', () => {
  // #16 item 22: flipping this tie-break passed the suite, though it changes "where the cut fell".
  for (const [evidence, iA, iB] of [[[A, B], 0, 1], [[B, A], 1, 0]] as const) {
    const all = attribute(TIE, [1, 2, 0, 3], [1, 2, 0, 3], { k: 2, evidence: [...evidence], match: 'all' }); // top 2: A 20/40, B 10/40
    assert.deepEqual(all.spanCauses, ['ranked-too-low', 'ranked-too-low']);
    assert.equal(all.cut?.spanIndex, iB);
    assert.equal(all.cut?.coverageAtK, 10 / 40);
    assert.equal(all.cut?.bestChunk?.chunk, 3);
    const any = attribute(TIE, [1, 2, 0, 3], [1, 2, 0, 3], { k: 2, evidence: [...evidence], match: 'any' });
    assert.equal(any.cut?.spanIndex, iA);
    assert.equal(any.cut?.coverageAtK, 20 / 40);
    assert.equal(any.cut?.bestChunk?.chunk, 0);
    // top 1 = e[0,10): both spans at coverage 0 → the lowest index, in both modes
    for (const match of ['all', 'any'] as const) assert.equal(attribute(TIE, [4, 1, 2, 0, 3], [4, 1, 2, 0, 3], { k: 1, evidence: [...evidence], match }).cut?.spanIndex, 0);
  }
});

test('a hit has no cause', () => {
  const a = attribute(R, [1, 0, 2], [1, 0, 2], { k: 2 });
  assert.equal(a.cause, null);
  assert.deepEqual(a.spanCauses, [null]);
  assert.equal(a.cut, undefined);
});

// Two documents: d chunked [0,70) | [70,200) (span d[50,90) degraded); f chunked [0,100) | [100,200)
// (span f[50,90) answered by f[0,100), index 2). Pool = final = [3, 2, 1, 0], k = 1.
const TWO = [chunk('d', 0, 70), chunk('d', 70, 200), chunk('f', 0, 100), chunk('f', 100, 200)];
const EV = [span('f', 50, 90), span('d', 50, 90)];

test('`all`: the failing span that failed earliest in the order decides', () => {
  const a = attribute(TWO, [3, 2, 1, 0], [3, 2, 1, 0], { k: 1, evidence: EV, match: 'all' });
  // f-span: answering chunk at rank 2 → ranked-too-low; d-span: chunker-degraded (earlier) → decides
  assert.deepEqual(a.spanCauses, ['ranked-too-low', 'chunker-degraded']);
  assert.equal(a.cause, 'chunker-degraded');
  assert.equal(a.cut?.spanIndex, 1);
  // at k = 2 the f-span is hit; only the d-span fails
  const b = attribute(TWO, [3, 2, 1, 0], [3, 2, 1, 0], { k: 2, evidence: EV, match: 'all' });
  assert.deepEqual(b.spanCauses, [null, 'chunker-degraded']);
});

test('`any`: the alternative that got furthest (latest in the order) decides', () => {
  const a = attribute(TWO, [3, 2, 1, 0], [3, 2, 1, 0], { k: 1, evidence: EV, match: 'any' });
  assert.equal(a.cause, 'ranked-too-low');
  assert.equal(a.cut?.spanIndex, 0);
  assert.equal(a.cut?.bestChunk?.chunk, 2);
  // k = 2: the f alternative is hit → the question is hit, no cause
  assert.equal(attribute(TWO, [3, 2, 1, 0], [3, 2, 1, 0], { k: 2, evidence: EV, match: 'any' }).cause, null);
});

test('every cause has the advice text of SPEC §8', () => {
  assert.equal(CAUSE_ADVICE['chunker-degraded'], 'the evidence was split across a boundary: larger chunks, overlap, or structure-aware chunking');
  // SPEC §8's five, and passage-split for external retrievers (issue #18)
  assert.deepEqual(Object.keys(CAUSE_ADVICE).sort(), ['chunker-degraded', 'chunker-destroyed', 'passage-split', 'ranked-too-low', 'reranker-demoted', 'retriever-missed']);
});
