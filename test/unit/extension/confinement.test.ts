// Issue #16 item 6: the editor reads and writes only inside the workspace folder, by the CLI corpus
// loader's real-path rule: the panel's readSpan (documentText), the store's document reads
// (readDocumentInside) and the spanproof.groundTruthPath setting refuse `..`, absolute paths and
// symbolic links out of the folder; files inside (a link to another file inside too) are read as before.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { readDocumentInside } from '../../../src/core/corpus';
import { documentText, type PanelFolder } from '../../../src/extension/panelHost';
import { groundTruthFileIn } from '../../../src/extension/confined';
import { tempDir } from '../../helpers/tmp';

function layout(): { ws: string; secret: string } {
  const root = tempDir('spanproof-confine-');
  const ws = path.join(root, 'ws');
  const out = path.join(root, 'outside');
  mkdirSync(ws);
  mkdirSync(out);
  const secret = path.join(out, 'secret.txt');
  writeFileSync(secret, 'TOP SECRET credentials');
  writeFileSync(path.join(ws, 'a.md'), '# A\n\ninside text\n');
  symlinkSync(secret, path.join(ws, 'link.md'));
  symlinkSync(out, path.join(ws, 'linkdir'));
  symlinkSync(path.join(ws, 'a.md'), path.join(ws, 'alias.md'));
  return { ws, secret };
}

const folderOf = (ws: string): PanelFolder => ({
  store: { folder: { uri: { fsPath: ws } }, openDocument: () => undefined, resolution: null } as unknown as PanelFolder['store'],
  runs: { runsRoot: path.join(ws, '.spanproof', 'runs'), runs: [] },
});

test('readSpan (documentText) never reads outside the workspace folder', () => {
  const { ws, secret } = layout();
  const f = folderOf(ws);
  for (const source of ['../outside/secret.txt', 'link.md', 'linkdir/secret.txt', secret]) assert.equal(documentText(f, source), undefined, source);
  assert.equal(documentText(f, 'a.md'), '# A\n\ninside text\n');
  assert.equal(documentText(f, 'alias.md'), '# A\n\ninside text\n', 'a link to a file inside is fine');
});

test('the store reads a document through a link out of the folder as skipped outside-root, like the CLI', () => {
  const { ws } = layout();
  const d = readDocumentInside(ws, 'link.md');
  assert.ok(!('text' in d));
  assert.equal(d.reason, 'outside-root');
  assert.deepEqual(readDocumentInside(ws, 'a.md'), { text: '# A\n\ninside text\n' });
  assert.equal((readDocumentInside(ws, 'missing.md') as { reason: string }).reason, 'unreadable');
});

test('spanproof.groundTruthPath outside the folder is refused; inside (even not yet created) is used', () => {
  const { ws, secret } = layout();
  for (const setting of ['../outside/gt.json', secret, 'linkdir/gt.json', 'link.md']) {
    const r = groundTruthFileIn(ws, setting);
    assert.match(r.refused ?? '', /is outside the workspace folder/, setting);
    assert.match(r.refused ?? '', /Set spanproof\.groundTruthPath to a path inside the folder/);
  }
  assert.deepEqual(groundTruthFileIn(ws, '.spanproof/groundtruth.json'), { file: path.join(ws, '.spanproof', 'groundtruth.json'), refused: null });
});
