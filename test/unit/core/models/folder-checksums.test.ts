/**
 * A model folder whose model.onnx (or tokenizer, config) was altered after it was written — and still
 * parses — is refused when its SHA256SUMS or pulled-model manifest records another SHA-256 (a fresh
 * user's edited model was used silently); a model.onnx that onnxruntime cannot parse gets a message in
 * words instead of onnxruntime's C++ one. Through the real CLI: exit 2, the file and the fix.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { loadCrossEncoderFromFolder, loadEmbedderFromFolder } from '../../../../src/core/models/index';
import { openModelFolder } from '../../../../src/core/models/folder';
import { staticGloveDir } from '../../../../src/core/models/defaultModel';
import { isSpanproofError } from '../../../../src/core/errors';
import { tinyCrossEncoderOnnx, tinyTokenizerJson, tinyWeights, writeFolder } from '../../../fixtures/models/tinyModels';
import { tempDir } from '../../../helpers/tmp';
import { runCli } from '../../../helpers/cli';
import { MINI, MINI_GT } from '../../../helpers/grid';

const sha = (b: Uint8Array | string) => createHash('sha256').update(b).digest('hex');

/** A copy of the bundled static model (with its SHA256SUMS) whose model.onnx has one byte flipped inside a weight: it still parses. */
function alteredCopy(root: string): string {
  const dir = path.join(root, 'glove');
  cpSync(staticGloveDir(), dir, { recursive: true });
  const b = readFileSync(path.join(dir, 'model.onnx'));
  b[b.length - 100] ^= 1;
  writeFileSync(path.join(dir, 'model.onnx'), b);
  return dir;
}

test('the bundled models match their SHA256SUMS and load', () => {
  const f = openModelFolder(staticGloveDir());
  assert.match(f.contentHash, /^[0-9a-f]{16}$/);
});

test('an altered model.onnx that still parses is refused, naming the file, both hashes and the fix; so is an edited tokenizer.json', async (t) => {
  const dir = alteredCopy(tempDir('sp-sums-', t));
  const file = path.join(dir, 'model.onnx');
  const want = readFileSync(path.join(dir, 'SHA256SUMS'), 'utf8').match(/^([0-9a-f]{64}) {2}model\.onnx$/m)![1];
  const got = sha(readFileSync(file));
  await assert.rejects(loadEmbedderFromFolder(dir, { threads: 1 }), (e: unknown) => isSpanproofError(e) && e.code === 'model' && e.file === file
    && e.message === `${file}: this file does not match the SHA-256 that SHA256SUMS records for it (SHA256SUMS says ${want.slice(0, 12)}…, the file has ${got.slice(0, 12)}…): it was changed or damaged after the model was written, so it is not used. Fix: re-download or re-export the model folder (a model bundled with Spanproof: reinstall Spanproof, or git checkout media/models in a clone). If you changed it on purpose, update its line in SHA256SUMS (sha256sum model.onnx).`);
  // updating SHA256SUMS (a deliberate change) makes it load; a changed README does not matter
  writeFileSync(path.join(dir, 'SHA256SUMS'), readFileSync(path.join(dir, 'SHA256SUMS'), 'utf8').replace(want, got));
  writeFileSync(path.join(dir, 'README.md'), 'edited');
  const ok = await loadEmbedderFromFolder(dir, { threads: 1 });
  await ok.dispose();
  writeFileSync(path.join(dir, 'tokenizer.json'), readFileSync(path.join(dir, 'tokenizer.json'), 'utf8').replace('"the"', '"teh"'));
  assert.throws(() => openModelFolder(dir), (e: unknown) => isSpanproofError(e) && e.file === path.join(dir, 'tokenizer.json') && /does not match the SHA-256 that SHA256SUMS records/.test(e.message));
});

