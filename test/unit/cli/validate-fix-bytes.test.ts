/**
 * What `validate --fix` and `review --accept` keep of the file they replace (#16 items 8 and 15, from a
 * fresh user's pass): a UTF-8 byte-order mark (Windows editors write one) — the file could never be
 * saved: "changed on disk since it was read" every time, since the check compared the text with its BOM
 * to the text without; the backup is the replaced file byte for byte (BOM included) and no more
 * readable than it (a 0600 file got a 0644 `.bak`); a read-only file that is refused gets no backup.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { tempDir } from '../../helpers/tmp';
import { runCli } from '../../helpers/cli';

const BOM = '\uFEFF';
const DOC = 'Intro 123\nThe quick brown fox jumps over the lazy dog.\n';
// "quick brown fox jumps" starts at 14; the file says 4 (stale cache): --fix rewrites it to 14/35.
const GT = '{\n  "spanproof": 1,\n  "questions": [\n    { "id": "q1", "question": "What jumps?", "evidence": [{ "source": "a.md", "exact": "quick brown fox jumps", "start": 4, "end": 25 }] }\n  ]\n}\n';
const FIXED = GT.replace('"start": 4, "end": 25', '"start": 14, "end": 35');

function workspace(t: { after(fn: () => void): void }, gtText: string, mode?: number): { ws: string; gt: string } {
  const ws = tempDir('spanproof-fix-bytes-', t);
  writeFileSync(path.join(ws, 'a.md'), DOC);
  mkdirSync(path.join(ws, '.spanproof'));
  const gt = path.join(ws, '.spanproof', 'groundtruth.json');
  writeFileSync(gt, gtText);
  if (mode !== undefined) chmodSync(gt, mode);
  return { ws, gt };
}

test('validate --fix saves a ground truth that starts with a BOM, keeps the BOM, and backs up the exact bytes', async (t) => {
  const { ws, gt } = workspace(t, BOM + GT);
  const r = await runCli(['validate', '--workspace', ws, '--fix']);
  assert.equal(r.code, 0, r.stderr + r.stdout);
  assert.equal(readFileSync(gt, 'utf8'), BOM + FIXED, 'fixed, BOM kept');
  assert.equal(readFileSync(`${gt}.bak`, 'utf8'), BOM + GT, 'the backup is the replaced file, BOM included');
  const again = await runCli(['validate', '--workspace', ws, '--fix']);
  assert.equal(again.code, 0, again.stderr);
  assert.equal(existsSync(`${gt}.bak.1`), false, 'nothing more to fix: no second backup');
});

test('review --accept saves a BOM file too (the draft store compares what it read with what is on disk)', async (t) => {
  const draft = GT.replace('"id": "q1",', '"id": "q1", "status": "draft",').replace('"start": 4, "end": 25', '"start": 14, "end": 35');
  const { ws, gt } = workspace(t, BOM + draft);
  const r = await runCli(['review', '--workspace', ws, '--accept', 'q1']);
  assert.equal(r.code, 0, r.stderr + r.stdout);
  const after = readFileSync(gt, 'utf8');
  assert.ok(after.startsWith(BOM) && !after.startsWith(BOM + BOM), 'one BOM, kept');
  assert.doesNotMatch(after, /"status"/);
  assert.equal(readFileSync(`${gt}.bak`, 'utf8'), BOM + draft);
});

test('the backup is no more readable than the file it copies (0600 stays 0600)', async (t) => {
  const { ws, gt } = workspace(t, GT, 0o600);
  const r = await runCli(['validate', '--workspace', ws, '--fix']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(statSync(gt).mode & 0o777, 0o600);
  assert.equal(statSync(`${gt}.bak`).mode & 0o777, 0o600);
});

test('a read-only ground truth is refused before any backup is written', async (t) => {
  const { ws, gt } = workspace(t, GT, 0o444);
  const r = await runCli(['validate', '--workspace', ws, '--fix']);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /read-only/);
  assert.equal(existsSync(`${gt}.bak`), false, 'no backup of a file that was not replaced');
  assert.equal(readFileSync(gt, 'utf8'), GT);
});
