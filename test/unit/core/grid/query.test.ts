/**
 * `spanproof query` goes through the grid's own stages (models, chunk, index, candidate pools,
 * rerank): the same config returns the same pool and final list as a grid run, and a relative model
 * folder is resolved against the workspace as in a run (it was resolved against the process's
 * working directory before, so `query` failed where `run` worked).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync } from 'node:fs';
import * as path from 'node:path';
import { runGrid, runQueries, runQuery } from '../../../../src/core/grid';
import { DEFAULT_SETTINGS } from '../../../../src/core/settings';
import { MINI, MINI_GT, smallSettings } from '../../../helpers/grid';
import { tempDir } from '../../../helpers/tmp';
import { tinyEmbedderOnnx, tinyTokenizerJson, tinyWeights, writeFolder } from '../../../fixtures/models/tinyModels';

test('query returns exactly the pool and final list of the same config in a grid run', async (t) => {
  const settings = smallSettings({ chunkers: ['heading'], retrievers: ['bm25', 'hybrid'], rerank: [false, true] });
  const run = await runGrid({ workspace: MINI, groundTruthFile: MINI_GT, settings, writeRun: false, returnRecords: true, cacheDir: tempDir('sp-q-cache-', t) });
  const question = 'How do I make a query parameter optional?';
  for (const config of ['heading/bm25/none', 'heading/hybrid/rerank']) {
    const [, retriever, rr] = config.split('/');
    const rec = run.records!.find((r) => r.config === config && r.question === 'mini-01')!;
    const q = await runQuery({ workspace: MINI, chunker: 'heading', retriever: retriever as 'bm25' | 'hybrid', rerank: rr === 'rerank', text: question, k: settings.poolSize, settings, cacheDir: tempDir('sp-q-cache-', t) });
    const spans = (xs: Array<{ source: string; start: number; end: number }>) => xs.map((x) => `${x.source}#${x.start}-${x.end}`);
    assert.deepEqual(spans(q.pool), spans(rec.pool), `${config}: pool`);
    assert.deepEqual(spans(q.results), spans(rec.results), `${config}: final list`);
  }
});

test('a relative embeddingModel folder is resolved against the workspace, as in a run', async (t) => {
  const ws = tempDir('sp-q-ws-', t);
  cpSync(MINI, ws, { recursive: true });
  writeFolder(path.join(ws, 'models'), 'tiny', { 'model.onnx': tinyEmbedderOnnx(tinyWeights()), 'tokenizer.json': tinyTokenizerJson() });
  assert.notEqual(path.resolve(process.cwd()), path.resolve(ws));
  const q = await runQuery({ workspace: ws, chunker: 'fixed', retriever: 'dense', rerank: false, text: 'the cat sat', k: 3, settings: { ...DEFAULT_SETTINGS, embeddingModel: 'models/tiny' } });
  assert.match(q.models.embedder ?? '', /^onnx:tiny@/);
  assert.equal(q.results.length, 3);
});

test('several embedders: query answers every dense:<name> config of the grid, or the one named, each exactly as the run lists it', async (t) => {
  const settings = smallSettings({ chunkers: ['heading'], retrievers: ['bm25', 'dense', 'hybrid'], rerank: [false], embedders: ['use-lite', 'static-glove'] });
  const cacheDir = tempDir('sp-q-cache-', t);
  const run = await runGrid({ workspace: MINI, groundTruthFile: MINI_GT, settings, writeRun: false, returnRecords: true, cacheDir });
  const question = 'How do I make a query parameter optional?';
  const spans = (xs: Array<{ source: string; start: number; end: number }>) => xs.map((x) => `${x.source}#${x.start}-${x.end}`);
  const rec = (config: string) => run.records!.find((r) => r.config === config && r.question === 'mini-01')!;
  const base = { workspace: MINI, chunker: 'heading' as const, rerank: false, text: question, k: settings.poolSize, settings, cacheDir };

  const all = await runQueries({ ...base, retriever: 'dense' });
  assert.deepEqual(all.map((a) => a.config), ['heading/dense:use-lite/none', 'heading/dense:static-glove/none'], 'one answer per embedder, in the listed order');
  for (const a of all) assert.deepEqual(spans(a.pool), spans(rec(a.config).pool), `${a.config}: pool`);
  assert.notDeepEqual(spans(all[0].pool), spans(all[1].pool), 'the two embedders rank differently (so the test tells them apart)');
  assert.ok(all[0].models.embedder && all[1].models.embedder && all[0].models.embedder !== all[1].models.embedder, 'each answer names its own embedder');

  const lite = await runQuery({ ...base, retriever: 'dense:use-lite' });
  assert.equal(lite.config, 'heading/dense:use-lite/none');
  assert.deepEqual(spans(lite.results), spans(rec('heading/dense:use-lite/none').results), 'dense:use-lite: the run\'s final list');
  const hybrid = await runQuery({ ...base, retriever: 'hybrid:static-glove' });
  assert.deepEqual(spans(hybrid.pool), spans(rec('heading/hybrid:static-glove/none').pool), 'hybrid:static-glove: the run\'s pool');

  await assert.rejects(runQuery({ ...base, retriever: 'dense' }), /"dense" is 2 retrievers with these embedders: dense:use-lite, dense:static-glove/);
  await assert.rejects(runQueries({ ...base, retriever: 'dense:bge-small-en-v1.5' }), (e: Error & { fix?: string }) => /no "bge-small-en-v1.5"/.test(e.message) && /dense:use-lite, dense:static-glove/.test(e.fix ?? ''));
  await assert.rejects(runQueries({ ...base, retriever: 'bm25:use-lite' }), /unknown retriever "bm25:use-lite"/);
});
