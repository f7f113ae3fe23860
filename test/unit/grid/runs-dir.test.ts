/**
 * Run directories when the workspace cannot hold them: runs and caches go to the per-user cache
 * directory and run.json says where and why — never a crash. (Permissions cannot be used to make a
 * folder unwritable when tests run as root, so `.spanproof` is made a FILE, which no folder can be
 * created under.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runGrid } from '../../../src/core/grid/run';
import { createRunDir, listRuns, resolveRunsRoot, utcStamp } from '../../../src/core/runs';
import { MINI, MINI_GT, smallSettings, tmp } from './helpers';

test('an unwritable workspace sends the run to the user cache dir and run.json says so', async () => {
  const root = tmp('ro');
  const ws = join(root, 'ws');
  cpSync(MINI, ws, { recursive: true, filter: (src) => !src.includes('.spanproof') });
  writeFileSync(join(ws, '.spanproof'), 'not a folder');
  process.env.SPANPROOF_CACHE_DIR = join(root, 'usercache');
  const where = resolveRunsRoot(ws);
  assert.equal(where.location.kind, 'user-cache');
  assert.ok(where.root.startsWith(join(root, 'usercache', 'workspaces')));
  const r = await runGrid({ workspace: ws, groundTruthFile: MINI_GT, settings: smallSettings({ chunkers: ['heading'], retrievers: ['bm25'], rerank: [false] }) });
  assert.equal(r.location?.kind, 'user-cache');
  assert.ok(r.runDir!.startsWith(join(root, 'usercache')));
  assert.ok(r.warnings.some((w) => w.includes('not writable')));
  const run = JSON.parse(readFileSync(join(r.runDir!, 'run.json'), 'utf8'));
  assert.equal(run.location.kind, 'user-cache');
  assert.match(run.location.reason, /not writable/);
  assert.equal(listRuns(where.root)[0].dir, r.runDir);
});

test('run ids are <UTC timestamp>-<8 hex> and never collide within a second', () => {
  assert.equal(utcStamp(new Date('2026-11-29T13:05:09.123Z')), '20261129T130509Z');
  const root = tmp('ids');
  const now = new Date('2026-11-29T13:05:09Z');
  const a = createRunDir({ workspace: root, runsRoot: root, inputsKey: 'x', now });
  const b = createRunDir({ workspace: root, runsRoot: root, inputsKey: 'x', now });
  assert.match(a.id, /^20261129T130509Z-[0-9a-f]{8}$/);
  assert.notEqual(a.dir, b.dir);
});

test('--out refuses a non-empty folder that is not a run directory, and reuses a previous run folder', () => {
  const root = tmp('out');
  writeFileSync(join(root, 'results.json'), 'my own file');
  assert.throws(() => createRunDir({ workspace: root, outDir: root, inputsKey: 'x' }), /not empty and is not a Spanproof run directory/);
  assert.equal(readFileSync(join(root, 'results.json'), 'utf8'), 'my own file');
  const prev = join(root, 'prev');
  const a = createRunDir({ workspace: root, outDir: prev, inputsKey: 'x' });
  writeFileSync(join(a.dir, 'run.json'), '{}');
  assert.equal(createRunDir({ workspace: root, outDir: prev, inputsKey: 'x' }).dir, a.dir);
});

test('after editing one document a warm run re-chunks only that document, and its results match a cold run', async () => {
  const root = tmp('edit');
  const ws = join(root, 'ws');
  cpSync(MINI, ws, { recursive: true, filter: (src) => !src.includes('.spanproof') });
  const settings = smallSettings({ chunkers: ['heading', 'fixed'], retrievers: ['bm25', 'dense'], rerank: [false] });
  const cacheDir = join(root, 'cache');
  await runGrid({ workspace: ws, groundTruthFile: MINI_GT, settings, runsRoot: join(root, 'runs'), cacheDir });
  const file = join(ws, 'advanced', 'background-tasks.md');
  writeFileSync(file, readFileSync(file, 'utf8') + '\n## Appendix\n\nA paragraph added after the first run.\n');
  const warm = await runGrid({ workspace: ws, groundTruthFile: MINI_GT, settings, runsRoot: join(root, 'runs'), cacheDir });
  const cold = await runGrid({ workspace: ws, groundTruthFile: MINI_GT, settings, runsRoot: join(root, 'runs'), cacheDir: join(root, 'cold') });
  assert.equal(warm.timings.perChunker.heading.cacheHit, false);
  // 4 documents: the 3 unchanged ones come from the chunk cache, the edited one is re-chunked.
  for (const c of ['heading', 'fixed']) assert.equal(warm.timings.perChunker[c].cachedDocs, 3, c);
  assert.equal(cold.timings.perChunker.heading.cachedDocs, 0);
  assert.deepEqual(readFileSync(join(warm.runDir!, 'results.json'), 'utf8'), readFileSync(join(cold.runDir!, 'results.json'), 'utf8'));
});
