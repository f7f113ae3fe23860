/**
 * The verdict stage inside real grid runs on samples/fastapi-mini (SPEC §9 v2, §11): ranking.json
 * format 2, results.json carrying the same ranks and explanations, metric keys and causes at k = 10,
 * a timing-independent verdict, and format-1 runs still readable.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runGrid } from '../../../../src/core/grid/run';
import { runEngine } from '../../../../src/core/grid/engine';
import { aggregate } from '../../../../src/core/grid/aggregate';
import { verdictStage } from '../../../../src/core/grid/ranking';
import { readRun, stableStringify } from '../../../../src/core/runs';
import { renderMarkdown } from '../../../../src/core/report';
import { loadCorpus } from '../../../../src/core/corpus';
import { readGroundTruth, resolveGroundTruth } from '../../../../src/core/groundtruth';
import { loadDefaultEmbedder, createMaxSimReranker } from '../../../../src/core/models';
import { MINI, MINI_GT, readText, smallSettings, tmp } from '../../../helpers/grid';

test('ranking.json v2: verdict + configs; results.json ranks and explanations are the same ranking', async () => {
  const root = tmp('v2');
  const r = await runGrid({ workspace: MINI, groundTruthFile: MINI_GT, settings: smallSettings(), runsRoot: join(root, 'runs'), cacheDir: join(root, 'cache') });
  const file = JSON.parse(readText(join(r.runDir!, 'ranking.json')));
  assert.equal(file.spanproof, 2);
  for (const key of ['recommended', 'status', 'primaryMetric', 'margin', 'mde', 'questionsNeeded', 'reasons']) assert.ok(key in file.verdict, key);
  assert.equal(file.verdict.primaryMetric, 'hit@5');
  assert.equal(file.verdict.margin, 0.05);
  assert.equal(file.verdict.status, 'provisional'); // 10 questions < 30
  assert.equal(file.configs.length, 8);
  for (const c of file.configs) for (const key of ['id', 'rank', 'score', 'pareto', 'explanation', 'diffVsBest', 'pHolm', 'nonInferior']) assert.ok(key in c, `${c.id}: ${key}`);
  assert.deepEqual(file.configs.map((c: { rank: number }) => c.rank), [1, 2, 3, 4, 5, 6, 7, 8]);
  // no timing in the deterministic file
  assert.doesNotMatch(readText(join(r.runDir!, 'ranking.json')), /latency|Ms"/);
  for (const c of r.results.configs) {
    const e = file.configs.find((x: { id: string }) => x.id === c.id);
    assert.equal(c.rank, e.rank);
    assert.equal(c.explanation, e.explanation);
  }
  // the table is sorted by what it shows: Q descending down the ranks
  const q = file.configs.map((c: { score: number }) => c.score);
  assert.deepEqual(q, [...q].sort((a: number, b: number) => b - a));
  assert.equal(r.verdict.recommended, file.verdict.recommended);
  // the panel's view keeps the format-1 keys
  const data = readRun(r.runDir!);
  assert.equal(data.rankingFormat, 2);
  assert.deepEqual(data.verdict, file.verdict);
  assert.equal(data.ranking!.filter((e) => e.recommended).map((e) => e.id)[0], file.verdict.recommended);
  assert.ok(data.ranking!.every((e) => typeof e.latencyMs === 'number' && typeof e.contextChars === 'number'));
  assert.match(renderMarkdown(data), /## Verdict\n\n\*\*Verdict: PROVISIONAL — use /);
});

test('k = 10 end to end: keys, per-question records, causes and the verdict are at 10', async () => {
  const root = tmp('k10');
  const r = await runGrid({ workspace: MINI, groundTruthFile: MINI_GT, settings: smallSettings({ k: 10 }), runsRoot: join(root, 'runs'), cacheDir: join(root, 'cache') });
  const keys = Object.keys(r.results.configs[0].metrics).sort();
  assert.deepEqual(keys, ['coverage@10', 'hit@1', 'hit@10', 'hit@3', 'hit@5', 'iou@10', 'iou_chroma@10', 'mrr', 'ndcg@10', 'ndcg@5', 'precision@10', 'precision_omega', 'reachable']);
  assert.equal(r.results.primaryMetric, 'hit@10');
  assert.equal(r.verdict.primaryMetric, 'hit@10');
  const data = readRun(r.runDir!);
  for (const rec of data.questions) {
    assert.equal(rec.k, 10);
    // a cause exactly when hit@10 is 0: causes are attributed at the run's k
    assert.equal(rec.cause === null, rec['hit@10'] === 1, `${rec.question} × ${rec.config}`);
  }
  for (const c of r.results.configs) {
    const misses = Object.values(c.causes).reduce((s, x) => s + x, 0);
    assert.equal(misses, Math.round(c.scored * (1 - c.metrics['hit@10'].mean)), c.id);
    assert.match(c.explanation, /order: hit@10, then MRR, nDCG@10, cost/);
  }
  // an explicit cutoff different from k is computed at its own cutoff
  const r7 = await runGrid({ workspace: MINI, groundTruthFile: MINI_GT, settings: smallSettings({ primaryMetric: 'coverage@7', chunkers: ['fixed'], retrievers: ['bm25'], rerank: [false] }), writeRun: false, cacheDir: join(root, 'cache') });
  assert.equal(r7.results.primaryMetric, 'coverage@7');
  assert.ok(r7.results.configs[0].metrics['coverage@7'].mean >= r7.results.configs[0].metrics['coverage@5'].mean);
});

test('recorded results with randomised timings give one verdict every time; weights.latency > 0 adds a timed one', async () => {
  const settings = smallSettings();
  const corpus = await loadCorpus(MINI, { include: settings.include, exclude: settings.exclude, maxFileBytes: settings.maxFileBytes });
  const byName = new Map(corpus.documents.map((d) => [d.source, d.text]));
  const { questions } = await resolveGroundTruth(await readGroundTruth(MINI_GT), (s) => byName.get(s), { minQuoteLength: settings.minQuoteLength, maxQuoteLength: settings.maxQuoteLength });
  const embedder = await loadDefaultEmbedder({ threads: 1 });
  const reranker = await createMaxSimReranker({ threads: 1 });
  try {
    const out = await runEngine({ documents: corpus.documents, questions, settings, embedder, reranker, corpusKey: 'mini' });
    const agg = aggregate(out.configs, out.items, questions, settings);
    const models = { embedderParameters: embedder.parameters, rerankerParameters: reranker.parameters, poolSize: settings.poolSize };
    assert.ok(embedder.parameters > 5_000_000 && reranker.parameters === embedder.parameters);
    const random = () => new Map(out.configs.map((c) => {
      const m = Math.random() * 20;
      return [c.id, { medianMs: m, p25Ms: m / 2, p75Ms: m * 2, n: 10 }] as const;
    }));
    const base = stableStringify(verdictStage({ agg, settings, models, latency: random() }));
    for (let i = 0; i < 20; i++) assert.equal(stableStringify(verdictStage({ agg, settings, models, latency: random() })), base);
    const timed = verdictStage({ agg, settings: { ...settings, weights: { quality: 1, latency: 1, context: 0.1 } }, models, latency: random() });
    assert.equal(timed.ranking.timedVerdict?.dependsOnTimings, true);
    assert.equal(stableStringify(timed.ranking.verdict), stableStringify(JSON.parse(base).ranking.verdict));
  } finally {
    await embedder.dispose();
    await reranker.dispose();
  }
});

test('a format-1 run (older ranking.json array) still reads and reports', async () => {
  const root = tmp('v1');
  const r = await runGrid({ workspace: MINI, groundTruthFile: MINI_GT, settings: smallSettings({ chunkers: ['heading'], retrievers: ['bm25'] }), runsRoot: join(root, 'runs'), cacheDir: join(root, 'cache') });
  // what Spanproof wrote before SPEC §9 v2: an array with the weighted score and measured latency
  writeFileSync(join(r.runDir!, 'ranking.json'), JSON.stringify([
    { id: 'heading/bm25/rerank', rank: 1, score: 0.88, pareto: true, explanation: 'old text', latencyMs: 3.2, contextChars: 900, recommended: true, tiedWithTop: true },
    { id: 'heading/bm25/none', rank: 2, score: 0.85, pareto: true, explanation: 'old text 2', latencyMs: 0.2, contextChars: 900, recommended: false, tiedWithTop: true },
  ]));
  const data = readRun(r.runDir!);
  assert.equal(data.rankingFormat, 1);
  assert.equal(data.verdict, null);
  assert.deepEqual(data.ranking!.map((e) => e.id), ['heading/bm25/rerank', 'heading/bm25/none']);
  const md = renderMarkdown(data);
  assert.match(md, /Recommended: heading\/bm25\/rerank \(older run: ranking\.json format 1/);
});

test('a 4-question ground truth on the full 30-config grid: never decisive, never worse than the best', async () => {
  const root = tmp('four');
  const gt = JSON.parse(readText(MINI_GT));
  for (const ids of [gt.questions.slice(0, 4), gt.questions.slice(4, 8), gt.questions.slice(6, 10)].map((qs: Array<{ id: string }>) => qs.map((q) => q.id))) {
    const r = await runGrid({ workspace: MINI, groundTruthFile: MINI_GT, settings: { ...smallSettings(), chunkers: ['fixed', 'recursive', 'sentence', 'heading', 'semantic'], retrievers: ['bm25', 'dense', 'hybrid'] }, questionIds: ids, writeRun: false, cacheDir: join(root, 'cache') });
    assert.equal(r.results.questions, 4);
    assert.equal(r.results.configs.length, 30);
    assert.notEqual(r.verdict.status, 'decisive', ids.join(','));
    const score = new Map(r.rankingFile.configs.map((c) => [c.id, c.score]));
    assert.ok(score.get(r.verdict.recommended!)! >= score.get(r.verdict.best!)!, `${ids}: ${r.verdict.recommended} below ${r.verdict.best}`);
  }
});