test('a pulled model (spanproof-model.json) whose file was edited is refused with the models remove/pull fix; a folder without sums is not checked', async (t) => {
  const root = tempDir('sp-manifest-', t);
  const files = { 'onnx/model.onnx': tinyCrossEncoderOnnx(tinyWeights(), 1), 'tokenizer.json': tinyTokenizerJson() };
  const dir = writeFolder(root, 'tiny-ce', files);
  const manifest = { name: 'tiny-ce', kind: 'reranker', repo: 'x/y', revision: 'r', files: Object.entries(files).map(([p, b]) => ({ path: p, sha256: sha(b), size: b.length })), pulledAt: '' };
  writeFileSync(path.join(dir, 'spanproof-model.json'), JSON.stringify(manifest));
  const ce = await loadCrossEncoderFromFolder(dir, { threads: 1 });
  await ce.dispose();
  writeFileSync(path.join(dir, 'tokenizer.json'), tinyTokenizerJson().replace('"[CLS]"', '"[CLS] "'));
  await assert.rejects(loadCrossEncoderFromFolder(dir, { threads: 1 }), (e: unknown) => isSpanproofError(e) && e.file === path.join(dir, 'tokenizer.json')
    && /that spanproof-model\.json records for it/.test(e.message) && /Fix: re-download it: spanproof models remove tiny-ce, then spanproof models pull tiny-ce\./.test(e.message));
  const plain = writeFolder(root, 'plain', files);
  const ok = await loadCrossEncoderFromFolder(plain, { threads: 1 });
  await ok.dispose();
});

test('a damaged model.onnx (cut short, or not ONNX) is said in words, not with onnxruntime\'s "Load model from … failed:Protobuf parsing failed"', async (t) => {
  const root = tempDir('sp-broken-', t);
  for (const [name, bytes] of [['cut', readFileSync(path.join(staticGloveDir(), 'model.onnx')).subarray(0, 100_000)], ['text', Buffer.from('not a model')]] as const) {
    const dir = writeFolder(root, name, { 'model.onnx': bytes, 'tokenizer.json': readFileSync(path.join(staticGloveDir(), 'tokenizer.json')) });
    await assert.rejects(loadEmbedderFromFolder(dir, { threads: 1 }), (e: unknown) => isSpanproofError(e) && e.code === 'model'
      && e.message === `${path.join(dir, 'model.onnx')}: this model.onnx is damaged (cut short or overwritten) or not an ONNX model: onnxruntime cannot read it. Fix: re-download or re-export the model (spanproof models pull NAME for a catalogue model; optimum-cli export onnx for your own), then run again.`);
  }
});

test('spanproof run with an altered model folder exits 2 naming the file (no stack trace)', async (t) => {
  const root = tempDir('sp-sums-cli-', t);
  const dir = alteredCopy(root);
  const cfg = path.join(root, 'cfg.json');
  writeFileSync(cfg, JSON.stringify({ embeddingModel: dir }));
  const r = await runCli(['run', '--workspace', MINI, '--groundtruth', MINI_GT, '--runs-dir', path.join(root, 'runs'), '--cache-dir', path.join(root, 'cache'), '--config', cfg, '--chunkers', 'heading', '--retrievers', 'dense', '--rerank', 'off']);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, new RegExp(`${path.join(dir, 'model.onnx').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: this file does not match the SHA-256 that SHA256SUMS records for it .* Fix: `));
  assert.doesNotMatch(r.stderr, /internal error|\n\s+at /);
});

test('the tokenizer is built on first use: a static model opens without it (dim from its weights); a broken tokenizer.json fails at first use, naming the file', async (t) => {
  const dir = path.join(tempDir('sp-lazy-tok-', t), 'glove');
  cpSync(staticGloveDir(), dir, { recursive: true });
  // no recorded sums (a user's copy), and a tokenizer.json that is not JSON
  writeFileSync(path.join(dir, 'SHA256SUMS'), '');
  writeFileSync(path.join(dir, 'tokenizer.json'), '{"model": ');
  const f = openModelFolder(dir); // does not parse the tokenizer
  assert.throws(() => f.tokenizer, (e: unknown) => isSpanproofError(e) && e.code === 'model' && e.file === path.join(dir, 'tokenizer.json') && /Not valid JSON/.test(e.message));
  const e = await loadEmbedderFromFolder(dir, { threads: 1 });
  assert.equal(e.dim, 100, 'the static model knows its dim without running the tokenizer');
  await assert.rejects(e.embed(['path parameters']), (err: unknown) => isSpanproofError(err) && err.file === path.join(dir, 'tokenizer.json'));
  await e.dispose();
  // the bundled one: the same vectors whether the tokenizer was built at open or on first use
  const a = await loadEmbedderFromFolder(staticGloveDir(), { threads: 1 });
  void openModelFolder(staticGloveDir()).tokenizer;
  const b = await loadEmbedderFromFolder(staticGloveDir(), { threads: 1 });
  b.countTokens('warm up the tokenizer first');
  assert.deepEqual(await a.embed(['path parameters', 'query']), await b.embed(['path parameters', 'query']));
  await a.dispose();
  await b.dispose();
});
