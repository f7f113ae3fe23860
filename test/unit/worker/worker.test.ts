/**
 * The worker thread through the host client (the same path the CLI and the extension use): progress
 * notifications arrive with done/total/stage, a cancel stops the run with status `cancelled`, and
 * earlier runs stay intact.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GridClient } from '../../../src/worker/client';
import { isSpanproofError } from '../../../src/core/errors';
import type { ProgressMessage } from '../../../src/shared/protocol';
import { MINI, MINI_GT, WORKER_TS, smallSettings, tmp } from '../../helpers/grid';

test('grid.run in the worker streams progress and returns the results', async () => {
  const root = tmp('worker');
  const client = new GridClient({ workerPath: WORKER_TS });
  const seen: ProgressMessage[] = [];
  try {
    const r = await client.run(
      { workspace: MINI, groundTruthFile: MINI_GT, settings: smallSettings({ chunkers: ['heading'], retrievers: ['bm25'] }), runsRoot: join(root, 'runs'), cacheDir: join(root, 'cache') },
      { onProgress: (p) => seen.push(p) },
    );
    assert.equal(r.status, 'succeeded');
    assert.equal(r.results.configs.length, 2);
    assert.ok(seen.length >= 2, `progress messages: ${seen.length}`);
    const engine = seen.filter((p) => p.stage.includes(':'));
    assert.ok(engine.length >= 1);
    const total = engine[engine.length - 1].total;
    // samples/fastapi-mini: 4 documents; BM25 only, so 4 chunked + 1 index + 1 (no embedding) + configs × questions.
    assert.equal(total, 4 + 1 + 1 + 2 * 10, 'engine total = build units + configs × questions');
    assert.ok(seen.every((p) => p.done <= p.total && typeof p.stage === 'string'));
  } finally {
    await client.dispose();
  }
});

test('cancelling a run writes status cancelled and leaves earlier runs intact', async () => {
  const root = tmp('cancel');
  const runsRoot = join(root, 'runs');
  const client = new GridClient({ workerPath: WORKER_TS });
  try {
    const first = await client.run({ workspace: MINI, groundTruthFile: MINI_GT, settings: smallSettings({ chunkers: ['heading'], retrievers: ['bm25'] }), runsRoot, cacheDir: join(root, 'cache') });
    const before = readFileSync(join(first.runDir!, 'results.json'), 'utf8');
    const ac = new AbortController();
    let cancelledAt = 0;
    const p = client.run(
      { workspace: MINI, groundTruthFile: MINI_GT, settings: smallSettings({ chunkers: ['fixed', 'recursive', 'sentence', 'heading'], retrievers: ['bm25', 'dense', 'hybrid'] }), runsRoot, cacheDir: join(root, 'cache2') },
      { signal: ac.signal, onProgress: (m) => { if (!cancelledAt && m.stage.includes(':')) { cancelledAt = Date.now(); ac.abort(); } } },
    );
    // the run directory travels in its own field, not in `file` (which names a file the user must fix)
    await assert.rejects(p, (e: unknown) => isSpanproofError(e) && e.code === 'cancelled' && typeof e.runDir === 'string' && e.file === undefined);
    const err = await p.catch((e) => e);
    const run = JSON.parse(readFileSync(join(err.runDir, 'run.json'), 'utf8'));
    assert.equal(run.status, 'cancelled');
    assert.equal(run.error.code, 'cancelled');
    assert.ok(run.endedAt);
    assert.equal(readFileSync(join(first.runDir!, 'results.json'), 'utf8'), before);
    assert.equal(JSON.parse(readFileSync(join(first.runDir!, 'run.json'), 'utf8')).status, 'succeeded');
  } finally {
    await client.dispose();
  }
});

test('a one-question re-run in the same worker (resident models and indexes) gives the same records as the full run', async () => {
  const root = tmp('one');
  const client = new GridClient({ workerPath: WORKER_TS });
  try {
    const settings = smallSettings();
    const full = await client.run({ workspace: MINI, groundTruthFile: MINI_GT, settings, runsRoot: join(root, 'runs'), cacheDir: join(root, 'cache'), returnRecords: true });
    const one = await client.run({ workspace: MINI, groundTruthFile: MINI_GT, settings, runsRoot: join(root, 'runs'), cacheDir: join(root, 'cache'), questionIds: ['mini-04'], writeRun: false, returnRecords: true }); // runsRoot: should writeRun regress, never into samples/
    assert.equal(one.runDir, null);
    assert.equal(one.results.questions, 1);
    const strip = (r: { question: string; config: string; results: unknown; pool: unknown; cause: unknown }) => ({ q: r.question, c: r.config, results: r.results, pool: r.pool, cause: r.cause });
    const fromFull = full.records!.filter((r) => r.question === 'mini-04').map(strip);
    assert.equal(fromFull.length, 8);
    assert.deepEqual(one.records!.map(strip), fromFull);
    assert.ok(one.timings.perChunker.heading.cacheHit);
  } finally {
    await client.dispose();
  }
});

test('a worker that dies during a run rejects it with the typed code worker-crashed, and the client starts a new worker for the next request', async () => {
  const root = tmp('crash');
  const client = new GridClient({ workerPath: WORKER_TS });
  try {
    let killed = false;
    const p = client.run(
      { workspace: MINI, groundTruthFile: MINI_GT, settings: smallSettings({ chunkers: ['heading'], retrievers: ['bm25'] }), runsRoot: join(root, 'runs'), cacheDir: join(root, 'cache') },
      { onProgress: () => { if (!killed) { killed = true; void client.dispose(); } } },
    );
    await assert.rejects(p, (e: unknown) => isSpanproofError(e) && e.code === 'worker-crashed');
    const again = await client.request('ping', {});
    assert.equal(typeof again.pid, 'number');
  } finally {
    await client.dispose();
  }
});

test('profile: true writes a CPU profile of the worker thread into the run directory', async () => {
  const root = tmp('profile');
  const client = new GridClient({ workerPath: WORKER_TS });
  try {
    const r = await client.run({ workspace: MINI, groundTruthFile: MINI_GT, settings: smallSettings({ chunkers: ['heading'], retrievers: ['bm25'] }), outDir: join(root, 'run'), cacheDir: join(root, 'cache'), profile: true });
    const p = JSON.parse(readFileSync(join(r.runDir!, 'worker.cpuprofile'), 'utf8')) as { nodes: Array<{ callFrame: { functionName: string } }>; samples: number[] };
    assert.ok(p.samples.length > 0, 'samples taken');
    assert.ok(p.nodes.some((n) => n.callFrame.functionName === 'runGrid'), 'the grid run is in the profile');
  } finally {
    await client.dispose();
  }
});
