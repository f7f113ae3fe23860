/**
 * src/core/files: the atomic durable write (temp + fsync + rename + folder fsync) and the one JSON
 * Lines parser. fsync is observed by counting calls on node:fs (the module the helper calls through).
 */
import { test, mock } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { openAtomicFile, parseJsonLines, readJsonLines, writeFileAtomic, writeFileAtomicAsync } from '../../../../src/core/files';
import { isSpanproofError } from '../../../../src/core/errors';
import { errnoCode } from '../../../../src/core/fsErrors';
import { tempDir } from '../../../helpers/tmp';

// The node:fs module object itself (an `import * as` namespace is a copy that mocks cannot reach).
const fs = createRequire(__filename)('node:fs') as typeof import('node:fs');

test('writeFileAtomic replaces the file, fsyncs the data and the folder, and leaves no temporary file', (t) => {
  const dir = tempDir('sp-atomic-', t);
  const file = path.join(dir, 'results.json');
  fs.writeFileSync(file, 'old');
  const fsync = mock.method(fs, 'fsyncSync');
  try {
    writeFileAtomic(file, '{"new": true}\n');
  } finally {
    fsync.mock.restore();
  }
  assert.equal(fs.readFileSync(file, 'utf8'), '{"new": true}\n');
  // one fsync of the temporary file before the rename, one of the folder after it (POSIX)
  assert.equal(fsync.mock.callCount(), process.platform === 'win32' ? 1 : 2);
  assert.deepEqual(fs.readdirSync(dir), ['results.json']);
});

test('writeFileAtomic durable: false (caches) renames over the target without any fsync', (t) => {
  const dir = tempDir('sp-atomic-', t);
  const file = path.join(dir, 'entry.json');
  fs.writeFileSync(file, 'old');
  const fsync = mock.method(fs, 'fsyncSync');
  try {
    writeFileAtomic(file, '{"cache": 1}', { durable: false });
  } finally {
    fsync.mock.restore();
  }
  assert.equal(fs.readFileSync(file, 'utf8'), '{"cache": 1}');
  assert.equal(fsync.mock.callCount(), 0);
  assert.deepEqual(fs.readdirSync(dir), ['entry.json']);
});

test('writeFileAtomic writes bytes unchanged', (t) => {
  const dir = tempDir('sp-atomic-', t);
  const file = path.join(dir, 'm.bin');
  const bytes = Uint8Array.from({ length: 70000 }, (_, i) => i % 251);
  writeFileAtomic(file, bytes);
  assert.deepEqual(new Uint8Array(fs.readFileSync(file)), bytes);
});

test('a failed write leaves the target as it was and no temporary file; the error names the file and keeps the errno', (t) => {
  const dir = tempDir('sp-atomic-', t);
  const file = path.join(dir, 'run.json');
  fs.writeFileSync(file, 'kept');
  const rename = mock.method(fs, 'renameSync', () => {
    throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
  });
  try {
    assert.throws(() => writeFileAtomic(file, 'lost'), (e: unknown) => isSpanproofError(e) && e.file === file && errnoCode(e) === 'ENOSPC');
  } finally {
    rename.mock.restore();
  }
  assert.equal(fs.readFileSync(file, 'utf8'), 'kept');
  assert.deepEqual(fs.readdirSync(dir), ['run.json']);
  // a missing folder: ENOENT reaches the caller through `cause`
  assert.throws(() => writeFileAtomic(path.join(dir, 'no', 'x.json'), '{}'), (e: unknown) => errnoCode(e) === 'ENOENT');
});

test('writeFileAtomicAsync and openAtomicFile: nothing visible until commit, fsync before rename, abort removes the temporary file', async (t) => {
  const dir = tempDir('sp-atomic-', t);
  const file = path.join(dir, 'groundtruth.json');
  await writeFileAtomicAsync(file, '{"spanproof": 1}\n');
  assert.equal(fs.readFileSync(file, 'utf8'), '{"spanproof": 1}\n');

  const out = path.join(dir, 'chunks.jsonl');
  const f = await openAtomicFile(out);
  await f.write('{"a":1}\n');
  await f.write(Buffer.from('{"b":2}\n'));
  assert.equal(fs.existsSync(out), false, 'not visible before commit');
  const probe = await fsp.open(file, 'r');
  const handleProto = Object.getPrototypeOf(probe) as { sync(): Promise<void> };
  await probe.close();
  const sync = mock.method(handleProto, 'sync');
  try {
    await f.commit();
  } finally {
    sync.mock.restore();
  }
  assert.equal(sync.mock.callCount(), 1);
  assert.equal(fs.readFileSync(out, 'utf8'), '{"a":1}\n{"b":2}\n');

  const g = await openAtomicFile(path.join(dir, 'never.jsonl'));
  await g.write('partial');
  await g.abort();
  assert.deepEqual(fs.readdirSync(dir).sort(), ['chunks.jsonl', 'groundtruth.json']);
});

test('parseJsonLines: blank lines skipped with the numbering kept, CRLF accepted, bad lines reported not thrown', () => {
  const lines = parseJsonLines('{"a":1}\r\n\n  \n[2]\nnot json\n');
  assert.deepEqual(lines.map((l) => [l.line, l.value ?? null]), [[1, { a: 1 }], [4, [2]], [5, null]]);
  assert.match(lines[2].error ?? '', /^not valid JSON: /);
});

test('readJsonLines: [] for a missing file; the first damaged line is a bad-input error naming file and line', (t) => {
  const dir = tempDir('sp-jsonl-', t);
  assert.deepEqual(readJsonLines(path.join(dir, 'absent.jsonl'), 're-run.'), []);
  const file = path.join(dir, 'q.jsonl');
  fs.writeFileSync(file, '{"q":1}\n\n{"q":\n');
  assert.throws(() => readJsonLines(file, 're-run.'), (e: unknown) => isSpanproofError(e) && e.code === 'bad-input' && e.file === file && e.field === 'line 3' && e.fix === 're-run.');
});
