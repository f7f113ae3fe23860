// The resident worker: a one-question run, and a crash that the next run survives.
import * as assert from 'node:assert/strict';
import { api, folder, test } from '../harness';

test('one-question run in the worker scores the question in all 30 configs without writing a run', async () => {
  const sp = await api();
  const r = await sp.runner.run(folder().store, ['fa-d-001']);
  assert.ok(r, 'result');
  assert.equal(r.runDir, null);
  assert.equal(r.records!.length, 30);
  assert.ok(r.records!.every((x) => x.question === 'fa-d-001'));
});

test('a worker crash is reported and the next run works', async () => {
  const sp = await api();
  let killed = false;
  const sub = sp.runner.onProgress(() => {
    if (!killed) {
      killed = true;
      void sp.runner.killWorkerForTest();
    }
  });
  const crashed = new Promise<string>((res) => sp.runner.onCrash(res));
  const r = await sp.runner.run(folder().store, ['fa-d-002']);
  sub.dispose();
  assert.equal(r, undefined);
  assert.match(await crashed, /worker/);
  const again = await sp.runner.run(folder().store, ['fa-d-002']);
  assert.equal(again?.records?.length, 30);
});
