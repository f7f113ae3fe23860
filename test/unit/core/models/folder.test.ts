// The real model-folder code path (onnxruntime-node, @huggingface/tokenizers) on tiny BERT-shaped
// ONNX models built in the test; expected values from a plain-JS computation of the same graph.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import * as path from 'node:path';
import { loadCrossEncoderFromFolder, loadEmbedderFromFolder } from '../../../../src/core/models/index';
import { isSpanproofError } from '../../../../src/core/errors';
import { H, TINY_VOCAB, l2normalise, tinyCrossEncoderOnnx, tinyEmbedderOnnx, tinyTokenizerJson, tinyWeights, trunkReference, writeFolder } from '../../../fixtures/models/tinyModels';
import { tempDir } from '../../../helpers/tmp';

const opts = { threads: 1 };
const id = (t: string) => TINY_VOCAB.indexOf(t);
let root = '';
before(() => {
  root = tempDir('spanproof-models-');
});
after(() => rmSync(root, { recursive: true, force: true }));

function assertClose(actual: ArrayLike<number>, expected: ArrayLike<number>, tol: number): void {
  assert.equal(actual.length, expected.length);
  for (let i = 0; i < expected.length; i++) assert.ok(Math.abs(actual[i] - expected[i]) <= tol, `[${i}] ${actual[i]} vs ${expected[i]}`);
}

function meanPool(y: number[][]): number[] {
  return Array.from({ length: H }, (_, d) => y.reduce((s, r) => s + r[d], 0) / y.length);
}

test('BERT-shaped embedder from vocab.txt: WordPiece ids, padding, mean pooling, L2 norm match plain JS', async () => {
  const w = tinyWeights();
  const dir = writeFolder(root, 'bert-vocab', { 'model.onnx': tinyEmbedderOnnx(w), 'vocab.txt': TINY_VOCAB.join('\n') + '\n' });
  const e = await loadEmbedderFromFolder(dir, opts);
  try {
    assert.equal(e.dim, H);
    assert.match(e.id, /^onnx:bert-vocab@[0-9a-f]{16}$/);
    // Hand tokenisation (BERT: lower-case, punctuation split, WordPiece "cats" → cat ##s):
    const rows = [
      [id('[CLS]'), id('the'), id('cat'), id('##s'), id('sat'), id('.'), id('[SEP]')],
      [id('[CLS]'), id('a'), id('dog'), id('[SEP]')],
      [id('[CLS]'), id('[UNK]'), id('ran'), id('[SEP]')],
    ];
    const got = await e.embed(['The cats sat.', 'a DOG', 'zebra ran']);
    const expected = rows.flatMap((ids) => l2normalise(meanPool(trunkReference(w, ids, ids.map(() => 0)))));
    assertClose(got, expected, 1e-6);
    assert.equal(e.countTokens('The cats sat.'), 5); // no [CLS]/[SEP]
    // Empty text: no tokens → zero row (contract), not the embedding of "[CLS] [SEP]".
    assertClose(await e.embed(['', 'a dog']), [0, 0, 0, 0, ...expected.slice(4, 8)], 1e-6);
  } finally {
    await e.dispose();
  }
});

test('tokenizer.json + onnx/model.onnx + 1_Pooling cls + truncation to model_max_length', async () => {
  const w = tinyWeights();
  const dir = writeFolder(root, 'bert-json', {
    'onnx/model.onnx': tinyEmbedderOnnx(w),
    'tokenizer.json': tinyTokenizerJson(),
    'tokenizer_config.json': JSON.stringify({ model_max_length: 5 }),
    '1_Pooling/config.json': JSON.stringify({ word_embedding_dimension: H, pooling_mode_cls_token: true, pooling_mode_mean_tokens: false }),
  });
  const e = await loadEmbedderFromFolder(dir, { threads: 1, batchSize: 2 });
  try {
    // "the cat sat on the mat" → truncated to 3 content tokens + [CLS] … [SEP] = 5.
    const long = [id('[CLS]'), id('the'), id('cat'), id('sat'), id('[SEP]')];
    const short = [id('[CLS]'), id('dog'), id('[SEP]')];
    const got = await e.embed(['the cat sat on the mat', 'dog', 'dog']);
    const ref = (ids: number[]) => l2normalise(trunkReference(w, ids, ids.map(() => 0))[0]);
    assertClose(got, [...ref(long), ...ref(short), ...ref(short)], 1e-6);
    assert.equal(e.countTokens('the cat sat on the mat'), 6); // not truncated
  } finally {
    await e.dispose();
  }
});

