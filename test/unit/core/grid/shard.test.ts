/**
 * Sharded runs and merge (issue #18 item 2): shards 1..3 merged equal the single-process run byte for
 * byte (results.json, ranking.json, questions.jsonl, evidence.json) on samples/fastapi-mini (with an
 * external retriever among the configs) and on a second corpus; missing, repeated and foreign shards
 * are refused with their names; the split is balanced, disjoint and complete.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runGrid } from '../../../../src/core/grid/run';
import { mergeShards } from '../../../../src/core/grid/merge';
import { shardGroups, shardSelection } from '../../../../src/core/grid/shard';
import type { RunSettings } from '../../../../src/core/settings';
import { FIXTURES, REPO } from '../../../helpers/paths';
import { MINI, MINI_GT, readText, smallSettings, tmp } from '../../../helpers/grid';

const FILES = ['results.json', 'ranking.json', 'questions.jsonl', 'evidence.json'];

async function singleAndShards(workspace: string, gt: string, settings: RunSettings, n: number, root: string): Promise<{ single: string; shards: string[] }> {
  const cacheDir = join(root, 'cache');
  const single = await runGrid({ workspace, groundTruthFile: gt, settings, outDir: join(root, 'single'), cacheDir });
  const shards: string[] = [];
  for (let i = 1; i <= n; i++) {
    const r = await runGrid({ workspace, groundTruthFile: gt, settings, outDir: join(root, `shard-${i}`), cacheDir, shard: { index: i, count: n } });
    assert.deepEqual(JSON.parse(readText(join(r.runDir!, 'results.json'))).shard, { index: i, count: n }, 'a shard says it is one');
    shards.push(r.runDir!);
  }
  return { single: single.runDir!, shards };
}

function assertSameBytes(a: string, b: string): void {
  for (const f of FILES) assert.equal(readText(join(b, f)), readText(join(a, f)), `${f} of the merged run equals the single run's`);
}

test('samples/fastapi-mini: 3 shards merged (in any order) are byte-identical to the single run, external retriever included', async () => {
  const root = tmp('shard-mini');
  const script = join(REPO, 'examples', 'external', 'keyword_retriever.py');
  const settings = smallSettings({ externalRetrievers: [{ name: 'keywords', command: `python3 ${JSON.stringify(script)}` }] });
  const { single, shards } = await singleAndShards(MINI, MINI_GT, settings, 3, root);
  const merged = mergeShards([shards[2], shards[0], shards[1]], join(root, 'merged'));
  assertSameBytes(single, merged.runDir);
  const res = JSON.parse(readText(join(merged.runDir, 'results.json')));
  assert.equal(res.configs.length, 9, '8 built-in configs + external/keywords/none');
  assert.equal(res.shard, undefined);

  // refused: a missing shard, a shard given twice, a shard of other settings
  assert.throws(() => mergeShards([shards[0], shards[2]], join(root, 'm2')), (e: Error) => /missing shard 2\/3/.test(e.message));
  assert.throws(() => mergeShards([shards[0], shards[1], shards[1], shards[2]], join(root, 'm3')), (e: Error) => /shard 2\/3 is given twice/.test(e.message) && e.message.includes(shards[1]));
  const other = await runGrid({ workspace: MINI, groundTruthFile: MINI_GT, settings: { ...settings, k: 3 }, outDir: join(root, 'other-2'), cacheDir: join(root, 'cache'), shard: { index: 2, count: 3 } });
  assert.throws(() => mergeShards([shards[0], other.runDir!, shards[2]], join(root, 'm4')), (e: Error) => /not shards of one run: their settings differ/.test(e.message) && e.message.includes(other.runDir!));
  assert.throws(() => mergeShards([shards[0], single, shards[2]], join(root, 'm5')), (e: Error) => /not a shard/.test(e.message));
});

test('a second corpus (test/fixtures/e2e/workspace, 20 questions): 3 shards merged equal the single run', async () => {
  const root = tmp('shard-e2e');
  const ws = join(FIXTURES, 'e2e', 'workspace');
  const settings = smallSettings({ chunkers: ['sentence', 'recursive'], retrievers: ['bm25', 'dense'], rerank: [false] });
  const { single, shards } = await singleAndShards(ws, join(ws, '.spanproof', 'groundtruth.json'), settings, 3, root);
  assertSameBytes(single, mergeShards(shards, join(root, 'merged')).runDir);
});

test('the split is balanced (sizes differ by at most one), disjoint and complete', () => {
  const s = smallSettings({ externalRetrievers: [{ name: 'a', url: 'http://127.0.0.1:1/x' }] });
  const ids = Array.from({ length: 7 }, (_, i) => `q${i}`);
  for (const n of [1, 2, 3, 4, 11, 40]) {
    const seen = new Map<string, number>();
    const sizes: number[] = [];
    for (let i = 1; i <= n; i++) {
      let size = 0;
      for (const [g, qs] of shardSelection(s, ids, { index: i, count: n })) for (const q of qs) { seen.set(`${g}|${q}`, (seen.get(`${g}|${q}`) ?? 0) + 1); size++; }
      sizes.push(size);
    }
    assert.equal(seen.size, shardGroups(s).length * ids.length, `n=${n}: complete`);
    assert.ok([...seen.values()].every((c) => c === 1), `n=${n}: disjoint`);
    assert.ok(Math.max(...sizes) - Math.min(...sizes) <= 1, `n=${n}: balanced ${sizes}`);
  }
});
