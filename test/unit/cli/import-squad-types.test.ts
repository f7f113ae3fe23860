/**
 * Issue #16: `import squad` reasons that name the field and its type. An object id was printed as
 * `[object Object]`; `"answer_start": "5"` was "lacks text/answer_start"; with nothing written the
 * summary still said "1 document(s)".
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { runCli } from '../../helpers/cli';
import { tempDir } from '../../helpers/tmp';

const CONTEXT = 'Hello world. Foo bar.';

function squadFile(root: string, qas: unknown[], emptyQas: unknown[] = []): string {
  const file = path.join(root, 'squad.json');
  writeFileSync(file, JSON.stringify({ data: [{ title: 't', paragraphs: [{ context: CONTEXT, qas }, { context: '', qas: emptyQas }] }] }));
  return file;
}

test('import squad: an object id and a string answer_start are named by field and type; nothing written says so', async (t) => {
  const root = tempDir('spanproof-import-squad-types-', t);
  const ws = path.join(root, 'ws');
  mkdirSync(ws);
  const file = squadFile(root, [
    { id: { a: 1 }, question: 'q?', answers: [{ text: 'Foo', answer_start: 13 }] },
    { id: 'q2', question: 'q?', answers: [{ text: 'Foo', answer_start: '5' }] },
    { id: 'q3', question: 'q?', answers: [{ text: 7, answer_start: 13 }] },
    { id: 'q4', question: 'q?', answers: [{ text: 'Foo', answer_start: 1.5 }] },
  ], [{ id: { b: 2 }, question: 'x' }]);
  const r = await runCli(['import', 'squad', file, '--workspace', ws]);
  assert.equal(r.code, 2, r.stderr);
  assert.ok(!r.stdout.includes('[object Object]'), r.stdout);
  assert.match(r.stdout, /qas\[0\] \(squad-1-1-1\): id is an object where a string is expected/);
  assert.match(r.stdout, /qas\[1\] \(q2\): answers\[0\]\.answer_start is a string \("5"\) where a number is expected/);
  assert.match(r.stdout, /qas\[2\] \(q3\): answers\[0\]\.text is a number \(7\) where a string is expected/);
  assert.match(r.stdout, /qas\[3\] \(q4\): answers\[0\]\.answer_start is 1\.5 where a whole number is expected/);
  assert.match(r.stdout, /paragraphs\[1\]\.qas\[0\]: the paragraph has no "context" text/);
  assert.doesNotMatch(r.stdout, /lacks text\/answer_start/);
  assert.match(r.stdout, /5 rows read, 0 converted, 5 rejected; 1 document\(s\) found, nothing written\./);
  assert.equal(existsSync(path.join(ws, 'squad')), false, 'no document written');
  assert.doesNotMatch(r.stderr, /\n\s+at /);
});