test('cross-encoder: pair template with token_type_ids, logits [b,1] and [b,2] (positive-class log-odds)', async () => {
  for (const classes of [1, 2]) {
    const w = tinyWeights(classes);
    const dir = writeFolder(root, `ce-${classes}`, { 'model.onnx': tinyCrossEncoderOnnx(w, classes), 'tokenizer.json': tinyTokenizerJson() });
    const ce = await loadCrossEncoderFromFolder(dir, opts);
    try {
      assert.equal(ce.baseline, false);
      const passages = ['the cat sat on the mat', 'a dog ran fast', 'mats'];
      const pairs = [
        ['cat', 'the', 'cat', 'sat', 'on', 'the', 'mat'],
        ['cat', 'a', 'dog', 'ran', 'fast'],
        ['cat', 'mat', '##s'],
      ];
      const expected = pairs.map(([q, ...p]) => {
        const ids = [id('[CLS]'), id(q), id('[SEP]'), ...p.map(id), id('[SEP]')];
        const types = [0, 0, 0, ...p.map(() => 1), 1];
        const cls = trunkReference(w, ids, types)[0];
        const logit = (k: number) => cls.reduce((s, v, d) => s + v * w.P[d * classes + k], 0) + w.c[k];
        return classes === 1 ? logit(0) : logit(1) - logit(0);
      });
      assertClose(await ce.score('cat', passages), expected, 1e-6);
    } finally {
      await ce.dispose();
    }
  }
});

test('position_ids input is filled with 0, 1, 2, … per row', async () => {
  const w = tinyWeights();
  const dir = writeFolder(root, 'bert-positions', { 'model.onnx': tinyEmbedderOnnx(w, 'last_hidden_state', 'position_ids'), 'tokenizer.json': tinyTokenizerJson() });
  const e = await loadEmbedderFromFolder(dir, opts);
  try {
    const rows = [
      [id('[CLS]'), id('the'), id('dog'), id('ran'), id('fast'), id('[SEP]')],
      [id('[CLS]'), id('cat'), id('[SEP]')],
    ];
    const expected = rows.flatMap((ids) => l2normalise(meanPool(trunkReference(w, ids, ids.map(() => 0), true))));
    assertClose(await e.embed(['the dog ran fast', 'cat']), expected, 1e-6);
  } finally {
    await e.dispose();
  }
});

async function rejects(p: Promise<unknown>, code: string, ...patterns: RegExp[]): Promise<void> {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(isSpanproofError(e), String(e));
    assert.equal((e as { code: string }).code, code);
    for (const re of patterns) assert.match((e as Error).message, re);
    return true;
  });
}

test('errors: missing folder, empty folder, missing tokenizer, unknown output/input, embedder loaded as cross-encoder, bad JSON', async () => {
  await rejects(loadEmbedderFromFolder(path.join(root, 'nope'), opts), 'not-found', /nope/);
  const empty = writeFolder(root, 'empty', {});
  await rejects(loadEmbedderFromFolder(empty, opts), 'model', /empty/, /model\.onnx/, /tokenizer\.json/);
  const w = tinyWeights();
  const noTok = writeFolder(root, 'no-tokenizer', { 'model.onnx': tinyEmbedderOnnx(w), 'config.json': '{}' });
  await rejects(loadEmbedderFromFolder(noTok, opts), 'model', /missing tokenizer\.json \(or vocab\.txt\)/, /Found: config\.json, model\.onnx/);
  const oddOut = writeFolder(root, 'odd-output', { 'model.onnx': tinyEmbedderOnnx(w, 'hidden_states_xyz'), 'tokenizer.json': tinyTokenizerJson() });
  await rejects(loadEmbedderFromFolder(oddOut, opts), 'model', /hidden_states_xyz/, /outputs not understood/);
  const emb = writeFolder(root, 'embedder-as-ce', { 'model.onnx': tinyEmbedderOnnx(w), 'tokenizer.json': tinyTokenizerJson() });
  await rejects(loadCrossEncoderFromFolder(emb, opts), 'model', /last_hidden_state/, /logits/);
  const oddIn = writeFolder(root, 'odd-input', { 'model.onnx': tinyEmbedderOnnx(w, 'last_hidden_state', 'pixel_values'), 'tokenizer.json': tinyTokenizerJson() });
  await rejects(loadEmbedderFromFolder(oddIn, opts), 'model', /inputs not understood/, /pixel_values/);
  const badJson = writeFolder(root, 'bad-json', { 'model.onnx': tinyEmbedderOnnx(w), 'tokenizer.json': '{"model": ' });
  await rejects(loadEmbedderFromFolder(badJson, opts), 'model', /tokenizer\.json/, /Not valid JSON/);
});
