/**
 * Issue #16: `spanproof runs` left a run folder whose run.json is damaged out of the list without a
 * word. It is still left out (exit code unchanged), with a `note:` on stderr naming the folder and why.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli';
import { writeEmptySucceededRun, writeRunJson } from '../../helpers/runDirs';
import { tempDir } from '../../helpers/tmp';

test('runs: a damaged run.json gets a note on stderr naming the folder and the reason; the good run is listed, exit 0', async (t) => {
  const root = tempDir('spanproof-runs-damaged-', t);
  writeEmptySucceededRun(root, '2026-01-02-good');
  const bad = writeRunJson(root, '2026-01-01-bad', 'succeeded');
  writeFileSync(join(bad, 'run.json'), '{"id": "2026-01-01-bad", "status": ');
  const shape = writeRunJson(root, '2026-01-03-shape\u001b[31m', 'succeeded');
  writeFileSync(join(shape, 'run.json'), '[1]');
  // fields of the wrong type (fresh-user pass: startedAt {} was exit 3 "x.padEnd is not a function";
  // results.json configs as a string "results?.configs.find is not a function")
  const started = writeRunJson(root, '2026-01-04-started', 'succeeded');
  writeFileSync(join(started, 'run.json'), JSON.stringify({ ...JSON.parse(readFileSync(join(started, 'run.json'), 'utf8')), startedAt: {} }));
  const nul = writeRunJson(root, '2026-01-06-null', 'succeeded');
  writeFileSync(join(nul, 'run.json'), 'null\n'); // was left out without a note, and report said "no run.json"
  const configs = writeEmptySucceededRun(root, '2026-01-05-configs');
  writeFileSync(join(configs, 'results.json'), JSON.stringify({ ...JSON.parse(readFileSync(join(configs, 'results.json'), 'utf8')), configs: 'x' }));
  for (const json of [false, true]) {
    const r = await runCli(['runs', '--runs-dir', root, ...(json ? ['--json'] : [])]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /2026-01-02-good/);
    assert.doesNotMatch(r.stdout, /-bad|-shape|-started|-configs|-null/);
    assert.doesNotMatch(r.stderr, /internal error|is not a function|\n\s+at /);
    const notes = r.stderr.trim().split('\n');
    assert.equal(notes.length, 5, r.stderr);
    assert.ok(notes.some((l) => l.startsWith(`note: ${nul}: damaged run.json: holds JSON null`)), r.stderr);
    assert.ok(notes.some((l) => l.startsWith(`note: ${started}: damaged run.json: startedAt `)), r.stderr);
    assert.ok(notes.some((l) => l.startsWith(`note: ${configs}: damaged results.json: configs `)), r.stderr);
    assert.ok(notes.some((l) => l.startsWith(`note: ${bad}: damaged run.json: `) && l.endsWith('; left out of the list.')), r.stderr);
    assert.ok(notes.some((l) => l.startsWith(`note: ${join(root, '2026-01-03-shape')}: damaged run.json: `)), r.stderr);
    assert.ok(!r.stderr.includes('\u001b'), 'the folder name is made terminal-safe');
  }
});

test('report of a run whose run.json holds JSON null says it is damaged, not that there is no run.json (exit 2)', async (t) => {
  const root = tempDir('spanproof-runs-null-', t);
  const dir = writeEmptySucceededRun(root, '2026-01-01-null');
  writeFileSync(join(dir, 'run.json'), 'null');
  const r = await runCli(['report', dir]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /run\.json: holds JSON null, not a run file\. Fix: /);
});
