/**
 * Editor surfaces of the ground truth (SPEC §12): evidence decorations (theme colours + overview
 * ruler), hover with the question and the latest run's hit/miss per config, Problems entries for
 * stale/ambiguous/rejected evidence, and their quick fixes (re-anchor to the selection or to the
 * nearest match; remove the evidence).
 */
import * as vscode from 'vscode';
import { isDraft, lineAt, lineStarts, type EvidenceResolution } from '../core/groundtruth';
import type { GroundTruthStore } from './store';
import type { RunsModel } from './runsModel';
import { evidenceHoverMarkdown } from './hoverText';

/** Identifies one evidence item: question id + index in its evidence list. */
export interface EvidenceRef {
  questionId: string;
  index: number;
}

export const DIAGNOSTIC_SOURCE = 'spanproof';

export interface SpanEntry {
  ref: EvidenceRef;
  question: string;
  start: number;
  end: number;
  /** Evidence of a drafted question (decorated by DraftSurfaces, drafts.ts). */
  draft: boolean;
}

export class EditorSurfaces implements vscode.Disposable {
  private readonly decoration = vscode.window.createTextEditorDecorationType({
    backgroundColor: new vscode.ThemeColor('spanproof.evidenceBackground'),
    border: '1px dashed',
    borderColor: new vscode.ThemeColor('spanproof.evidenceBorder'),
    overviewRulerColor: new vscode.ThemeColor('spanproof.evidenceBorder'),
    overviewRulerLane: vscode.OverviewRulerLane.Right,
    rangeBehavior: vscode.DecorationRangeBehavior.ClosedClosed,
  });
  readonly diagnostics = vscode.languages.createDiagnosticCollection(DIAGNOSTIC_SOURCE);
  /** Diagnostic → evidence it is about (quick fixes read it back). */
  private readonly diagRefs = new WeakMap<vscode.Diagnostic, EvidenceRef & { nearest?: { start: number; end: number } }>();
  private disposables: vscode.Disposable[] = [];

  constructor(
    private readonly stores: () => GroundTruthStore[],
    private readonly runs: (store: GroundTruthStore) => RunsModel | undefined,
  ) {
    this.disposables.push(
      vscode.languages.registerHoverProvider({ scheme: 'file' }, { provideHover: (d, p) => this.hover(d, p) }),
      vscode.languages.registerCodeActionsProvider({ scheme: 'file' }, { provideCodeActions: (d, r, c) => this.codeActions(d, r, c) }, {
        providedCodeActionKinds: [vscode.CodeActionKind.QuickFix],
      }),
      vscode.window.onDidChangeVisibleTextEditors(() => this.decorateAll()),
      vscode.window.onDidChangeTextEditorSelection((e) => this.updateCursorContext(e.textEditor)),
    );
  }

  private storeFor(uri: vscode.Uri): { store: GroundTruthStore; source: string } | undefined {
    for (const store of this.stores()) {
      const source = store.sourceOf(uri);
      if (source !== undefined) return { store, source };
    }
    return undefined;
  }

  /** Resolved spans of `source` with the question they belong to. */
  spansOf(store: GroundTruthStore, source: string): SpanEntry[] {
    const out: SpanEntry[] = [];
    const gt = store.gt;
    const res = store.resolution;
    if (!gt || !res) return out;
    gt.questions.forEach((q, i) =>
      q.evidence.forEach((e, j) => {
        const r = res.perEvidence[i]?.[j];
        if (e.source === source && r && (r.status === 'resolved' || r.status === 'moved')) {
          out.push({ ref: { questionId: q.id, index: j }, question: q.question, start: r.span.start, end: r.span.end, draft: isDraft(q) });
        }
      }),
    );
    return out;
  }

  /** Recompute decorations and diagnostics for everything. */
  refresh(): void {
    this.decorateAll();
    this.diagnoseAll();
  }

