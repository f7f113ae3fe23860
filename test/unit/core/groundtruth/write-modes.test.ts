/**
 * What a ground-truth write keeps (#16 items 8, 15): a symbolic link stays a link (its target gets the
 * new content), the file's permission bits survive the temp-file-and-rename, a read-only file is not
 * written (a clear bad-input error, no stack trace), and a full disk says "disk full".
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, lstatSync, mkdirSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { writeGroundTruth } from '../../../../src/core/groundtruth';
import { isSpanproofError } from '../../../../src/core/errors';
import { REPO } from '../../../helpers/paths';
import { tempDir } from '../../../helpers/tmp';

const EMPTY = '{\n  "spanproof": 1,\n  "questions": []\n}\n';
const ONE = { spanproof: 1 as const, questions: [{ id: 'a', question: 'Q', evidence: [{ source: 'a.md', exact: 'a quote long enough' }] }] };

test('item 8: a symlinked groundtruth.json keeps its link; the target is written', async (t) => {
  const dir = tempDir('spanproof-gt-link-', t);
  mkdirSync(join(dir, 'team'));
  writeFileSync(join(dir, 'team', 'gt.json'), EMPTY);
  mkdirSync(join(dir, '.spanproof'));
  const link = join(dir, '.spanproof', 'groundtruth.json');
  symlinkSync(join('..', 'team', 'gt.json'), link);
  assert.equal(await writeGroundTruth(link, ONE), true);
  assert.ok(lstatSync(link).isSymbolicLink(), 'still a symbolic link');
  assert.equal(readlinkSync(link), join('..', 'team', 'gt.json'));
  assert.equal(JSON.parse(readFileSync(join(dir, 'team', 'gt.json'), 'utf8')).questions[0].id, 'a');
});

test('item 8: the file\'s permission bits survive a write (0600 stays 0600, 0664 stays 0664)', async (t) => {
  const dir = tempDir('spanproof-gt-mode-', t);
  for (const mode of [0o600, 0o664]) {
    const file = join(dir, `gt-${mode.toString(8)}.json`);
    writeFileSync(file, EMPTY);
    chmodSync(file, mode);
    assert.equal(await writeGroundTruth(file, ONE), true);
    assert.equal(statSync(file).mode & 0o777, mode);
  }
});

test('items 8, 15: a read-only ground truth is not written — bad input naming the file and the fix (also as root)', async (t) => {
  const dir = tempDir('spanproof-gt-ro-', t);
  const file = join(dir, 'groundtruth.json');
  writeFileSync(file, EMPTY);
  chmodSync(file, 0o444);
  await assert.rejects(writeGroundTruth(file, ONE), (e: unknown) => isSpanproofError(e) && e.code === 'bad-input' && /read-only/.test(e.message) && e.message.includes(file) && /chmod u\+w/.test(e.message));
  assert.equal(readFileSync(file, 'utf8'), EMPTY);
  assert.equal(statSync(file).mode & 0o777, 0o444);
});

/** True when this machine lets an unprivileged user namespace mount a tmpfs (Linux). */
function canMountTmpfs(): boolean {
  return spawnSync('unshare', ['-rm', 'sh', '-c', 'd=$(mktemp -d) && mount -t tmpfs -o size=64k tmpfs "$d"'], { stdio: 'ignore' }).status === 0;
}

test('item 15: a full disk says "disk full" (a real 64 kB tmpfs, filled), the file is unchanged', { skip: !canMountTmpfs() && 'needs unshare -rm to mount a tmpfs' }, (t) => {
  const dir = tempDir('spanproof-gt-full-', t);
  const script = `
    const { writeGroundTruth } = require('./src/core/groundtruth');
    const fs = require('node:fs');
    const file = ${JSON.stringify(join(dir, 'mnt', 'groundtruth.json'))};
    fs.writeFileSync(file, ${JSON.stringify(EMPTY)});
    try { fs.writeFileSync(${JSON.stringify(join(dir, 'mnt', 'filler'))}, Buffer.alloc(1 << 20)); } catch {}
    const big = { spanproof: 1, questions: Array.from({ length: 400 }, (_, i) => ({ id: 'q' + i, question: 'Q'.repeat(200), evidence: [{ source: 'a.md', exact: 'a quote long enough ' + i }] })) };
    writeGroundTruth(file, big).then(() => console.log('WRITTEN'), (e) => console.log(JSON.stringify({ code: e.code, message: e.message, same: fs.readFileSync(file, 'utf8') === ${JSON.stringify(EMPTY)} })));
  `;
  mkdirSync(join(dir, 'mnt'));
  const r = spawnSync('unshare', ['-rm', 'sh', '-c', `mount -t tmpfs -o size=64k tmpfs "$1" && exec "$2" --import tsx -e "$3"`, 'sh', join(dir, 'mnt'), process.execPath, script], { cwd: REPO, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout.trim().split('\n').pop()!);
  assert.equal(out.code, 'bad-input');
  assert.match(out.message, /disk is full/);
  assert.equal(out.same, true, 'the file was not changed');
});
