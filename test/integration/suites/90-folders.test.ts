// Per-folder lifetime (issue 15 item 7): a folder added to the workspace gets its own scope (store, runs
// model, watchers); removed, the scope is released and its watchers no longer reach the store. Last in
// the suite order: the window has a second folder for a while. (The in-host window is opened through a
// .code-workspace file: adding a folder to a single-folder window reloads it.)
import * as assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, sleep, test, until, ws } from '../harness';

function folderEvent(kind: 'added' | 'removed'): Promise<void> {
  return new Promise((resolve) => {
    const d = vscode.workspace.onDidChangeWorkspaceFolders((e) => {
      if (e[kind].length) {
        d.dispose();
        resolve();
      }
    });
  });
}

test('a folder removed from the workspace releases its scope: store, runs model and watchers', async () => {
  const sp = await api();
  const dir = mkdtempSync(path.join(tmpdir(), 'spanproof-it-folder-'));
  // The documents and the ground truth, not the runs and caches the earlier suites wrote.
  cpSync(ws(), dir, { recursive: true, filter: (src) => !/[\\/]\.spanproof[\\/](runs|cache)/.test(src) });
  const gtFile = path.join(dir, '.spanproof', 'groundtruth.json');
  const rewrite = (question: string) => {
    const gt = JSON.parse(readFileSync(gtFile, 'utf8'));
    gt.questions[0].question = question;
    writeFileSync(gtFile, JSON.stringify(gt, null, 2) + '\n');
  };
  const index = vscode.workspace.workspaceFolders!.length;
  const added = folderEvent('added');
  assert.ok(vscode.workspace.updateWorkspaceFolders(index, 0, { uri: vscode.Uri.file(dir) }), 'folder added');
  await added;
  const scope = await until(() => [...sp.folders.values()].find((f) => f.folder.uri.fsPath === dir), 'a scope for the added folder');
  await until(() => scope.store.resolution?.acceptance.resolved === 20, 'the added folder resolved');
  // While the folder is in, its watcher reloads an edit made on disk. (A root added to the workspace
  // is watched after a moment: the edit is repeated every 2 s until the store shows it.)
  const t0 = Date.now();
  let seen: string | undefined;
  for (let n = 1; !seen && Date.now() - t0 < 40000; n++) {
    rewrite(`Edited while the folder is in the workspace #${n}`);
    await sleep(2000);
    const q = scope.store.gt?.questions[0].question;
    if (q?.startsWith('Edited while the folder is in the workspace')) seen = q;
  }
  assert.ok(seen, 'the watcher reloads a disk edit while the folder is in the workspace');
  await sleep(1000); // let a reload of a later repetition settle
  const before = scope.store.gt?.questions[0].question;

  const removed = folderEvent('removed');
  assert.ok(vscode.workspace.updateWorkspaceFolders(index, 1), 'folder removed');
  await removed;
  await until(() => scope.disposed, 'the scope disposed');
  assert.equal([...sp.folders.values()].some((f) => f.folder.uri.fsPath === dir), false, 'no scope left for the removed folder');
  // After removal disk edits reach nothing (before issue 15 the watcher kept calling the disposed store).
  for (let n = 1; n <= 3; n++) {
    rewrite(`Edited after the folder left #${n}`);
    await sleep(2000);
  }
  assert.equal(scope.store.gt?.questions[0].question, before);
  // The remaining folder still works.
  assert.equal([...sp.folders.values()][0].store.resolution?.acceptance.total, 20);
});
