/**
 * Fresh-user item 5: a `.vscode/settings.json` nested 5000 deep in any key (10 KB) was exit 3 "Maximum
 * call stack size exceeded" for every command — jsonc-parser recurses per level. The text is now
 * measured by a linear scan (strings and comments skipped) before the parser sees it, and is bad input
 * naming the file and the JSON path, as every other user file is (#16 item 15).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_JSON_DEPTH, tooDeepPath, tooDeepTextPath } from '../../../../src/core/files/jsonDepth';
import { jsonParseError, jsonSyntaxError, parseJsonText } from '../../../../src/core/files/jsonText';
import { parseGroundTruth } from '../../../../src/core/groundtruth/schema';
import { runCli } from '../../../helpers/cli';
import { thrown } from '../../../helpers/thrown';
import { tempDir } from '../../../helpers/tmp';

const nested = (depth: number, open = '[', close = ']') => open.repeat(depth) + close.repeat(depth);

test('tooDeepTextPath finds the path tooDeepPath finds on the parsed value; strings, escapes and comments do not count', () => {
  for (const text of [
    `{"other.ext": ${nested(5000)}}`,
    `{"a": 1, "b": [0, {"c": ${nested(150)}}]}`,
    `[${'{"k": '.repeat(120)}1${'}'.repeat(120)}]`,
    `{"x\\"y": [1, 2, ${nested(101)}]}`,
  ]) assert.equal(tooDeepTextPath(text), tooDeepPath(JSON.parse(text)), text.slice(0, 40));
  assert.equal(tooDeepTextPath(nested(MAX_JSON_DEPTH)), null);
  assert.equal(tooDeepTextPath(nested(MAX_JSON_DEPTH + 1)), `${'[0]'.repeat(MAX_JSON_DEPTH).slice(0, 80)}…`);
  const quoted = `{"a": "${nested(300)}", "b\\\\": "\\"${'['.repeat(300)}", // ${'['.repeat(300)}\n /* ${'{'.repeat(300)} */ "c": 1}`;
  assert.equal(tooDeepTextPath(quoted), null);
});

test('a JSONC text nested 5000 deep is bad input naming the path, not a stack overflow; a strict one too, valid or not', () => {
  const e = thrown(() => parseJsonText(`{\n  // VS Code's own\n  "other.ext": ${nested(5000)}\n}`, 'settings.json', 'fix it.', { jsonc: true }));
  assert.equal(e.code, 'bad-input');
  assert.equal(e.file, 'settings.json');
  assert.match(e.field!, /^\["other\.ext"\]\[0\]\[0\]/);
  assert.match(e.message, /^settings\.json: \["other\.ext"\]\[0\]\[0\].*: nested more than 100 levels deep; not read\. Fix: /);
  // an unterminated deep text: JSON.parse rejects it, and locating the error must not overflow either
  assert.equal(jsonSyntaxError('['.repeat(5000)), null);
  assert.equal(jsonParseError('['.repeat(5000), 'x.json', 'fix it.', new SyntaxError('Unexpected end of JSON input')).code, 'bad-input');
  assert.equal(thrown(() => parseJsonText('['.repeat(5000), 'x.json', 'fix it.')).code, 'bad-input');
  assert.equal(thrown(() => parseGroundTruth(`{"spanproof": 1, "questions": ${'['.repeat(5000)}`, 'gt.json')).code, 'bad-input');
});

test('spanproof with a .vscode/settings.json nested 5000 deep: exit 2 naming the file, no stack trace', async (t) => {
  const ws = tempDir('spanproof-deep-settings-', t);
  mkdirSync(join(ws, '.vscode'));
  writeFileSync(join(ws, '.vscode', 'settings.json'), `{"other.ext": ${nested(5000)}}\n`);
  for (const args of [['run', '--workspace', ws], ['validate', '--workspace', ws]]) {
    const r = await runCli(args);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /settings\.json: \["other\.ext"\]\[0\].*: nested more than 100 levels deep; not read\. Fix: /);
    assert.doesNotMatch(r.stderr, /internal error|\n\s+at /);
  }
});
