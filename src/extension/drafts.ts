/**
 * Editor surfaces of drafted questions (issue #14 §6): a CodeLens above each drafted evidence span —
 * Accept Draft / Reject Draft / Edit Question — and a decoration of its own (dotted border, its own
 * theme colours `spanproof.draftEvidenceBackground` / `spanproof.draftEvidenceBorder`, "draft" after the
 * span), so drafted and hand-written evidence never look the same. Ordinary evidence keeps the
 * decoration of EditorSurfaces (editor.ts), which leaves drafts out.
 */
import * as vscode from 'vscode';
import type { GroundTruthStore } from './store';
import { draftTargets } from './draftTargets';
import type { EvidenceLenses, LensContext } from './lenses';

export class DraftSurfaces implements vscode.Disposable {
  private readonly decoration = vscode.window.createTextEditorDecorationType({
    backgroundColor: new vscode.ThemeColor('spanproof.draftEvidenceBackground'),
    border: '1px dotted',
    borderColor: new vscode.ThemeColor('spanproof.draftEvidenceBorder'),
    overviewRulerColor: new vscode.ThemeColor('spanproof.draftEvidenceBorder'),
    overviewRulerLane: vscode.OverviewRulerLane.Left,
    rangeBehavior: vscode.DecorationRangeBehavior.ClosedClosed,
    after: { contentText: ' draft', color: new vscode.ThemeColor('spanproof.draftEvidenceBorder'), fontStyle: 'italic' },
  });
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly stores: () => GroundTruthStore[],
    lenses: EvidenceLenses,
  ) {
    this.disposables.push(
      lenses.register((ctx) => this.lensesFor(ctx)), // the one CodeLens provider over evidence (lenses.ts)
      vscode.window.onDidChangeVisibleTextEditors(() => this.decorateAll()),
      this.decoration,
    );
  }

  private targetsOf(uri: vscode.Uri) {
    for (const store of this.stores()) {
      const source = store.sourceOf(uri);
      if (source !== undefined) return { store, targets: draftTargets(store.gt, store.resolution, source) };
    }
    return undefined;
  }

  /** Recompute the decorations (the ground truth or its resolution changed; EvidenceLenses refreshes the lenses). */
  refresh(): void {
    this.decorateAll();
  }

  decorateAll(): void {
    for (const editor of vscode.window.visibleTextEditors) {
      const hit = this.targetsOf(editor.document.uri);
      if (!hit) continue;
      const doc = editor.document;
      editor.setDecorations(this.decoration, hit.targets.map((t) => ({
        range: new vscode.Range(doc.positionAt(t.start), doc.positionAt(t.end)),
        hoverMessage: new vscode.MarkdownString().appendMarkdown(`**Drafted question** (${t.id}, not scored until accepted): `).appendText(t.question).appendMarkdown(t.reanchored ? '\n\nThe model\'s quote differed in whitespace or quote marks; it was re-anchored to this exact text.' : ''),
      })));
    }
  }

  /** Accept / Reject / Edit Question above each draft's first span in the document. */
  private lensesFor(ctx: LensContext): vscode.CodeLens[] {
    const doc = ctx.document;
    const hit = { store: ctx.folder.store, targets: draftTargets(ctx.folder.store.gt, ctx.folder.store.resolution, ctx.source) };
    const folder = hit.store.folder.uri.toString();
    const seen = new Set<string>();
    const lenses: vscode.CodeLens[] = [];
    for (const t of hit.targets) {
      if (seen.has(t.id)) continue; // one set of actions per draft, on its first span in this document
      seen.add(t.id);
      const range = new vscode.Range(doc.positionAt(t.start), doc.positionAt(t.start));
      const arg = { folder, id: t.id };
      const short = t.question.length > 60 ? `${t.question.slice(0, 59)}…` : t.question;
      lenses.push(
        new vscode.CodeLens(range, { title: `$(check) Accept draft: ${short}`, command: 'spanproof.acceptDraft', arguments: [arg], tooltip: 'Make it an ordinary question (scored by the next run); provenance is kept.' }),
        new vscode.CodeLens(range, { title: '$(close) Reject', command: 'spanproof.rejectDraft', arguments: [arg], tooltip: 'Remove this drafted question from the ground truth.' }),
        new vscode.CodeLens(range, { title: '$(edit) Edit Question', command: 'spanproof.editDraftQuestion', arguments: [arg], tooltip: 'Reword the drafted question before accepting it.' }),
      );
    }
    return lenses;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
