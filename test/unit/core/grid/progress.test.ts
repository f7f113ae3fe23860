/**
 * Progress of a run moves while it chunks and embeds (#16 item 18). Before, a chunker's chunking was
 * one work unit and its embedding one more, out of (questions × configs) + 3 per chunker, so the bar sat
 * at 0 % through the slow stages and jumped when scoring began. Now each chunker is worth one unit per
 * document chunked, one for the BM25 index and one per document for each embedder (moved by the
 * embedder's batches). Stage changes are reported at once (`setStage`), so the `done` at each stage
 * boundary is deterministic and checked here on samples/fastapi-mini (4 documents).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runGrid } from '../../../../src/core/grid/run';
import { RunProgress } from '../../../../src/core/grid/progress';
import { readRun } from '../../../../src/core/runs';
import { MINI, MINI_GT, smallSettings, tmp } from '../../../helpers/grid';

test('RunProgress.part: to(f) moves done to f of the units, never back; finish() adds exactly the rest', () => {
  const p = new RunProgress(100);
  p.done = 10;
  const part = p.part(8);
  part.to(0.5);
  assert.equal(p.done, 14);
  part.to(0.25); // never back
  assert.equal(p.done, 14);
  part.to(0.99); // floor(7.92) = 7
  assert.equal(p.done, 17);
  part.finish();
  part.finish();
  assert.equal(p.done, 18);
});

test('a run reports documents chunked and embedded as work: the bar has moved by 1 + 2 × documents before a chunker retrieves', async () => {
  const root = tmp('progress-units');
  const seen: Array<{ done: number; total: number; stage: string }> = [];
  const settings = smallSettings({ chunkers: ['fixed', 'heading'], retrievers: ['bm25', 'dense'], rerank: [false], embedders: ['static-glove'] });
  const r = await runGrid({ workspace: MINI, groundTruthFile: MINI_GT, cacheDir: join(root, 'cache'), settings, outDir: join(root, 'run') }, { onProgress: (p) => seen.push({ ...p }) });
  assert.equal(r.status, 'succeeded');
  const documents = readRun(r.runDir!).run.counts?.documents;
  assert.equal(documents, 4, 'samples/fastapi-mini has 4 documents');
  const questions = r.results.acceptance.total;
  const at = (stage: string) => seen.find((p) => p.stage === stage)!;
  const total = seen.at(-1)!.total;
  // Per chunker: 4 chunked + 1 BM25 + 4 embedded, then 2 configs × questions scored.
  assert.equal(total, 2 * (documents + 1 + documents) + 2 * 2 * questions);
  for (const chunker of ['fixed', 'heading']) {
    const start = at(`chunk:${chunker}`).done;
    assert.equal(at(`index:${chunker}`).done - start, documents, `${chunker}: one unit per document chunked`);
    assert.equal(at(`retrieve:${chunker}`).done - start, 2 * documents + 1, `${chunker}: + BM25 + one unit per document embedded`);
  }
  assert.ok(seen.every((p, i) => i === 0 || p.done >= seen[i - 1].done || seen[i - 1].stage === 'load'), 'done never goes back');
  assert.equal(seen.filter((p) => p.stage !== 'load').at(-1)!.done, total);
});
