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
import { runGrid, runQuery } from '../../../../src/core/grid';
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
