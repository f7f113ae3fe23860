// "Show the cut" details, external-retriever causes and the invariant guards of attributeMiss.
// Written to kill the mutants StrykerJS left alive in src/core/attribution/index.ts (docs/testing.md,
// "Mutation testing"); every expected value is a hand calculation in code units over one evidence
// span [50,90) of document d (40 code units), τ = 0.9.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Chunk, Span } from '../../../../src/core/types';
import { analyzeIndex, type MatchMode } from '../../../../src/core/metrics/span';
import { attributeMiss, CAUSE_ADVICE, externalSpanCause } from '../../../../src/core/attribution';
import { SpanproofError } from '../../../../src/core/errors';

function chunk(source: string, start: number, end: number): Chunk {
  return { source, start, end, id: `${source}#${start}-${end}`, text: 'x'.repeat(end - start) };
}
const span = (source: string, start: number, end: number): Span => ({ source, start, end });
const TAU = 0.9;
const E = [span('d', 50, 90)];

function attribute(chunks: Chunk[], final: number[], opts: { k?: number; match?: MatchMode; external?: boolean } = {}) {
  const match = opts.match ?? 'all';
  const analysis = analyzeIndex(E, match, chunks, TAU);
  return attributeMiss({ evidence: E, match, chunks, analysis, pool: final, final, reranked: false, k: opts.k ?? 1, tau: TAU, external: opts.external });
}

function neighbourOf(chunks: Chunk[]) {
  const n = attribute(chunks, chunks.map((_, i) => i)).cut?.neighbour;
  return n ? { chunk: n.chunk, side: n.side, pairCoverage: n.pairCoverage } : n;
}

test('the cut when no chunk touches the span: the whole span is "before", no best chunk', () => {
  // d [0,40) and [100,200) leave [50,90) untouched → chunker-destroyed, charsBefore = 90 − 50 = 40
  const a = attribute([chunk('d', 0, 40), chunk('d', 100, 200)], [0, 1]);
  assert.equal(a.cause, 'chunker-destroyed');
  assert.equal(a.cut?.bestChunk, null);
  assert.equal(a.cut?.charsBefore, 40);
  assert.equal(a.cut?.charsAfter, 0);
  assert.equal('bestChunk' in a, false);
});

test('the best chunk at index 0 is reported at the top level too', () => {
  // [0,70) covers [50,70) = 20/40; [70,200) covers 20/40 → tie, lowest index 0
  const a = attribute([chunk('d', 0, 70), chunk('d', 70, 200)], [0, 1]);
  assert.deepEqual(a.bestChunk, { chunk: 0, coverage: 0.5 });
});

test('the neighbour is the adjacent chunk that adds the most evidence, before or after', () => {
  // best [65,85) = 20/40; before [0,65) adds [50,65) → 35/40; after [85,200) adds [85,90) → 25/40
  assert.deepEqual(neighbourOf([chunk('d', 0, 65), chunk('d', 65, 85), chunk('d', 85, 200)]), { chunk: 0, side: 'before', pairCoverage: 35 / 40 });
  // best [55,75) = 20/40; before [0,55) → 25/40; after [75,200) adds [75,90) → 35/40
  assert.deepEqual(neighbourOf([chunk('d', 0, 55), chunk('d', 55, 75), chunk('d', 75, 200)]), { chunk: 2, side: 'after', pairCoverage: 35 / 40 });
  // best [60,80) = 20/40; both sides add 10 → 30/40 each: the first one checked (before) stays
  assert.deepEqual(neighbourOf([chunk('d', 0, 60), chunk('d', 60, 80), chunk('d', 80, 200)]), { chunk: 0, side: 'before', pairCoverage: 30 / 40 });
  // only a before neighbour exists: best [60,200) = 30/40, before [0,60) → 40/40
  assert.deepEqual(neighbourOf([chunk('d', 0, 60), chunk('d', 60, 200)]), { chunk: 0, side: 'before', pairCoverage: 1 });
});

