/**
 * src/core/files/read.ts, the one reader of files Spanproof is handed (#16 hardening N1): a named
 * pipe, a device (a link to /dev/zero) and a socket are refused without blocking, a folder keeps
 * Node's EISDIR, a file over the limit is refused before it is read, and a "size 0" file that is not
 * empty (/proc) is read only up to the limit. The calls that once hung run in a child process killed
 * after a bound, so a regression fails instead of hanging the suite.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { FileRefusedError, readRegularFile, readRegularFileSync } from '../../../../src/core/files/read';
import { EmbeddingCache } from '../../../../src/core/cache/index';
import { withFileLock, lockPathOf } from '../../../../src/core/groundtruth/lock';
import { isSpanproofError } from '../../../../src/core/errors';
import { runBounded } from '../../../helpers/bounded';
import { thrown } from '../../../helpers/thrown';
import { tempDir } from '../../../helpers/tmp';

const posix = { skip: process.platform === 'win32' };

test('a FIFO, a link to /dev/zero and a folder are refused at once; the refusal says what the file is', posix, (t) => {
  const dir = tempDir('sp-read-', t);
  execFileSync('mkfifo', [join(dir, 'pipe')]);
  symlinkSync('/dev/zero', join(dir, 'zero'));
  symlinkSync('pipe', join(dir, 'to-pipe'));
  // in a child: before the fix the FIFO read waited forever and /dev/zero read until memory ran out
  const script = `
    const { readRegularFileSync, readRegularFile } = require('./src/core/files/read');
    const out = [];
    const says = (f) => { try { readRegularFileSync(f, 1024, { what: 'the x file' }); out.push('read'); } catch (e) { out.push(e.code + ' ' + e.message); } };
    for (const f of ${JSON.stringify(['pipe', 'zero', 'to-pipe'].map((n) => join(dir, n)))}) says(f);
    readRegularFile(${JSON.stringify(join(dir, 'pipe'))}, 1024).then(() => out.push('read'), (e) => out.push(e.code)).then(() => console.log(JSON.stringify(out)));
  `;
  const r = runBounded(script, 30_000);
  assert.equal(r.timedOut, false, 'the read hung');
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), [
    `bad-input ${join(dir, 'pipe')}: the x file is a named pipe (FIFO), not a regular file; it was not read. Fix: replace it with a regular file (a named pipe, device or socket is never read, also not through a symbolic link).`,
    `bad-input ${join(dir, 'zero')}: the x file is a device, not a regular file (it links to /dev/zero); it was not read. Fix: replace it with a regular file (a named pipe, device or socket is never read, also not through a symbolic link).`,
    `bad-input ${join(dir, 'to-pipe')}: the x file is a named pipe (FIFO), not a regular file (it links to ${join(dir, 'pipe')}); it was not read. Fix: replace it with a regular file (a named pipe, device or socket is never read, also not through a symbolic link).`,
    'bad-input',
  ]);
  mkdirSync(join(dir, 'folder'));
  // errors Node raises stay Node's, so every caller keeps its own message for a folder or a missing file
  assert.throws(() => readRegularFileSync(join(dir, 'folder'), 10), { code: 'EISDIR' });
  assert.throws(() => readRegularFileSync(join(dir, 'missing'), 10), { code: 'ENOENT' });
});

test('a file of exactly the limit is read; one byte more is refused with its size and the limit', async (t) => {
  const dir = tempDir('sp-read-cap-', t);
  writeFileSync(join(dir, 'ten'), '0123456789');
  assert.equal(readRegularFileSync(join(dir, 'ten'), 10).toString(), '0123456789');
  assert.equal((await readRegularFile(join(dir, 'ten'), 10)).toString(), '0123456789');
  const e = thrown(() => readRegularFileSync(join(dir, 'ten'), 9, { what: 'the ground-truth file', tooLargeFix: 'split it.' }));
  assert.ok(e instanceof FileRefusedError);
  assert.deepEqual(e.refusal, { size: 10, atLeast: false, maxBytes: 9 });
  assert.equal(e.message, `${join(dir, 'ten')}: the ground-truth file is 10 B, over the 9 bytes limit; it was not read. Fix: split it.`);
  writeFileSync(join(dir, 'big'), Buffer.alloc(3 * 1024 * 1024 + 1));
  await assert.rejects(readRegularFile(join(dir, 'big'), 3 * 1024 * 1024), (x: unknown) => isSpanproofError(x) && x.message.endsWith('this file is 3.1 MB, over the 3 MiB limit; it was not read. Fix: make it smaller, or check that the path names the file you meant.'));
  assert.equal(readRegularFileSync(join(dir, 'big'), 4 * 1024 * 1024).length, 3 * 1024 * 1024 + 1, 'read in several chunks, all of it');
});

test('a file that says it is empty but is not (/proc) is read to its end, and only up to the limit', { skip: process.platform !== 'linux' }, () => {
  const text = readRegularFileSync('/proc/self/status', 1024 * 1024).toString('utf8');
  assert.match(text, /^Name:/);
  const e = thrown(() => readRegularFileSync('/proc/self/status', 16));
  assert.ok(e instanceof FileRefusedError);
  assert.deepEqual(e.refusal, { size: 16, atLeast: true, maxBytes: 16 });
});

test('an embedding cache entry that is a FIFO or a link to /dev/zero is a cache miss, not a hang', posix, (t) => {
  const dir = tempDir('sp-read-cache-', t);
  const cache = new EmbeddingCache(dir);
  const sha = 'a'.repeat(64);
  const entry = cache.entryPath(sha, 'k', 'e');
  mkdirSync(join(entry, '..'), { recursive: true });
  execFileSync('mkfifo', [entry]);
  const zeroEntry = cache.entryPath('b'.repeat(64), 'k', 'e');
  symlinkSync('/dev/zero', zeroEntry);
  const r = runBounded(`
    const { EmbeddingCache } = require('./src/core/cache/index');
    const c = new EmbeddingCache(${JSON.stringify(dir)});
    console.log(JSON.stringify([c.read(${JSON.stringify(sha)}, 'k', 'e', ['x'], 3) ?? 'miss', c.read(${JSON.stringify('b'.repeat(64))}, 'k', 'e', ['x'], 3) ?? 'miss']));
  `, 30_000);
  assert.equal(r.timedOut, false, 'the cache read hung');
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), ['miss', 'miss']);
});

test('a ground-truth lock dated in the future (year 9999) by a live process is stale, not a lock forever', async (t) => {
  const dir = tempDir('sp-lock-future-', t);
  const file = join(dir, 'groundtruth.json');
  const lock = lockPathOf(file);
  // this very process holds it (alive, same host): only its date makes it stale
  writeFileSync(lock, JSON.stringify({ pid: process.pid, host: hostname(), at: '9999-01-01T00:00:00.000Z', nonce: 'future' }));
  const future = new Date('9999-01-01T00:00:00Z');
  utimesSync(lock, future, future);
  const t0 = Date.now();
  assert.equal(await withFileLock(file, async () => 'written', { timeoutMs: 2_000 }), 'written');
  assert.ok(Date.now() - t0 < 1_500, 'taken at once, not after the wait');
  // a lock of a live process dated now, or a few seconds ahead (clock skew), still holds
  for (const ahead of [0, 30_000]) {
    const at = new Date(Date.now() + ahead);
    writeFileSync(lock, JSON.stringify({ pid: process.pid, host: hostname(), at: at.toISOString(), nonce: 'live' }));
    utimesSync(lock, at, at);
    await assert.rejects(withFileLock(file, async () => 'written', { timeoutMs: 200 }), /being written by another process/);
  }
});

test('a ground-truth lock file that is a FIFO is judged by its age, not read (reading it waited forever)', posix, (t) => {
  const dir = tempDir('sp-lock-fifo-', t);
  const file = join(dir, 'groundtruth.json');
  const lock = lockPathOf(file);
  execFileSync('mkfifo', [lock]);
  const old = new Date(Date.now() - 3_600_000);
  utimesSync(lock, old, old);
  const r = runBounded(`require('./src/core/groundtruth/lock').withFileLock(${JSON.stringify(file)}, async () => 'written', { timeoutMs: 2000 }).then((x) => console.log(x), (e) => console.log(e.message))`, 30_000);
  assert.equal(r.timedOut, false, 'the lock read hung');
  assert.equal(r.stdout.trim(), 'written');
});
