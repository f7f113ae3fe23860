/** parseRunSettings: defaults merged per nested key, the `spanproof.` prefix accepted, errors name the key. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseRunSettings } from '../../../src/core/grid/settings';
import { planConfigs } from '../../../src/core/grid/plan';
import { DEFAULT_SETTINGS } from '../../../src/shared/settings';
import { isSpanproofError } from '../../../src/core/errors';

test('nested keys merge over the defaults; VS Code-style prefixed keys are accepted', () => {
  const s = parseRunSettings({ 'spanproof.k': 3, chunkerParams: { fixed: { size: 500 } }, bootstrap: { seed: 9 } }, 'cfg.json');
  assert.equal(s.k, 3);
  assert.deepEqual(s.chunkerParams.fixed, { size: 500, overlap: 100 });
  assert.deepEqual(s.chunkerParams.heading, DEFAULT_SETTINGS.chunkerParams.heading);
  assert.deepEqual(s.bootstrap, { resamples: 2000, seed: 9 });
});

test('a wrong value names the file and the key path', () => {
  assert.throws(() => parseRunSettings({ chunkerParams: { fixed: { size: -1 } } }, 'cfg.json'), (e: unknown) => isSpanproofError(e) && e.code === 'bad-input' && e.file === 'cfg.json' && e.field === 'chunkerParams.fixed.size');
  assert.throws(() => parseRunSettings({ retrievers: ['bm26'] }, 'cfg.json'), (e: unknown) => isSpanproofError(e) && e.field === 'retrievers.0');
});

test('the default grid is 30 configs named <chunker>/<retriever>/<rerank|none>', () => {
  const c = planConfigs(DEFAULT_SETTINGS);
  assert.equal(c.length, 5 * 3 * 2);
  assert.equal(new Set(c.map((x) => x.id)).size, 30);
  assert.deepEqual(c.slice(0, 2).map((x) => x.id), ['fixed/bm25/none', 'fixed/bm25/rerank']);
});
