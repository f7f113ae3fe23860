// The MaxSim baseline of a grid run reads the static-glove embedder's session and tokenizer when the
// run already has it open (one ONNX session instead of two): the scores must be the same floats as a
// baseline with its own session, disposing the baseline must leave the embedder usable, and an
// embedder of another folder or thread count must not be shared.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { staticGloveDir } from '../../../../src/core/models/defaultModel';
import { openOnnxEmbedder } from '../../../../src/core/models/embedder';
import { createMaxSimReranker } from '../../../../src/core/models/maxSim';
import { loadReranker } from '../../../../src/core/models/rerankers';
import { loadRunModels } from '../../../../src/core/grid/models';
import { builtinModelDir } from '../../../../src/core/models/registry';
import type { PairScorer } from '../../../../src/core/models/types';
import { smallSettings } from '../../../helpers/grid';

const QUERY = 'How do I declare a path parameter with a type?';
const PASSAGES = [
  'You can declare path "parameters" or "variables" with the same syntax used by Python format strings.',
  'Query parameters that are not part of the path are interpreted as query parameters.',
  'Dependencies are functions that FastAPI calls before your path operation function.',
  '',
];

/** `scorer`'s scores of PASSAGES for QUERY, as plain numbers. */
async function scores(scorer: PairScorer): Promise<number[]> {
  return [...(await scorer.score(QUERY, PASSAGES))];
}

test('the baseline on a shared static-glove embedder scores the same floats as one with its own session; dispose leaves the embedder open', async () => {
  const own = await createMaxSimReranker({ threads: 1 });
  const emb = await openOnnxEmbedder(staticGloveDir(), { threads: 1 });
  const shared = await loadReranker({ kind: 'baseline' }, { threads: 1, embedders: [emb] });
  try {
    assert.equal(shared.id, own.id);
    const want = await scores(own);
    assert.ok(want.some((x) => x > 0), 'the passages score above 0');
    assert.deepEqual(await scores(shared), want);
    await shared.dispose();
    // the embedder still works after the baseline that borrowed it is disposed
    const v = await emb.embed(['path parameter']);
    assert.equal(v.length, emb.dim);
  } finally {
    await own.dispose();
    await emb.dispose();
  }
});

test('the baseline does not borrow an embedder of another folder or another thread count', async () => {
  const lite = await openOnnxEmbedder(builtinModelDir('use-lite'), { threads: 1 });
  const glove2 = await openOnnxEmbedder(staticGloveDir(), { threads: 2 });
  const own = await loadReranker({ kind: 'baseline' }, { threads: 1, embedders: [lite, glove2] });
  try {
    await own.dispose();
    // had it borrowed either, the embedder would still be open; here both stay open because the
    // baseline opened (and has now released) its own session — and scoring after dispose fails
    await assert.rejects(() => own.score(QUERY, PASSAGES), /after dispose/);
    assert.equal((await lite.embed(['x'])).length, lite.dim);
    assert.equal((await glove2.embed(['x'])).length, glove2.dim);
  } finally {
    await lite.dispose();
    await glove2.dispose();
  }
});

test('loadRunModels: a static-glove grid with the baseline reranker opens one session, released once', async () => {
  const models = await loadRunModels({ settings: smallSettings({ embedders: ['static-glove'], threads: 1 }), workspace: process.cwd(), needsEmbedder: true, needsReranker: true });
  const emb = models.embedder!;
  const rr = models.reranker!;
  assert.ok(rr.baseline);
  assert.ok((await rr.score(QUERY, PASSAGES)).some((x) => x > 0));
  await rr.dispose(); // borrowed: the run's embedder stays usable
  assert.equal((await emb.embed(['x'])).length, emb.dim);
  await models.release();
  await assert.rejects(() => emb.embed(['x']), /after dispose/);
});
