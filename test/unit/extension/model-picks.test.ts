// "Select Embedding Model…" choices (src/extension/modelPicks.ts, pure): built-ins with the default and
// the current one marked, catalogue embedders offered for download with their size until pulled, an
// entry without pins shown as not available (never offered), endpoint and folder choices; then "Use
// only" or "Add to the grid", the embedders/embeddingModel values that result (the schema's rule:
// embedders empty ⇒ embeddingModel is the single embedder) and the scope they are written at.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { embedderChangeChoices, embedderTarget, embeddersAfterPick, embeddingModelPicks, gridEmbedders, valueToWrite } from '../../../src/extension/modelPicks';
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

test('the picker marks every embedder of the grid', (t) => {
  const store = tempDir('sp-picks-', t);
  const picks = embeddingModelPicks(['use-lite', 'endpoint:e5', '/models/mine'], store, CAT);
  assert.equal(picks.find((p) => p.label === 'use-lite')?.description, 'in the grid');
  assert.equal(picks.find((p) => p.label === 'static-glove')?.description, 'default');
  assert.equal(picks.find((p) => p.action.kind === 'endpoint')?.description, 'in the grid: endpoint:e5');
  assert.equal(picks.find((p) => p.action.kind === 'folder')?.description, 'in the grid: /models/mine');
});

test('Use only / Add to the grid: the choices offered and the settings each writes', () => {
  const none = { embedders: [], embeddingModel: '' };
  assert.deepEqual(gridEmbedders(none), ['static-glove'], 'empty embeddingModel = the default built-in');
  // One embedder today: "Use only" first (what Select means), "Add" second.
  assert.deepEqual(embedderChangeChoices(none, 'use-lite').map((c) => [c.change, c.label]), [['replace', 'Use only use-lite'], ['add', 'Add use-lite to the grid']]);
  assert.match(embedderChangeChoices(none, 'use-lite')[1].detail, /compares static-glove, use-lite side by side, paired per question/);
  assert.deepEqual(embeddersAfterPick(none, 'use-lite', 'replace'), { embedders: [], embeddingModel: 'use-lite' });
  assert.deepEqual(embeddersAfterPick(none, 'use-lite', 'add'), { embedders: ['static-glove', 'use-lite'], embeddingModel: '' }, 'the default becomes an explicit entry; embeddingModel cleared (ignored once embedders is set)');
  const single = { embedders: [], embeddingModel: 'endpoint:text-embedding-3-small' };
  assert.deepEqual(embeddersAfterPick(single, 'use-lite', 'add'), { embedders: ['endpoint:text-embedding-3-small', 'use-lite'], embeddingModel: '' });
  assert.deepEqual(embedderChangeChoices(single, 'endpoint:text-embedding-3-small'), [], 'already the one embedder: nothing to choose');
  assert.deepEqual(embedderChangeChoices({ embedders: ['static-glove'], embeddingModel: '' }, ''), [], '"" is the default built-in, already the one');
  // Several embedders: the user is comparing, "Add" first; a model already listed can only be used alone.
  const two = { embedders: ['use-lite', 'static-glove'], embeddingModel: 'ignored' };
  assert.deepEqual(embedderChangeChoices(two, 'bge-small-en-v1.5').map((c) => c.change), ['add', 'replace']);
  assert.deepEqual(embedderChangeChoices(two, 'use-lite').map((c) => c.change), ['replace']);
  assert.deepEqual(embeddersAfterPick(two, 'bge-small-en-v1.5', 'add'), { embedders: ['use-lite', 'static-glove', 'bge-small-en-v1.5'], embeddingModel: '' });
  assert.deepEqual(embeddersAfterPick(two, 'use-lite', 'replace'), { embedders: [], embeddingModel: 'use-lite' });
  assert.deepEqual(embeddersAfterPick(two, ' use-lite ', 'add'), { problem: 'use-lite is already in the grid.' });
  assert.deepEqual(embeddersAfterPick({ embedders: ['/a/mine', 'use-lite'], embeddingModel: '' }, '/b/mine', 'add'), { problem: '"/b/mine" and "/a/mine" would both be named mine in config ids: give the model folders distinct names.' });
});

test('the scope written: where the embedders are set (folder), else the workspace; a value the outer scopes give is removed, not copied', () => {
  assert.equal(embedderTarget([{ defaultValue: [], globalValue: ['use-lite'] }, { defaultValue: '' }], true), 'workspace');
  assert.equal(embedderTarget([{ defaultValue: [] }, { defaultValue: '', workspaceFolderValue: 'use-lite' }], true), 'folder');
  assert.equal(embedderTarget([{ defaultValue: [] }, { defaultValue: '' }], false), 'user', 'no folder open: user settings');
  assert.equal(valueToWrite([], { defaultValue: [], workspaceValue: ['a', 'b'] }, 'workspace'), undefined, 'removing the workspace list gives the default []');
  assert.deepEqual(valueToWrite([], { defaultValue: [], globalValue: ['a', 'b'] }, 'workspace'), [], 'a user-level list is overridden with an explicit []');
  assert.equal(valueToWrite('', { defaultValue: '', workspaceValue: 'x' }, 'folder'), '', 'the folder must override the workspace value');
  assert.equal(valueToWrite('use-lite', { defaultValue: '', globalValue: 'use-lite' }, 'workspace'), undefined);
  assert.equal(valueToWrite('use-lite', { defaultValue: '' }, 'user'), 'use-lite');
});
