// Embedding with the shipped static model loads no onnxruntime (its native library is ≈ 13 MB and a
// session ≈ 30 MB of resident memory): staticForward.ts computes the graph, session.ts loads
// onnxruntime-node only for a session. Runs in its own process (node --test isolates files).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openOnnxEmbedder } from '../../../../src/core/models/embedder';
import { createMaxSimReranker } from '../../../../src/core/models/maxSim';
import { REPO } from '../../../helpers/paths';

const loaded = () => Object.keys(require.cache).filter((k) => k.includes(`${join('node_modules', 'onnxruntime-node')}`));

test('the static embedder and the MaxSim baseline over it run without loading onnxruntime-node', async () => {
  assert.deepEqual(loaded(), [], 'nothing loaded it before the test');
  const e = await openOnnxEmbedder(join(REPO, 'media/models/glove-6b-100d-50k-int8'), { threads: 2 });
  const v = await e.embed(['path parameters', 'query parameters with types']);
  assert.equal(v.length, 200);
  const rr = await createMaxSimReranker({ threads: 2 }, undefined, 'zipf', e);
  assert.equal((await rr.score('path parameters', ['a path parameter', 'cookies'])).length, 2);
  await rr.dispose();
  await e.dispose();
  assert.deepEqual(loaded(), []);
});