test('no neighbour when the adjacent chunks add no evidence', () => {
  // the span lies inside [40,100); [0,40) and [100,200) touch nothing of it → pair coverage = 1 = best
  const a = attribute([chunk('d', 0, 40), chunk('d', 40, 100), chunk('d', 100, 200)], [0, 2, 1]);
  assert.equal(a.cause, 'ranked-too-low');
  assert.equal(a.cut?.bestChunk?.chunk, 1);
  assert.equal(a.cut?.neighbour, null);
});

test('external retrievers: ranked-too-low, passage-split or retriever-missed (docs/metrics.md)', () => {
  // a returned passage alone holds [50,90) but is at rank 2 with k = 1
  assert.equal(attribute([chunk('d', 0, 10), chunk('d', 40, 100)], [0, 1], { external: true }).cause, 'ranked-too-low');
  // passages overlap the span ([40,70) → 20/40, [70,95) → 20/40) but none alone reaches τ
  assert.equal(attribute([chunk('d', 40, 70), chunk('d', 70, 95)], [0, 1], { external: true }).cause, 'passage-split');
  // nothing returned touches the span
  assert.equal(attribute([chunk('d', 0, 10), chunk('d', 100, 120)], [0, 1], { external: true }).cause, 'retriever-missed');
  // the same rule directly on a span analysis
  const s = analyzeIndex(E, 'all', [chunk('d', 0, 50)], TAU).spans[0];
  assert.equal(externalSpanCause(s), 'retriever-missed');
});

test('an answering chunk in the top k of a missed span is an invariant error', () => {
  // The analysis says chunks 0 and 1 each answer (both hold [50,90)); the list handed in scores
  // other chunks, so the span is missed although chunk 0 is at rank 1: the inputs contradict.
  const analysed = [chunk('d', 40, 100), chunk('d', 45, 95)];
  const analysis = analyzeIndex(E, 'all', analysed, TAU);
  const scored = [chunk('d', 0, 10), chunk('d', 10, 20)];
  assert.throws(
    () => attributeMiss({ evidence: E, match: 'all', chunks: scored, analysis, pool: [0, 1], final: [0, 1], reranked: false, k: 1, tau: TAU }),
    (e: unknown) => e instanceof SpanproofError && e.code === 'invariant' && /d\[50, 90\).*top k/.test(e.message),
  );
});

test('an analysis computed for another τ, match or evidence is refused', () => {
  const chunks = [chunk('d', 0, 70), chunk('d', 70, 200)];
  const base = { evidence: E, match: 'all' as MatchMode, chunks, pool: [0, 1], final: [0, 1], reranked: false, k: 1, tau: TAU };
  const refused = (e: unknown) => e instanceof SpanproofError && e.code === 'invariant' && /another τ, match or evidence/.test(e.message);
  assert.throws(() => attributeMiss({ ...base, analysis: analyzeIndex(E, 'all', chunks, 0.5) }), refused);
  assert.throws(() => attributeMiss({ ...base, analysis: analyzeIndex(E, 'any', chunks, TAU) }), refused);
  assert.throws(() => attributeMiss({ ...base, analysis: analyzeIndex([...E, span('d', 0, 10)], 'all', chunks, TAU) }), refused);
  // the matching analysis is accepted
  assert.equal(attributeMiss({ ...base, analysis: analyzeIndex(E, 'all', chunks, TAU) }).cause, 'chunker-degraded');
});

test('the advice of every cause: SPEC §8 for the five, docs/metrics.md for passage-split', () => {
  assert.equal(CAUSE_ADVICE['chunker-destroyed'], 'the evidence no longer exists as retrievable text: change chunking, no retriever can fix this');
  assert.equal(CAUSE_ADVICE['retriever-missed'], 'the retriever (or embedder) did not find it: different retriever/model, hybrid');
  assert.equal(CAUSE_ADVICE['reranker-demoted'], 'the reranker hurt this question');
  assert.equal(CAUSE_ADVICE['ranked-too-low'], 'raise k or add a reranker');
  assert.equal(
    CAUSE_ADVICE['passage-split'],
    'your retriever returned passages that overlap the evidence, but none holds enough of it: larger passages, overlap, or structure-aware splitting in your pipeline',
  );
});
