/**
 * The CLI's in-thread grid client (src/worker/inProcess.ts, issue #13) against the worker thread: the
 * same bytes of results.json and questions.jsonl (each cold, own cache), the same result object;
 * progress arrives and timers keep firing during the grid (it yields to the event loop, so SIGINT and
 * the progress bar still run); a cancel ends it with status `cancelled`; `profile: true` profiles this
 * thread.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GridClient } from '../../../src/worker/client';
import { InProcessGridClient } from '../../../src/worker/inProcess';
import { isSpanproofError } from '../../../src/core/errors';
import type { GridRunParams, ProgressMessage } from '../../../src/shared/protocol';
import { MINI, MINI_GT, WORKER_TS, smallSettings, tmp } from '../../helpers/grid';

test('the in-thread client writes results.json and questions.jsonl byte-identical to the worker, returns the same results and streams progress while timers fire', async () => {
  const root = tmp('inproc');
  const params = (name: string): GridRunParams => ({
    workspace: MINI, groundTruthFile: MINI_GT, settings: smallSettings({ chunkers: ['fixed', 'recursive', 'sentence', 'heading'], retrievers: ['bm25', 'dense', 'hybrid'] }),
    outDir: join(root, name), cacheDir: join(root, `cache-${name}`), keepChunks: true, resident: false,
  });
  const worker = new GridClient({ workerPath: WORKER_TS });
  const inThread = new InProcessGridClient();
  try {
    const a = await worker.run(params('worker'));
    const seen: ProgressMessage[] = [];
    let ticks = 0;
    const timer = setInterval(() => ticks++, 20);
    const b = await inThread.run(params('inproc'), { onProgress: (p) => seen.push(p) }).finally(() => clearInterval(timer));
    for (const f of ['results.json', 'questions.jsonl', 'ranking.json', join('chunks', 'heading.jsonl')]) {
      assert.ok(readFileSync(join(a.runDir!, f)).equals(readFileSync(join(b.runDir!, f))), `${f} differs between the worker and the in-thread run`);
    }
    // what `run --json` prints (the ranking carries measured latencies, so it is not compared)
    assert.deepEqual([b.status, b.results, b.verdict, b.warnings], [a.status, a.results, a.verdict, a.warnings]);
    assert.ok(seen.some((p) => p.stage.includes(':')) && seen.every((p) => p.done <= p.total), `progress: ${seen.length}`);
    assert.ok(ticks >= 3, `a 20 ms timer fired ${ticks} times during the in-thread grid`);
  } finally {
    await worker.dispose();
    await inThread.dispose();
  }
});

test('the in-thread client: a cancel ends the run with code cancelled (run.json status cancelled); profile: true profiles this thread', async () => {
  const root = tmp('inproc-cancel');
  const client = new InProcessGridClient();
  try {
    const ac = new AbortController();
    const p = client.run(
      { workspace: MINI, groundTruthFile: MINI_GT, settings: smallSettings({ chunkers: ['fixed', 'recursive', 'sentence', 'heading'], retrievers: ['bm25', 'dense', 'hybrid'] }), runsRoot: join(root, 'runs'), cacheDir: join(root, 'cache') },
      { signal: ac.signal, onProgress: (m) => { if (m.stage.includes(':')) ac.abort(); } },
    );
    const err = await p.then(() => assert.fail('the run was not cancelled'), (e: unknown) => e);
    assert.ok(isSpanproofError(err) && err.code === 'cancelled' && typeof err.runDir === 'string', String(err));
    assert.equal(JSON.parse(readFileSync(join(err.runDir!, 'run.json'), 'utf8')).status, 'cancelled');
    const r = await client.run({ workspace: MINI, groundTruthFile: MINI_GT, settings: smallSettings({ chunkers: ['heading'], retrievers: ['bm25'] }), outDir: join(root, 'run'), cacheDir: join(root, 'cache'), profile: true });
    const prof = JSON.parse(readFileSync(join(r.runDir!, 'worker.cpuprofile'), 'utf8')) as { nodes: Array<{ callFrame: { functionName: string } }>; samples: number[] };
    assert.ok(prof.samples.length > 0 && prof.nodes.some((n) => n.callFrame.functionName === 'runGrid'), 'the grid run is in the profile');
  } finally {
    await client.dispose();
  }
});
