/**
 * Issue #16 item 8: `report --out` and `chunks --out` never replace an existing file (the ground truth,
 * a corpus document, an earlier report) unless `--force`: exit 2 naming the file and the flag, the
 * file untouched; with `--force` it is replaced.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { linkSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { tempDir } from '../../helpers/tmp';
import { runCli as cli } from '../../helpers/cli';
import { writeEmptySucceededRun } from '../../helpers/runDirs';

test('report --out and chunks --out refuse an existing file without --force and replace it with --force', async (t) => {
  const root = tempDir('spanproof-out-overwrite-');
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const gt = path.join(root, 'groundtruth.json');
  const doc = path.join(root, 'a.md');
  writeFileSync(gt, '{"spanproof":1,"questions":[]}\n');
  writeFileSync(doc, '# A\n\nSome text.\n');
  const runDir = writeEmptySucceededRun(root, 'r1');

  for (const [args, file] of [[['report', runDir, '--out', gt], gt], [['chunks', '--workspace', root, '--chunkers', 'fixed', '--out', doc], doc]] as const) {
    const before = readFileSync(file, 'utf8');
    const r = await cli([...args]);
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stderr.trim(), `spanproof: ${file}: --out would overwrite an existing file. Fix: choose another file, or add --force to replace it.`);
    assert.equal(readFileSync(file, 'utf8'), before, 'untouched');
  }
  const report = path.join(root, 'report.md');
  writeFileSync(report, 'old report');
  const forced = await cli(['report', runDir, '--out', report, '--force']);
  assert.equal(forced.code, 0, forced.stderr);
  assert.match(readFileSync(report, 'utf8'), /^# Spanproof run r1/);
  const chunks = path.join(root, 'chunks.jsonl');
  writeFileSync(chunks, 'old');
  const forcedChunks = await cli(['chunks', '--workspace', root, '--chunkers', 'fixed', '--out', chunks, '--force']);
  assert.equal(forcedChunks.code, 0, forcedChunks.stderr);
  assert.match(readFileSync(chunks, 'utf8'), /^\{"chunker":"fixed"/);
});

test('--force never replaces a ground-truth file (by any name, through a symbolic or hard link) nor, for chunks, a document of the corpus it reads (fresh-user pass)', async (t) => {
  const root = tempDir('spanproof-out-force-', t);
  mkdirSync(path.join(root, '.spanproof'));
  const gt = path.join(root, '.spanproof', 'groundtruth.json');
  const GT = '{\n  "questions": [],\n  "spanproof": 1\n}\n'; // key order as a hand or another tool wrote it
  writeFileSync(gt, GT);
  symlinkSync(gt, path.join(root, 'gtlink'));
  linkSync(gt, path.join(root, 'hard.json'));
  const doc = path.join(root, 'a.md');
  writeFileSync(doc, '# A\n\nSome text.\n');
  const runDir = writeEmptySucceededRun(root, 'r1');
  for (const target of [gt, path.join(root, 'gtlink'), path.join(root, 'hard.json')]) {
    for (const args of [['report', runDir], ['chunks', '--workspace', root, '--chunkers', 'fixed']]) {
      const r = await cli([...args, '--out', target, '--force']);
      assert.equal(r.code, 2, `${args[0]} ${target}: ${r.stderr}`);
      assert.match(r.stderr, /is a Spanproof ground-truth file; --force never replaces one\. Fix: /, r.stderr);
      assert.equal(readFileSync(gt, 'utf8'), GT, 'untouched');
    }
  }
  const c = await cli(['chunks', '--workspace', root, '--chunkers', 'fixed', '--out', doc, '--force']);
  assert.equal(c.code, 2, c.stderr);
  assert.match(c.stderr, /is a document of the corpus being chunked \(a\.md\); --force never replaces one\. Fix: /);
  assert.equal(readFileSync(doc, 'utf8'), '# A\n\nSome text.\n');
});
