// The embedder registry: entry parsing, config-id names, duplicates, report descriptions, loading by kind.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SpanproofError } from '../../../../src/core/errors';
import { BUILTIN_EMBEDDERS, DEFAULT_EMBEDDER, describeEmbedder, embedderFromSetting, embedderName, parseEmbedderList, parseEmbedderSpec } from '../../../../src/core/models/embedderSpec';
import { loadEmbedder } from '../../../../src/core/models/registry';

test('parseEmbedderSpec: built-in names, endpoint:<model>, else a folder', () => {
  assert.deepEqual(parseEmbedderSpec(' use-lite '), { kind: 'builtin', name: 'use-lite' });
  assert.deepEqual(parseEmbedderSpec('static-glove'), { kind: 'builtin', name: 'static-glove' });
  assert.deepEqual(parseEmbedderSpec('endpoint:BAAI/bge-small-en-v1.5'), { kind: 'endpoint', model: 'BAAI/bge-small-en-v1.5' });
  assert.deepEqual(parseEmbedderSpec('./use-lite'), { kind: 'folder', path: './use-lite' });
  assert.deepEqual(parseEmbedderSpec('models/bge-small'), { kind: 'folder', path: 'models/bge-small' });
  for (const bad of ['', '  ', 'endpoint:', 'endpoint:  ']) {
    assert.throws(() => parseEmbedderSpec(bad), (e: unknown) => e instanceof SpanproofError && e.code === 'bad-input' && e.field === 'embedders', JSON.stringify(bad));
  }
});

test('embedderName: usable inside config ids (no "/")', () => {
  assert.equal(embedderName({ kind: 'builtin', name: 'use-lite' }), 'use-lite');
  assert.equal(embedderName({ kind: 'folder', path: 'models/bge-small/' }), 'bge-small');
  assert.equal(embedderName({ kind: 'endpoint', model: 'BAAI/bge-small-en-v1.5' }), 'endpoint:BAAI_bge-small-en-v1.5');
});

test('parseEmbedderList: an empty list or two entries with one name are errors naming both', () => {
  assert.equal(parseEmbedderList(['use-lite', 'static-glove']).length, 2);
  assert.throws(() => parseEmbedderList([]), (e: unknown) => e instanceof SpanproofError && e.code === 'bad-input');
  assert.throws(
    () => parseEmbedderList(['a/bge', 'b/bge']),
    (e: unknown) => e instanceof SpanproofError && e.message.includes('"a/bge"') && e.message.includes('"b/bge"') && e.message.includes('bge'),
  );
});

test('describeEmbedder: every built-in says it is a small general model; the setting "" is the default', () => {
  for (const name of Object.keys(BUILTIN_EMBEDDERS) as (keyof typeof BUILTIN_EMBEDDERS)[]) {
    assert.match(describeEmbedder({ kind: 'builtin', name }), new RegExp(`^${name}: .*small general`));
  }
  assert.deepEqual(embedderFromSetting(''), { kind: 'builtin', name: DEFAULT_EMBEDDER });
  assert.deepEqual(embedderFromSetting('use-lite'), { kind: 'builtin', name: 'use-lite' });
});

test('loadEmbedder: a missing folder is not-found; an endpoint without a registered loader is a clear error', async () => {
  await assert.rejects(loadEmbedder({ kind: 'folder', path: 'no/such/model' }, { threads: 1, baseDir: '/nonexistent-base' }), (e: unknown) => e instanceof SpanproofError && e.code === 'not-found');
  await assert.rejects(loadEmbedder({ kind: 'endpoint', model: 'm' }, { threads: 1 }), (e: unknown) => e instanceof SpanproofError && /endpoint/i.test(e.message));
});
