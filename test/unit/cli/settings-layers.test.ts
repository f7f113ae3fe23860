/**
 * #16 item 19: the CLI reads the workspace's `.vscode/settings.json` `spanproof.*` keys (JSONC) so the
 * editor and the CLI give the same grid on one folder; `--config` and flags win; restricted keys
 * (model folders, endpoints) are never taken from a workspace file; `--explain-settings` says where each
 * value came from. Also #16 item 20: a trailing comma in a --config or ground-truth file gets its line
 * and column.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'jsonc-parser';
import { resolveCliSettings } from '../../../src/cli/commands/run';
import { coerceRunSettings, ignoredSettingNote, withoutRestricted } from '../../../src/core/settings';
import { planConfigs } from '../../../src/core/grid/plan';
import { parseGroundTruth } from '../../../src/core/groundtruth/schema';
import { isSpanproofError } from '../../../src/core/errors';
import { runCli } from '../../helpers/cli';
import { tempDir } from '../../helpers/tmp';

const SETTINGS = `{
  // the editor's own settings are not ours
  "editor.fontSize": 14,
  "spanproof.chunkers": ["fixed", "heading"],
  "spanproof.retrievers": ["bm25"],
  "spanproof.k": 3,
  "spanproof.chunkerParams.fixed.size": 300,
  /* a crafted folder must not choose where the API key goes */
  "spanproof.judge.endpoint": "http://127.0.0.1:9/steal",
  "spanproof.embeddingModel": "../../elsewhere/model",
}
`;

function workspace(t: { after(fn: () => void): void }, settings = SETTINGS): string {
  const ws = tempDir('spanproof-vscode-settings-', t);
  mkdirSync(join(ws, '.vscode'));
  writeFileSync(join(ws, '.vscode', 'settings.json'), settings);
  return ws;
}

test('the CLI takes spanproof.* from .vscode/settings.json (JSONC) and plans the grid the editor plans', (t) => {
  const ws = workspace(t);
  const cli = resolveCliSettings({ workspace: ws }, true);
  assert.deepEqual(cli.settings.chunkers, ['fixed', 'heading']);
  assert.deepEqual(cli.settings.retrievers, ['bm25']);
  assert.equal(cli.settings.k, 3);
  assert.equal(cli.settings.chunkerParams.fixed.size, 300);
  // the editor: VS Code's parsed settings, read leniently; untrusted → restricted keys at their defaults
  const editor = withoutRestricted(coerceRunSettings(parse(SETTINGS, [], { allowTrailingComma: true })).settings);
  assert.deepEqual(cli.settings, editor);
  assert.deepEqual(planConfigs(cli.settings).map((c) => c.id), planConfigs(editor).map((c) => c.id));
  // restricted keys are never taken from the workspace file, and say so
  assert.equal(cli.settings.judge.endpoint, '');
  assert.equal(cli.settings.embeddingModel, '');
  assert.deepEqual(cli.ignored.map((i) => i.key).sort(), ['spanproof.embeddingModel', 'spanproof.judge.endpoint']);
});

test('--config and flags win over .vscode/settings.json, key by key', (t) => {
  const ws = workspace(t);
  const config = join(ws, 'config.json');
  writeFileSync(config, JSON.stringify({ k: 4, chunkerParams: { fixed: { overlap: 20 } } }));
  const r = resolveCliSettings({ workspace: ws, config, tau: '0.8' }, true);
  assert.equal(r.settings.k, 4);
  assert.equal(r.settings.chunkerParams.fixed.size, 300, 'settings.json value kept where --config is silent');
  assert.equal(r.settings.chunkerParams.fixed.overlap, 20);
  assert.equal(r.settings.tau, 0.8);
  const from = Object.fromEntries(r.origins.map((o) => [o.key, o.from]));
  assert.equal(from.k, config);
  assert.equal(from['chunkerParams.fixed.size'], join(ws, '.vscode', 'settings.json'));
  assert.equal(from.tau, '--tau');
  assert.equal(from.poolSize, 'default');
  assert.equal(resolveCliSettings({ workspace: ws, config, k: '2' }, true).settings.k, 2);
});

test('a bad value or a syntax error in .vscode/settings.json is bad input naming the file and the key as written there (spanproof.k) or the line', (t) => {
  const bad = workspace(t, '{ "spanproof.k": "five" }');
  assert.throws(() => resolveCliSettings({ workspace: bad }, true), (e: unknown) => isSpanproofError(e) && e.code === 'bad-input' && e.file === join(bad, '.vscode', 'settings.json') && e.field === 'spanproof.k' && /Fix: set spanproof\.k to a whole number/.test(e.message));
  const nested = workspace(t, '{ "spanproof.chunkerParams": { "fixed": { "size": -1 } } }');
  assert.throws(() => resolveCliSettings({ workspace: nested }, true), (e: unknown) => isSpanproofError(e) && e.field === 'spanproof.chunkerParams.fixed.size' && /Fix: set spanproof\.chunkerParams\.fixed\.size to /.test(e.message));
  // the same key in a --config file is spelled as there: k
  const config = join(bad, 'config.json');
  writeFileSync(config, '{ "k": "five" }');
  assert.throws(() => resolveCliSettings({ workspace: workspace(t, '{}'), config }, true), (e: unknown) => isSpanproofError(e) && e.field === 'k' && /Fix: set k to /.test(e.message));
  const broken = workspace(t, '{\n  "spanproof.k": 3\n  "spanproof.tau": 0.5\n}');
  assert.throws(() => resolveCliSettings({ workspace: broken }, true), (e: unknown) => isSpanproofError(e) && e.field === 'line 3, column 3' && /comma expected/.test(e.message));
});

test('.vscode/settings.json: an empty file is no settings (VS Code accepts it); a folder in its place is bad input naming the file, not a crash; a syntax error\'s fix does not offer --config', async (t) => {
  for (const empty of ['', '\n  \n', '\uFEFF']) {
    const ws = workspace(t, empty);
    const r = resolveCliSettings({ workspace: ws }, true);
    assert.equal(r.settings.k, resolveCliSettings({ workspace: tempDir('spanproof-no-settings-', t) }, true).settings.k);
    assert.ok(r.origins.every((o) => o.from !== join(ws, '.vscode', 'settings.json')), JSON.stringify(empty));
  }
  const dir = tempDir('spanproof-settings-dir-', t);
  mkdirSync(join(dir, '.vscode', 'settings.json'), { recursive: true });
  assert.throws(() => resolveCliSettings({ workspace: dir }, true), (e: unknown) => isSpanproofError(e) && e.code === 'bad-input' && e.file === join(dir, '.vscode', 'settings.json') && /it is a folder/.test(e.message));
  const r = await runCli(['chunks', '--workspace', dir, '--out', join(dir, 'x.jsonl')]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /cannot read the workspace settings file: it is a folder/);
  assert.doesNotMatch(r.stderr, /internal error|\n\s+at /);
  const broken = workspace(t, '{\n  "spanproof.k": 3\n  "spanproof.tau": 0.5\n}');
  assert.throws(() => resolveCliSettings({ workspace: broken }, true), (e: unknown) => isSpanproofError(e) && !!e.fix && !/--config/.test(e.fix) && /line and column/.test(e.fix));
});

test('spanproof run --explain-settings says where each setting came from, and runs nothing', async (t) => {
  const ws = workspace(t);
  const r = await runCli(['run', '--workspace', ws, '--explain-settings', '--k', '2']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^chunkers +\["fixed","heading"\] +← .*\.vscode\/settings\.json$/m);
  assert.match(r.stdout, /^k +2 +← --k$/m);
  assert.match(r.stdout, /^poolSize +\d+ +← default$/m);
  assert.match(r.stdout, /^judge\.endpoint +\(not used from \.vscode\/settings\.json: .*--config or flags/m);
});

test('a trailing comma gets a line and column: --config file and ground-truth file (#16 item 20)', (t) => {
  const ws = tempDir('spanproof-trailing-comma-', t);
  const config = join(ws, 'config.json');
  writeFileSync(config, '{\n  "chunkers": ["fixed",],\n  "k": 3\n}\n');
  assert.throws(() => resolveCliSettings({ workspace: ws, config }, true), (e: unknown) => isSpanproofError(e) && e.code === 'bad-input' && e.field === 'line 2, column 23' && /trailing comma/.test(e.message));
  const gt = '{"spanproof": 1, "questions": [\n  {"id": "a", "question": "q", "evidence": []},\n]}';
  assert.throws(() => parseGroundTruth(gt, 'gt.json'), (e: unknown) => isSpanproofError(e) && e.field === 'line 2, column 47' && /trailing comma/.test(e.message));
});

test('spanproof run: every bad key of settings.json and --config is reported at once, each with its file, full key path and fix; exit 2, no stack (an unknown key in settings.json is a note, not one of them)', async (t) => {
  const ws = workspace(t, '{\n  "spanproof.chunkerParams": {"heading": {"bogus": 1}},\n  "spanproof.k": "five",\n}\n');
  const config = join(ws, 'config.json');
  writeFileSync(config, JSON.stringify({ chunkerParams: { heading: { bogus: 1 } }, tau: 2 }));
  const r = await runCli(['run', '--workspace', ws, '--config', config]);
  assert.equal(r.code, 2, r.stderr);
  const settings = join(ws, '.vscode', 'settings.json');
  assert.deepEqual(r.stderr.trimEnd().split('\n'), [
    `note: spanproof.chunkerParams.heading.bogus in ${join('.vscode', 'settings.json')} is not used: not a run setting of this version.`,
    'spanproof: 3 settings are wrong:',
    `  ${settings}: spanproof.k: "five" is not valid (Invalid input: expected number, received string). Fix: set spanproof.k to a whole number ≥ 1, e.g. 5 (the default).`,
    `  ${config}: chunkerParams.heading.bogus: unknown key. Fix: remove it, or use one of the keys of chunkerParams.heading: maxSize.`,
    `  ${config}: tau: 2 is not valid (Too big: expected number to be <=1). Fix: set tau to a number > 0 and ≤ 1, e.g. 0.9 (the default).`,
  ]);
});

test('spanproof run --k 100 names a way to raise the pool that exists: the --pool flag (the poolSize setting), which then runs', async (t) => {
  const ws = tempDir('spanproof-pool-flag-', t);
  const r = await runCli(['run', '--workspace', ws, '--k', '100']);
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stderr, 'spanproof: --k: k (100) is larger than the candidate pool poolSize (20); the result list is the head of the pool. Fix: lower --k to at most 20, or raise --pool (setting poolSize) to at least 100.\n');
  const ok = await runCli(['run', '--workspace', ws, '--k', '100', '--pool', '100', '--explain-settings']);
  assert.equal(ok.code, 0, ok.stderr);
  assert.match(ok.stdout, /^poolSize +100 +← --pool$/m);
  assert.match(ok.stdout, /^k +100 +← --k$/m);
});

test('#16: an unknown key inside an object in .vscode/settings.json is a note like its dotted form (it was an error: the editor ignores both); the known keys beside it are used', async (t) => {
  const ws = workspace(t, '{ "spanproof.weights": { "qualty": 2, "latency": 0.5 }, "spanproof.chunkerParams": { "heading": { "maxSize": 900, "maxSise": 1 }, "fixd": { "size": 1 } }, "spanproof.judge": { "timeoutMs": 5000, "retrys": 1 } }');
  const r = resolveCliSettings({ workspace: ws }, true);
  assert.deepEqual(r.ignored, [
    { key: 'spanproof.weights.qualty', reason: 'not a run setting of this version; did you mean spanproof.weights.quality?' },
    { key: 'spanproof.chunkerParams.heading.maxSise', reason: 'not a run setting of this version; did you mean spanproof.chunkerParams.heading.maxSize?' },
    { key: 'spanproof.chunkerParams.fixd', reason: 'not a run setting of this version; did you mean spanproof.chunkerParams.fixed?' },
    { key: 'spanproof.judge.retrys', reason: 'not a run setting of this version; did you mean spanproof.judge.retries?' },
  ]);
  assert.equal(r.settings.weights.latency, 0.5);
  assert.equal(r.settings.weights.quality, 1, 'the mistyped key is not used: the default stays');
  assert.equal(r.settings.chunkerParams.heading.maxSize, 900);
  const out = await runCli(['validate', '--workspace', ws, '--groundtruth', join(ws, 'none.json')]);
  assert.match(out.stderr, /^note: spanproof\.weights\.qualty in \.vscode[/\\]settings\.json is not used: not a run setting of this version; did you mean spanproof\.weights\.quality\?$/m);
  assert.doesNotMatch(out.stderr, /unknown key/);
});

test('a mistyped settings key gets "did you mean": an error in --config, a note for .vscode/settings.json (also a dotted nested key); a key near nothing is still reported', async (t) => {
  const ws = workspace(t, '{ "spanproof.chunkr": ["heading"], "spanproof.weights.qualty": 2, "spanproof.chunkerParms.heading.maxSize": 900, "spanproof.bm25.kl": 1.2 }');
  const r = resolveCliSettings({ workspace: ws }, true);
  assert.deepEqual(r.ignored, [
    { key: 'spanproof.chunkr', reason: 'not a run setting of this version; did you mean spanproof.chunkers?' },
    { key: 'spanproof.weights.qualty', reason: 'not a run setting of this version; did you mean spanproof.weights.quality?' },
    { key: 'spanproof.chunkerParms.heading.maxSize', reason: 'not a run setting of this version; did you mean spanproof.chunkerParams.heading.maxSize?' },
    { key: 'spanproof.bm25.kl', reason: 'not a run setting of this version' },
  ]);
  const config = join(ws, 'config.json');
  writeFileSync(config, JSON.stringify({ poolsize: 30, 'weights.latncy': 1, 'spanproof.bm25.kl': 1 }));
  const e = (() => { try { resolveCliSettings({ workspace: ws, config }, true); } catch (x) { return x; } })();
  assert.ok(isSpanproofError(e), String(e));
  assert.deepEqual(e.problems?.map((p) => [p.field, p.message]), [['weights.latncy', 'unknown key; did you mean "latency"?'], ['poolsize', 'unknown key; did you mean "poolSize"?'], ['bm25', 'unknown key.']]);
  assert.match(e.problems![1].fix, /^rename it to "poolSize", or remove it \(the settings: include, /);
  const out = await runCli(['validate', '--workspace', ws, '--groundtruth', join(ws, 'none.json')]);
  assert.match(out.stderr, /^note: spanproof\.chunkr in \.vscode[/\\]settings\.json is not used: not a run setting of this version; did you mean spanproof\.chunkers\?$/m);
  assert.match(out.stderr, /^note: spanproof\.bm25\.kl in \.vscode[/\\]settings\.json is not used: not a run setting of this version\.$/m);
});

test('the note for an unused workspace key ends in one mark: "did you mean …?" gets no full stop after it (run and generate print the same line)', () => {
  assert.equal(ignoredSettingNote({ key: 'spanproof.chunkr', reason: 'not a run setting of this version; did you mean spanproof.chunkers?' }), `note: spanproof.chunkr in ${join('.vscode', 'settings.json')} is not used: not a run setting of this version; did you mean spanproof.chunkers?\n`);
  assert.match(ignoredSettingNote({ key: 'spanproof.judge.endpoint', reason: 'endpoints are taken only from --config or flags' }), /flags\.\n$/);
});

test('fresh-user item 12: a "__proto__" key inside a setting of .vscode/settings.json is an unknown key like any other (a note naming it), never a prototype', (t) => {
  const ws = workspace(t, '{ "spanproof.weights": { "__proto__": { "x": 1 }, "latency": 0.5 }, "spanproof.chunkerParams": { "fixed": { "__proto__": { "size": 5 } } } }');
  const r = resolveCliSettings({ workspace: ws }, true);
  assert.deepEqual(r.ignored.map((i) => i.key), ['spanproof.weights.__proto__', 'spanproof.chunkerParams.fixed.__proto__']);
  assert.equal(r.settings.weights.latency, 0.5);
  assert.equal(r.settings.chunkerParams.fixed.size, 800);
  assert.equal(({} as Record<string, unknown>).x, undefined);
});

test('fresh-user item 12: the "did you mean" notes of .vscode/settings.json are printed when a setting beside them is wrong too', async (t) => {
  const ws = workspace(t, '{ "spanproof.chunkers": ["fixed", "bogus"], "spanproof.chunkr": 1 }');
  const r = await runCli(['validate', '--workspace', ws, '--groundtruth', join(ws, 'none.json')]);
  assert.equal(r.code, 2, r.stderr);
  const lines = r.stderr.trimEnd().split('\n');
  assert.match(lines[0], /^note: spanproof\.chunkr in \.vscode[/\\]settings\.json is not used: not a run setting of this version; did you mean spanproof\.chunkers\?$/);
  assert.match(lines[1], /^spanproof: .*settings\.json: .*chunkers\[1\]: "bogus" is not valid/);
});

test('fresh-user item 12: 32,000 unknown spanproof.* keys are 20 notes and a count, not 32,000 lines (and --explain-settings lists the same)', async (t) => {
  const ws = workspace(t, JSON.stringify(Object.fromEntries([['spanproof.judge.endpoint', 'http://x'], ...Array.from({ length: 32000 }, (_, i) => [`spanproof.k${i}`, 1])])));
  const r = await runCli(['validate', '--workspace', ws, '--groundtruth', join(ws, 'none.json')]);
  const notes = r.stderr.split('\n').filter((l) => l.startsWith('note: '));
  assert.equal(notes.length, 22, notes.slice(-3).join('\n'));
  assert.match(notes[0], /^note: spanproof\.k0 in /);
  assert.match(notes[19], /^note: spanproof\.k19 in /);
  assert.match(notes[20], /^note: spanproof\.judge\.endpoint in .*--config or flags/, 'a restricted key is always named');
  assert.match(notes[21], /^note: and 31980 more spanproof\.\* keys in \.vscode[/\\]settings\.json are not used: not run settings of this version\.$/);
  const explain = await runCli(['run', '--workspace', ws, '--explain-settings']);
  assert.equal(explain.code, 0, explain.stderr);
  assert.match(explain.stdout, /^\(and 31980 more keys not used from \.vscode[/\\]settings\.json: not run settings of this version\)$/m);
  assert.equal(explain.stdout.split('\n').filter((l) => /not used from/.test(l)).length, 22);
});

test('fresh-user item 3: "spanproof.threads": 1000 from a cloned folder is exit 2 naming the file, the key and the range — before any model is loaded', async (t) => {
  const ws = workspace(t, '{ "spanproof.threads": 1000 }');
  const r = await runCli(['run', '--workspace', ws, '--chunkers', 'fixed', '--retrievers', 'dense', '--rerank', 'off']);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /settings\.json: (spanproof\.)?threads: 1000 is not valid \(.*\)\. Fix: set (spanproof\.)?threads to a whole number from 1 to 64, e\.g\. 2 \(the default\)\.\n$/);
});

test('the judge and drafting flags take the settings\' ranges: --judge-retries 11, --judge-concurrency 65, --count 1001 are exit 2 naming the flag and the range, before anything is sent', async (t) => {
  const ws = workspace(t, '{}');
  const cases: Array<[string[], RegExp]> = [
    [['draft', '--workspace', ws, '--endpoint', 'http://127.0.0.1:9/v1', '--model', 'm', '--count', '1001'], /--count "1001" is not a whole number from 1 to 1000\. Fix: /],
    [['draft', '--workspace', ws, '--endpoint', 'http://127.0.0.1:9/v1', '--model', 'm', '--concurrency', '65'], /--concurrency "65" is not a whole number from 1 to 64\. Fix: /],
    [['generate', join(ws, 'no-run'), '--endpoint', 'http://127.0.0.1:9/v1', '--generator-model', 'g', '--judge-model', 'j', '--judge-retries', '11'], /--judge-retries "11" is not a whole number from 0 to 10\. Fix: /],
    [['generate', join(ws, 'no-run'), '--endpoint', 'http://127.0.0.1:9/v1', '--generator-model', 'g', '--judge-model', 'j', '--judge-concurrency', '1000000'], /--judge-concurrency "1000000" is not a whole number from 1 to 64\. Fix: /],
  ];
  for (const [args, expected] of cases) {
    const r = await runCli(args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, expected, args.join(' '));
  }
});
