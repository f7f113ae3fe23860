/**
 * The worked example of docs/external.md runs as documented: the 30-line Python retriever
 * (examples/external/keyword_retriever.py, python3) through `spanproof run --retriever-cmd …
 * --retriever-name keywords` on samples/fastapi-mini, scored beside heading/bm25/none.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { REPO } from '../../../helpers/paths';
import { runCli } from '../../../helpers/cli';
import { MINI, MINI_GT, tmp } from '../../../helpers/grid';

test('docs/external.md: the Python keyword retriever is scored beside the grid from the CLI flags', async () => {
  const root = tmp('ext-example');
  const script = join(REPO, 'examples', 'external', 'keyword_retriever.py');
  const r = await runCli(['run', '--workspace', MINI, '--groundtruth', MINI_GT, '--chunkers', 'heading', '--retrievers', 'bm25', '--rerank', 'off', '--runs-dir', join(root, 'runs'), '--cache-dir', join(root, 'cache'), '--json',
    '--retriever-cmd', `python3 ${JSON.stringify(script)}`, '--retriever-name', 'keywords']);
  assert.equal(r.code, 0, r.stderr);
  const res = JSON.parse(r.stdout) as { configs: Array<{ id: string; scored: number; failed: string[]; metrics: Record<string, { mean: number }>; external?: { returned: number; used: number; dropped: Record<string, number> } }> };
  assert.deepEqual(res.configs.map((c) => c.id).sort(), ['external/keywords/none', 'heading/bm25/none']);
  const ext = res.configs.find((c) => c.id === 'external/keywords/none')!;
  assert.equal(ext.scored, 10);
  assert.deepEqual(ext.failed, []);
  assert.ok(ext.external!.returned > 0);
  assert.equal(ext.external!.used, ext.external!.returned, 'every offset the example computes (UTF-16) is a valid passage');
  assert.ok(ext.metrics['hit@5'].mean > 0, 'the keyword retriever finds some evidence');
});

test('--retriever-name must follow the retriever it names', async () => {
  const r = await runCli(['run', '--workspace', MINI, '--groundtruth', MINI_GT, '--retriever-name', 'x']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--retriever-name x does not follow/);
});
