/**
 * The results panel's view of a run (webview/model.ts), on a real run at k = 10 written by the grid
 * (the e2e workspace: 20 FastAPI-docs questions; BM25 only, so no model is loaded): per-record
 * keys at the run's k, rows in the ranking's order with its scores, the dominant cause from src/core, questions in ground-truth order;
 * and on the same run with a hand-written ranking.json format 2 (SPEC §11): verdict, Holm-adjusted
 * significance, non-inferiority, cost.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runGrid } from '../../../src/core/grid';
import { readRun } from '../../../src/core/runs';
import { dominantCause, type RankingFile } from '../../../src/core/ranking';
import type { RankingEntry, RunData } from '../../../src/shared/protocol';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { FIXTURES, REPO } from '../../helpers/paths';
import { smallSettings, tmp } from '../../helpers/grid';
import { metricLabel, recordValue, runModel } from '../../../webview/model';

let cached: RunData | undefined;
async function runAtK10(): Promise<RunData> {
  if (cached) return cached;
  const root = tmp('wv-model');
  const settings = smallSettings({ chunkers: ['heading', 'fixed', 'recursive', 'sentence'], retrievers: ['bm25'], rerank: [false], k: 10, poolSize: 20 });
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

test('format 2: verdict, rank order, Holm significance, non-inferiority, cost and dominant cause come from ranking.json', async () => {
  const data = await runAtK10();
  const ids = runModel(data)!.rows.map((r) => r.id);
  // A hand-written format-2 ranking (typed as src/core/ranking's RankingFile) in the reverse order of
  // the format-1 one, so the order must come from it.
  const order = [...ids].reverse();
  const verdict: RankingFile['verdict'] = {
    recommended: order[1], best: order[0], status: 'provisional', primaryMetric: 'hit@10', margin: 0.05, mde: 0.21, questionsNeeded: 60,
    reasons: ['20 questions scored; a decisive verdict needs at least 30'], summary: 'Provisional: 20 questions cannot tell these 2 configs apart.',
    questions: 20, configs: order.length, tied: order.slice(0, 2), unresolved: [], alpha: 0.05, power: 0.8, dependsOnTimings: false,
  };
  const file: RankingFile = {
    spanproof: 2, primaryMetric: 'hit@10', k: 10, verdict,
    configs: order.map((id, i) => ({
      id, rank: i + 1, score: 0.9 - i / 10, pareto: i === 0, explanation: `explained ${id}`,
      diffVsBest: i === 0 ? { mean: 0, lo: 0, hi: 0, se: 0 } : { mean: -0.1, lo: -0.14, hi: -0.06, se: 0.02 },
      p: i === 0 ? null : 0.01, pHolm: i === 0 ? null : i === 1 ? 0.2 : 0.01, significantlyWorse: i >= 2, nonInferior: i <= 1,
      recommended: i === 1, best: i === 0, quality: { mean: 0.9 - i / 10, lo: 0.5, hi: 1 }, mrr: 0.5, ndcg: 0.6,
      cost: { context: 100 + i, contextUnit: 'tokens', queryEmbeddings: 0, rerankPasses: 0, compute: 0, total: 100 + i },
      causes: { 'retriever-missed': i }, dominantCause: i === 0 ? null : { cause: 'retriever-missed', count: i, misses: i, advice: 'a' },
    })),
  };
  const m = runModel({ ...data, ranking: file as unknown as RankingEntry[] })!;
  assert.equal(m.format, 2);
  assert.equal(m.primary, 'hit@10');
  assert.strictEqual(m.verdict, verdict);
  assert.deepEqual(m.rows.map((r) => r.id), order);
  assert.deepEqual(m.rows.map((r) => r.recommended), order.map((_, i) => i === 1));
  assert.deepEqual(m.rows.map((r) => r.significant), order.map((_, i) => (i === 0 ? null : i >= 2)));
  assert.deepEqual(m.rows.map((r) => r.pHolm), file.configs.map((c) => c.pHolm));
  assert.deepEqual(m.rows.map((r) => r.nonInferior), order.map((_, i) => i <= 1));
  assert.deepEqual(m.rows[1].diffVsBest, { mean: -0.1, lo: -0.14, hi: -0.06 });
  assert.deepEqual(m.rows[2].context, { value: 102, unit: 'tokens' });
  assert.equal(m.rows[1].explanation, `explained ${order[1]}`);
  assert.deepEqual(m.rows[1].q, { mean: 0.8, lo: 0.5, hi: 1 });
  assert.deepEqual(m.rows.map((r) => r.dominant?.count ?? 0), order.map((_, i) => i), 'the per-config dominantCause field of ranking.json');
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
