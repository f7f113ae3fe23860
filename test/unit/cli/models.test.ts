/**
 * `spanproof models list | pull | remove` as a user runs them, against a fake hub on 127.0.0.1
 * (HF_ENDPOINT) serving a tiny model of a catalogue file of the test's own (--catalogue): the size is
 * printed before the download, the pulled folder is listed and removed; bad input exits 2 with the fix.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tinyEmbedderOnnx, tinyTokenizerJson, tinyWeights } from '../../fixtures/models/tinyModels';
import { startFakeHub } from '../../helpers/fakeHub';
import { runCli } from '../../helpers/cli';
import { tempDir } from '../../helpers/tmp';
import { CATALOGUE } from '../../../src/core/models/catalogue';

const REV = 'feed'.padEnd(40, '0');

test('models list → pull (size first, then ready) → list shows it → remove; errors exit 2 with the fix', async (t) => {
  const onnx = tinyEmbedderOnnx(tinyWeights());
  const tok = Buffer.from(tinyTokenizerJson());
  const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
  const hub = await startFakeHub({ files: { [`org/tiny@${REV}/onnx/model.onnx`]: onnx, [`org/tiny@${REV}/tokenizer.json`]: tok } });
  t.after(() => hub.close());
  const root = tempDir('sp-models-cli-', t);
  const catalogue = join(root, 'catalogue.json');
  writeFileSync(catalogue, JSON.stringify([
    { name: 'tiny', kind: 'embedder', repo: 'org/tiny', revision: REV, revisionSource: 'test', licence: 'test', description: 'a tiny test model', files: [
      { path: 'onnx/model.onnx', sha256: sha(onnx), size: onnx.length, source: 'test' },
      { path: 'tokenizer.json', sha256: sha(tok), size: tok.length, source: 'test' },
    ] },
    { name: 'unpinned', kind: 'cross-encoder', repo: 'org/x', revision: null, revisionSource: 'test', licence: 'test', description: 'no pins', files: [{ path: 'onnx/model.onnx', sha256: null, size: null, source: 'test' }] },
  ]));
  const env = { HF_ENDPOINT: hub.url, SPANPROOF_MODELS_DIR: join(root, 'models'), HTTPS_PROXY: '', HTTP_PROXY: '', https_proxy: '', http_proxy: '' };
  const flags = ['--catalogue', catalogue];

  let r = await runCli(['models', 'list', ...flags, '--json'], env);
  assert.equal(r.code, 0, r.stderr);
  const listed = JSON.parse(r.stdout);
  assert.equal(listed.store, join(root, 'models'));
  assert.deepEqual(listed.models.map((m: { name: string; status: string }) => [m.name, m.status]), [['tiny', 'not downloaded'], ['unpinned', 'cannot be pulled (not pinned: revision, onnx/model.onnx sha256, onnx/model.onnx size)']]);
  assert.equal(hub.requests.length, 0, 'list sends nothing');

  r = await runCli(['models', 'pull', 'tiny', ...flags], env);
  assert.equal(r.code, 0, r.stderr);
  const total = onnx.length + tok.length;
  assert.match(r.stderr.split('\n')[0], new RegExp(`^tiny: ${(total / 1e3).toFixed(1)} kB in 2 files from http://127\\.0\\.0\\.1:\\d+/org/tiny @ feed00000000 → `), 'the size comes first');
  assert.match(r.stdout, /tiny is ready in (.*models\/tiny)\nUse it: spanproof run --embedders ".*models\/tiny" {3}\(setting "embeddingModel"\)/, 'an entry of a catalogue file of your own is used by its folder');
  assert.ok(existsSync(join(root, 'models', 'tiny', 'onnx', 'model.onnx')));

  r = await runCli(['models', 'list', ...flags], env);
  assert.match(r.stdout, /^tiny +embedder +\d+\.\d kB +downloaded$/m);

  r = await runCli(['models', 'pull', 'unpinned', ...flags], env);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /^spanproof: the catalogue entry unpinned cannot be pulled: its revision, onnx\/model\.onnx sha256, onnx\/model\.onnx size are not pinned/);
  assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');

  r = await runCli(['models', 'pull', 'nope', ...flags], env);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /"nope" is not in the catalogue \(known: tiny, unpinned\)/);

  r = await runCli(['models', 'remove', 'tiny', ...flags], env);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^removed .*tiny \(\d+\.\d kB\)/);
  assert.equal(existsSync(join(root, 'models', 'tiny')), false);

  writeFileSync(catalogue, JSON.stringify([{ name: 'bad', kind: 'embedder', repo: 'org/x', revision: 'abc', revisionSource: '', licence: '', description: '', files: [] }]));
  r = await runCli(['models', 'list', ...flags], env);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /catalogue\.json: \[0\]\.revision: invalid catalogue entry: 40 hex digits\./);
});

test('the built-in catalogue: five models, every pinned entry complete, refused ones say which values are missing', () => {
  assert.deepEqual(CATALOGUE.map((e) => e.name), ['bge-small-en-v1.5', 'all-MiniLM-L6-v2', 'multilingual-e5-small', 'ms-marco-MiniLM-L-6-v2', 'bge-reranker-base']);
  for (const e of CATALOGUE) {
    assert.ok(e.revision === null || /^[0-9a-f]{40}$/.test(e.revision), e.name);
    for (const f of e.files) {
      assert.ok(f.sha256 === null || /^[0-9a-f]{64}$/.test(f.sha256), `${e.name} ${f.path}`);
      assert.ok(f.source.length > 10, `${e.name} ${f.path} names its source`);
    }
    const folderFiles = e.files.map((f) => f.saveAs ?? f.path);
    assert.ok(folderFiles.includes('onnx/model.onnx') || folderFiles.includes('model.onnx'), `${e.name} has the model where the folder loader looks`);
    assert.ok(folderFiles.includes('tokenizer.json') || folderFiles.includes('vocab.txt'), `${e.name} has a tokenizer`);
  }
});
