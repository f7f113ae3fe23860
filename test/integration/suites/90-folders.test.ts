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
  // While the folder is in, its watcher reloads an edit made on disk.
  rewrite('Edited while the folder is in the workspace');
  await until(() => scope.store.gt?.questions[0].question === 'Edited while the folder is in the workspace', 'the watcher reloads the disk edit', 20000);

  const removed = folderEvent('removed');
  assert.ok(vscode.workspace.updateWorkspaceFolders(index, 1), 'folder removed');
  await removed;
  await until(() => scope.disposed, 'the scope disposed');
  assert.equal([...sp.folders.values()].some((f) => f.folder.uri.fsPath === dir), false, 'no scope left for the removed folder');
  // After removal a disk edit reaches nothing (before issue 15 the watcher kept calling the disposed store).
  rewrite('Edited after the folder left');
  await sleep(3000);
  assert.equal(scope.store.gt?.questions[0].question, 'Edited while the folder is in the workspace');
  // The remaining folder still works.
  assert.equal([...sp.folders.values()][0].store.resolution?.acceptance.total, 20);
});
