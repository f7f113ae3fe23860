/**
 * Report rendering on a hand-built run: the cut pieces of a miss, the CSV shape, the HTML being
 * self-contained, and the deterministic JSON of run files.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cutPieces, renderCsv, renderHtml, renderMarkdown, type ReportMiss } from '../../../../src/core/report';
import { stableStringify } from '../../../../src/core/runs';
import { rankingTable } from '../../../../src/core/report/text';
import { buildReportModel } from '../../../../src/core/report/model';
import { DEFAULT_SETTINGS } from '../../../../src/core/settings';
import type { RunData } from '../../../../src/shared/protocol';

test('cutPieces splits the evidence at the best chunk boundaries', () => {
  // Document "0123456789ABCDEFGHIJ"; evidence [5, 15) = "56789ABCDE"; best chunk [8, 20) = "89ABCDEFGHIJ".
  const m: ReportMiss = {
    question: 'q', questionText: 'q?', config: 'fixed/bm25/none', cause: 'chunker-degraded',
    evidenceText: '56789ABCDE', chunkText: '89ABCDEFGHIJ',
    miss: {
      evidence: { source: 'a.md', start: 5, end: 15 }, spanIndex: 0,
      bestChunk: { chunk: 1, id: 'a.md#8-20', source: 'a.md', start: 8, end: 20, coverage: 0.7 },
      charsBefore: 3, charsAfter: 0, neighbour: null, bestChunkRank: null, bestChunkPoolRank: null, coverageAtK: 0,
    },
  };
  assert.deepEqual(cutPieces(m), { before: '567', inside: '89ABCDE', after: '', chunkPrefix: '', chunkSuffix: 'FGHIJ' });
});

test('stableStringify sorts keys, rounds to 6 decimals, writes non-finite numbers as null', () => {
  assert.equal(stableStringify({ b: 1 / 3, a: [2, NaN, -0], c: undefined }), '{"a":[2,null,0],"b":0.333333}');
});

function fakeRun(): RunData {
  const metrics = Object.fromEntries(['hit@1', 'hit@3', 'hit@5', 'hit@10', 'mrr', 'ndcg@5', 'ndcg@10', 'coverage@5', 'precision@5', 'iou@5', 'iou_chroma@5', 'precision_omega', 'reachable'].map((k) => [k, { mean: 0.5, lo: 0.25, hi: 0.75 }]));
  const causes = { 'chunker-destroyed': 0, 'chunker-degraded': 1, 'passage-split': 0, 'retriever-missed': 0, 'reranker-demoted': 0, 'ranked-too-low': 0 };
  const cfg = (id: string, rank: number) => ({ id, chunker: id.split('/')[0], retriever: id.split('/')[1], rerank: false, scored: 2, failed: [], metrics: metrics as never, causes, contextChars: 100, tauSweep: {}, vsTop: null, rank, explanation: 'x' });
  return {
    run: { id: 'r1', status: 'succeeded', progress: { finished: 1, total: 1 }, error: null, startedAt: '2026-01-01T00:00:00.000Z', endedAt: null, toolVersion: '0', settings: DEFAULT_SETTINGS, workspace: '/w', groundTruthFile: '/w/gt.json', runDir: '/w/r1', location: { kind: 'workspace' }, corpusHash: '', groundTruthHash: '', acceptance: null, seed: 1 },
    results: { spanproof: 1, k: 5, tau: 0.9, n: 20, primaryMetric: 'hit@5', seed: 1, resamples: 10, questions: 2, acceptance: { total: 3, resolved: 2, moved: 0, stale: [{ id: 'q3', source: 'a.md', exact: 'gone <b>', reason: 'no occurrence', evidence: 0 }], ambiguous: [], rejected: [], relocated: [] }, configs: [cfg('fixed/bm25/none', 1), cfg('heading/bm25/none', 2)], skipped: [], errors: [] },
    ranking: [
      { id: 'fixed/bm25/none', rank: 1, score: 0.5, pareto: true, explanation: 'best', latencyMs: 1, contextChars: 100, recommended: true },
      { id: 'heading/bm25/none', rank: 2, score: 0.4, pareto: false, explanation: 'second', latencyMs: 2, contextChars: 100, recommended: false },
    ],
    timings: null,
    questions: [],
    evidence: { questions: [] },
  };
}

test('markdown, CSV and HTML render the ranking; HTML escapes text and fetches nothing', () => {
  const d = fakeRun();
  const md = renderMarkdown(d);
  assert.match(md, /\| 1 \| fixed\/bm25\/none ★ \| 0\.500 \[0\.250, 0\.750\]/);
  assert.match(md, /acceptance: 2\/3 resolved \(stale 1, ambiguous 0, rejected 0\)/);
  const csv = renderCsv(d).split('\r\n');
  assert.equal(csv.length, 4); // header + 2 configs + trailing empty
  // a format-1 ranking (older run): the v2 columns (diff, p Holm, non-inferior, cost) are empty
  assert.ok(csv[1].startsWith('fixed/bm25/none,fixed,bm25,false,1,0.5,true,true,,,,,,,,,,0.5,0.25,0.75'), csv[1]);
  assert.match(md, /Recommended: fixed\/bm25\/none \(older run: ranking\.json format 1/);
  assert.match(md, /Sorted by # = the weighted score of an older Spanproof/);
  const html = renderHtml(d);
  assert.ok(html.includes('gone &lt;b&gt;'));
  assert.doesNotMatch(html, /<script|(src|href)=/);
  // CI bar of the 0.5 [0.25, 0.75] row: left 25%, width 50%.
  assert.ok(html.includes('left:25.00%;width:50.00%'));
});

test('a cancelled run without results still renders (status and error shown, no ranking)', () => {
  const d = fakeRun();
  d.run.status = 'cancelled';
  d.run.error = { code: 'cancelled', message: 'the run was cancelled.' };
  d.results = null;
  d.ranking = null;
  assert.match(renderMarkdown(d), /status: \*\*cancelled\*\*[\s\S]*error: cancelled: the run was cancelled\./);
  assert.match(renderHtml(d), /status <b>cancelled<\/b>/);
  assert.equal(renderCsv(d).split('\r\n').length, 2);
});

test('every report names the embedder (a built-in says it is a small general model) and labels the MaxSim reranker a baseline', () => {
  const old = fakeRun(); // no run.models and embeddingModel '' → written before 0.2: static-glove
  const recorded = fakeRun();
  recorded.run.models = { embedders: [{ name: 'use-lite', description: 'use-lite: a test description, a small general model', id: 'onnx:use-lite@0' }], reranker: null };
  for (const text of [renderMarkdown(old), renderHtml(old), rankingTable(buildReportModel(old))]) {
    assert.match(text, /embedder static-glove: static GloVe .*small general/);
    assert.match(text, /MaxSim reranker .*baseline \(not a trained cross-encoder\)/);
  }
  assert.match(renderMarkdown(recorded), /- embedder use-lite: a test description, a small general model/);
});

test('CSV latency columns are rounded as the tables show them (0.01 ms below 10 ms, else 0.1 ms), not 0.1574110000001383', () => {
  const d = fakeRun();
  d.ranking![0].latencyMs = 0.1574110000001383;
  d.ranking![1].latencyMs = 12.3456;
  d.timings = { perConfig: { 'fixed/bm25/none': { medianQueryMs: 0.1574110000001383, p25QueryMs: 0.1195069999999987, p75QueryMs: 0.18583274999969035, timedQueries: 2 } } } as never;
  const [head, a, b] = renderCsv(d).split('\r\n').map((l) => l.split(','));
  const at = (row: string[], col: string) => row[head.indexOf(col)];
  assert.deepEqual(['median_ms', 'p25_ms', 'p75_ms'].map((c) => at(a, c)), ['0.16', '0.12', '0.19']);
  assert.deepEqual(['median_ms', 'p25_ms', 'p75_ms'].map((c) => at(b, c)), ['12.3', '', '']);
});

test('Markdown: a metric name like hit@5 is written as it is (no @&#8203; in a report read in a terminal); a mention-like @name still gets the zero-width space', () => {
  const d = fakeRun();
  d.results!.acceptance.stale[0].reason = 'no occurrence of hit@5 for @octocat';
  const md = renderMarkdown(d);
  assert.doesNotMatch(md, /\w@&#8203;/);
  assert.ok(md.includes('no occurrence of hit@5 for @&#8203;octocat'), md);
});
