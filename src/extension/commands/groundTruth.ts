/**
 * Commands on the ground-truth file as a whole and navigation to its spans: Open Ground Truth File,
 * Validate Ground Truth, Refresh Questions, and revealing an evidence span in its document.
 */
import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import type { EvidenceRef } from '../editor';
import type { FolderScope } from '../folder';
import type { Spanproof } from '../spanproof';
import type { CommandTable } from './types';

export const groundTruthCommands = {
  openGroundTruthFile: (sp) => () => openGroundTruth(sp),
  validateGroundTruth: (sp) => () => validate(sp),
  refreshQuestions: (sp) => () => sp.reloadAll(),
  revealEvidence: (sp) => (ref) => reveal(sp, ref as EvidenceRef),
} satisfies CommandTable;

async function reveal(sp: Spanproof, ref: EvidenceRef): Promise<void> {
  const store = sp.findStore(ref.questionId);
  const gt = store?.gt;
  if (!store || !gt) return;
  const qi = gt.questions.findIndex((q) => q.id === ref.questionId);
  const e = gt.questions[qi]?.evidence[ref.index];
  if (!e) return;
  const r = store.resolution?.perEvidence[qi]?.[ref.index];
  const uri = store.uriOf(e.source);
  if (!existsSync(uri.fsPath)) {
    void vscode.window.showWarningMessage(`Spanproof: ${e.source} is not in the workspace.`);
    return;
  }
  const doc = await vscode.workspace.openTextDocument(uri);
  const span = r && (r.status === 'resolved' || r.status === 'moved') ? r.span : r?.status === 'stale' && r.nearest ? r.nearest : undefined;
  const editor = await vscode.window.showTextDocument(doc, { preview: true });
  if (span) {
    const range = new vscode.Range(doc.positionAt(span.start), doc.positionAt(span.end));
    editor.selection = new vscode.Selection(range.start, range.end);
    editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }
}

/** Open `source` of `folder` at `[start, end)` (UTF-16 offsets) in the first editor column. */
export async function revealSpan(folder: FolderScope, source: string, start: number, end: number): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(folder.store.uriOf(source));
  const editor = await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.One, preview: true });
  const range = new vscode.Range(doc.positionAt(start), doc.positionAt(end));
  editor.selection = new vscode.Selection(range.start, range.end);
  editor.revealRange(range, vscode.TextEditorRevealType.InCenter);
}

async function validate(sp: Spanproof): Promise<void> {
  const lines: string[] = [];
  let bad = 0;
  for (const f of sp.folders.values()) {
    await f.store.load();
    if (f.store.loadError) {
      bad++;
      lines.push(f.store.loadError);
      continue;
    }
    const a = f.store.resolution?.acceptance;
    if (!a) {
      lines.push(`${f.folder.name}: no ground-truth file (${f.store.file}).`);
      continue;
    }
    bad += a.stale.length + a.ambiguous.length + a.rejected.length;
    lines.push(
      `${f.folder.name}: ${a.resolved}/${a.total} questions resolved (${a.moved} moved); ${a.stale.length} stale, ${a.ambiguous.length} ambiguous, ${a.rejected.length} rejected evidence.`,
    );
  }
  for (const l of lines) sp.output.info(`validate: ${l}`);
  const msg = `Spanproof: ${lines.join(' ')}`;
  if (bad) {
    const c = await vscode.window.showWarningMessage(msg, 'Show Problems');
    if (c) await vscode.commands.executeCommand('workbench.actions.view.problems');
  } else void vscode.window.showInformationMessage(msg);
}

async function openGroundTruth(sp: Spanproof): Promise<void> {
  const f = sp.primary();
  if (!f) {
    void vscode.window.showWarningMessage('Spanproof: open a folder first.');
    return;
  }
  if (f.store.loadError && !existsSync(f.store.file)) {
    void vscode.window.showErrorMessage(`Spanproof: ${f.store.loadError}`); // e.g. groundTruthPath outside the folder (#16 item 6)
    return;
  }
  if (!existsSync(f.store.file)) {
    const c = await vscode.window.showInformationMessage(`${f.store.file} does not exist yet. Create an empty ground-truth file?`, 'Create');
    if (c !== 'Create') return;
    await f.store.mutate(() => undefined);
  }
  await vscode.window.showTextDocument(vscode.Uri.file(f.store.file));
}
