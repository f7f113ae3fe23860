/**
 * Ground-truth writes from real concurrent processes (#16 items 7, 9): N writer processes each make M
 * acknowledged read-modify-write edits (read the file, add a question, `writeGroundTruth` with the text
 * read as `expectedContent`, re-read and retry when refused); every acknowledged edit must be in the
 * final file. Also: a lock left by a dead process is recovered; a lock held by a live one is waited
 * for and then refused with a message naming it; temporary files left by a killed write are removed
 * by the next write.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { writeGroundTruth } from '../../../../src/core/groundtruth';
import { REPO } from '../../../helpers/paths';
import { tempDir } from '../../../helpers/tmp';

const EMPTY = '{\n  "spanproof": 1,\n  "questions": []\n}\n';

/** A child process that makes `m` acknowledged edits as writer `w`; prints the acknowledged ids as JSON. */
function writer(file: string, w: number, m: number): Promise<string[]> {
  const script = `
    const { readGroundTruthWithText, writeGroundTruth } = require('./src/core/groundtruth');
    (async () => {
      const acked = [];
      for (let j = 0; j < ${m}; j++) {
        const id = 'w${w}-' + j;
        for (let attempt = 0; ; attempt++) {
          const { gt, text } = await readGroundTruthWithText(${JSON.stringify(file)});
          gt.questions.push({ id, question: 'Q ' + id, evidence: [{ source: 'a.md', exact: 'a quote long enough ' + id }] });
          try {
            if (await writeGroundTruth(${JSON.stringify(file)}, gt, { expectedContent: text })) { acked.push(id); break; }
          } catch (e) {
            if (!/changed on disk/.test(e.message) || attempt > 500) throw e;
          }
        }
      }
      process.stdout.write(JSON.stringify(acked));
    })().catch((e) => { process.stderr.write(String(e.stack || e)); process.exit(3); });
  `;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '-e', script], { cwd: REPO });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`writer ${w} exited ${code}: ${err}`))));
  });
}

test('item 7: 4 writer processes × 40 acknowledged edits — every acknowledged edit is kept', { timeout: 300000 }, async (t) => {
  const dir = tempDir('spanproof-gt-race-', t);
  const file = join(dir, 'groundtruth.json');
  writeFileSync(file, EMPTY);
  const N = 4;
  const M = 40;
  const acked = (await Promise.all(Array.from({ length: N }, (_, w) => writer(file, w, M)))).flat();
  assert.equal(acked.length, N * M, 'every writer finished its edits');
  const kept = new Set((JSON.parse(readFileSync(file, 'utf8')) as { questions: Array<{ id: string }> }).questions.map((q) => q.id));
  const lost = acked.filter((id) => !kept.has(id));
  assert.deepEqual(lost, [], `${lost.length} of ${acked.length} acknowledged edits were lost`);
  assert.equal(kept.size, N * M);
  assert.deepEqual(readdirSync(dir).sort(), ['groundtruth.json'], 'no lock or temporary file left behind');
});

/** The pid of a process that has exited (so it cannot hold anything). */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

test('item 7: a lock left by a dead process is recovered; one held by a live process is waited for, then refused naming it', { timeout: 60000 }, async (t) => {
  const dir = tempDir('spanproof-gt-lock-', t);
  const file = join(dir, 'groundtruth.json');
  writeFileSync(file, EMPTY);
  const lock = join(dir, '.groundtruth.json.lock');
  const gt = { spanproof: 1 as const, questions: [{ id: 'a', question: 'Q', evidence: [{ source: 'a.md', exact: 'a quote long enough' }] }] };
  writeFileSync(lock, JSON.stringify({ pid: deadPid(), host: hostname(), at: new Date().toISOString() }));
  assert.equal(await writeGroundTruth(file, gt), true, 'the stale lock did not block the write');
  assert.equal(existsSync(lock), false);
  // A live holder (a sleeping child process): the write waits up to its timeout, then says who holds the lock.
  const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
  try {
    writeFileSync(lock, JSON.stringify({ pid: holder.pid, host: hostname(), at: new Date().toISOString() }));
    await assert.rejects(writeGroundTruth(file, { ...gt, questions: [] }, { lockTimeoutMs: 600 }), (e: Error) => /being written by another process/.test(e.message) && e.message.includes(String(holder.pid)) && /\.groundtruth\.json\.lock/.test(e.message));
    assert.equal(JSON.parse(readFileSync(file, 'utf8')).questions.length, 1, 'not written while locked');
  } finally {
    holder.kill();
  }
});

test('item 9: hidden temporary files left by a killed write are removed by the next write (a live writer\'s are kept)', async (t) => {
  const dir = tempDir('spanproof-gt-tmp-', t);
  const file = join(dir, 'groundtruth.json');
  writeFileSync(file, EMPTY);
  const dead = join(dir, `.groundtruth.json.${deadPid()}.0a1b2c3d.tmp`);
  const live = join(dir, `.groundtruth.json.${process.ppid}.0a1b2c3d.tmp`); // the test runner: alive
  const other = join(dir, '.notes.json.123.0a1b2c3d.tmp'); // another file's: not ours to touch
  for (const f of [dead, live, other]) writeFileSync(f, '{"half":');
  await writeGroundTruth(file, { spanproof: 1, questions: [{ id: 'a', question: 'Q', evidence: [{ source: 'a.md', exact: 'a quote long enough' }] }] });
  assert.equal(existsSync(dead), false, 'the dead writer\'s temporary file was removed');
  assert.equal(existsSync(live), true);
  assert.equal(existsSync(other), true);
});
