/**
 * resolveWritableInside (fresh-user pass item 8): a file about to be written is confined to the root
 * by its real path and by every symbolic link on the way — a dangling one by where it points, since
 * a write through it would create the file there.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync } from 'node:fs';
import * as path from 'node:path';
import { resolveWritableInside } from '../../../../src/core/corpus';
import { tempDir } from '../../../helpers/tmp';

test('resolveWritableInside: links out of the root (also dangling) are refused naming the link; links inside and a missing root are fine', (t) => {
  const root = tempDir('spanproof-confine-write-', t);
  const ws = path.join(root, 'ws');
  mkdirSync(path.join(ws, 'in'), { recursive: true });
  mkdirSync(path.join(root, 'outside'));
  symlinkSync('../outside', path.join(ws, 'out'));
  symlinkSync('../outside/new.json', path.join(ws, 'dangling.json'));
  symlinkSync('in', path.join(ws, 'alias'));
  symlinkSync('in/missing.json', path.join(ws, 'dangling-in.json'));
  const refused = (rel: string, link: string): void => {
    assert.throws(() => resolveWritableInside(ws, rel, `file ${rel}`), (e: Error & { code?: string; file?: string }) => {
      assert.equal(e.code, 'bad-input');
      assert.equal(e.file, path.join(ws, link));
      assert.match(e.message, new RegExp(`: ${link.replace(/\./g, '\\.')} is a symbolic link to .*outside the workspace .*refusing to write file`));
      return true;
    });
  };
  refused('out/a/b.txt', 'out');
  refused('dangling.json', 'dangling.json');
  assert.throws(() => resolveWritableInside(ws, '../x.txt', 'x'), /outside the workspace .*not written/);
  assert.equal(resolveWritableInside(ws, 'alias/new/x.txt', 'x'), path.join(ws, 'alias', 'new', 'x.txt'));
  assert.equal(resolveWritableInside(ws, 'dangling-in.json', 'x'), path.join(ws, 'dangling-in.json'));
  assert.equal(resolveWritableInside(path.join(root, 'not-yet'), 'a/b.txt', 'x'), path.join(root, 'not-yet', 'a', 'b.txt'));
});