  decorateAll(): void {
    for (const editor of vscode.window.visibleTextEditors) {
      const hit = this.storeFor(editor.document.uri);
      if (!hit) continue;
      const doc = editor.document;
      const ranges = this.spansOf(hit.store, hit.source).filter((s) => !s.draft).map((s) => ({
        range: new vscode.Range(doc.positionAt(s.start), doc.positionAt(s.end)),
      }));
      editor.setDecorations(this.decoration, ranges);
    }
  }

  private updateCursorContext(editor: vscode.TextEditor): void {
    const hit = this.storeFor(editor.document.uri);
    let inside = false;
    if (hit) {
      const off = editor.document.offsetAt(editor.selection.active);
      inside = this.spansOf(hit.store, hit.source).some((s) => off >= s.start && off <= s.end);
    }
    void vscode.commands.executeCommand('setContext', 'spanproof.cursorInEvidence', inside);
  }

  /** The question id of the evidence under the cursor of the active editor, if any. */
  questionAtCursor(): string | undefined {
    const editor = vscode.window.activeTextEditor;
    if (!editor) return undefined;
    const hit = this.storeFor(editor.document.uri);
    if (!hit) return undefined;
    const off = editor.document.offsetAt(editor.selection.active);
    return this.spansOf(hit.store, hit.source).find((s) => off >= s.start && off <= s.end)?.ref.questionId;
  }

  diagnoseAll(): void {
    this.diagnostics.clear();
    const byUri = new Map<string, { uri: vscode.Uri; list: vscode.Diagnostic[] }>();
    const add = (uri: vscode.Uri, d: vscode.Diagnostic) => {
      const k = uri.toString();
      if (!byUri.has(k)) byUri.set(k, { uri, list: [] });
      byUri.get(k)!.list.push(d);
    };
    for (const store of this.stores()) {
      const gt = store.gt;
      const res = store.resolution;
      if (store.loadError) {
        add(vscode.Uri.file(store.file), new vscode.Diagnostic(new vscode.Range(0, 0, 0, 1), store.loadError, vscode.DiagnosticSeverity.Error));
        continue;
      }
      if (!gt || !res) continue;
      gt.questions.forEach((q, i) =>
        q.evidence.forEach((e, j) => {
          const r: EvidenceResolution | undefined = res.perEvidence[i]?.[j];
          if (!r || r.status === 'resolved' || r.status === 'moved') return;
          const text = store.textOf(e.source);
          const uri = text === undefined ? vscode.Uri.file(store.file) : store.uriOf(e.source);
          const doc = text === undefined ? undefined : store.openDocument(e.source);
          const at = (start: number, end: number) => {
            if (text === undefined) return new vscode.Range(0, 0, 0, 0);
            const s = Math.max(0, Math.min(start, text.length));
            const t = Math.max(s, Math.min(end, text.length));
            return doc ? new vscode.Range(doc.positionAt(s), doc.positionAt(t)) : rangeIn(text, s, t);
          };
          const quote = e.exact.length > 60 ? `${e.exact.slice(0, 57)}…` : e.exact;
          let d: vscode.Diagnostic;
          let nearest: { start: number; end: number } | undefined;
          if (r.status === 'stale') {
            nearest = r.nearest ? { start: r.nearest.start, end: r.nearest.end } : undefined;
            const range = nearest ? at(nearest.start, nearest.end) : at(e.start ?? 0, e.end ?? 0);
            const near = r.nearest ? ` Nearest match (line ${r.nearest.line}, similarity ${r.nearest.similarity}).` : '';
            d = new vscode.Diagnostic(range, `Stale evidence of question "${q.question}" (${q.id}): ${r.reason} — quote "${quote}".${near}`, vscode.DiagnosticSeverity.Warning);
            d.code = 'stale-evidence';
          } else if (r.status === 'ambiguous') {
            const c = r.candidates[0];
            d = new vscode.Diagnostic(at(c?.start ?? 0, c?.end ?? 0), `Ambiguous evidence of question "${q.question}" (${q.id}): the quote occurs ${r.candidates.length} times equally well (lines ${r.candidates.map((x) => x.line).join(', ')}). Select the right occurrence and re-anchor.`, vscode.DiagnosticSeverity.Warning);
            d.code = 'ambiguous-evidence';
          } else if (r.status === 'rejected') {
            d = new vscode.Diagnostic(at(e.start ?? 0, e.end ?? 0), `Rejected evidence of question "${q.question}" (${q.id}): ${r.reason}`, vscode.DiagnosticSeverity.Warning);
            d.code = 'rejected-evidence';
          } else return;
          d.source = DIAGNOSTIC_SOURCE;
          this.diagRefs.set(d, { questionId: q.id, index: j, nearest });
          add(uri, d);
        }),
      );
    }
    for (const { uri, list } of byUri.values()) this.diagnostics.set(uri, list);
  }

