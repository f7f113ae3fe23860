/**
 * Questions view: questions → evidence. A question's icon is its status in the latest succeeded run
 * (hit in every config / some / none) or, before scoring, its resolution (stale, ambiguous, rejected
 * evidence shows a warning). Clicking evidence reveals the span. Drafted questions (`"status": "draft"`,
 * issue #14) are listed apart under a **Drafts (N)** group with Accept All, each with Accept / Reject /
 * Edit Question; they are not scored until accepted.
 */
import * as vscode from 'vscode';
import type { GroundTruthStore } from './store';
import type { RunsModel } from './runsModel';
import type { EvidenceRef } from './editor';
import { isDraft } from '../core/groundtruth';

export type QuestionNode =
  | { kind: 'question'; store: GroundTruthStore; id: string }
  | { kind: 'drafts'; store: GroundTruthStore }
  | { kind: 'evidence'; store: GroundTruthStore; ref: EvidenceRef };

export class QuestionsTree implements vscode.TreeDataProvider<QuestionNode> {
  private readonly emitter = new vscode.EventEmitter<QuestionNode | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;

  constructor(
    private readonly stores: () => GroundTruthStore[],
    private readonly runs: (store: GroundTruthStore) => RunsModel | undefined,
  ) {}

  refresh(): void {
    this.emitter.fire(undefined);
  }

  getChildren(node?: QuestionNode): QuestionNode[] {
    if (!node) {
      return this.stores().flatMap((store): QuestionNode[] => {
        const qs = store.gt?.questions ?? [];
        const hand = qs.filter((q) => !isDraft(q)).map((q) => ({ kind: 'question' as const, store, id: q.id }));
        return qs.some(isDraft) ? [...hand, { kind: 'drafts', store }] : hand;
      });
    }
    if (node.kind === 'drafts') return (node.store.gt?.questions ?? []).filter(isDraft).map((q) => ({ kind: 'question' as const, store: node.store, id: q.id }));
    if (node.kind === 'question') {
      const q = node.store.gt?.questions.find((x) => x.id === node.id);
      return (q?.evidence ?? []).map((_, index) => ({ kind: 'evidence' as const, store: node.store, ref: { questionId: node.id, index } }));
    }
    return [];
  }

  getParent(node: QuestionNode): QuestionNode | undefined {
    if (node.kind === 'evidence') return { kind: 'question', store: node.store, id: node.ref.questionId };
    if (node.kind === 'question' && node.store.gt?.questions.some((q) => q.id === node.id && isDraft(q))) return { kind: 'drafts', store: node.store };
    return undefined;
  }

  getTreeItem(node: QuestionNode): vscode.TreeItem {
    if (node.kind === 'drafts') return this.draftsItem(node.store);
    const gt = node.store.gt;
    const qi = gt?.questions.findIndex((x) => x.id === (node.kind === 'question' ? node.id : node.ref.questionId)) ?? -1;
    const q = gt?.questions[qi];
    if (!q) return new vscode.TreeItem('(missing)');
    const res = node.store.resolution?.perEvidence[qi] ?? [];
    if (node.kind === 'question') {
      const item = new vscode.TreeItem(q.question, vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `q:${node.store.folder.uri.toString()}:${q.id}`;
      item.contextValue = 'question';
      const bad = res.filter((r) => r.status !== 'resolved' && r.status !== 'moved');
      const st = this.runs(node.store)?.statusOf(q.id);
      let tip = `${q.id}: ${q.question}`;
      if (q.answer) tip += `\nAnswer: ${q.answer}`;
      if (bad.length) {
        item.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground'));
        item.description = `${q.id} · ${bad.map((r) => r.status).join(', ')} — excluded`;
        tip += `\nExcluded from metrics: ${bad.map((r) => r.status).join(', ')} evidence.`;
      } else if (st && st.scored > 0) {
        const all = st.hits === st.scored;
        const none = st.hits === 0;
        item.iconPath = all
          ? new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed'))
          : none
            ? new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed'))
            : new vscode.ThemeIcon('circle-large-filled', new vscode.ThemeColor('testing.iconQueued'));
        item.description = `${q.id} · hit in ${st.hits}/${st.scored} configs`;
        tip += `\nLatest run: hit@${this.runs(node.store)?.k} in ${st.hits} of ${st.scored} configs.`;
      } else {
        item.iconPath = new vscode.ThemeIcon('circle-large-outline');
        item.description = q.id;
      }
      if (isDraft(q)) {
        item.contextValue = 'draft';
        item.iconPath = new vscode.ThemeIcon('sparkle', new vscode.ThemeColor('spanproof.draftEvidenceBorder'));
        item.description = `${q.id} · draft${bad.length ? ` · ${bad.map((r) => r.status).join(', ')}` : ''}`;
        tip += `\nDrafted by ${q.provenance?.model ?? 'a model'}; not scored until accepted.`;
      }
      item.tooltip = tip;
      return item;
    }
    const e = q.evidence[node.ref.index];
    const r = res[node.ref.index];
    const oneLine = e.exact.replace(/\s+/g, ' ').trim();
    const item = new vscode.TreeItem(oneLine.length > 70 ? `${oneLine.slice(0, 67)}…` : oneLine, vscode.TreeItemCollapsibleState.None);
    item.id = `e:${node.store.folder.uri.toString()}:${q.id}:${node.ref.index}`;
    item.description = `${e.source}${r && (r.status === 'resolved' || r.status === 'moved') ? '' : ` · ${r?.status ?? '?'}`}`;
    item.tooltip = new vscode.MarkdownString().appendText(e.exact).appendMarkdown(`\n\n— \`${e.source}\``);
    item.contextValue = `evidence-${r?.status ?? 'unknown'}`;
    item.iconPath = new vscode.ThemeIcon(r && (r.status === 'resolved' || r.status === 'moved') ? 'quote' : 'warning');
    item.command = { command: 'spanproof.revealEvidence', title: 'Reveal Evidence', arguments: [node.ref] };
    return item;
  }

  private draftsItem(store: GroundTruthStore): vscode.TreeItem {
    const n = (store.gt?.questions ?? []).filter(isDraft).length;
    const item = new vscode.TreeItem(`Drafts (${n})`, vscode.TreeItemCollapsibleState.Expanded);
    item.id = `drafts:${store.folder.uri.toString()}`;
    item.contextValue = 'drafts';
    item.description = 'not scored until accepted';
    item.tooltip = 'Drafted questions (Spanproof: Draft Questions…): every quote was verified verbatim in its document. Accept them to have them scored, reject the ones you do not want.';
    item.iconPath = new vscode.ThemeIcon('sparkle');
    return item;
  }
}
