/**
 * The results panel's view of a run (webview/model.ts), on a real run at k = 10 written by the grid
 * (the e2e workspace: 20 FastAPI-docs questions; BM25 only, so no model is loaded): per-record keys at
 * the run's k; ranking.json format 2 as the grid wrote it (verdict, order, Holm, non-inferiority, cost,
 * dominant cause); and the same run with a format-1 ranking.json, as older Spanproof wrote it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runGrid } from '../../../src/core/grid';
import { readRun } from '../../../src/core/runs';
import { dominantCause, type RankingFile } from '../../../src/core/ranking';
import type { RankingEntry, RunData } from '../../../src/shared/protocol';
import { cpSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
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

test('format 2 (the grid writes it): verdict, rank order, Holm significance, non-inferiority, cost and dominant cause from ranking.json', async () => {
  const data = await runAtK10();
  const file = JSON.parse(readFileSync(join(data.run.runDir, 'ranking.json'), 'utf8')) as RankingFile;
  assert.equal(file.spanproof, 2);
  const m = runModel(data)!;
  assert.equal(m.format, 2);
  assert.deepEqual(m.verdict, file.verdict);
  assert.equal(m.primary, 'hit@10', 'the default primary metric hit@k at k = 10');
  assert.deepEqual(m.rows.map((r) => r.id), file.configs.map((c) => c.id));
  assert.deepEqual(m.rows.map((r) => [r.rank, r.score, r.recommended, r.best, r.pareto]), file.configs.map((c) => [c.rank, c.score, c.recommended, c.best, c.pareto]));
  assert.deepEqual(m.rows.map((r) => r.pHolm), file.configs.map((c) => c.pHolm));
  assert.deepEqual(m.rows.map((r) => r.nonInferior), file.configs.map((c) => c.nonInferior));
  assert.deepEqual(m.rows.map((r) => r.significant), file.configs.map((c) => (c.best ? null : c.significantlyWorse)));
  assert.deepEqual(m.rows.map((r) => r.diffVsBest), file.configs.map((c) => ({ mean: c.diffVsBest.mean, lo: c.diffVsBest.lo, hi: c.diffVsBest.hi })));
  assert.deepEqual(m.rows.map((r) => r.context), file.configs.map((c) => ({ value: c.cost.context, unit: c.cost.contextUnit })));
  assert.deepEqual(m.rows.map((r) => r.dominant), file.configs.map((c) => c.dominantCause));
  assert.deepEqual(m.rows.map((r) => r.explanation), file.configs.map((c) => c.explanation));
  assert.deepEqual(m.questionIds, data.evidence!.questions.map((q) => q.id));
  assert.equal(m.questionText(m.questionIds[0]), data.evidence!.questions[0].question);
  assert.strictEqual(runModel(data), m, 'built once per loaded run');
});

test('format 1 (a run of an older Spanproof): its ranking.json array is read, no verdict, significance from results.json vsTop', async () => {
  const data = await runAtK10();
  // The shape format 1 wrote (weighted score with latency), in an order unlike the v2 one.
  const ids = runModel(data)!.rows.map((r) => r.id).reverse();
  const v1: RankingEntry[] = ids.map((id, i) => ({ id, rank: i + 1, score: 0.9 - i / 10, pareto: i === 0, explanation: `old ${id}`, latencyMs: 1 + i, contextChars: 100 * (i + 1), recommended: i === 1, tiedWithTop: i < 2 }));
  const dir = tmp('wv-v1');
  cpSync(data.run.runDir, dir, { recursive: true });
  writeFileSync(join(dir, 'ranking.json'), JSON.stringify(v1));
  const old = readRun(dir);
  const m = runModel(old)!;
  assert.equal(m.format, 1);
  assert.equal(m.verdict, null);
  assert.deepEqual(m.rows.map((r) => [r.id, r.rank, r.score, r.recommended, r.latencyMs, r.explanation]), v1.map((e) => [e.id, e.rank, e.score, e.recommended, e.latencyMs, e.explanation]));
  assert.deepEqual(m.rows.map((r) => r.pHolm), ids.map(() => null));
  for (const r of m.rows) {
    assert.equal(r.significant, r.c.vsTop?.significant ?? null);
    assert.deepEqual(r.dominant, dominantCause(r.c.causes), 'format 1 has no dominantCause: src/core computes it');
  }
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
