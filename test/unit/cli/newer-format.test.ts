/**
 * Issue #16 item 15: a ground-truth file or a run written by a newer Spanproof (`"spanproof": 2` in
 * groundtruth.json; results.json format 2; ranking.json format 3) is exit 2 with "written by a newer
 * Spanproof (format N); update Spanproof", naming the file — not a schema error about the field.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { runCli } from '../../helpers/cli';
import { MINI, MINI_GT, tmp } from '../../helpers/grid';

test('validate and run say a newer Spanproof wrote the ground truth (exit 2)', async (t) => {
  const root = tmp('newer-gt');
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const gt = path.join(root, 'gt.json');
  writeFileSync(gt, JSON.stringify({ ...JSON.parse(readFileSync(MINI_GT, 'utf8')), spanproof: 2 }));
  for (const cmd of ['validate', 'run']) {
    const r = await runCli([cmd, '--workspace', MINI, '--groundtruth', gt, ...(cmd === 'run' ? ['--runs-dir', path.join(root, 'runs'), '--cache-dir', path.join(root, 'cache')] : [])]);
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stderr.trim().split('\n').pop(), `spanproof: ${gt}: spanproof: written by a newer Spanproof (format 2); update Spanproof. Fix: update Spanproof to read it (this version reads format 1 and older).`);
  }
});

test('report says a newer Spanproof wrote the run (results.json, ranking.json; exit 2)', async (t) => {
  const root = tmp('newer-run');
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const runs = path.join(root, 'runs');
  const made = await runCli(['run', '--workspace', MINI, '--groundtruth', MINI_GT, '--chunkers', 'fixed', '--retrievers', 'bm25', '--rerank', 'off', '--runs-dir', runs, '--cache-dir', path.join(root, 'cache')]);
  assert.equal(made.code, 0, made.stderr);
  const runDir = path.join(runs, readdirSync(runs)[0]);
  for (const [file, n] of [['results.json', 2], ['ranking.json', 3]] as const) {
    const copy = path.join(root, `copy-${file}`);
    mkdirSync(copy);
    cpSync(runDir, copy, { recursive: true });
    const f = path.join(copy, file);
    writeFileSync(f, JSON.stringify({ ...JSON.parse(readFileSync(f, 'utf8')), spanproof: n }));
    const r = await runCli(['report', copy]);
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stderr.trim(), `spanproof: ${f}: spanproof: written by a newer Spanproof (format ${n}); update Spanproof. Fix: update Spanproof to read it (this version reads format ${n - 1} and older).`);
  }
});
