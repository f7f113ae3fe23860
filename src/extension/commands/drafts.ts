/**
 * Drafted questions in VS Code (issue #14 §6): **Draft Questions…** (the workspace, the active file or
 * the selection), **Accept Draft** / **Reject Draft** / **Edit Draft Question** (CodeLens on a draft's
 * evidence, the Drafts group of the Questions view) and **Accept All Drafts**. Drafting is opt-in: a
 * trusted workspace, `spanproof.judge.endpoint` and `spanproof.draft.model`; the key from SecretStorage
 * (Set Judge API Key…). Reviews are text edits of the file by core (`reviewFile`): other questions
 * keep every byte; the store then reloads the file like any disk change.
 */
import { MAX_DATA_FILE_BYTES, readRegularFile } from '../../core/files/read';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { acceptWithout, draftIntoGroundTruth, draftsToAccept, draftText, reviewFile, unresolvedDrafts, type DraftSessionResult, type Passage, type ReviewAction, type UnresolvedDraft } from '../../core/draft';
import { isDraft } from '../../core/groundtruth';
import { ChatClient, ReplyCache } from '../../core/judge';
import { resolveCacheDir } from '../../core/runs';
import { readSettings } from '../config';
import { endpointSetting } from '../endpoints';
import type { FolderScope } from '../folder';
import type { Spanproof } from '../spanproof';
import type { GroundTruthStore } from '../store';
import type { CommandTable } from './types';

/** Arguments for scripted use (tests, links): skip the pickers. */
export interface DraftArgs {
  scope?: 'workspace' | 'file' | 'selection';
  count?: number;
  /** Answer to "keep what verified?" after a cancel (default: ask). */
  keepPartial?: boolean;
}

export const draftCommands = {
  draftQuestions: (sp) => (arg) => draftQuestions(sp, (arg ?? {}) as DraftArgs),
  acceptDraft: (sp) => (arg) => reviewOne(sp, arg, (id) => ({ accept: [id] })),
  rejectDraft: (sp) => (arg) => reviewOne(sp, arg, (id) => ({ reject: [id] })),
  editDraftQuestion: (sp) => (arg) => editQuestion(sp, arg),
  acceptAllDrafts: (sp) => (arg) => acceptAll(sp, arg),
} satisfies CommandTable;

/** The store and draft id a lens, tree node or id string names. */
function target(sp: Spanproof, arg: unknown): { store: GroundTruthStore; id?: string } | undefined {
  const a = arg as { store?: GroundTruthStore; folder?: string; id?: string } | string | undefined;
  if (typeof a === 'string') {
    const store = sp.findStore(a);
    return store ? { store, id: a } : undefined;
  }
  const store = a?.store ?? (a?.folder ? sp.folders.get(a.folder)?.store : undefined) ?? sp.primary()?.store;
  return store ? { store, id: a?.id } : undefined;
}

async function applyReview(store: GroundTruthStore, action: ReviewAction): Promise<string[]> {
  const file = store.confinedFile(); // never outside the folder (#16 item 6)
  const text = (await readRegularFile(file, MAX_DATA_FILE_BYTES, { what: 'the ground-truth file' })).toString('utf8');
  // Accepting re-checks the drafts against the documents as they are now, open editors included (#16 N8):
  // one whose quote no longer resolves stays a draft and is reported, never accepted silently.
  let refused: UnresolvedDraft[] = [];
  if ('accept' in action && store.gt) {
    store.resolve();
    const named = draftsToAccept(store.gt.questions, action.accept).map((q) => q.id);
    refused = store.resolution ? unresolvedDrafts(named, store.resolution) : [];
  }
  const applied = 'accept' in action && store.gt ? acceptWithout(store.gt.questions, action.accept, refused) : action;
  const r = 'accept' in applied && applied.accept.length === 0 ? { ids: [] } : await reviewFile(file, text, applied);
  await store.onDiskChange();
  if (refused.length) {
    const list = refused.map((d) => `${d.id} (${d.problem.replace(/\.$/, '')})`).join('; ');
    void vscode.window.showWarningMessage(`Spanproof: not accepted, the evidence no longer matches the document verbatim: ${list}. They stay drafts: correct the quote to the document's text, or reject the draft.`);
  }
  return r.ids;
}

async function reviewOne(sp: Spanproof, arg: unknown, action: (id: string) => ReviewAction): Promise<string[] | null> {
  const t = target(sp, arg);
  if (!t?.id) return null;
  return applyReview(t.store, action(t.id));
}

async function editQuestion(sp: Spanproof, arg: unknown): Promise<string[] | null> {
  const t = target(sp, arg);
  const q = t?.id ? t.store.gt?.questions.find((x) => x.id === t.id) : undefined;
  if (!t?.id || !q) return null;
  const question = await vscode.window.showInputBox({ title: `Spanproof: edit drafted question ${q.id}`, value: q.question, ignoreFocusOut: true, validateInput: (v) => (v.trim() ? undefined : 'A question cannot be empty.') });
  if (question === undefined || question.trim() === q.question) return null;
  return applyReview(t.store, { edit: t.id, question: question.trim() });
}

async function acceptAll(sp: Spanproof, arg: unknown): Promise<string[] | null> {
  const t = target(sp, arg);
  if (!t || !t.store.gt?.questions.some(isDraft)) {
    void vscode.window.showInformationMessage('Spanproof: there are no drafted questions to accept.');
    return null;
  }
  const ids = await applyReview(t.store, { accept: 'all' });
  void vscode.window.showInformationMessage(`Spanproof: accepted ${ids.length} draft(s); the next run scores them.`);
  return ids;
}

