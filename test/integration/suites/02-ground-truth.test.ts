// The ground truth in the editor: loading, validation, hover, authoring refusals, spans that follow
// edits, and disk synchronisation (merge / refuse).
import * as assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, folder, test, until, ws } from '../harness';

const gtOnDisk = () => JSON.parse(readFileSync(folder().store.file, 'utf8')) as { questions: Array<{ id: string; question: string; evidence: Array<{ start: number; end: number; exact: string }> }> };

test('the sample ground truth loads and all 20 questions resolve', async () => {
  await api();
  const s = folder().store;
  await until(() => s.resolution, 'resolution');
  assert.equal(s.gt!.questions.length, 20);
  assert.equal(s.resolution!.acceptance.total, 20);
  assert.equal(s.resolution!.acceptance.resolved, 20);
});

test('Open Ground Truth File opens .spanproof/groundtruth.json; Validate Ground Truth reports 20/20', async () => {
  await api();
  await vscode.commands.executeCommand('spanproof.openGroundTruthFile');
  await until(() => vscode.window.activeTextEditor?.document.uri.fsPath === folder().store.file, 'ground-truth editor');
  await vscode.commands.executeCommand('spanproof.validateGroundTruth');
  assert.equal(folder().store.resolution!.acceptance.resolved, 20);
});

test('the hover over evidence names the question', async () => {
  await api();
  const doc = await vscode.workspace.openTextDocument(path.join(ws(), 'tutorial', 'body.md'));
  await vscode.window.showTextDocument(doc);
  const at = doc.positionAt(718 + 5);
  const hovers = (await vscode.commands.executeCommand('vscode.executeHoverProvider', doc.uri, at)) as vscode.Hover[];
  const text = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
  assert.match(text, /Spanproof evidence/);
  assert.match(text, /fa-d-008/);
});

test('an empty selection is refused and writes nothing', async () => {
  await api();
  const before = readFileSync(folder().store.file, 'utf8');
  const doc = await vscode.workspace.openTextDocument(path.join(ws(), 'tutorial', 'cors.md'));
  const ed = await vscode.window.showTextDocument(doc);
  ed.selection = new vscode.Selection(1, 0, 1, 0); // line 2 is empty
  const r = await vscode.commands.executeCommand('spanproof.newQuestionFromSelection');
  assert.equal(r, undefined);
  assert.equal(readFileSync(folder().store.file, 'utf8'), before);
});

test('spans follow live edits, and the new offsets are written when the document is saved', async () => {
  await api();
  const s = folder().store;
  const doc = await vscode.workspace.openTextDocument(path.join(ws(), 'tutorial', 'body.md'));
  await vscode.window.showTextDocument(doc);
  const qi = s.gt!.questions.findIndex((q) => q.id === 'fa-d-008');
  const before = gtOnDisk().questions[qi].evidence[0];
  assert.equal(before.start, 718); // from the fixture
  const insert = 'Inserted line.\n';
  const edit = new vscode.WorkspaceEdit();
  edit.insert(doc.uri, new vscode.Position(0, 0), insert);
  assert.ok(await vscode.workspace.applyEdit(edit));
  // Re-anchored (status `moved`, then `resolved` at the new offsets on the next keystroke's resolution).
  await until(() => {
    const x = s.resolution?.perEvidence[qi][0];
    return x && (x.status === 'moved' || x.status === 'resolved') && x.span.start === 718 + insert.length;
  }, 'span re-anchored to the shifted offset');
  assert.equal(gtOnDisk().questions[qi].evidence[0].start, 718, 'not written before save');
  await doc.save();
  await until(() => gtOnDisk().questions[qi].evidence[0].start === 718 + insert.length, 'offsets written on save');
  assert.equal(gtOnDisk().questions[qi].evidence[0].end, 885 + insert.length);
});

test('a concurrent disk edit of another question is merged, not overwritten', async () => {
  await api();
  const s = folder().store;
  const file = s.file;
  const disk = JSON.parse(readFileSync(file, 'utf8'));
  disk.questions[0].question = 'Edited on disk';
  // Write behind the store's back, then mutate in memory before the watcher reloads.
  writeFileSync(file, JSON.stringify(disk, null, 2) + '\n');
  const outcome = await s.mutate((gt) => {
    gt.questions[1].tags = ['edited-in-editor'];
  });
  assert.ok(outcome === 'merged' || outcome === 'written', `outcome ${outcome}`);
  const after = gtOnDisk();
  assert.equal(after.questions[0].question, 'Edited on disk');
  assert.deepEqual((after.questions[1] as unknown as { tags: string[] }).tags, ['edited-in-editor']);
});

test('a conflicting disk edit of the same question is refused and the disk version kept', async () => {
  await api();
  const s = folder().store;
  await s.load();
  const disk = JSON.parse(readFileSync(s.file, 'utf8'));
  disk.questions[2].question = 'Disk wording';
  const diskText = JSON.stringify(disk, null, 2) + '\n';
  writeFileSync(s.file, diskText);
  const outcome = await s.mutate((gt) => {
    gt.questions[2].question = 'Editor wording';
  });
  assert.equal(outcome, 'conflict');
  assert.equal(readFileSync(s.file, 'utf8'), diskText);
  await s.load();
});

test('changing spanproof.minQuoteLength re-resolves the ground truth', async () => {
  await api();
  const s = folder().store;
  const cfg = vscode.workspace.getConfiguration('spanproof');
  await cfg.update('minQuoteLength', 100000, vscode.ConfigurationTarget.Workspace);
  await until(() => s.resolution && s.resolution.acceptance.rejected.length > 0, 'rejections');
  await cfg.update('minQuoteLength', undefined, vscode.ConfigurationTarget.Workspace);
  await until(() => s.resolution && s.resolution.acceptance.rejected.length === 0 && s.resolution.acceptance.resolved === 20, 'resolved again');
});
