import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeDirs } from '../../../../src/core/files/dirs';
import { tempDir } from '../../../helpers/tmp';
import { MINI, MINI_GT } from '../../../helpers/grid';

const REPO = join(__dirname, '..', '..', '..', '..');

test('makeDirs: makes every missing level, leaves an existing folder alone, and fails like mkdir -p on a file (ENOTDIR / EEXIST) or a dangling link', (t) => {
  const root = tempDir('spanproof-dirs-', t);
  const deep = join(root, 'a', 'b', 'c');
  makeDirs(deep);
  assert.ok(statSync(deep).isDirectory());
  makeDirs(deep); // again: no error
  makeDirs(root);
  const file = join(root, 'f');
  writeFileSync(file, 'x');
  assert.throws(() => makeDirs(join(file, 'sub')), (e: NodeJS.ErrnoException) => e.code === 'ENOTDIR');
  assert.throws(() => makeDirs(file), (e: NodeJS.ErrnoException) => e.code === 'EEXIST');
  symlinkSync(join(root, 'nowhere'), join(root, 'dangling'));
  assert.throws(() => makeDirs(join(root, 'dangling', 'x')), (e: NodeJS.ErrnoException) => e.code === 'EEXIST');
  assert.equal(existsSync(join(root, 'nowhere')), false, 'the link target is not created');
  mkdirSync(join(root, 'real'));
  symlinkSync(join(root, 'real'), join(root, 'link'));
  makeDirs(join(root, 'link', 'x'));
  assert.ok(statSync(join(root, 'real', 'x')).isDirectory(), 'a link to a folder is followed like mkdir -p does');
});

// Node's mkdir(…, { recursive: true }) spins forever on /proc (ENOENT for the child, EEXIST for the
// parent): the child process below would be killed by the timeout, status null, instead of failing fast.
test('makeDirs under /proc returns ENOENT at once (Node\'s recursive mkdir never returns there, 100 % CPU)', { skip: !existsSync('/proc/self') && 'no /proc on this system' }, () => {
  const script = `const { makeDirs } = require(${JSON.stringify(join(REPO, 'src', 'core', 'files', 'dirs.ts'))}); for (const d of ['/proc/x', '/proc/x/y/z']) { try { makeDirs(d); console.log(d, 'made'); } catch (e) { console.log(d, e.code); } }`;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { encoding: 'utf8', timeout: 30_000, killSignal: 'SIGKILL', cwd: REPO });
  assert.equal(r.status, 0, `killed or failed (signal ${r.signal}): ${r.stderr}`);
  assert.deepEqual(r.stdout.trim().split('\n'), ['/proc/x ENOENT', '/proc/x/y/z ENOENT']);
});

test('spanproof run --out /proc/x (and --runs-dir, --cache-dir) is exit 2 naming the folder, not a hang that ignores SIGTERM', { skip: !existsSync('/proc/self') && 'no /proc on this system' }, (t) => {
  const ws = tempDir('spanproof-dirs-ws-', t);
  for (const flags of [['--out', '/proc/x'], ['--runs-dir', '/proc/x/runs'], ['--cache-dir', '/proc/x', '--out', join(ws, 'run')]]) {
    // spawnSync with SIGKILL: the old hang did not even answer SIGINT/SIGTERM (its event loop was blocked)
    const r = spawnSync(process.execPath, ['--import', 'tsx', join(REPO, 'src', 'cli', 'main.ts'), 'run', '--workspace', MINI, '--groundtruth', MINI_GT, '--chunkers', 'heading', '--retrievers', 'bm25', '--rerank', 'off', ...flags], { encoding: 'utf8', timeout: 90_000, killSignal: 'SIGKILL', cwd: REPO, env: { ...process.env, SPANPROOF_WORKER: join(REPO, 'src', 'worker', 'main.ts') } });
    assert.equal(r.status, 2, `${flags.join(' ')} (signal ${r.signal}): ${r.stderr}`);
    assert.match(r.stderr, /\/proc\/x.*cannot be created or written \(no folder can be made there \(a virtual file system such as \/proc or \/sys\), ENOENT\)\. Fix: pass a writable folder with --/);
  }
});