/** Whether drafting may start for `f`; when not, says why (nothing is sent). */
function draftReady(f: FolderScope): { endpoint: string; model: string } | undefined {
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showWarningMessage('Spanproof: drafting questions needs a trusted workspace (it calls an LLM endpoint). Nothing was sent.');
    return undefined;
  }
  const s = readSettings(f.folder);
  const model = s.draft.model || s.judge.generatorModel;
  if (!s.judge.endpoint || !model) {
    void vscode.window
      .showInformationMessage('Spanproof: set spanproof.judge.endpoint (an OpenAI-compatible base URL, e.g. http://localhost:11434/v1) and spanproof.draft.model to draft questions. Nothing was sent.', 'Open Settings')
      .then((pick) => pick && vscode.commands.executeCommand('workbench.action.openSettings', 'spanproof.draft'));
    return undefined;
  }
  return { endpoint: s.judge.endpoint, model };
}

/** What to draft on: the whole corpus, the active file, or the selection as the one passage. */
async function pickScope(f: FolderScope, args: DraftArgs): Promise<{ exactSources?: string[]; passages?: Passage[]; label: string } | undefined> {
  const editor = vscode.window.activeTextEditor;
  const source = editor ? f.store.sourceOf(editor.document.uri) : undefined;
  const items: Array<vscode.QuickPickItem & { scope: NonNullable<DraftArgs['scope']> }> = [{ label: 'Whole workspace', description: 'passages spread over every document', scope: 'workspace' }];
  if (source) items.push({ label: `Active file: ${source}`, scope: 'file' });
  if (source && editor && !editor.selection.isEmpty) items.push({ label: 'Selection', description: `${editor.document.offsetAt(editor.selection.end) - editor.document.offsetAt(editor.selection.start)} characters of ${source}`, scope: 'selection' });
  const scope = args.scope ?? (await vscode.window.showQuickPick(items, { title: 'Spanproof: Draft Questions — on what?' }))?.scope;
  if (!scope) return undefined;
  if (scope === 'workspace') return { label: 'the workspace' };
  if (!source || !editor) throw new Error('open a document of the workspace first.');
  if (editor.document.isDirty) throw new Error(`save ${source} first: quotes are verified against the file on disk.`);
  if (scope === 'file') return { exactSources: [source], label: source };
  const start = editor.document.offsetAt(editor.selection.start);
  const end = editor.document.offsetAt(editor.selection.end);
  if (start === end) throw new Error('select the passage to draft questions on.');
  return { exactSources: [source], passages: [{ source, start, end, heading: null }], label: `the selection in ${source}` };
}

async function draftQuestions(sp: Spanproof, args: DraftArgs): Promise<DraftSessionResult | null> {
  const f = sp.primary();
  if (!f) return null;
  const ready = draftReady(f);
  if (!ready) return null;
  const scope = await pickScope(f, args);
  if (!scope) return null;
  const settings = readSettings(f.folder);
  let count = args.count;
  if (count === undefined) {
    const typed = await vscode.window.showInputBox({ title: `Spanproof: how many questions to draft on ${scope.label}?`, value: String(scope.passages ? Math.min(3, settings.draft.count) : settings.draft.count), ignoreFocusOut: true, validateInput: (v) => (/^[1-9]\d*$/.test(v.trim()) ? undefined : 'a whole number ≥ 1') });
    if (typed === undefined) return null;
    count = Number(typed);
  }
  const workspace = f.folder.uri.fsPath;
  // #16 item 2: the key stored for this endpoint's origin only; a workspace-level endpoint is confirmed first.
  const auth = await sp.endpoints.authorize(endpointSetting('judge.endpoint', f.folder), 'passages of your documents');
  if (!auth) return null;
  const client = new ChatClient({
    endpoint: auth.endpoint, apiKey: auth.apiKey,
    concurrency: settings.judge.concurrency, requestsPerMinute: settings.judge.requestsPerMinute, timeoutMs: settings.judge.timeoutMs, retries: settings.judge.retries,
    cache: new ReplyCache(path.join(resolveCacheDir(workspace), 'judge')),
  });
  const r = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Spanproof: drafting ${count} question(s) on ${scope.label}`, cancellable: true }, async (progress, token) => {
    const ac = new AbortController();
    token.onCancellationRequested(() => ac.abort());
    return draftIntoGroundTruth({
      workspace, groundTruthFile: f.store.confinedFile(), settings, client, model: ready.model, count: count!, exactSources: scope.exactSources, passages: scope.passages, signal: ac.signal,
      onProgress: (done, total) => progress.report({ message: `${done}/${total} passages`, increment: 100 / total }),
      confirmPartial: async (res) => args.keepPartial ?? (await vscode.window.showWarningMessage(`Spanproof: drafting cancelled. Keep the ${res.drafts.length} draft(s) verified so far?`, { modal: true }, 'Keep')) === 'Keep',
    });
  });
  if (r.written) await f.store.onDiskChange();
  for (const line of draftText(r, auth.endpoint, ready.model)) sp.output.info(line);
  void vscode.window
    .showInformationMessage(`Spanproof: drafted ${r.drafts.length} of ${r.requested} question(s) (${r.rejected.length} rejected${r.duplicates.length ? `, ${r.duplicates.length} near-duplicate(s) dropped` : ''})${r.written ? ' — not scored until accepted: review them with the CodeLens on their evidence or in the Drafts group.' : '; nothing written.'}${r.leakage.warning ? ` Warning: ${r.leakage.warning}.` : ''}`, 'Show Report')
    .then((pick) => pick && sp.output.show());
  return r;
}
