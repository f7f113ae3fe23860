import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { loadCorpus, sha256Hex } from '../../../../src/core/corpus';
import { isSpanproofError } from '../../../../src/core/errors';
import { tempDir } from '../../../helpers/tmp';
import { SHARED_DATA } from '../../../helpers/paths';
import { asUnprivileged } from '../../../helpers/unprivileged';

function tree(files: Record<string, string | Uint8Array>): string {
  const root = tempDir('spanproof-corpus-');
  for (const [rel, content] of Object.entries(files)) {
    const p = path.join(root, rel);
    mkdirSync(path.dirname(p), { recursive: true });
    writeFileSync(p, content);
  }
  return root;
}

test('loadCorpus: default globs, sorted sources, skips with reasons, never throws for a file', async () => {
  const root = tree({
    'b.md': 'B doc\r\n',
    'a/z.txt': '\ufeffwith BOM',
    'a/y.rst': 'rst',
    'notes.adoc': 'adoc',
    'code.py': 'print(1)', // not included by default
    'node_modules/pkg/readme.md': 'excluded',
    '.spanproof/runs/x.md': 'excluded',
    'dist/out.md': 'excluded',
    'big.md': 'x'.repeat(101),
    'latin1.txt': new Uint8Array([0x63, 0x61, 0x66, 0xe9]),
    'nul.md': new Uint8Array([0x61, 0x00, 0x62]),
    'É.md': 'accented name',
  });
  try {
    const c = await loadCorpus(root, { maxFileBytes: 100 });
    assert.equal(c.root, path.resolve(root));
    // UTF-8 byte order: 'É' (C3 89) sorts after ASCII.
    assert.deepEqual(c.documents.map((d) => d.source), ['a/y.rst', 'a/z.txt', 'b.md', 'notes.adoc', 'É.md']);
    const z = c.documents.find((d) => d.source === 'a/z.txt')!;
    assert.equal(z.text, 'with BOM');
    assert.equal(z.bytes, 11);
    assert.equal(z.sha256, sha256Hex('with BOM'));
    assert.equal(c.documents.find((d) => d.source === 'b.md')!.text, 'B doc\r\n');
    assert.deepEqual(c.skipped, [
      { source: 'big.md', reason: 'too-large', detail: '101 bytes > limit 100 bytes (setting maxFileBytes)' },
      { source: 'latin1.txt', reason: 'not-utf8', detail: 'invalid UTF-8 at byte 3' },
      { source: 'nul.md', reason: 'binary', detail: 'contains a NUL byte at byte 1 (a binary or UTF-16 file)' },
    ]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('loadCorpus: custom include/exclude globs', async () => {
  const root = tree({ 'docs/a.md': 'a', 'docs/b.md': 'b', 'docs/skip/c.md': 'c', 'src/x.py': 'x' });
  try {
    const c = await loadCorpus(root, { include: ['docs/**/*.md', '**/*.py'], exclude: ['**/skip/**'] });
    assert.deepEqual(c.documents.map((d) => d.source), ['docs/a.md', 'docs/b.md', 'src/x.py']);
    assert.deepEqual(c.skipped, []);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('loadCorpus: a missing root is a not-found error naming the folder', async () => {
  const missing = path.join(tmpdir(), 'spanproof-no-such-folder-4f1c');
  await assert.rejects(loadCorpus(missing), (e: unknown) => isSpanproofError(e) && e.code === 'not-found' && e.message.includes(missing));
});

const FASTAPI = path.join(SHARED_DATA, 'fastapi-docs');
test('loadCorpus: the shipped FastAPI docs load completely', async () => {
  const c = await loadCorpus(FASTAPI);
  // 155 Markdown files + SOURCE.txt; none skipped (release-notes.md is large but < 4 MB).
  assert.equal(c.documents.length, 156);
  assert.deepEqual(c.skipped, []);
  const sorted = [...c.documents.map((d) => d.source)].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  assert.deepEqual(c.documents.map((d) => d.source), sorted);
  assert.ok(c.documents.some((d) => d.source === 'tutorial/query-params.md'));
});

test('loadCorpus: an unreadable file is skipped as unreadable', async (t) => {
  if (asUnprivileged(t, __filename)) return; // root reads a chmod 000 file: re-run as nobody
  const root = tree({ 'ok.md': 'fine', 'locked.md': 'secret' });
  try {
    chmodSync(path.join(root, 'locked.md'), 0o000);
    const c = await loadCorpus(root);
    assert.deepEqual(c.documents.map((d) => d.source), ['ok.md']);
    assert.equal(c.skipped.length, 1);
    assert.equal(c.skipped[0].source, 'locked.md');
    assert.equal(c.skipped[0].reason, 'unreadable');
    assert.match(c.skipped[0].detail, /^EACCES: /);
  } finally {
    chmodSync(path.join(root, 'locked.md'), 0o600);
    rmSync(root, { recursive: true, force: true });
  }
});

test('loadCorpus: symlinks leaving the root are skipped (outside-root), loops are not walked, inside links are followed', async (t) => {
  const parent = tempDir('spanproof-links-');
  const root = path.join(parent, 'corpus');
  mkdirSync(path.join(root, 'docs', 'sub'), { recursive: true });
  writeFileSync(path.join(parent, 'secret.md'), 'parent secret');
  writeFileSync(path.join(root, 'docs', 'a.md'), 'doc a');
  const outside = path.join(parent, 'outside.txt');
  writeFileSync(outside, 'outside text');
  try {
    try {
      symlinkSync(outside, path.join(root, 'passwd.txt')); // file link out of the root
    } catch (e) {
      t.skip(`symlinks not permitted here: ${(e as Error).message}`);
      return;
    }
    symlinkSync('..', path.join(root, 'loop')); // the parent folder: outside the root
    symlinkSync('..', path.join(root, 'docs', 'sub', 'back')); // docs/: a loop inside the root
    symlinkSync('.', path.join(root, 'self')); // the root itself: a loop
    symlinkSync('docs/a.md', path.join(root, 'alias.md')); // file link inside the root: followed
    symlinkSync('docs', path.join(root, 'docs-link')); // folder link inside the root: followed
    symlinkSync('missing.md', path.join(root, 'dangling.md'));
    symlinkSync(outside, path.join(root, 'ignored.py')); // not matched by the include globs: not reported
    const c = await loadCorpus(root);
    assert.deepEqual(c.documents.map((d) => [d.source, d.text]), [
      ['alias.md', 'doc a'],
      ['docs-link/a.md', 'doc a'],
      ['docs/a.md', 'doc a'],
    ]);
    const realParent = realpathSync(parent);
    assert.deepEqual(c.skipped, [
      { source: 'dangling.md', reason: 'unreadable', detail: 'broken symbolic link (ENOENT)' },
      { source: 'docs-link/sub/back', reason: 'symlink-loop', detail: 'symbolic link to docs, a folder that contains it' },
      { source: 'docs/sub/back', reason: 'symlink-loop', detail: 'symbolic link to docs, a folder that contains it' },
      { source: 'loop', reason: 'outside-root', detail: `symbolic link to ${realParent}, outside the corpus root` },
      { source: 'passwd.txt', reason: 'outside-root', detail: `symbolic link to ${path.join(realParent, 'outside.txt')}, outside the corpus root` },
      { source: 'self', reason: 'symlink-loop', detail: 'symbolic link to ., a folder that contains it' },
    ]);
    assert.ok(!c.documents.some((d) => d.text === 'parent secret' || d.text === 'outside text'));
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
});
