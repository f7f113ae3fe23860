/**
 * Spans follow the documents (SPEC §3.2): re-anchor against the live text while typing (debounced per
 * folder), write moved offsets when a document is saved, forget a closed document's text.
 */
import * as vscode from 'vscode';
import type { FolderScope } from './folder';

/** Subscriptions (extension lifetime) that feed document events to the folder scope they belong to. */
export function trackDocuments(folderOf: (uri: vscode.Uri) => FolderScope | undefined, log: vscode.LogOutputChannel): vscode.Disposable[] {
  return [
    vscode.workspace.onDidChangeTextDocument((e) => {
      const f = folderOf(e.document.uri);
      const source = f?.store.sourceOf(e.document.uri);
      if (!f || source === undefined || !f.store.gt?.questions.some((q) => q.evidence.some((x) => x.source === source))) return;
      f.resolveSoon.schedule();
    }),
    vscode.workspace.onDidSaveTextDocument(async (doc) => {
      const f = folderOf(doc.uri);
      if (!f || doc.uri.fsPath === f.store.file) return; // the watcher reloads the ground truth itself
      const source = f.store.sourceOf(doc.uri);
      if (source === undefined) return;
      await f.store.invalidateText(source);
      if (f.disposed) return;
      const outcome = await f.store.saveMoved();
      if (outcome === 'written' || outcome === 'merged') log.info(`updated evidence offsets in ${f.store.file} after saving ${source}`);
    }),
    vscode.workspace.onDidCloseTextDocument((doc) => {
      const f = folderOf(doc.uri);
      const source = f?.store.sourceOf(doc.uri);
      if (f && source !== undefined) void f.store.invalidateText(source);
    }),
  ];
}
