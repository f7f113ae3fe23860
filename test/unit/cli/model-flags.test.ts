// src/cli/commands/modelFlags.ts: a model folder given as a flag is relative to the current folder
// (as --groundtruth and --out are), and a bare name that names nothing is bad input listing the names
// (fresh-user #13: `--embedders ./media/models/…` looked under --workspace; `bge-small` got "Model
// folder not found" with no hint of the catalogue names).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli';
import { MINI, MINI_GT, REPO, tmp } from '../../helpers/grid';

test('--embedders ./folder is relative to the current folder (runCli runs in the repo), not to --workspace', async () => {
  const root = tmp('model-flags');
  const r = await runCli(['run', '--workspace', MINI, '--groundtruth', MINI_GT, '--chunkers', 'heading', '--retrievers', 'dense', '--rerank', 'off', '--embedders', './media/models/glove-6b-100d-50k-int8', '--out', join(root, 'run'), '--cache-dir', join(root, 'cache'), '--json']);
  assert.equal(r.code, 0, r.stderr);
  const run = JSON.parse(readFileSync(join(root, 'run', 'run.json'), 'utf8')) as { settings: { embedders: string[] } };
  assert.deepEqual(run.settings.embedders, [join(REPO, 'media', 'models', 'glove-6b-100d-50k-int8')]);
});

test('a bare model name that is neither built in, in the catalogue nor a folder here is exit 2 listing the names', async () => {
  const e = await runCli(['run', '--workspace', MINI, '--embedders', 'bge-small']);
  assert.equal(e.code, 2, e.stderr);
  assert.match(e.stderr, /^spanproof: --embedders: "bge-small" is not a built-in or catalogue embedder name, and no folder of that name is here\. Fix: use one of use-lite, static-glove, bge-small-en-v1\.5, /);
  const r = await runCli(['run', '--workspace', MINI, '--reranker', 'ms-marco']);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /^spanproof: --reranker: "ms-marco" is not a built-in or catalogue cross-encoder name, .* Fix: use one of baseline, ms-marco-MiniLM-L-6-v2/);
});
