/**
 * A malformed run folder (#16 hardening): `spanproof report` crashed with a stack trace (exit 3) on a
 * run.json whose "error" is a string or has no "code" (TypeError in the Markdown renderer), a
 * results.json with "configs": 5 (".map is not a function") or a config without "causes". The run
 * files are checked on read: exit 2 naming the file and the field, with a Fix: line.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { runCli as cli } from '../../helpers/cli';
import { writeEmptySucceededRun, writeRunJson } from '../../helpers/runDirs';
import { tempDir } from '../../helpers/tmp';

function expectBad(r: { code: number | null; stderr: string }, file: string, field: RegExp): void {
  assert.equal(r.code, 2, r.stderr);
  assert.ok(r.stderr.includes(file), r.stderr);
  assert.match(r.stderr, field);
  assert.match(r.stderr, /\. Fix: /);
  assert.doesNotMatch(r.stderr, /TypeError|\n\s+at /);
}

test('report of a run whose run.json "error" is a string, or an object without "code": exit 2 naming run.json and error', async (t) => {
  const root = tempDir('spanproof-run-files-', t);
  for (const [i, error] of ['boom', { message: 'boom' }].entries()) {
    const runDir = writeEmptySucceededRun(root, `r${i}`);
    const file = path.join(runDir, 'run.json');
    writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), error }));
    for (const format of ['md', 'html']) expectBad(await cli(['report', runDir, '--format', format]), file, /run\.json: error(\.code)? (must be|is missing)/);
  }
});

test('report of a run whose results.json has "configs": 5, or a config of only {"id": 5}: exit 2 naming results.json and the field', async (t) => {
  const root = tempDir('spanproof-run-files-', t);
  const a = writeRunJson(root, 'a', 'succeeded', { endedAt: '2026-01-01T00:00:01.000Z' });
  writeFileSync(path.join(a, 'results.json'), '{"spanproof":1,"configs":5}');
  expectBad(await cli(['report', a]), path.join(a, 'results.json'), /results\.json: (k|configs) (must be|is missing)/);
  const b = writeEmptySucceededRun(root, 'b');
  const file = path.join(b, 'results.json');
  writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), configs: [{ id: 5 }] }));
  expectBad(await cli(['report', b]), file, /results\.json: configs\[0\]\.id must be a string, not a number/);
});
