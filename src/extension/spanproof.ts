/**
 * The extension's composition root: one GroundTruthStore + RunsModel per workspace folder, the editor
 * surfaces, the Questions tree, the results panel, the runner, and the commands of SPEC §12.
 */
import * as path from 'node:path';
import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import { makeSelector, type Question } from '../core/groundtruth';
import { readSettings, changedKeys, invalidationOf } from './config';
import { GroundTruthStore } from './store';
import { RunsModel } from './runsModel';
import { EditorSurfaces, type EvidenceRef } from './editor';
import { QuestionsTree, type QuestionNode } from './tree';
import { ResultsPanel } from './panel';
import { Runner } from './runner';
import { exportReport, importDataset } from './interop';
import { generateAnswers, judgeConfigured, judgeReady, setJudgeApiKey } from './answers';
import type { GenerationStageResult } from '../core/judge';

interface Folder {
  store: GroundTruthStore;
  runs: RunsModel;
}

export class Spanproof implements vscode.Disposable {
  readonly folders = new Map<string, Folder>();
  readonly editor: EditorSurfaces;
  readonly tree: QuestionsTree;
  readonly treeView: vscode.TreeView<QuestionNode>;
  readonly panel: ResultsPanel;
  readonly runner: Runner;
  readonly output = vscode.window.createOutputChannel('Spanproof', { log: true });
  private readonly disposables: vscode.Disposable[] = [];
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly resolveTimers = new Map<string, ReturnType<typeof setTimeout>>();

  constructor(readonly context: vscode.ExtensionContext) {
    const stores = () => [...this.folders.values()].map((f) => f.store);
    const runsOf = (s: GroundTruthStore) => this.folders.get(s.folder.uri.toString())?.runs;
    this.editor = new EditorSurfaces(stores, runsOf);
    this.tree = new QuestionsTree(stores, runsOf);
    this.treeView = vscode.window.createTreeView('spanproof.questions', { treeDataProvider: this.tree, showCollapseAll: true });
    this.runner = new Runner(context, this.output, () => this.primary());
    this.panel = new ResultsPanel(context, this);
    this.disposables.push(this.editor, this.treeView, this.runner, this.panel, this.output);
  }

