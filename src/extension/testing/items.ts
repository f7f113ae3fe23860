/**
 * The Test Explorer's tree of questions: one item per document (the document of a question's first
 * evidence span), one child per question, with `uri`/`range` on that span so the gutter shows ▶ on the
 * evidence and "Run Test at Cursor" works. Items are kept by id across refreshes, so results stay
 * attached while the ground truth is edited. A question whose evidence does not resolve (stale,
 * ambiguous, rejected) is listed with an error: runs exclude it, and the message says why.
 */
import * as vscode from 'vscode';
import { lineStarts } from '../../core/groundtruth';
import { rangeIn } from '../editor';
import type { FolderScope } from '../folder';

/** The question behind a question item. */
export interface QuestionRef {
  folder: FolderScope;
  questionId: string;
}

const DOC = 'doc';
const QUESTION = 'q';

export class QuestionItems {
  /** Question item → its question; document items are not in here. */
  private readonly refs = new WeakMap<vscode.TestItem, QuestionRef>();

  constructor(private readonly controller: vscode.TestController) {}

  /** Rebuild the tree from the folders' ground truth (reusing items whose id is unchanged). */
  sync(folders: readonly FolderScope[]): void {
    const docs: vscode.TestItem[] = [];
    const byDoc = new Map<string, vscode.TestItem[]>();
    const docItems = new Map<string, vscode.TestItem>();
    const many = folders.length > 1;
    for (const f of folders) {
      const gt = f.store.gt;
      const res = f.store.resolution;
      if (!gt) continue;
      const starts = new Map<string, readonly number[]>();
      gt.questions.forEach((q, qi) => {
        const first = q.evidence[0];
        if (!first) return;
        const docId = `${DOC}:${f.key}|${first.source}`;
        let doc = docItems.get(docId);
        if (!doc) {
          doc = this.reuse(docId, many ? `${f.folder.name}/${first.source}` : first.source, f.store.uriOf(first.source));
          docItems.set(docId, doc);
          docs.push(doc);
          byDoc.set(docId, []);
        }
        const item = this.reuse(`${QUESTION}:${f.key}|${q.id}`, q.question, f.store.uriOf(first.source));
        item.description = q.id;
        this.refs.set(item, { folder: f, questionId: q.id });
        const r = res?.perEvidence[qi]?.[0];
        const bad = (res?.perEvidence[qi] ?? []).filter((x) => x.status !== 'resolved' && x.status !== 'moved').map((x) => x.status);
        item.error = bad.length ? `Excluded from runs: ${bad.join(', ')} evidence — see Problems for the fix.` : undefined;
        if (r && (r.status === 'resolved' || r.status === 'moved')) {
          item.range = this.rangeOf(f, first.source, r.span.start, r.span.end, starts);
          item.sortText = String(r.span.start).padStart(12, '0');
        } else {
          item.range = undefined;
          item.sortText = 'z';
        }
        byDoc.get(docId)!.push(item);
      });
    }
    for (const doc of docs) doc.children.replace(byDoc.get(doc.id) ?? []);
    this.controller.items.replace(docs);
  }

  /** The question of a question item; undefined for document items. */
  refOf(item: vscode.TestItem): QuestionRef | undefined {
    return this.refs.get(item);
  }

  /** Question items under `item` (itself when it is one). */
  questionsUnder(item: vscode.TestItem): vscode.TestItem[] {
    if (this.refs.has(item)) return [item];
    const out: vscode.TestItem[] = [];
    item.children.forEach((c) => out.push(...this.questionsUnder(c)));
    return out;
  }

  /** Every question item of the tree. */
  all(): vscode.TestItem[] {
    const out: vscode.TestItem[] = [];
    this.controller.items.forEach((d) => out.push(...this.questionsUnder(d)));
    return out;
  }

  /** The item of question `questionId` in `folder`, if listed. */
  itemOf(folder: FolderScope, questionId: string): vscode.TestItem | undefined {
    return this.all().find((i) => {
      const r = this.refs.get(i);
      return r?.folder === folder && r.questionId === questionId;
    });
  }

  /** A range for `[start, end)` of `source`: through the open document when there is one. */
  rangeOf(f: FolderScope, source: string, start: number, end: number, cache?: Map<string, readonly number[]>): vscode.Range | undefined {
    const doc = f.store.openDocument(source);
    if (doc) return new vscode.Range(doc.positionAt(start), doc.positionAt(end));
    const text = f.store.textOf(source);
    if (text === undefined) return undefined;
    let starts = cache?.get(source);
    if (!starts) {
      starts = lineStarts(text);
      cache?.set(source, starts);
    }
    return rangeIn(text, Math.min(start, text.length), Math.min(end, text.length), starts);
  }

  private reuse(id: string, label: string, uri: vscode.Uri): vscode.TestItem {
    const existing = this.find(id);
    if (existing && existing.uri?.toString() === uri.toString()) {
      existing.label = label;
      return existing;
    }
    return this.controller.createTestItem(id, label, uri);
  }

  private find(id: string): vscode.TestItem | undefined {
    const top = this.controller.items.get(id);
    if (top) return top;
    let hit: vscode.TestItem | undefined;
    this.controller.items.forEach((d) => {
      hit ??= d.children.get(id);
    });
    return hit;
  }
}
