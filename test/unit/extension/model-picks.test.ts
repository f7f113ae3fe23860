// "Select Embedding Model…" choices (src/extension/modelPicks.ts, pure): built-ins with the default and
// the current one marked, catalogue embedders offered for download with their size until pulled, an
// entry without pins shown as not available (never offered), endpoint and folder choices.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { embeddingModelPicks } from '../../../src/extension/modelPicks';
import type { CatalogueEntry } from '../../../src/core/models/catalogue';
import { tempDir } from '../../helpers/tmp';

const REV = 'a'.repeat(40);
const entry = (name: string, pinned: boolean): CatalogueEntry => ({
  name, kind: 'embedder', repo: `org/${name}`, revision: REV, revisionSource: 't', licence: 't', description: `${name} model`,
  files: [{ path: 'onnx/model.onnx', sha256: pinned ? 'b'.repeat(64) : null, size: pinned ? 2_500_000 : null, source: 't' }],
});
const CAT = [entry('pulled-one', true), entry('remote-one', true), entry('unpinned-one', false), { ...entry('a-reranker', true), kind: 'cross-encoder' as const }];

test('built-ins, catalogue (downloaded / download size / not available), endpoint and folder', (t) => {
  const store = tempDir('sp-picks-', t);
  mkdirSync(join(store, 'pulled-one'));
  writeFileSync(join(store, 'pulled-one', 'spanproof-model.json'), JSON.stringify({ name: 'pulled-one', revision: REV, files: [] }));
  const picks = embeddingModelPicks('pulled-one', store, CAT);
  const row = (label: string) => picks.find((p) => p.label === label || p.label.endsWith(` ${label}`));
  assert.equal(row('static-glove')?.description, 'default');
  assert.deepEqual(row('static-glove')?.action, { kind: 'set', value: 'static-glove' });
  assert.equal(row('pulled-one')?.description, 'current');
  assert.deepEqual(row('pulled-one')?.action, { kind: 'set', value: 'pulled-one' });
  assert.equal(row('remote-one')?.label, '$(cloud-download) remote-one');
  assert.equal(row('remote-one')?.description, 'download 2.5 MB');
  assert.deepEqual(row('remote-one')?.action, { kind: 'pull', name: 'remote-one' });
  assert.equal(row('unpinned-one')?.description, 'not available');
  assert.match((row('unpinned-one')?.action as { reason: string }).reason, /onnx\/model\.onnx sha256, onnx\/model\.onnx size could not be pinned/);
  assert.equal(row('a-reranker'), undefined, 'cross-encoders are not embedders');
  assert.deepEqual(picks.filter((p) => p.action.kind === 'endpoint' || p.action.kind === 'folder').map((p) => p.label), ['Endpoint model…', 'Model folder…']);

  const byEndpoint = embeddingModelPicks('endpoint:text-embedding-3-small', store, CAT);
  assert.equal(byEndpoint.find((p) => p.action.kind === 'endpoint')?.description, 'current: endpoint:text-embedding-3-small');
  assert.equal(byEndpoint.find((p) => p.label === 'static-glove')?.description, 'default');
  const byFolder = embeddingModelPicks('/models/mine', store, CAT);
  assert.equal(byFolder.find((p) => p.action.kind === 'folder')?.description, 'current: /models/mine');
  assert.equal(embeddingModelPicks('', store, CAT).find((p) => p.label === 'static-glove')?.description, 'current');
});
