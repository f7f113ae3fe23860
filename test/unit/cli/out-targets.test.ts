/**
 * `--out FILE` (#16 hardening): `safety --out` and `bias --out` replaced any existing file, the ground
 * truth included, with no --force — they now follow the `report --out` / `chunks --out` rule (one
 * helper, checkOutputFile). And `--out X --force` renamed a temp file over X, so as root
 * `report … --out /dev/full --force` turned the device into a regular file: a target that exists and
 * is not a regular file (device, FIFO, socket) is refused, --force or not. The tests use a FIFO in a
 * temp folder, never /dev.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { lstatSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { checkOutputFile } from '../../../src/core/fsErrors';
import { runCli as cli } from '../../helpers/cli';
import { writeEmptySucceededRun } from '../../helpers/runDirs';
import { thrown } from '../../helpers/thrown';
import { tempDir } from '../../helpers/tmp';

test('safety --out and bias --out refuse an existing file (the ground truth) without --force, before any work', async (t) => {
  const root = tempDir('spanproof-out-targets-', t);
  const gt = path.join(root, 'groundtruth.json');
  writeFileSync(gt, '{"spanproof":1,"questions":[]}\n');
  const runDir = writeEmptySucceededRun(root, 'r1');
  for (const args of [['safety', path.join(root, 'none.jsonl'), '--endpoint', 'http://127.0.0.1:9/v1', '--judge-model', 'm', '--out', gt], ['bias', runDir, '--out', gt]]) {
    const r = await cli(args);
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stderr.trim(), `spanproof: ${gt}: --out would overwrite an existing file. Fix: choose another file, or add --force to replace it.`);
    assert.equal(readFileSync(gt, 'utf8'), '{"spanproof":1,"questions":[]}\n', 'untouched');
  }
});

test('--out onto a FIFO is refused even with --force, and the FIFO stays a FIFO', async (t) => {
  const root = tempDir('spanproof-out-fifo-', t);
  const fifo = path.join(root, 'pipe');
  execFileSync('mkfifo', [fifo]);
  const runDir = writeEmptySucceededRun(root, 'r1');
  const r = await cli(['report', runDir, '--out', fifo, '--force']);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /pipe: cannot write --out: it is a named pipe \(FIFO\), not a regular file; it was not touched\. Fix: give the path of a regular file, e.g\. report\.md in the current folder/);
  assert.ok(!r.stderr.includes(path.join(root, 'report.md')), 'no file suggested beside the FIFO (for /dev/null that was /dev/report.md)');
  assert.doesNotMatch(r.stderr, /\n\s+at /);
  assert.ok(lstatSync(fifo).isFIFO(), 'still a FIFO');
  const e = thrown(() => checkOutputFile(fifo, '--out', 'chunks.jsonl', false));
  assert.equal(e.code, 'bad-input');
  assert.match(e.message, /named pipe/);
});
