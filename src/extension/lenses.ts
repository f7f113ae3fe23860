/**
 * CodeLens over evidence (issue 15 item 5). One provider, open to contributors: each contributor gets
 * the document, its folder and the resolved evidence spans in it, and returns lenses. The built-in
 * contributor puts "hit in 24/30 · recommended: hit" (the latest run, at its own k) and "Run this
 * question" above each question's first span in the document. Others (e.g. drafted evidence:
 * Accept / Reject / Edit Question) register with `register(contributor)`.
 */
import * as vscode from 'vscode';
import type { EditorSurfaces, SpanEntry } from './editor';
import type { FolderScope } from './folder';

export interface LensContext {
  document: vscode.TextDocument;
  folder: FolderScope;
  /** POSIX path of the document relative to the folder. */
  source: string;
  /** Resolved evidence spans of the ground truth in this document (UTF-16 offsets), in file order. */
  spans: SpanEntry[];
}

/** Returns lenses for one document; called on every refresh of the lenses (keep it cheap). */
export type LensContributor = (ctx: LensContext) => vscode.CodeLens[];

export class EvidenceLenses implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly contributors: LensContributor[] = [];
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.emitter.event;
  private readonly registration: vscode.Disposable;

  constructor(
    private readonly folderOf: (uri: vscode.Uri) => FolderScope | undefined,
    private readonly editor: EditorSurfaces,
  ) {
    this.registration = vscode.languages.registerCodeLensProvider({ scheme: 'file' }, this);
    this.register(runLenses);
  }

  /** Add a contributor; dispose the result to remove it. */
  register(contributor: LensContributor): vscode.Disposable {
    this.contributors.push(contributor);
    this.refresh();
    return {
      dispose: () => {
        const i = this.contributors.indexOf(contributor);
        if (i >= 0) this.contributors.splice(i, 1);
        this.refresh();
      },
    };
  }

  /** Ask VS Code to re-query the lenses (ground truth or runs changed). */
  refresh(): void {
    this.emitter.fire();
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const folder = this.folderOf(document.uri);
    const source = folder?.store.sourceOf(document.uri);
    if (!folder || source === undefined || folder.disposed) return [];
    const spans = this.editor.spansOf(folder.store, source).sort((a, b) => a.start - b.start);
    const ctx: LensContext = { document, folder, source, spans };
    return this.contributors.flatMap((c) => {
      try {
        return c(ctx);
      } catch {
        return []; // one contributor's failure must not hide the others' lenses
      }
    });
  }

  dispose(): void {
    this.registration.dispose();
    this.emitter.dispose();
  }
}

/** The built-in lenses: the latest run's result for the question, and a command to re-run it. */
export const runLenses: LensContributor = ({ document, folder, spans }) => {
  const out: vscode.CodeLens[] = [];
  const seen = new Set<string>();
  for (const s of spans) {
    if (seen.has(s.ref.questionId)) continue; // one pair of lenses per question and document
    seen.add(s.ref.questionId);
    const range = new vscode.Range(document.positionAt(s.start), document.positionAt(s.start));
    const st = folder.runs.statusOf(s.ref.questionId);
    let title = 'not run yet';
    let tooltip = `${s.ref.questionId}: no run has scored this question yet`;
    if (st && st.scored > 0) {
      const rec = st.recommended;
      const recText = rec ? ` · recommended: ${rec.failed ? 'not scored' : rec.hit ? 'hit' : `miss (${rec.cause ?? 'miss'})`}` : '';
      title = `hit in ${st.hits}/${st.scored}${recText}`;
      tooltip = `${s.ref.questionId} in the latest run: hit@${folder.runs.k} in ${st.hits} of ${st.scored} configs${rec ? `; in the recommended ${rec.config}: ${rec.hit ? 'hit' : (rec.cause ?? 'miss')}` : ''}. Click for the results.`;
    }
    out.push(new vscode.CodeLens(range, { title, tooltip, command: 'spanproof.showResults' }));
    out.push(new vscode.CodeLens(range, { title: 'Run this question', tooltip: `Run Evaluation for This Question (${s.ref.questionId}) in every config`, command: 'spanproof.runEvaluationForQuestion', arguments: [s.ref.questionId] }));
  }
  return out;
};