  private codeActions(doc: vscode.TextDocument, range: vscode.Range | vscode.Selection, ctx: vscode.CodeActionContext): vscode.CodeAction[] {
    const out: vscode.CodeAction[] = [];
    const editor = vscode.window.activeTextEditor;
    const selection = editor && editor.document === doc && !editor.selection.isEmpty ? editor.selection : undefined;
    for (const d of ctx.diagnostics) {
      const ref = this.diagRefs.get(d);
      if (d.source !== DIAGNOSTIC_SOURCE || !ref) continue;
      if (ref.nearest) {
        const a = new vscode.CodeAction('Re-anchor evidence to the nearest match', vscode.CodeActionKind.QuickFix);
        a.diagnostics = [d];
        a.isPreferred = true;
        a.command = { command: 'spanproof.reanchorEvidence', title: a.title, arguments: [{ ...ref, uri: doc.uri, start: ref.nearest.start, end: ref.nearest.end }] };
        out.push(a);
      }
      if (selection) {
        const a = new vscode.CodeAction('Re-anchor evidence to the current selection', vscode.CodeActionKind.QuickFix);
        a.diagnostics = [d];
        a.isPreferred = !ref.nearest;
        a.command = {
          command: 'spanproof.reanchorEvidence',
          title: a.title,
          arguments: [{ ...ref, uri: doc.uri, start: doc.offsetAt(selection.start), end: doc.offsetAt(selection.end) }],
        };
        out.push(a);
      }
      const rm = new vscode.CodeAction('Remove this evidence', vscode.CodeActionKind.QuickFix);
      rm.diagnostics = [d];
      rm.command = { command: 'spanproof.deleteEvidence', title: rm.title, arguments: [ref] };
      out.push(rm);
    }
    void range;
    return out;
  }

  private hover(doc: vscode.TextDocument, pos: vscode.Position): vscode.Hover | undefined {
    const hit = this.storeFor(doc.uri);
    if (!hit) return undefined;
    const off = doc.offsetAt(pos);
    const spans = this.spansOf(hit.store, hit.source).filter((s) => off >= s.start && off < s.end);
    if (!spans.length) return undefined;
    const md = new vscode.MarkdownString(undefined, true);
    md.isTrusted = { enabledCommands: ['spanproof.runEvaluationForQuestion', 'spanproof.showResults'] };
    const runs = this.runs(hit.store);
    md.appendMarkdown(evidenceHoverMarkdown(spans.map((s) => ({ questionId: s.ref.questionId, question: s.question })), runs?.k, (id) => runs?.statusOf(id)));
    const first = spans[0];
    return new vscode.Hover(md, new vscode.Range(doc.positionAt(first.start), doc.positionAt(first.end)));
  }

  dispose(): void {
    this.decoration.dispose();
    this.diagnostics.dispose();
    for (const d of this.disposables) d.dispose();
  }
}

/**
 * Range of UTF-16 offsets `[start, end)` in `text` (for documents not open in an editor). `\r\n`, `\r`
 * and `\n` each end a line, as in VS Code. `starts` (core `lineStarts(text)`) may be passed for many look-ups.
 */
export function rangeIn(text: string, start: number, end: number, starts: readonly number[] = lineStarts(text)): vscode.Range {
  const pos = (off: number) => {
    const line = lineAt(starts, off) - 1;
    return new vscode.Position(line, off - starts[line]);
  };
  return new vscode.Range(pos(start), pos(end));
}
