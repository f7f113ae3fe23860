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
import { readConfigLayer } from '../../../../src/core/settings/layers';
import { validateChunkerParams } from '../../../../src/core/chunking/params';

test('nested keys merge over the defaults; VS Code-style prefixed keys are accepted', () => {
  const s = parseRunSettings({ 'spanproof.k': 3, chunkerParams: { fixed: { size: 500 } }, bootstrap: { seed: 9 } }, 'cfg.json');
  assert.equal(s.k, 3);
  assert.deepEqual(s.chunkerParams.fixed, { size: 500, overlap: 100 });
  assert.deepEqual(s.chunkerParams.heading, DEFAULT_SETTINGS.chunkerParams.heading);
  assert.deepEqual(s.bootstrap, { resamples: 2000, seed: 9 });
});

test('a wrong value names the file and the key path', () => {
  assert.throws(() => parseRunSettings({ chunkerParams: { fixed: { size: -1 } } }, 'cfg.json'), (e: unknown) => isSpanproofError(e) && e.code === 'bad-input' && e.file === 'cfg.json' && e.field === 'chunkerParams.fixed.size');
  assert.throws(() => parseRunSettings({ retrievers: ['bm26'] }, 'cfg.json'), (e: unknown) => isSpanproofError(e) && e.field === 'retrievers[0]');
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
  assert.throws(() => parseRunSettings({ 'weights.speed': 1 }, 'settings.json'), (e: unknown) => isSpanproofError(e) && e.field === 'weights.speed');
});

