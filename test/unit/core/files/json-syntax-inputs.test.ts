/**
 * Every JSON file the CLI reads reports a syntax error by line and column (#16 item 20): a fresh user's
 * SQuAD file with a trailing comma got "Unexpected token ] in JSON at position 28" and no ". " before
 * "Fix:"; the same for --judge-prices. The ground-truth parser already said "line 3, column 2: a
 * trailing comma"; the other readers now use the same helper (src/core/files/jsonText.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { readPrices } from '../../../../src/cli/judge';
import { parseJsonLines, readJsonFile } from '../../../../src/core/files';
import { importSquad } from '../../../../src/core/import/squad';
import { readCatalogueFile } from '../../../../src/core/models/catalogue';
import { readMemoryEval } from '../../../../src/core/score';
import { runCli } from '../../../helpers/cli';
import { thrown } from '../../../helpers/thrown';
import { tempDir } from '../../../helpers/tmp';

const TRAILING = '{\n  "data": [\n    {"title": "t", "paragraphs": []},\n  ]\n}\n';

function expectLocated(e: { message: string; field?: string }, line: number): void {
  assert.equal(e.field, `line ${line}, column 37`, e.message);
  assert.match(e.message, /a trailing comma/);
  assert.match(e.message, /\. Fix: /);
  assert.doesNotMatch(e.message, /position/);
}

test('SQuAD, --judge-prices, memory-eval, catalogue and run files: a trailing comma is named by line and column', (t) => {
  const dir = tempDir('spanproof-json-syntax-', t);
  const file = path.join(dir, 'bad.json');
  writeFileSync(file, TRAILING);
  expectLocated(thrown(() => importSquad(file, { workspace: dir })), 3);
  expectLocated(thrown(() => readPrices(file)), 3);
  expectLocated(thrown(() => readMemoryEval(file)), 3);
  expectLocated(thrown(() => readCatalogueFile(file)), 3);
  expectLocated(thrown(() => readJsonFile(file, 'copy the run again.')), 3);
});

test('a SQuAD file with numeric ids before the error still reports the column of the original text', (t) => {
  const dir = tempDir('spanproof-json-syntax-', t);
  const file = path.join(dir, 'ids.json');
  writeFileSync(file, '{"data": [{"title": "t", "paragraphs": [{"context": "c", "qas": [{"id": 12, "question": "q", "answers": [],}]}]}]}');
  const e = thrown(() => importSquad(file, { workspace: dir }));
  assert.equal(e.field, 'line 1, column 107', e.message);
});

test('spanproof import squad with a trailing comma: exit 2, file: line L, column C: … . Fix:', async (t) => {
  const dir = tempDir('spanproof-json-syntax-', t);
  const file = path.join(dir, 'bad.json');
  writeFileSync(file, TRAILING);
  const r = await runCli(['import', 'squad', file, '--workspace', path.join(dir, 'ws')]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /bad\.json: line 3, column 37: not valid JSON: a trailing comma[^\n]*\. Fix: /);
  assert.doesNotMatch(r.stderr, /position|\n\s+at /);
});

test('JSON Lines (RAGAS, Azure, run files): a damaged line names its column too', () => {
  const [, bad] = parseJsonLines('{"a": 1}\n{"user_input": "q", "reference": "r",}\n');
  assert.equal(bad.line, 2);
  assert.equal(bad.error, 'not valid JSON: a trailing comma (JSON allows none before ] or }) at column 37');
});
