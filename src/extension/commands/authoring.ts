/**
 * Authoring commands (SPEC §3.3): a question from the selection, more evidence for a question,
 * re-anchoring, deleting questions and evidence. Every write goes through the folder's
 * `GroundTruthStore.mutate` (merge-or-refuse, atomic).
 */
import * as vscode from 'vscode';
import { makeSelector, type Question } from '../../core/groundtruth';
import type { EvidenceRef } from '../editor';
import type { FolderScope } from '../folder';
import type { Spanproof } from '../spanproof';
import type { QuestionNode } from '../tree';
import type { CommandTable } from './types';

/** Characters of context kept on each side of a quote (TextQuoteSelector prefix/suffix). */
const CONTEXT_CHARS = 32;

export const authoringCommands = {
  newQuestionFromSelection: (sp) => () => newQuestion(sp),
  addSelectionAsEvidence: (sp) => () => addEvidence(sp),
  deleteQuestion: (sp) => (arg) => deleteQuestion(sp, arg as QuestionNode | string),
  deleteEvidence: (sp) => (arg) => deleteEvidence(sp, arg as QuestionNode | EvidenceRef),
  reanchorEvidence: (sp) => (arg) => reanchor(sp, arg as ReanchorArg),
} satisfies CommandTable;

/** The selection of the active editor as a selector, or a message and undefined. */
function selection(sp: Spanproof): { folder: FolderScope; source: string; sel: ReturnType<typeof makeSelector> } | undefined {
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    void vscode.window.showWarningMessage('Spanproof: open a document and select the passage that answers the question.');
    return undefined;
  }
  const doc = editor.document;
  const folder = sp.folderOf(doc.uri);
  const source = folder?.store.sourceOf(doc.uri);
  if (!folder || source === undefined) {
    void vscode.window.showWarningMessage('Spanproof: the document must be a file inside a workspace folder.');
    return undefined;
  }
  const s = editor.selection;
  const text = doc.getText();
  const start = doc.offsetAt(s.start);
  const end = doc.offsetAt(s.end);
  if (start === end || !text.slice(start, end).trim()) {
    void vscode.window.showWarningMessage('Spanproof: the selection is empty or only whitespace — select the passage that answers the question.');
    return undefined;
  }
  if (end - start < folder.store.settingsMinQuote) {
    void vscode.window.showWarningMessage(
      `Spanproof: the selection has ${end - start} characters; evidence needs at least ${folder.store.settingsMinQuote} (setting spanproof.minQuoteLength).`,
    );
    return undefined;
  }
  return { folder, source, sel: makeSelector(text, source, start, end, CONTEXT_CHARS) };
}

/** Resolves with the new question's id, or undefined when refused or cancelled. */
async function newQuestion(sp: Spanproof): Promise<string | undefined> {
  const got = selection(sp);
  if (!got) return undefined;
  const question = await vscode.window.showInputBox({
    title: 'Spanproof: New Question from Selection',
    prompt: 'The question this passage answers',
    placeHolder: 'e.g. How do I declare an optional query parameter?',
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() ? undefined : 'Type the question.'),
  });
  if (!question?.trim()) return undefined;
  const answer = await vscode.window.showInputBox({
    title: 'Spanproof: reference answer (optional)',
    prompt: 'A short reference answer — press Enter to skip',
    ignoreFocusOut: true,
  });
  const existing = new Set(got.folder.store.gt?.questions.map((q) => q.id) ?? []);
  let id: string;
  do id = `q-${Math.random().toString(16).slice(2, 6)}`;
  while (existing.has(id));
  const q: Question = { id, question: question.trim(), evidence: [got.sel], match: 'all' };
  if (answer?.trim()) q.answer = answer.trim();
  const outcome = await got.folder.store.mutate((gt) => void gt.questions.push(q));
  if (outcome === 'written' || outcome === 'merged' || outcome === 'unchanged') {
    void vscode.window.showInformationMessage(`Spanproof: added question ${id} with 1 evidence span.`);
    return id;
  }
  return undefined;
}

async function addEvidence(sp: Spanproof): Promise<void> {
  const got = selection(sp);
  if (!got) return;
  const qs = got.folder.store.gt?.questions ?? [];
  if (!qs.length) {
    void vscode.window.showInformationMessage('Spanproof: no questions yet — use "New Question from Selection" first.');
    return;
  }
  const pick = await vscode.window.showQuickPick(
    qs.map((q) => ({ label: q.question, description: q.id, detail: `${q.evidence.length} evidence span(s)`, id: q.id })),
    { title: 'Spanproof: Add Selection as Evidence to…', matchOnDescription: true },
  );
  if (!pick) return;
  await got.folder.store.mutate((gt) => {
    const q = gt.questions.find((x) => x.id === pick.id);
    if (q) q.evidence.push(got.sel);
  });
}

async function deleteQuestion(sp: Spanproof, arg: QuestionNode | string): Promise<void> {
  const id = typeof arg === 'string' ? arg : arg.kind === 'question' ? arg.id : arg.kind === 'evidence' ? arg.ref.questionId : '';
  const store = sp.findStore(id);
  const q = store?.gt?.questions.find((x) => x.id === id);
  if (!store || !q) return;
  const ok = await vscode.window.showWarningMessage(`Delete question "${q.question}" (${id}) and its ${q.evidence.length} evidence span(s)?`, { modal: true }, 'Delete');
  if (ok !== 'Delete') return;
  await store.mutate((gt) => void (gt.questions = gt.questions.filter((x) => x.id !== id)));
}

async function deleteEvidence(sp: Spanproof, arg: QuestionNode | EvidenceRef): Promise<void> {
  const ref: EvidenceRef | undefined = 'kind' in arg ? (arg.kind === 'evidence' ? arg.ref : undefined) : arg;
  if (!ref) return;
  const store = sp.findStore(ref.questionId);
  const q = store?.gt?.questions.find((x) => x.id === ref.questionId);
  if (!store || !q?.evidence[ref.index]) return;
  if (q.evidence.length === 1) {
    const choice = await vscode.window.showWarningMessage(
      `This is the only evidence of "${q.question}". A question needs evidence — delete the whole question?`,
      { modal: true },
      'Delete Question',
    );
    if (choice === 'Delete Question') await store.mutate((gt) => void (gt.questions = gt.questions.filter((x) => x.id !== q.id)));
    return;
  }
  await store.mutate((gt) => void gt.questions.find((x) => x.id === ref.questionId)?.evidence.splice(ref.index, 1));
}

type ReanchorArg = EvidenceRef & { uri: vscode.Uri; start: number; end: number };

async function reanchor(sp: Spanproof, arg: ReanchorArg): Promise<void> {
  const uri = vscode.Uri.from(arg.uri);
  const f = sp.folderOf(uri);
  const source = f?.store.sourceOf(uri);
  if (!f || source === undefined) return;
  const text = f.store.textOf(source);
  if (text === undefined || !text.slice(arg.start, arg.end).trim()) {
    void vscode.window.showWarningMessage('Spanproof: select the passage to re-anchor the evidence to.');
    return;
  }
  const sel = makeSelector(text, source, arg.start, arg.end, CONTEXT_CHARS);
  await f.store.mutate((gt) => {
    const q = gt.questions.find((x) => x.id === arg.questionId);
    const old = q?.evidence[arg.index];
    if (q && old) q.evidence[arg.index] = { ...old, ...sel };
  });
}
