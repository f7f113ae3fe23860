/**
 * The results panel's view of a run (webview/model.ts), on a real run at k = 10 written by the grid
 * (the e2e workspace: 20 FastAPI-docs questions; BM25 only, so no model is loaded): per-record keys at the run's k, rows in the
 * ranking's order with its scores, the dominant cause from src/core, questions in ground-truth order;
 * and on the same run with a hand-written ranking.json format 2 (SPEC §11): verdict, Holm-adjusted
 * significance, non-inferiority, the plain-words sentence.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runGrid } from '../../../src/core/grid';
import { readRun } from '../../../src/core/runs';
import { dominantCause } from '../../../src/core/ranking';
import type { RankingEntry, RunData } from '../../../src/shared/protocol';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { FIXTURES, REPO } from '../../helpers/paths';
import { smallSettings, tmp } from '../../helpers/grid';
import { metricLabel, recordValue, runModel } from '../../../webview/model';
import { verdictWords } from '../../../webview/tabs/verdict';

let cached: RunData | undefined;
async function runAtK10(): Promise<RunData> {
  if (cached) return cached;
  const root = tmp('wv-model');
  const settings = smallSettings({ chunkers: ['heading', 'fixed'], retrievers: ['bm25'], rerank: [false], k: 10, poolSize: 20 });
  const ws = join(FIXTURES, 'e2e', 'workspace');
  const r = await runGrid({ workspace: ws, groundTruthFile: join(ws, '.spanproof', 'groundtruth.json'), settings, runsRoot: join(root, 'runs'), cacheDir: join(root, 'cache') });
  cached = readRun(r.runDir!);
  return cached;
}

test('a k = 10 run: the panel reads hit@10 / coverage@10 / ndcg@10, never the @5 keys', async () => {
  const data = await runAtK10();
  const m = runModel(data)!;
  assert.equal(m.k, 10);
  assert.equal(m.hitKey, 'hit@10');
  assert.equal(m.coverageKey, 'coverage@10');
  assert.equal(m.ndcgKey, 'ndcg@10');
  assert.equal(metricLabel(m.ndcgKey), 'nDCG@10');
  let differs = 0;
  for (const rec of data.questions) {
    if (rec.status !== 'ok') continue;
    assert.equal(recordValue(m.record(rec.question, rec.config), m.hitKey), rec['hit@10'], `${rec.question} × ${rec.config}`);
    if (rec['hit@10'] !== rec['hit@5']) differs++;
  }
  // The check above would pass with the @5 keys too if they never differed: make sure they do here.
  assert.ok(differs > 0, 'some question is a hit at 10 and a miss at 5');
  for (const row of m.rows) assert.equal(row.ndcg, row.c.metrics['ndcg@10'].mean);
});

test('format 1: rows follow ranking.json (rank, score, recommended), dominant cause from src/core, questions in ground-truth order', async () => {
  const data = await runAtK10();
  const m = runModel(data)!;
  assert.equal(m.format, 1);
  assert.equal(m.verdict, null);
  const ranking = [...(data.ranking as RankingEntry[])].sort((a, b) => a.rank - b.rank);
  assert.deepEqual(
    m.rows.map((r) => [r.id, r.rank, r.score, r.recommended]),
    ranking.map((e) => [e.id, e.rank, e.score, e.recommended]),
  );
  for (const row of m.rows) assert.deepEqual(row.dominant, dominantCause(row.c.causes));
  assert.deepEqual(m.questionIds, data.evidence!.questions.map((q) => q.id));
  assert.equal(m.questionText(m.questionIds[0]), data.evidence!.questions[0].question);
  assert.strictEqual(runModel(data), m, 'built once per loaded run');
});

test('the dominant cause: most misses, CAUSES order on ties, with the miss total', () => {
  // Hand-checked: chunker-degraded and retriever-missed both have 2; chunker-degraded comes first in CAUSES.
  assert.deepEqual(dominantCause({ 'retriever-missed': 2, 'chunker-degraded': 2, 'ranked-too-low': 1 }), { cause: 'chunker-degraded', count: 2, misses: 5 });
  assert.equal(dominantCause({ 'chunker-destroyed': 0 }), null);
});

test('format 2: verdict, rank order, Holm significance and non-inferiority come from ranking.json', async () => {
  const data = await runAtK10();
  const ids = runModel(data)!.rows.map((r) => r.id);
  // A hand-written format-2 ranking in the reverse order of the format-1 one, so the order must come from it.
  const order = [...ids].reverse();
  const v2 = {
    spanproof: 2,
    verdict: { recommended: order[1], status: 'provisional', primaryMetric: 'hit@10', margin: 0.05, mde: 0.21, questionsNeeded: 60, reasons: ['fewer than 30 questions'] },
    configs: order.map((id, i) => ({
      id,
      rank: i + 1,
      score: 1 - i / 10,
      pareto: i === 0,
      explanation: `explained ${id}`,
      diffVsBest: i === 0 ? { mean: 0, lo: 0, hi: 0 } : { mean: -0.1, lo: -0.14, hi: -0.06 },
      pHolm: i === 0 ? null : i === 1 ? 0.2 : 0.01,
      nonInferior: i <= 1,
    })),
  };
  const m = runModel({ ...data, ranking: v2 as unknown as RankingEntry[] })!;
  assert.equal(m.format, 2);
  assert.equal(m.primary, 'hit@10');
  assert.deepEqual(m.verdict, v2.verdict);
  assert.deepEqual(m.rows.map((r) => r.id), order);
  assert.deepEqual(m.rows.map((r) => r.recommended), order.map((_, i) => i === 1));
  assert.deepEqual(m.rows.map((r) => r.significant), order.map((_, i) => (i === 0 ? null : i >= 2)));
  assert.deepEqual(m.rows.map((r) => r.nonInferior), order.map((_, i) => i <= 1));
  assert.deepEqual(m.rows[1].diffVsBest, { mean: -0.1, lo: -0.14, hi: -0.06 });
  assert.equal(m.rows[1].explanation, `explained ${order[1]}`);
  assert.equal(m.rows[0].q, m.rows[0].c.metrics['hit@10']);
});

test('the verdict in plain words', () => {
  const v = { recommended: 'heading/bm25/none', status: 'provisional' as const, primaryMetric: 'hit@5', margin: 0.05, mde: 0.21, questionsNeeded: 60, reasons: [] };
  assert.equal(verdictWords(v, 15, 21), '15 questions cannot yet tell these 21 configs apart in hit@5; about 60 would resolve a 0.05 difference (45 more). Treat the recommendation as provisional.');
  assert.equal(verdictWords({ ...v, questionsNeeded: null }, 15, 21), '15 questions cannot yet tell these 21 configs apart in hit@5. Treat the recommendation as provisional.');
  assert.equal(verdictWords({ ...v, status: 'decisive' }, 45, 30), '45 questions decide it: heading/bm25/none is shown to be within 0.05 of the best in hit@5.');
  assert.equal(verdictWords({ ...v, status: 'no-signal' }, 1, 30), 'Every config scores the same hit@5 on each of the 1 question: this run cannot tell the 30 configs apart. Questions that some configs miss would.');
});

test('no file of the panel reads a metric at a hard-coded cutoff of 5', () => {
  const files: string[] = [];
  const walk = (d: string) => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else if (n.endsWith('.ts')) files.push(p);
    }
  };
  walk(join(REPO, 'webview'));
  files.push(join(REPO, 'src', 'extension', 'panel.ts'), join(REPO, 'src', 'extension', 'panelHandlers.ts'), join(REPO, 'src', 'extension', 'panelHost.ts'));
  const offenders = files.flatMap((f) => readFileSync(f, 'utf8').split('\n').map((line, i) => ({ f, i, line })).filter((x) => /\b(hit|coverage|ndcg|precision|iou)@5\b/.test(x.line)));
  assert.deepEqual(offenders.map((o) => `${o.f}:${o.i + 1}: ${o.line.trim()}`), []);
});
