/**
 * A full disk is the user's environment, not a bug (#16 item 15): `run` writing its run directory onto
 * a full file system (a 16 kB tmpfs in a user + mount namespace, `unshare -rm`; skipped where not
 * allowed) and `validate --json` / `report` writing stdout to /dev/full (the kernel's ENOSPC) exit 2
 * with "the disk is full (ENOSPC)" and a Fix:, no stack trace; an injected ENOSPC maps the same way.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { diskFullError } from '../../../src/core/fsErrors';
import { SpanproofError, isSpanproofError } from '../../../src/core/errors';
import { REPO } from '../../helpers/paths';
import { tempDir } from '../../helpers/tmp';

const MINI = join(REPO, 'samples', 'fastapi-mini');
const MINI_GT = join(REPO, 'samples', 'fastapi-mini.groundtruth.json');
const CLI = ['--import', 'tsx', join(REPO, 'src', 'cli', 'main.ts')];
const ENV = { ...process.env, SPANPROOF_WORKER: join(REPO, 'src', 'worker', 'main.ts') };
const canMount = spawnSync('unshare', ['-rm', 'sh', '-c', 'mount -t tmpfs -o size=16k tmpfs /mnt'], { encoding: 'utf8' }).status === 0;

function run(cmd: string, args: string[], stdout: 'pipe' | number = 'pipe'): Promise<{ code: number | null; stderr: string }> {
  return new Promise((res) => {
    const child = spawn(cmd, args, { cwd: REPO, env: ENV, stdio: ['ignore', stdout, 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    child.on('close', (code) => res({ code, stderr }));
  });
}

test('diskFullError: an ENOSPC/EDQUOT (also wrapped, as writeFileAtomic wraps it) becomes bad-input naming the file and the fix; anything else is unchanged', () => {
  const wrapped = new SpanproofError('internal', 'could not write /r/questions.jsonl: ENOSPC: no space left on device', { file: '/r/questions.jsonl', cause: Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' }) });
  const m = diskFullError(wrapped, 'free some space.');
  assert.ok(isSpanproofError(m) && m.code === 'bad-input');
  assert.equal((m as SpanproofError).message, '/r/questions.jsonl: cannot write this file (the disk is full, ENOSPC). Fix: free some space.');
  const other = Object.assign(new Error('EIO'), { code: 'EIO' });
  assert.equal(diskFullError(other, 'x'), other);
});

test('validate --json with stdout on /dev/full (as report, runs, … print): exit 2, "the disk is full (ENOSPC)" and a Fix:, not exit 3', { skip: !existsSync('/dev/full') && 'no /dev/full' }, async () => {
  const full = openSync('/dev/full', 'w');
  try {
    const v = await run(process.execPath, [...CLI, 'validate', '--workspace', MINI, '--groundtruth', MINI_GT, '--json'], full);
    assert.equal(v.code, 2, v.stderr);
    assert.match(v.stderr, /cannot write stdout \(the disk is full, ENOSPC\)\. Fix: /);
    assert.doesNotMatch(v.stderr, /\n\s+at /);
  } finally {
    closeSync(full);
  }
});

test('run with --out on a full 16 kB tmpfs: exit 2 naming the file, "the disk is full (ENOSPC)", Fix: naming --out / --cache-dir', { skip: !canMount && 'unshare -rm with a tmpfs mount is not allowed here', timeout: 120000 }, async (t) => {
  const dir = tempDir('sp-run-tmpfs-', t);
  const mnt = join(dir, 'mnt');
  const cli = [process.execPath, ...CLI, 'run', '--workspace', MINI, '--groundtruth', MINI_GT, '--out', join(mnt, 'run'), '--cache-dir', join(dir, 'cache'), '--chunkers', 'heading', '--retrievers', 'bm25', '--rerank', 'off'].map((a) => JSON.stringify(a)).join(' ');
  const r = await run('unshare', ['-rm', 'sh', '-c', `mkdir -p ${mnt} && mount -t tmpfs -o size=16k tmpfs ${mnt} && exec ${cli}`]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /cannot write this file \(the disk is full, ENOSPC\)\. Fix: .*--out/);
  assert.ok(r.stderr.includes(join(mnt, 'run')), r.stderr);
  assert.doesNotMatch(r.stderr, /internal error|\n\s+at /);
});

test('validate --fix on a full disk leaves no empty or partial groundtruth.json.bak behind, so the next --fix keeps the original as .bak (#16 item 8 + 15)', { skip: !canMount && 'unshare -rm with a tmpfs mount is not allowed here', timeout: 120000 }, async (t) => {
  const dir = tempDir('sp-bak-tmpfs-', t);
  const mnt = join(dir, 'mnt');
  // 300 questions whose cached offsets are all wrong (start 0): --fix must back the file up, then rewrite it.
  const lines = Array.from({ length: 300 }, (_, i) => `Item ${i}: the retry budget of service ${i} is ${i % 7} attempts.`);
  const doc = `# Services\n\n${lines.join('\n')}\n`;
  const gt = `${JSON.stringify({ spanproof: 1, questions: lines.map((l, i) => ({ id: `q${i}`, question: `What is the retry budget of service ${i}?`, evidence: [{ source: 'services.md', exact: l, start: 0, end: l.length }] })) }, null, 2)}\n`;
  const src = join(dir, 'src');
  mkdirSync(join(src, '.spanproof'), { recursive: true });
  writeFileSync(join(src, 'services.md'), doc);
  writeFileSync(join(src, '.spanproof', 'groundtruth.json'), gt);
  const ws = join(mnt, 'ws');
  const fix = [process.execPath, ...CLI, 'validate', '--fix', '--workspace', ws].map((a) => JSON.stringify(a)).join(' ');
  const script = [
    `mkdir -p ${mnt} && mount -t tmpfs -o size=512k tmpfs ${mnt} && cp -r ${JSON.stringify(src)} ${ws}`,
    `(dd if=/dev/zero of=${mnt}/fill bs=1k 2>/dev/null; true)`, // the disk is now full
    `${fix} 2>${dir}/first.err; echo "first=$?"`,
    `ls -a ${ws}/.spanproof | tr '\\n' ' '; echo`,
    `rm ${mnt}/fill`,
    `${fix} >/dev/null 2>${dir}/second.err; echo "second=$?"`,
    `ls -a ${ws}/.spanproof | tr '\\n' ' '; echo`,
    `cp ${ws}/.spanproof/groundtruth.json.bak ${dir}/bak.json`,
  ].join('\n');
  const r = spawnSync('unshare', ['-rm', 'sh', '-c', script], { cwd: REPO, env: ENV, encoding: 'utf8', timeout: 110000 });
  const out = r.stdout.split('\n');
  const firstErr = readFileSync(join(dir, 'first.err'), 'utf8');
  assert.equal(out[0], 'first=2', firstErr);
  assert.match(firstErr, /the disk is full/);
  assert.doesNotMatch(firstErr, /\n\s+at /);
  assert.equal(out[1].trim(), '. .. groundtruth.json', 'the failed backup is removed (no empty .bak that would be kept forever)');
  assert.equal(out[2], 'second=0', readFileSync(join(dir, 'second.err'), 'utf8'));
  assert.equal(out[3].trim(), '. .. groundtruth.json groundtruth.json.bak');
  assert.equal(readFileSync(join(dir, 'bak.json'), 'utf8'), gt, 'the backup holds the original, byte for byte');
});
