/**
 * Issue #16 item 8: `validate --fix` rewrites only the offsets it fixes. A hand-formatted file (4-space
 * indent, CRLF, its own key order, compact arrays, a `__proto__` key, an integer beyond 2^53, an
 * unknown field) keeps every other byte: the expected file is the input with the two moved offsets
 * replaced by hand below (the quote moved by the 10 characters prepended to the document).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { tempDir } from '../../helpers/tmp';
import { runCli } from '../../helpers/cli';

const DOC = 'Intro 123\nThe quick brown fox jumps over the lazy dog.\nAnother line of text here.\n';
// "quick brown fox jumps" starts at 14 in DOC; the file says 4 (before 10 characters were prepended).
const GT = [
  '{',
  '    "spanproof": 1,',
  '    "questions": [',
  '        {',
  '            "question": "What jumps?",',
  '            "id": "q1",',
  '            "tags": ["a", "b"],',
  '            "evidence": [{ "source": "a.md", "exact": "quick brown fox jumps", "start": 4, "end": 25, "note": 12345678901234567890123 }],',
  '            "__proto__": { "polluted": true },',
  '            "x-big": 9007199254740993',
  '        }',
  '    ]',
  '}',
  '',
].join('\r\n');

test('validate --fix keeps formatting, key order, line endings, __proto__ keys and big integers; only the moved offsets change', async (t) => {
  const ws = tempDir('spanproof-fix-text-');
  t.after(() => rmSync(ws, { recursive: true, force: true }));
  writeFileSync(path.join(ws, 'a.md'), DOC);
  mkdirSync(path.join(ws, '.spanproof'));
  const gt = path.join(ws, '.spanproof', 'groundtruth.json');
  writeFileSync(gt, GT);
  const r = await runCli(['validate', '--workspace', ws, '--fix']);
  assert.equal(r.code, 0, r.stderr + r.stdout);
  const want = GT.replace('"start": 4, "end": 25,', '"start": 14, "end": 35,');
  assert.equal(readFileSync(gt, 'utf8'), want);
  assert.equal(readFileSync(`${gt}.bak`, 'utf8'), GT, 'the backup is the file as it was');
});

test('validate --fix adds the offsets of a quote that never had them after its last member, laid out like it', async (t) => {
  const ws = tempDir('spanproof-fix-text-');
  t.after(() => rmSync(ws, { recursive: true, force: true }));
  writeFileSync(path.join(ws, 'a.md'), DOC);
  mkdirSync(path.join(ws, '.spanproof'));
  const gt = path.join(ws, '.spanproof', 'groundtruth.json');
  const compact = '{"spanproof":1,"questions":[{"id":"q1","question":"What jumps?","evidence":[{"source":"a.md","exact":"quick brown fox jumps"}],"n":18446744073709551617}]}';
  writeFileSync(gt, compact);
  const r = await runCli(['validate', '--workspace', ws, '--fix']);
  assert.equal(r.code, 0, r.stderr + r.stdout);
  assert.equal(readFileSync(gt, 'utf8'), compact.replace('"exact":"quick brown fox jumps"', '"exact":"quick brown fox jumps","start":14,"end":35'));
});