test('judge keys are checked like every other key (an unknown one or a wrong type is an error)', () => {
  assert.equal(parseRunSettings({ judge: { concurrency: 8 } }).judge.concurrency, 8);
  assert.throws(() => parseRunSettings({ judge: { concurency: 8 } }, 'cfg.json'), (e: unknown) => isSpanproofError(e) && e.field === 'judge.concurency');
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

test('a settings file that is not one object (an array, null, a number), or is empty, says so — not "(root): undefined is not valid" or "a trailing comma?"', (t) => {
  const dir = tempDir('sp-settings-shape-', t);
  const file = path.join(dir, 'cfg.json');
  for (const [text, what] of [['[{"k": 3}]', 'an array'], ['null', 'null'], ['5', 'a number'], ['"k"', 'a string']]) {
    writeFileSync(file, text);
    for (const read of [readSettingsFile, readConfigLayer]) {
      assert.throws(() => read(file), (e: unknown) => isSpanproofError(e) && e.code === 'bad-input' && e.message === `${file}: a settings file holds one JSON object of settings, not ${what}. Fix: write the settings as keys of one object, e.g. {"chunkers": ["heading", "fixed"], "k": 5}.`, text);
    }
  }
  for (const text of ['', ' \n']) {
    writeFileSync(file, text);
    assert.throws(() => readConfigLayer(file), (e: unknown) => isSpanproofError(e) && e.message === `${file}: the file is empty. Fix: write its JSON content, or give the right file.`);
  }
  writeFileSync(file, 'password=hunter2\n');
  assert.throws(() => readConfigLayer(file), (e: unknown) => isSpanproofError(e) && /not valid JSON/.test(e.message) && !/hunter2/.test(e.message));
});

test('a `__proto__` key is an unknown key, not a prototype', () => {
  assert.throws(() => parseRunSettings(JSON.parse('{"__proto__": {"k": 1}}'), 'cfg.json'), (e: unknown) => isSpanproofError(e) && e.field === '__proto__');
  assert.throws(() => parseRunSettings(JSON.parse('{"weights": {"__proto__": {"quality": 3}}}'), 'cfg.json'), (e: unknown) => isSpanproofError(e) && e.field === 'weights.__proto__');
});

test('an unknown key inside a group is named by its full path, with the valid keys of that group (not the top-level list)', () => {
  const err = (input: unknown) => {
    try { parseRunSettings(input, 'cfg.json'); } catch (e) { assert.ok(isSpanproofError(e) && e.code === 'bad-input', String(e)); return e; }
    return assert.fail('no error');
  };
  const e = err({ chunkerParams: { heading: { bogus: 1 } } });
  assert.equal(e.field, 'chunkerParams.heading.bogus');
  assert.equal(e.message, 'cfg.json: chunkerParams.heading.bogus: unknown key. Fix: remove it, or use one of the keys of chunkerParams.heading: maxSize.');
  // the same key written dotted, as VS Code's settings.json does
  assert.equal(err({ 'spanproof.chunkerParams.heading.bogus': 1 }).field, 'chunkerParams.heading.bogus');
  // one level up: the chunkers of chunkerParams; at the top: the settings
  assert.match(err({ chunkerParams: { header: {} } }).fix!, /^remove it, or use one of the keys of chunkerParams: fixed, recursive, sentence, heading, semantic\.$/);
  assert.match(err({ bogus: 1 }).fix!, /^remove it, or use one of the settings: include, exclude, .*, k, poolSize, tau, .*injection\.$/);
});

test('every wrong value is reported, each with its key path, what is wrong and a fix naming the expected type or values', () => {
  let e: unknown;
  try { parseRunSettings({ k: 'five', tau: 2, retrievers: ['bm25', 'nope'], rerank: 'on', chunkerParams: { semantic: { percentile: 101 }, heading: { bogus: 1 } } }, 'cfg.json'); } catch (x) { e = x; }
  assert.ok(isSpanproofError(e) && e.code === 'bad-input');
  assert.deepEqual(e.problems?.map((p) => p.field), ['chunkerParams.heading.bogus', 'chunkerParams.semantic.percentile', 'retrievers[1]', 'rerank', 'k', 'tau']);
  assert.equal(e.field, 'chunkerParams.heading.bogus', 'field and fix are the first problem\'s');
  const fix = Object.fromEntries(e.problems!.map((p) => [p.field, p.fix]));
  // the fix says what to do — the expected type and range from the schema — never repeats the error
  assert.equal(fix.k, 'set k to a whole number ≥ 1, e.g. 5 (the default).');
  assert.equal(fix.tau, 'set tau to a number > 0 and ≤ 1, e.g. 0.9 (the default).');
  assert.equal(fix['chunkerParams.semantic.percentile'], 'set chunkerParams.semantic.percentile to a number from 0 to 100, e.g. 95 (the default).');
  assert.equal(fix.rerank, 'set rerank to a list (at least 1) of true/false values, e.g. [false,true] (the default).');
  assert.equal(fix['retrievers[1]'], 'make retrievers[1] one of "bm25", "dense", "hybrid" (retrievers is a list (at least 1) of values from "bm25", "dense", "hybrid").');
  for (const p of e.problems!) assert.ok(!p.fix.includes(p.message.replace(/\.$/, '')), `${p.field}: the fix repeats the message`);
  const what = Object.fromEntries(e.problems!.map((p) => [p.field, p.message]));
  assert.match(what.k, /^"five" is not valid \(.*expected number, received string\)\.$/);
  assert.match(what['retrievers[1]'], /^"nope" is not valid/);
  // the message: the file once, then one line per problem
  const lines = e.message.split('\n');
  assert.equal(lines[0], 'cfg.json: 6 settings are wrong:');
  assert.equal(lines.length, 7);
  assert.equal(lines[5], '  k: "five" is not valid (Invalid input: expected number, received string). Fix: set k to a whole number ≥ 1, e.g. 5 (the default).');
});

test('validateRunSettings reports every cross-key problem, a flag or a file key each', () => {
  let e: unknown;
  try { validateRunSettings({ ...DEFAULT_SETTINGS, k: 30, tau: 0, verdict: { margin: 2 } }, { file: 'cfg.json', flags: { k: '--k' } }); } catch (x) { e = x; }
  assert.ok(isSpanproofError(e) && e.code === 'bad-input');
  assert.deepEqual(e.problems?.map((p) => [p.file, p.field]), [[undefined, '--k'], ['cfg.json', 'tau'], ['cfg.json', 'verdict.margin']]);
  assert.match(e.message, /^3 settings are wrong:\n {2}--k: k \(30\) is larger .*\n {2}cfg\.json: tau is 0; .*\n {2}cfg\.json: verdict\.margin is 2; /);
});

test('validateRunSettings refuses bootstrap.resamples below 100 (B = 0 gave NaN intervals and a wrong "cheapest") and minQuoteLength > maxQuoteLength', () => {
  const err = (f: () => void) => {
    try { f(); } catch (e) { assert.ok(isSpanproofError(e) && e.code === 'bad-input', String(e)); return e; }
    assert.fail('no error');
  };
  for (const resamples of [0, 1, 99]) {
    const e = err(() => validateRunSettings({ ...DEFAULT_SETTINGS, bootstrap: { ...DEFAULT_SETTINGS.bootstrap, resamples } }, { file: 'cfg.json' }));
    assert.equal(e.field, 'bootstrap.resamples');
    assert.equal(e.file, 'cfg.json');
    assert.match(e.message, new RegExp(`bootstrap\\.resamples is ${resamples}; the verdict's 95% intervals and p-values need at least 100 resamples`));
    assert.equal(e.fix, 'set bootstrap.resamples to 2000 (the default) or at least 100.');
  }
  validateRunSettings({ ...DEFAULT_SETTINGS, bootstrap: { ...DEFAULT_SETTINGS.bootstrap, resamples: 100 } });
  const q = err(() => validateRunSettings({ ...DEFAULT_SETTINGS, minQuoteLength: 50, maxQuoteLength: 40 }, { file: 'cfg.json' }));
  assert.equal(q.field, 'minQuoteLength');
  assert.match(q.message, /minQuoteLength \(50\) is larger than maxQuoteLength \(40\), so every quote would be rejected/);
  validateRunSettings({ ...DEFAULT_SETTINGS, minQuoteLength: 40, maxQuoteLength: 40 });
});

test('threads and bootstrap.resamples have an upper bound: a workspace file cannot ask for 1000 ONNX threads (a hang deaf to Ctrl-C; 100000 took 16 GB) or 10⁸ resamples (V8 out of memory, exit 134)', () => {
  const fixOf = (input: unknown) => {
    try { parseRunSettings(input, 'cfg.json'); } catch (e) { assert.ok(isSpanproofError(e) && e.code === 'bad-input', String(e)); return [e.field, e.fix]; }
    return assert.fail(`no error for ${JSON.stringify(input)}`);
  };
  for (const threads of [65, 1000, 100000]) assert.deepEqual(fixOf({ threads }), ['threads', 'set threads to a whole number from 1 to 64, e.g. 2 (the default).']);
  assert.equal(parseRunSettings({ threads: 64 }).threads, 64);
  for (const resamples of [100001, 1e8]) assert.deepEqual(fixOf({ bootstrap: { resamples } }), ['bootstrap.resamples', 'set bootstrap.resamples to a whole number from 100 to 100000, e.g. 2000 (the default).']);
  assert.equal(parseRunSettings({ bootstrap: { resamples: 100000 } }).bootstrap.resamples, 100000);
});

test('a number too large for a double (1e400) is shown as Infinity, not null', () => {
  try { parseRunSettings(JSON.parse('{"k": 1e400, "tau": -1e400}'), 'cfg.json'); } catch (e) {
    assert.ok(isSpanproofError(e));
    assert.deepEqual(e.problems?.map((p) => p.message.split(' (')[0]), ['Infinity is not valid', '-Infinity is not valid']);
    return;
  }
  assert.fail('no error');
});

test('semantic.windowSentences is at most 20 (3000 took a 200 kB document from 0.5 s to 25 s and 770 MB: every window is the whole text) and every timeoutMs at most setTimeout\'s 2147483647 ms (more fires after 1 ms)', () => {
  const fixOf = (input: unknown) => {
    try { parseRunSettings(input, 'cfg.json'); } catch (e) { assert.ok(isSpanproofError(e) && e.code === 'bad-input', String(e)); return [e.field, e.fix]; }
    return assert.fail(`no error for ${JSON.stringify(input)}`);
  };
  assert.deepEqual(fixOf({ chunkerParams: { semantic: { windowSentences: 21 } } }), ['chunkerParams.semantic.windowSentences', 'set chunkerParams.semantic.windowSentences to a whole number from 0 to 20, e.g. 1 (the default).']);
  assert.equal(parseRunSettings({ chunkerParams: { semantic: { windowSentences: 20 } } }).chunkerParams.semantic.windowSentences, 20);
  for (const group of ['modelEndpoint', 'external', 'judge'] as const) {
    const [field, fix] = fixOf({ [group]: { timeoutMs: 2 ** 31 } });
    assert.equal(field, `${group}.timeoutMs`);
    assert.match(fix!, /to a whole number from 1 to 2147483647, e\.g\. /);
  }
  assert.equal(fixOf({ external: { totalTimeoutMs: 3e9 } })[0], 'external.totalTimeoutMs');
  assert.equal(parseRunSettings({ judge: { timeoutMs: 2 ** 31 - 1 } }).judge.timeoutMs, 2 ** 31 - 1);
});

test('an include/exclude glob over the limits of globProblem (exponential matching, #16 N2) is bad-input naming spanproof.include[i] with a fix', () => {
  const input = { 'spanproof.include': ['**/*.md', `**/${'x'.repeat(1000)}`], 'spanproof.exclude': ['{a,b}'.repeat(11)] };
  try {
    parseRunSettings(input, '.vscode/settings.json', 'spanproof.');
  } catch (e) {
    assert.ok(isSpanproofError(e) && e.code === 'bad-input' && e.file === '.vscode/settings.json', String(e));
    assert.deepEqual(e.problems?.map((p) => p.field), ['spanproof.include[1]', 'spanproof.exclude[0]']);
    assert.match(e.problems![0].message, /^"\*\*\/xxx.*… is not valid \(the glob is 1003 characters long; at most 1000\)\./);
    assert.match(e.problems![1].message, /expands to more than 1024 patterns/);
    assert.match(e.problems![0].fix, /^simplify the glob: /);
    return;
  }
  assert.fail('no error');
});

test('a leading ! in include (a negation: tinyglobby read it as an exclusion, picomatch as "every other file") is bad-input with a fix moving it to exclude', () => {
  assert.throws(() => parseRunSettings({ include: ['**/*.md', '!docs/**'] }, 'cfg.json'), (e: unknown) => isSpanproofError(e) && e.code === 'bad-input' && e.field === 'include[1]'
    && /"!docs\/\*\*" is not valid \(the glob starts with "!", a negation/.test(e.message) && /^remove the leading "!" and put the glob in exclude/.test(e.fix ?? ''));
});

test('a chunk size has one lower bound, 2, said the same by the settings check and the chunker check (#16 N10a: "≥ 1" and "≥ 2")', () => {
  const said = (f: () => unknown): string => {
    try {
      f();
    } catch (e) {
      assert.ok(isSpanproofError(e) && e.code === 'bad-input', String(e));
      return e.fix ?? '';
    }
    return assert.fail('expected bad-input');
  };
  for (const [chunker, key] of [['fixed', 'size'], ['recursive', 'size'], ['sentence', 'size'], ['heading', 'maxSize'], ['semantic', 'maxSize']] as const) {
    // 0 and 1 are refused alike; before, 0 said "≥ 1" (the settings schema) and 1 said "≥ 2" (the chunker)
    for (const v of [0, 1]) {
      const fix = said(() => validateRunSettings(parseRunSettings({ chunkers: [chunker], chunkerParams: { [chunker]: { [key]: v, ...(key === 'size' && chunker !== 'sentence' ? { overlap: 0 } : {}) } } }, 'cfg.json')));
      assert.match(fix, new RegExp(`^set chunkerParams\\.${chunker}\\.${key} to a whole number ≥ 2\\b`), `${chunker}.${key} = ${v}: ${fix}`);
    }
    const p = { ...DEFAULT_SETTINGS.chunkerParams, [chunker]: { ...DEFAULT_SETTINGS.chunkerParams[chunker], [key]: 1 } };
    assert.equal(said(() => validateChunkerParams(chunker, p)), `set chunkerParams.${chunker}.${key} to a whole number ≥ 2.`);
  }
});

test('retries are at most 10, concurrency at most 64 and draft.count at most 1000 — a cloned folder asked for 10⁹ retries (a dead endpoint retried for as long as the run lived) and 10⁶ sockets at once', () => {
  const fixOf = (input: unknown) => {
    try { parseRunSettings(input, 'cfg.json'); } catch (e) { assert.ok(isSpanproofError(e) && e.code === 'bad-input', String(e)); return [e.field, e.fix]; }
    return assert.fail(`no error for ${JSON.stringify(input)}`);
  };
  for (const group of ['modelEndpoint', 'external', 'judge'] as const) {
    assert.deepEqual(fixOf({ [group]: { retries: 1e9 } })[0], `${group}.retries`);
    assert.match(fixOf({ [group]: { retries: 11 } })[1]!, /to a whole number from 0 to 10, e\.g\. \d \(the default\)\.$/);
    assert.equal(parseRunSettings({ [group]: { retries: 10 } })[group].retries, 10);
    assert.match(fixOf({ [group]: { concurrency: 65 } })[1]!, /to a whole number from 1 to 64, e\.g\. 4 \(the default\)\.$/);
    assert.equal(parseRunSettings({ [group]: { concurrency: 64 } })[group].concurrency, 64);
  }
  assert.deepEqual(fixOf({ draft: { count: 1001 } }), ['draft.count', 'set draft.count to a whole number from 1 to 1000, e.g. 20 (the default).']);
  assert.equal(parseRunSettings({ draft: { count: 1000 } }).draft.count, 1000);
});