  async start(): Promise<void> {
    for (const f of vscode.workspace.workspaceFolders ?? []) await this.addFolder(f);
    const d = this.disposables;
    d.push(
      vscode.workspace.onDidChangeWorkspaceFolders(async (e) => {
        for (const f of e.removed) this.removeFolder(f);
        for (const f of e.added) await this.addFolder(f);
      }),
      vscode.workspace.onDidChangeConfiguration((e) => this.onConfig(e)),
      vscode.workspace.onDidChangeTextDocument((e) => this.onDocChange(e.document)),
      vscode.workspace.onDidSaveTextDocument((doc) => this.onDocSave(doc)),
      vscode.workspace.onDidCloseTextDocument((doc) => this.onDocClose(doc)),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.onConfigAll()),
      this.runner.onDidFinish(() => this.refreshRuns()),
    );
    const reg = (id: string, fn: (...a: never[]) => unknown) =>
      d.push(
        vscode.commands.registerCommand(id, async (...args: never[]) => {
          try {
            return await fn(...args);
          } catch (e) {
            this.output.error(`${id}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
            void vscode.window.showErrorMessage(`Spanproof: ${e instanceof Error ? e.message : String(e)}`);
            return undefined;
          }
        }),
      );
    reg('spanproof.newQuestionFromSelection', () => this.newQuestion());
    reg('spanproof.addSelectionAsEvidence', () => this.addEvidence());
    reg('spanproof.runEvaluation', () => this.run());
    reg('spanproof.runEvaluationForQuestion', (arg?: unknown) => this.runQuestion(arg));
    reg('spanproof.cancelEvaluation', () => this.runner.cancel());
    reg('spanproof.showResults', (runDir?: unknown, tab?: unknown) => this.panel.show(typeof runDir === 'string' ? runDir : undefined, tab === 'answers' ? 'answers' : undefined));
    reg('spanproof.validateGroundTruth', () => this.validate());
    reg('spanproof.importDataset', () => importDataset(this));
    reg('spanproof.exportReport', (runDir?: unknown) => exportReport(this, typeof runDir === 'string' ? runDir : undefined));
    reg('spanproof.selectEmbeddingModel', () => this.selectEmbeddingModel());
    reg('spanproof.openGroundTruthFile', () => this.openGroundTruth());
    reg('spanproof.revealEvidence', (ref: EvidenceRef) => this.reveal(ref));
    reg('spanproof.deleteQuestion', (arg: QuestionNode | string) => this.deleteQuestion(arg));
    reg('spanproof.deleteEvidence', (arg: QuestionNode | EvidenceRef) => this.deleteEvidence(arg));
    reg('spanproof.reanchorEvidence', (arg: EvidenceRef & { uri: vscode.Uri; start: number; end: number }) => this.reanchor(arg));
    reg('spanproof.refreshQuestions', () => this.reloadAll());
    reg('spanproof.setJudgeApiKey', () => setJudgeApiKey(this.context));
    reg('spanproof.generateAnswers', (runDir?: unknown) => this.generateAnswers(typeof runDir === 'string' ? runDir : undefined));
    this.context.subscriptions.push(vscode.window.registerWebviewPanelSerializer(ResultsPanel.viewType, this.panel));
    this.onChanged();
  }

  /** The folder runs and new questions go to: the active editor's folder, else the first one. */
  primary(): Folder | undefined {
    const uri = vscode.window.activeTextEditor?.document.uri;
    const f = uri && vscode.workspace.getWorkspaceFolder(uri);
    return (f && this.folders.get(f.uri.toString())) ?? this.folders.values().next().value;
  }

  private folderOf(uri: vscode.Uri): Folder | undefined {
    const f = vscode.workspace.getWorkspaceFolder(uri);
    return f ? this.folders.get(f.uri.toString()) : undefined;
  }

  private async addFolder(folder: vscode.WorkspaceFolder): Promise<void> {
    if (folder.uri.scheme !== 'file') return;
    const store = new GroundTruthStore(folder, readSettings(folder));
    const runs = new RunsModel(folder.uri.fsPath);
    this.folders.set(folder.uri.toString(), { store, runs });
    store.onDidChange(() => this.onChanged());
    runs.onDidChange(() => this.onChanged());
    const watch = (pattern: string, fn: () => void) => {
      const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, pattern));
      w.onDidChange(fn);
      w.onDidCreate(fn);
      w.onDidDelete(fn);
      this.disposables.push(w);
    };
    watch(store.file.slice(folder.uri.fsPath.length + 1).split(path.sep).join('/'), () => void store.onDiskChange());
    watch('.spanproof/runs/*/run.json', () => this.refreshRuns());
    this.disposables.push(store, runs);
    try {
      await store.load();
    } catch (e) {
      this.output.error(`loading ${store.file}: ${e instanceof Error ? e.message : e}`);
    }
    runs.refresh();
  }

  private removeFolder(folder: vscode.WorkspaceFolder): void {
    const f = this.folders.get(folder.uri.toString());
    if (!f) return;
    this.folders.delete(folder.uri.toString());
    f.store.dispose();
    f.runs.dispose();
    this.onChanged();
  }

  private onChanged(): void {
    this.editor.refresh();
    this.tree.refresh();
    const any = [...this.folders.values()].some((f) => (f.store.gt?.questions.length ?? 0) > 0);
    void vscode.commands.executeCommand('setContext', 'spanproof.hasQuestions', any);
  }

  private refreshRuns(): void {
    clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => {
      for (const f of this.folders.values()) f.runs.refresh();
      this.panel.notifyRunsChanged();
    }, 200);
  }

  private onConfig(e: vscode.ConfigurationChangeEvent): void {
    for (const f of this.folders.values()) {
      const keys = changedKeys(e, f.store.folder);
      const inv = invalidationOf(keys);
      if (!inv) continue;
      this.output.info(`settings changed (${keys.join(', ')}): invalidates ${inv}`);
      f.store.applySettings(readSettings(f.store.folder));
      // Only ground-truth keys need the editor state recomputed; index/retrieval/metrics keys take
      // effect on the next run (the worker's caches are keyed by content + component config).
      if (inv === 'groundtruth' || inv === 'corpus') void f.store.load();
    }
  }

  private onConfigAll(): void {
    for (const f of this.folders.values()) f.store.applySettings(readSettings(f.store.folder));
  }

  private onDocChange(doc: vscode.TextDocument): void {
    const f = this.folderOf(doc.uri);
    if (!f) return;
    const source = f.store.sourceOf(doc.uri);
    if (source === undefined || !f.store.gt?.questions.some((q) => q.evidence.some((e) => e.source === source))) return;
    // Re-anchor every span against the live text, at most every 100 ms while typing.
    const key = f.store.folder.uri.toString();
    clearTimeout(this.resolveTimers.get(key));
    this.resolveTimers.set(
      key,
      setTimeout(() => f.store.resolve(), 100),
    );
  }

  private async onDocSave(doc: vscode.TextDocument): Promise<void> {
    const f = this.folderOf(doc.uri);
    if (!f) return;
    if (doc.uri.fsPath === f.store.file) return; // the watcher reloads it
    const source = f.store.sourceOf(doc.uri);
    if (source === undefined) return;
    await f.store.invalidateText(source);
    const outcome = await f.store.saveMoved();
    if (outcome === 'written' || outcome === 'merged') this.output.info(`updated evidence offsets in ${f.store.file} after saving ${source}`);
  }

  private onDocClose(doc: vscode.TextDocument): void {
    const f = this.folderOf(doc.uri);
    const source = f?.store.sourceOf(doc.uri);
    if (f && source !== undefined) void f.store.invalidateText(source);
  }

  private async reloadAll(): Promise<void> {
    for (const f of this.folders.values()) await f.store.load();
    this.refreshRuns();
  }

  // ---------------------------------------------------------------------------------------------
  // Authoring (SPEC §3.3)

  /** The selection of the active editor as a selector, or a message and undefined. */
  private selection(): { folder: Folder; source: string; sel: ReturnType<typeof makeSelector> } | undefined {
    const editor = vscode.window.activeTextEditor;
    if (!editor) {
      void vscode.window.showWarningMessage('Spanproof: open a document and select the passage that answers the question.');
      return undefined;
    }
    const doc = editor.document;
    const folder = this.folderOf(doc.uri);
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
    return { folder, source, sel: makeSelector(text, source, start, end, 32) };
  }

  private async newQuestion(): Promise<string | undefined> {
    const got = this.selection();
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

  private async addEvidence(): Promise<void> {
    const got = this.selection();
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

  private findStore(questionId: string): GroundTruthStore | undefined {
    for (const f of this.folders.values()) if (f.store.gt?.questions.some((q) => q.id === questionId)) return f.store;
    return undefined;
  }

  private async reveal(ref: EvidenceRef): Promise<void> {
    const store = this.findStore(ref.questionId);
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

  /** Open `source` of the primary folder at `[start, end)` (used by the results panel). */
  async revealSpan(source: string, start: number, end: number): Promise<void> {
    const f = this.primary();
    if (!f) return;
    const doc = await vscode.workspace.openTextDocument(f.store.uriOf(source));
    const editor = await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.One, preview: true });
    const range = new vscode.Range(doc.positionAt(start), doc.positionAt(end));
    editor.selection = new vscode.Selection(range.start, range.end);
    editor.revealRange(range, vscode.TextEditorRevealType.InCenter);
  }

  private async deleteQuestion(arg: QuestionNode | string): Promise<void> {
    const id = typeof arg === 'string' ? arg : arg.kind === 'question' ? arg.id : arg.ref.questionId;
    const store = this.findStore(id);
    const q = store?.gt?.questions.find((x) => x.id === id);
    if (!store || !q) return;
    const ok = await vscode.window.showWarningMessage(`Delete question "${q.question}" (${id}) and its ${q.evidence.length} evidence span(s)?`, { modal: true }, 'Delete');
    if (ok !== 'Delete') return;
    await store.mutate((gt) => void (gt.questions = gt.questions.filter((x) => x.id !== id)));
  }

  private async deleteEvidence(arg: QuestionNode | EvidenceRef): Promise<void> {
    const ref: EvidenceRef | undefined = 'kind' in arg ? (arg.kind === 'evidence' ? arg.ref : undefined) : arg;
    if (!ref) return;
    const store = this.findStore(ref.questionId);
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

  private async reanchor(arg: EvidenceRef & { uri: vscode.Uri; start: number; end: number }): Promise<void> {
    const f = this.folderOf(vscode.Uri.from(arg.uri));
    const source = f?.store.sourceOf(vscode.Uri.from(arg.uri));
    if (!f || source === undefined) return;
    const text = f.store.textOf(source);
    if (text === undefined || !text.slice(arg.start, arg.end).trim()) {
      void vscode.window.showWarningMessage('Spanproof: select the passage to re-anchor the evidence to.');
      return;
    }
    const sel = makeSelector(text, source, arg.start, arg.end, 32);
    await f.store.mutate((gt) => {
      const q = gt.questions.find((x) => x.id === arg.questionId);
      const old = q?.evidence[arg.index];
      if (q && old) q.evidence[arg.index] = { ...old, ...sel };
    });
  }

  private async validate(): Promise<void> {
    const lines: string[] = [];
    let bad = 0;
    for (const f of this.folders.values()) {
      await f.store.load();
      if (f.store.loadError) {
        bad++;
        lines.push(f.store.loadError);
        continue;
      }
      const a = f.store.resolution?.acceptance;
      if (!a) {
        lines.push(`${f.store.folder.name}: no ground-truth file (${f.store.file}).`);
        continue;
      }
      bad += a.stale.length + a.ambiguous.length + a.rejected.length;
      lines.push(
        `${f.store.folder.name}: ${a.resolved}/${a.total} questions resolved (${a.moved} moved); ${a.stale.length} stale, ${a.ambiguous.length} ambiguous, ${a.rejected.length} rejected evidence.`,
      );
    }
    for (const l of lines) this.output.info(`validate: ${l}`);
    const msg = `Spanproof: ${lines.join(' ')}`;
    if (bad) {
      const c = await vscode.window.showWarningMessage(msg, 'Show Problems');
      if (c) await vscode.commands.executeCommand('workbench.actions.view.problems');
    } else void vscode.window.showInformationMessage(msg);
  }

  private async openGroundTruth(): Promise<void> {
    const f = this.primary();
    if (!f) {
      void vscode.window.showWarningMessage('Spanproof: open a folder first.');
      return;
    }
    if (!existsSync(f.store.file)) {
      const c = await vscode.window.showInformationMessage(`${f.store.file} does not exist yet. Create an empty ground-truth file?`, 'Create');
      if (c !== 'Create') return;
      await f.store.mutate(() => undefined);
    }
    await vscode.window.showTextDocument(vscode.Uri.file(f.store.file));
  }

  private async selectEmbeddingModel(): Promise<void> {
    if (!vscode.workspace.isTrusted) {
      void vscode.window.showWarningMessage('Spanproof: loading a model folder needs a trusted workspace.');
      return;
    }
    const f = this.primary();
    const current = readSettings(f?.store.folder).embeddingModel;
    const pick = await vscode.window.showQuickPick(
      [
        { label: 'Built-in static model', description: current === '' ? 'current' : '', value: '' },
        { label: 'Choose a model folder…', description: current && current !== '' ? `current: ${current}` : '', value: '?' },
      ],
      { title: 'Spanproof: Select Embedding Model' },
    );
    if (!pick) return;
    let value = pick.value;
    if (value === '?') {
      const uris = await vscode.window.showOpenDialog({ canSelectFolders: true, canSelectFiles: false, openLabel: 'Use this model folder', title: 'A folder with model.onnx (or onnx/model.onnx) and tokenizer.json (or vocab.txt)' });
      if (!uris?.[0]) return;
      const dir = uris[0].fsPath;
      const hasModel = existsSync(path.join(dir, 'model.onnx')) || existsSync(path.join(dir, 'onnx', 'model.onnx'));
      const hasTok = existsSync(path.join(dir, 'tokenizer.json')) || existsSync(path.join(dir, 'vocab.txt'));
      if (!hasModel || !hasTok) {
        void vscode.window.showErrorMessage(`Spanproof: ${dir} needs model.onnx (or onnx/model.onnx) and tokenizer.json (or vocab.txt).`);
        return;
      }
      value = dir;
    }
    await vscode.workspace.getConfiguration('spanproof', f?.store.folder.uri).update('embeddingModel', value, vscode.ConfigurationTarget.Workspace);
    void vscode.window.showInformationMessage(`Spanproof: embedding model set to ${value || 'the built-in static model'}; the next run re-embeds.`);
  }

  // ---------------------------------------------------------------------------------------------
  // Runs

  private async run(questionIds?: string[]): Promise<void> {
    if (!vscode.workspace.isTrusted) {
      void vscode.window
        .showWarningMessage('Spanproof: running an evaluation needs a trusted workspace. You can still edit ground truth and view results.', 'Manage Workspace Trust')
        .then((c) => c && vscode.commands.executeCommand('workbench.trust.manage'));
      return;
    }
    const f = this.primary();
    if (!f) {
      void vscode.window.showWarningMessage('Spanproof: open a folder first.');
      return;
    }
    if (!f.store.gt?.questions.length) {
      void vscode.window.showWarningMessage('Spanproof: there are no questions yet — select a passage and run "New Question from Selection".');
      return;
    }
    // The worker reads the files on disk: offer to save unsaved documents of the folder first.
    const unsaved = vscode.workspace.textDocuments.filter((d) => d.isDirty && f.store.sourceOf(d.uri) !== undefined);
    if (unsaved.length) {
      const c = await vscode.window.showWarningMessage(
        `Spanproof evaluates the files on disk; ${unsaved.length} document(s) of this folder have unsaved changes.`,
        'Save All and Run',
        'Run Without Saving',
      );
      if (!c) return;
      if (c === 'Save All and Run') for (const d of unsaved) await d.save();
    }
    const result = await this.runner.run(f.store, questionIds);
    if (result?.runDir) {
      f.runs.refresh();
      await this.panel.show(result.runDir);
      if (result.status === 'succeeded') this.offerAnswers(f, result.runDir);
    } else if (result && questionIds) {
      this.panel.showAdHoc(result, questionIds[0]);
    }
  }

  private async runQuestion(arg?: unknown): Promise<void> {
    let id: string | undefined;
    if (typeof arg === 'string') id = arg;
    else if (arg && typeof arg === 'object' && 'kind' in arg) {
      const node = arg as QuestionNode;
      id = node.kind === 'question' ? node.id : node.ref.questionId;
    }
    id ??= this.editor.questionAtCursor();
    if (!id) {
      const f = this.primary();
      const pick = await vscode.window.showQuickPick((f?.store.gt?.questions ?? []).map((q) => ({ label: q.question, description: q.id, id: q.id })), {
        title: 'Spanproof: Run Evaluation for Question',
      });
      id = pick?.id;
    }
    if (id) await this.run([id]);
  }

  // ---------------------------------------------------------------------------------------------
  // Answers and LLM judges (SPEC §14) — opt-in, only with a configured endpoint in a trusted workspace

  /** After a finished run, a non-blocking offer to generate answers — only when an endpoint is configured. */
  private offerAnswers(f: Folder, runDir: string): void {
    if (!vscode.workspace.isTrusted || !judgeConfigured(f.store.folder)) return;
    const j = readSettings(f.store.folder).judge;
    void vscode.window
      .showInformationMessage(`Spanproof: run finished. Generate answers with ${j.generatorModel} and judge them with ${j.judgeModel} at ${j.endpoint}?`, 'Generate Answers')
      .then((c) => c && vscode.commands.executeCommand('spanproof.generateAnswers', runDir));
  }

  /**
   * Command "Generate and Judge Answers…": for `runDir`, else a succeeded run picked from the run
   * history of the primary folder. Refuses (with a message, nothing sent) in an untrusted workspace or
   * without endpoint/models. Resolves with the stage result, or null when refused, cancelled or failed.
   */
  async generateAnswers(runDir?: string): Promise<GenerationStageResult | null> {
    const f = (runDir && [...this.folders.values()].find((x) => path.resolve(runDir).startsWith(x.runs.runsRoot + path.sep))) || this.primary();
    if (!f) {
      void vscode.window.showWarningMessage('Spanproof: open a folder first.');
      return null;
    }
    if (!judgeReady(f.store.folder)) return null;
    let dir = runDir;
    if (!dir) {
      f.runs.refresh();
      const runs = f.runs.runs.filter((r) => r.status === 'succeeded');
      if (!runs.length) {
        void vscode.window.showInformationMessage('Spanproof: there is no finished run yet — run an evaluation first.');
        return null;
      }
      const pick = await vscode.window.showQuickPick(
        runs.map((r) => ({ label: r.id, description: `${r.status}${r.top ? ` · top ${r.top}` : ''}`, detail: existsSync(path.join(r.dir, 'answers.jsonl')) ? 'has answers (cached replies are reused)' : undefined, dir: r.dir })),
        { title: 'Spanproof: Generate and Judge Answers — which run?' },
      );
      dir = pick?.dir;
      if (!dir) return null;
    }
    const r = await generateAnswers(this.context, dir, f.store.folder, this.output);
    if (r) this.panel.notifyRunsChanged();
    return r;
  }

  dispose(): void {
    clearTimeout(this.refreshTimer);
    for (const t of this.resolveTimers.values()) clearTimeout(t);
    for (const d of this.disposables) d.dispose();
  }
}
