/**
 * timings.json's per-stage resources (issue #13): CPU time and the peak RSS by each stage's end,
 * from getrusage (process.resourceUsage).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runGrid } from '../../../../src/core/grid/run';
import { resourceMark, resourceSpan } from '../../../../src/core/grid/resources';
import { MINI, MINI_GT, smallSettings, tmp } from '../../../helpers/grid';

test('resourceSpan: CPU spent between two readings, peak RSS of the later one, both to 0.1', () => {
  assert.deepEqual(resourceSpan({ cpuMs: 100.04, peakRssMB: 50 }, { cpuMs: 351.16, peakRssMB: 123.456 }), { cpuMs: 251.1, peakRssMB: 123.5 });
});

test('peakRssMB is the kernel\'s high-water mark: touching 64 MiB of fresh memory raises it by at least 60 MiB', () => {
  const before = resourceMark();
  const block = Buffer.alloc(64 * 1024 * 1024, 1); // filled, so every page is resident
  const after = resourceMark();
  assert.equal(block[block.length - 1], 1);
  assert.ok(after.peakRssMB - before.peakRssMB >= 60, `${before.peakRssMB} → ${after.peakRssMB}`);
  assert.ok(after.cpuMs >= before.cpuMs);
});

test('a run records resources for every timed stage and chunker; the peaks never fall from stage to stage', async () => {
  const root = tmp('resources');
  const r = await runGrid({ workspace: MINI, groundTruthFile: MINI_GT, settings: smallSettings(), runsRoot: join(root, 'runs'), cacheDir: join(root, 'cache') });
  const res = r.timings.resources!;
  const order = ['load', 'models', 'engine', 'aggregate', 'verdict'];
  for (const s of order) {
    assert.ok(res[s], `resources.${s}`);
    assert.ok(res[s].cpuMs >= 0 && res[s].peakRssMB > 0, s);
  }
  assert.deepEqual(Object.keys(res).sort(), Object.keys(r.timings.stages).sort(), 'one entry per stage of `stages`');
  for (let i = 1; i < order.length; i++) assert.ok(res[order[i]].peakRssMB >= res[order[i - 1]].peakRssMB, `${order[i - 1]} → ${order[i]}`);
  const chunkers = Object.values(r.timings.perChunker);
  assert.ok(chunkers.length >= 2);
  for (const c of chunkers) {
    assert.ok(c.wallMs! > 0 && c.cpuMs! >= 0);
    assert.ok(c.peakRssMB! <= res.engine.peakRssMB && c.peakRssMB! >= res.models.peakRssMB);
  }
});
