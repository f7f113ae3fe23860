/** parseRunSettings: defaults merged per nested key, the `spanproof.` prefix accepted, errors name the key. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { coerceRunSettings, parseRunSettings, readSettingsFile, validateRunSettings, withoutRestricted } from '../../../../src/core/settings';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { tempDir } from '../../../helpers/tmp';
import { planConfigs } from '../../../../src/core/grid/plan';
import { DEFAULT_SETTINGS } from '../../../../src/core/settings';
import { isSpanproofError } from '../../../../src/core/errors';

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

test('validateRunSettings catches mistakes before a run: chunker params, k > poolSize, weights, tau, k — naming file or flag, key and fix', () => {
  const cfg = (over: object) => parseRunSettings(over, 'cfg.json');
  const err = (f: () => void) => {
    try { f(); } catch (e) { assert.ok(isSpanproofError(e) && e.code === 'bad-input', String(e)); return e; }
    assert.fail('no error');
  };
  // fixed overlap 200 ≥ size 100 (validateChunkerParams), only for a selected chunker.
  const bad = cfg({ chunkerParams: { fixed: { size: 100, overlap: 200 } } });
  const e1 = err(() => validateRunSettings(bad, { file: 'cfg.json' }));
  assert.equal(e1.file, 'cfg.json');
  assert.equal(e1.field, 'chunkerParams.fixed.overlap');
  assert.equal(e1.message, 'cfg.json: chunkerParams.fixed.overlap: chunker parameter is 200; it must be smaller than fixed.size (100). Fix: set chunkerParams.fixed.overlap to smaller than fixed.size (100).');
  validateRunSettings({ ...bad, chunkers: ['heading'] }, { file: 'cfg.json' });
  // k > poolSize: the flag is named when k came from --k, the key otherwise.
  const e2 = err(() => validateRunSettings({ ...DEFAULT_SETTINGS, k: 30 }, { file: 'cfg.json', flags: { k: '--k' } }));
  assert.equal(e2.field, '--k');
  assert.equal(e2.file, undefined);
  assert.match(e2.message, /k \(30\) is larger than the candidate pool poolSize \(20\).*Fix: lower --k to at most 20, or raise poolSize to at least 30\./);
  const e3 = err(() => validateRunSettings(cfg({ poolSize: 3 }), { file: 'cfg.json' }));
  assert.equal(e3.file, 'cfg.json');
  assert.match(e3.message, /Fix: lower k to at most 3, or raise poolSize to at least 5\./);
  // Per-key rules reach settings that did not come through the schema (the extension's host).
  assert.equal(err(() => validateRunSettings({ ...DEFAULT_SETTINGS, tau: 0 })).field, 'tau');
  assert.equal(err(() => validateRunSettings({ ...DEFAULT_SETTINGS, k: 0 })).field, 'k');
  assert.equal(err(() => validateRunSettings({ ...DEFAULT_SETTINGS, weights: { quality: 1, latency: -0.1, context: 0 } })).field, 'weights.latency');
  // …and the schema itself refuses a negative weight in a --config file.
  assert.equal(err(() => cfg({ weights: { context: -1 } })).field, 'weights.context');
  validateRunSettings(DEFAULT_SETTINGS);
});

test('VS Code settings.json keys are accepted as written: `spanproof.` prefix and dotted leaves', () => {
  const s = parseRunSettings({ 'spanproof.weights.quality': 0.5, 'chunkerParams.fixed.size': 300, 'spanproof.chunkerParams': { fixed: { overlap: 20 } } }, 'settings.json');
  assert.deepEqual(s.weights, { quality: 0.5, latency: 0, context: 0.1 });
  assert.deepEqual(s.chunkerParams.fixed, { size: 300, overlap: 20 });
  assert.throws(() => parseRunSettings({ 'weights.speed': 1 }, 'settings.json'), (e: unknown) => isSpanproofError(e) && e.field === 'speed');
});

test('judge keys are checked like every other key (an unknown one or a wrong type is an error)', () => {
  assert.equal(parseRunSettings({ judge: { concurrency: 8 } }).judge.concurrency, 8);
  assert.throws(() => parseRunSettings({ judge: { concurency: 8 } }, 'cfg.json'), (e: unknown) => isSpanproofError(e) && e.field === 'concurency');
  assert.throws(() => parseRunSettings({ judge: { timeoutMs: '60s' } }, 'cfg.json'), (e: unknown) => isSpanproofError(e) && e.field === 'judge.timeoutMs');
});

test('coerceRunSettings (the editor): a value of the wrong JSON type falls back to its default and is reported; a value of the right type is kept for the strict check', () => {
  const { settings, rejected } = coerceRunSettings({ k: 'five', tau: 0, chunkers: ['heading', 'bogus'], weights: { quality: 2, latency: 'x' }, unknownKey: 1 });
  assert.equal(settings.k, 5);
  assert.equal(settings.tau, 0, 'kept: validateRunSettings names it when the run starts');
  assert.deepEqual(settings.chunkers, ['heading', 'bogus']);
  assert.deepEqual(settings.weights, { quality: 2, latency: 0, context: 0.1 });
  assert.deepEqual(rejected.map((r) => r.key), ['k', 'weights.latency']);
  assert.deepEqual(Object.keys(settings), Object.keys(DEFAULT_SETTINGS));
  assert.deepEqual(coerceRunSettings({}).settings, DEFAULT_SETTINGS);
});

test('withoutRestricted resets the model folders and the judge endpoint and models (schema `restricted`) and nothing else', () => {
  const s = parseRunSettings({ embeddingModel: 'models/e5', rerankerModel: 'models/ce', k: 7, judge: { endpoint: 'http://127.0.0.1:9', generatorModel: 'g', judgeModel: 'j', concurrency: 2 } });
  const t = withoutRestricted(s);
  assert.equal(t.embeddingModel, '');
  assert.equal(t.rerankerModel, '');
  assert.deepEqual(t.judge, { ...s.judge, endpoint: '', generatorModel: '', judgeModel: '' });
  assert.equal(t.k, 7);
  assert.equal(s.embeddingModel, 'models/e5', 'the input is not changed');
});

test('readSettingsFile: a missing file is not-found, bad JSON and a bad key are bad-input naming the file', (t) => {
  const dir = tempDir('sp-settings-', t);
  const file = path.join(dir, 'cfg.json');
  assert.throws(() => readSettingsFile(file), (e: unknown) => isSpanproofError(e) && e.code === 'not-found' && e.file === file);
  writeFileSync(file, '{"k": 3,}');
  assert.throws(() => readSettingsFile(file), (e: unknown) => isSpanproofError(e) && e.code === 'bad-input' && /not valid JSON/.test(e.message));
  writeFileSync(file, '{"k": 3, "kk": 1}');
  assert.throws(() => readSettingsFile(file), (e: unknown) => isSpanproofError(e) && e.code === 'bad-input' && e.field === 'kk');
  writeFileSync(file, '{"k": 3}');
  assert.equal(readSettingsFile(file).k, 3);
});

test('a `__proto__` key is an unknown key, not a prototype', () => {
  assert.throws(() => parseRunSettings(JSON.parse('{"__proto__": {"k": 1}}'), 'cfg.json'), (e: unknown) => isSpanproofError(e) && e.field === '__proto__');
  assert.throws(() => parseRunSettings(JSON.parse('{"weights": {"__proto__": {"quality": 3}}}'), 'cfg.json'), (e: unknown) => isSpanproofError(e) && e.field === '__proto__');
});
