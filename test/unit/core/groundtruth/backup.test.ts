/**
 * Backups are never overwritten (#16 item 8): after an import keeps the hand-written file as
 * `groundtruth.json.bak`, a later `validate --fix`, `spanproof draft` or `review` writes its copy under
 * the next free name (`.bak.1`, `.bak.2`, …); a copy identical to an existing backup is not repeated.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { backupGroundTruth } from '../../../../src/core/groundtruth';
import { reviewFile, writeDrafts } from '../../../../src/core/draft';
import type { Question } from '../../../../src/core/groundtruth';
import { runCli } from '../../../helpers/cli';
import { tempDir } from '../../../helpers/tmp';

const DOC = 'Intro line here.\nThe default port is 8000.\n';
const HAND = '{\n  "spanproof": 1,\n  "questions": [\n    {"id": "h1", "question": "Which port?", "evidence": [{"source": "a.md", "exact": "The default port is 8000.", "start": 0, "end": 25}]}\n  ]\n}\n';
const OLD_BACKUP = '{"spanproof": 1, "questions": [{"id": "hand-written-18", "question": "the only copy", "evidence": [{"source": "a.md", "exact": "Intro line here."}]}]}\n';

function backups(dir: string): string[] {
  return readdirSync(dir).filter((n) => n.startsWith('groundtruth.json.bak')).sort();
}

test('validate --fix keeps an existing groundtruth.json.bak and writes its copy to groundtruth.json.bak.1', async (t) => {
  const ws = tempDir('spanproof-bak-validate-', t);
  const sp = path.join(ws, '.spanproof');
  mkdirSync(sp);
  writeFileSync(path.join(ws, 'a.md'), DOC);
  writeFileSync(path.join(sp, 'groundtruth.json'), HAND);
  writeFileSync(path.join(sp, 'groundtruth.json.bak'), OLD_BACKUP);
  const r = await runCli(['validate', '--fix', '--workspace', ws]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(readFileSync(path.join(sp, 'groundtruth.json.bak'), 'utf8'), OLD_BACKUP, 'the older backup survives');
  assert.deepEqual(backups(sp), ['groundtruth.json.bak', 'groundtruth.json.bak.1']);
  assert.equal(readFileSync(path.join(sp, 'groundtruth.json.bak.1'), 'utf8'), HAND);
  assert.match(r.stdout, /groundtruth\.json\.bak\.1/, 'the report names the backup it wrote');
});

test('draft and review: each write keeps the older backups', async (t) => {
  const dir = tempDir('spanproof-bak-draft-', t);
  const file = path.join(dir, 'groundtruth.json');
  writeFileSync(file, HAND);
  writeFileSync(`${file}.bak`, OLD_BACKUP);
  const d: Question = { id: 'd1', question: 'drafted?', evidence: [{ source: 'a.md', exact: 'The default port is 8000.' }], status: 'draft' };
  const w = await writeDrafts(file, [d]);
  assert.equal(w.backup, `${file}.bak.1`);
  const r = await reviewFile(file, readFileSync(file, 'utf8'), { reject: ['d1'] });
  assert.equal(r.backup, `${file}.bak.2`);
  assert.equal(readFileSync(`${file}.bak`, 'utf8'), OLD_BACKUP);
  assert.equal(readFileSync(`${file}.bak.1`, 'utf8'), HAND);
  assert.deepEqual(backups(dir), ['groundtruth.json.bak', 'groundtruth.json.bak.1', 'groundtruth.json.bak.2']);
});

test('backupGroundTruth: the next free name, created exclusively; content equal to an existing backup is not copied again', async (t) => {
  const dir = tempDir('spanproof-bak-core-', t);
  const file = path.join(dir, 'groundtruth.json');
  writeFileSync(file, HAND);
  assert.equal(await backupGroundTruth(file, null), undefined, 'no file, no backup');
  assert.equal(await backupGroundTruth(file, HAND), `${file}.bak`);
  assert.equal(await backupGroundTruth(file, HAND), `${file}.bak`, 'same content: the existing backup is the backup');
  assert.equal(await backupGroundTruth(file, OLD_BACKUP), `${file}.bak.1`);
  assert.equal(readFileSync(`${file}.bak`, 'utf8'), HAND);
  assert.equal(readFileSync(`${file}.bak.1`, 'utf8'), OLD_BACKUP);
});
