/**
 * Several embedders in one grid (SPEC §5.3, issue 12 item 3) on samples/fastapi-mini: with
 * `embedders: ['use-lite', 'static-glove']` the dense and hybrid retrievers run once per embedder as
 * `dense:<name>` / `hybrid:<name>`, each scored exactly as a single-embedder run of that model scores
 * it (same result lists per question — so the two are paired per question on the same questions), the
 * verdict's paired difference of each config to the best is the mean of the per-question differences
 * (recomputed here from questions.jsonl), run.json lists both embedders and the report names each.
 * With one embedder the ids stay `dense` / `hybrid`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runGrid } from '../../../../src/core/grid/run';
import { planConfigs } from '../../../../src/core/grid/plan';
import { readRun } from '../../../../src/core/runs';
import { renderMarkdown } from '../../../../src/core/report';
import { MINI, MINI_GT, smallSettings, tmp } from '../../../helpers/grid';

const grid = { chunkers: ['heading' as const], retrievers: ['bm25' as const, 'dense' as const, 'hybrid' as const], rerank: [false] };

test('planConfigs: one embedder keeps dense/hybrid; several name each, in the listed order', () => {
  assert.deepEqual(planConfigs({ ...grid, embedders: ['use-lite'] }).map((c) => c.id), ['heading/bm25/none', 'heading/dense/none', 'heading/hybrid/none']);
  assert.deepEqual(planConfigs({ ...grid, embeddingModel: 'use-lite' }).map((c) => c.id), ['heading/bm25/none', 'heading/dense/none', 'heading/hybrid/none']);
  const two = planConfigs({ ...grid, rerank: [false, true], embedders: ['use-lite', 'static-glove'] });
  assert.deepEqual(two.map((c) => c.id), [
    'heading/bm25/none', 'heading/bm25/rerank',
    'heading/dense:use-lite/none', 'heading/dense:use-lite/rerank', 'heading/dense:static-glove/none', 'heading/dense:static-glove/rerank',
    'heading/hybrid:use-lite/none', 'heading/hybrid:use-lite/rerank', 'heading/hybrid:static-glove/none', 'heading/hybrid:static-glove/rerank',
  ]);
  assert.deepEqual(two.filter((c) => c.kind !== 'bm25').map((c) => c.embedder), ['use-lite', 'use-lite', 'static-glove', 'static-glove', 'use-lite', 'use-lite', 'static-glove', 'static-glove']);
  assert.throws(() => planConfigs({ ...grid, embedders: ['static-glove', ' static-glove'] }), /both be named static-glove/);
});

test('use-lite and static-glove side by side: each scored as its own run, paired per question, both named', async () => {
  const root = tmp('emb-axis');
  const base = { workspace: MINI, groundTruthFile: MINI_GT, cacheDir: join(root, 'cache') };
  const both = await runGrid({ ...base, settings: smallSettings({ ...grid, embedders: ['use-lite', 'static-glove'] }), outDir: join(root, 'both') });
  const lite = await runGrid({ ...base, settings: smallSettings({ ...grid, embeddingModel: 'use-lite' }), outDir: join(root, 'lite') });
  const glove = await runGrid({ ...base, settings: smallSettings({ ...grid, embedders: ['static-glove'] }), outDir: join(root, 'glove') });
  assert.equal(both.status, 'succeeded');
  assert.deepEqual(both.results.configs.map((c) => c.id).sort(), ['heading/bm25/none', 'heading/dense:static-glove/none', 'heading/dense:use-lite/none', 'heading/hybrid:static-glove/none', 'heading/hybrid:use-lite/none']);
  assert.deepEqual(lite.results.configs.map((c) => c.id).sort(), ['heading/bm25/none', 'heading/dense/none', 'heading/hybrid/none']);
  assert.equal(both.results.configs.find((c) => c.id === 'heading/dense:use-lite/none')!.retriever, 'dense:use-lite');

  const A = readRun(both.runDir!);
  const L = readRun(lite.runDir!);
  const G = readRun(glove.runDir!);
  assert.deepEqual(A.run.models?.embedders.map((e) => e.name), ['use-lite', 'static-glove']);
  const rec = (data: typeof A, config: string, q: string) => data.questions.find((r) => r.config === config && r.question === q)!;
  const questions = [...new Set(A.questions.map((r) => r.question))];
  assert.ok(questions.length >= 8);
  // Each embedder's configs give exactly the lists and metrics of a run of that embedder alone.
  for (const [single, name] of [[L, 'use-lite'], [G, 'static-glove']] as const) {
    for (const kind of ['dense', 'hybrid']) {
      for (const q of questions) {
        const a = rec(A, `heading/${kind}:${name}/none`, q);
        const s = rec(single, `heading/${kind}/none`, q);
        assert.deepEqual(a.results, s.results, `${kind}:${name} ${q}: same result list as the ${name}-only run`);
        assert.equal(a['hit@5'], s['hit@5']);
      }
      const mean = (d: typeof A, id: string) => d.results!.configs.find((c) => c.id === id)!.metrics['hit@5'].mean;
      assert.equal(mean(A, `heading/${kind}:${name}/none`), mean(single, `heading/${kind}/none`));
    }
  }
  // The two embedders really differ on this corpus (otherwise the comparison would be vacuous).
  assert.ok(questions.some((q) => JSON.stringify(rec(A, 'heading/dense:use-lite/none', q).results) !== JSON.stringify(rec(A, 'heading/dense:static-glove/none', q).results)));

  // The verdict compares them paired per question: diffVsBest.mean = mean over questions of hit@5(config) − hit@5(best).
  const ranked = both.rankingFile.configs;
  const best = ranked.find((r) => r.best)!;
  for (const r of ranked) {
    const diffs = questions.map((q) => Number(rec(A, r.id, q)['hit@5']) - Number(rec(A, best.id, q)['hit@5']));
    const expected = diffs.reduce((x, y) => x + y, 0) / diffs.length;
    assert.ok(Math.abs(r.diffVsBest.mean - expected) < 1e-12, `${r.id}: paired mean difference ${r.diffVsBest.mean} vs ${expected}`);
  }
  assert.ok(ranked.some((r) => r.id === 'heading/dense:use-lite/none') && ranked.some((r) => r.id === 'heading/dense:static-glove/none'));

  const md = renderMarkdown(A);
  assert.match(md, /embedder use-lite: /);
  assert.match(md, /embedder static-glove: /);
  assert.match(md, /heading\/dense:use-lite\/none/);
  assert.match(md, /heading\/dense:static-glove\/none/);
});
