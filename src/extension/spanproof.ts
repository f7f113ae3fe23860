/**
 * The extension's context (composition root): the folder scopes (one store + runs model + watchers per
 * workspace folder, released when the folder goes), the editor surfaces, the Questions tree, the
 * results panel, the runner (worker lifetime) and the command tables of ./commands. Returned by
 * `activate` as the extension's API (the in-host tests use it).
 */
import * as vscode from 'vscode';
import { changedKeys, invalidationOf, readSettings } from './config';
import { COMMANDS, registerCommands } from './commands';
import { revealSpan } from './commands/groundTruth';
import { trackDocuments } from './documents';
import { EditorSurfaces } from './editor';
import { createEndpointAccess, endpointSetting, type EndpointAccess } from './endpoints';
import { authorizeRunModels } from './runAccess';
import { FolderScope } from './folder';
import { EvidenceLenses } from './lenses';
import { DraftSurfaces } from './drafts';
import { DisposableStore, Scopes } from './lifetime';
import { ResultsPanel } from './panel';
import { Runner } from './runner';
import { StatusBar } from './statusBar';
import type { GroundTruthStore } from './store';
import { QuestionsTree, type QuestionNode } from './tree';
import { QuestionTests } from './testing/controller';

export class Spanproof implements vscode.Disposable {
  /** Per-folder lifetime, keyed by folder URI. */
  readonly folders = new Scopes<FolderScope>();
  readonly output = vscode.window.createOutputChannel('Spanproof', { log: true });
  readonly editor: EditorSurfaces;
  /** Drafted questions: their CodeLens (Accept / Reject / Edit Question) and decoration. */
  readonly drafts: DraftSurfaces;
  readonly tree: QuestionsTree;
  readonly treeView: vscode.TreeView<QuestionNode>;
  readonly panel: ResultsPanel;
  readonly runner: Runner;
  /** Questions in the Test Explorer. */
  readonly tests: QuestionTests;
  /** CodeLens over evidence; `lenses.register(contributor)` adds more. */
  readonly lenses: EvidenceLenses;
  /** Progress while running, else the latest run's verdict. */
  readonly statusBar: StatusBar;
  /**
   * The gate before any request to an endpoint (#16 item 2): per-origin API keys, confirmation of
   * workspace-level endpoint settings. Commands call `sp.endpoints.authorize(endpointSetting(key, folder), purpose)`.
   */
  readonly endpoints: EndpointAccess;
  /** Extension lifetime: released on deactivate, after the folder scopes. */
  private readonly disposables = new DisposableStore();

  constructor(readonly context: vscode.ExtensionContext) {
    const d = this.disposables;
    d.add(this.output);
    this.endpoints = createEndpointAccess(context);
    const stores = () => [...this.folders.values()].map((f) => f.store);
    const runsOf = (s: GroundTruthStore) => this.folders.get(s.folder.uri.toString())?.runs;
    this.editor = d.add(new EditorSurfaces(stores, runsOf));
    this.tree = new QuestionsTree(stores, runsOf);
    this.treeView = d.add(vscode.window.createTreeView('spanproof.questions', { treeDataProvider: this.tree, showCollapseAll: true }));
    // Endpoint models of a run: modelEndpoint.url through the one endpoint gate, its origin's key to the worker.
    this.runner = d.add(new Runner(context, this.output, () => this.primary(), (store, settings) => authorizeRunModels(settings, (purpose) => this.endpoints.authorize(endpointSetting('modelEndpoint.url', store.folder), purpose))));
    this.panel = d.add(new ResultsPanel(context, this));
    this.tests = d.add(new QuestionTests(this));
    this.lenses = d.add(new EvidenceLenses((uri) => this.folderOf(uri), this.editor));
    this.drafts = d.add(new DraftSurfaces(stores, this.lenses));
    this.statusBar = d.add(new StatusBar(this.runner, () => this.primary()));
    d.add(this.folders);
  }

  async start(): Promise<void> {
    for (const f of vscode.workspace.workspaceFolders ?? []) await this.addFolder(f);
    const d = this.disposables;
    d.add(
      vscode.workspace.onDidChangeWorkspaceFolders(async (e) => {
        for (const f of e.removed) this.removeFolder(f);
        for (const f of e.added) await this.addFolder(f);
      }),
    );
    d.add(vscode.workspace.onDidChangeConfiguration((e) => this.onConfig(e)));
    d.add(vscode.workspace.onDidGrantWorkspaceTrust(() => this.onTrust()));
    d.add(this.runner.onDidFinish(() => this.refreshRuns()));
    for (const x of trackDocuments((uri) => this.folderOf(uri), this.output)) d.add(x);
    for (const x of registerCommands(this, COMMANDS)) d.add(x);
    d.add(vscode.window.registerWebviewPanelSerializer(ResultsPanel.viewType, this.panel));
    this.onChanged();
  }

  /** The folder runs and new questions go to: the active editor's folder, else the first one. */
  primary(): FolderScope | undefined {
    const uri = vscode.window.activeTextEditor?.document.uri;
    return (uri && this.folderOf(uri)) || this.folders.values().next().value;
  }

  folderOf(uri: vscode.Uri): FolderScope | undefined {
    const f = vscode.workspace.getWorkspaceFolder(uri);
    return f ? this.folders.get(f.uri.toString()) : undefined;
  }

  /** The store whose ground truth holds question `questionId` (ids are unique per folder; first match). */
  findStore(questionId: string): GroundTruthStore | undefined {
    for (const f of this.folders.values()) if (f.store.gt?.questions.some((q) => q.id === questionId)) return f.store;
    return undefined;
  }

  /** Open `source` of the primary folder at `[start, end)` (used by the results panel). */
  async revealSpan(source: string, start: number, end: number): Promise<void> {
    const f = this.primary();
    if (f) await revealSpan(f, source, start, end);
  }

  async reloadAll(): Promise<void> {
    for (const f of this.folders.values()) await f.store.load();
    this.refreshRuns();
  }

  private async addFolder(folder: vscode.WorkspaceFolder): Promise<void> {
    if (folder.uri.scheme !== 'file') return;
    const scope = this.folders.add(folder.uri.toString(), new FolderScope(folder, { onGroundTruth: () => this.onChanged(), onRuns: () => this.panel.notifyRunsChanged(), log: this.output }));
    await scope.load();
  }

  private removeFolder(folder: vscode.WorkspaceFolder): void {
    if (this.folders.remove(folder.uri.toString())) this.onChanged();
  }

  private onChanged(): void {
    this.editor.refresh();
    this.drafts.refresh();
    this.tree.refresh();
    this.tests.sync();
    this.lenses.refresh();
    this.statusBar.update();
    const any = [...this.folders.values()].some((f) => (f.store.gt?.questions.length ?? 0) > 0);
    void vscode.commands.executeCommand('setContext', 'spanproof.hasQuestions', any);
    const drafts = [...this.folders.values()].some((f) => f.store.gt?.questions.some((q) => q.status === 'draft'));
    void vscode.commands.executeCommand('setContext', 'spanproof.hasDrafts', drafts);
  }

  private refreshRuns(): void {
    for (const f of this.folders.values()) f.refreshRunsSoon.schedule();
  }

  private onConfig(e: vscode.ConfigurationChangeEvent): void {
    for (const f of [...this.folders.values()]) {
      const keys = changedKeys(e, f.folder);
      const inv = invalidationOf(keys);
      if (!inv) continue;
      this.output.info(`settings changed (${keys.join(', ')}): invalidates ${inv}`);
      // Another ground-truth file: the folder's watchers point at the old one, so start the folder over.
      if (keys.includes('groundTruthPath')) {
        void this.addFolder(f.folder).then(() => this.onChanged());
        continue;
      }
      f.store.applySettings(readSettings(f.folder));
      // Only ground-truth keys need the editor state recomputed; index/retrieval/metrics keys take
      // effect on the next run (the worker's caches are keyed by content + component config).
      if (inv === 'groundtruth' || inv === 'corpus') void f.store.load();
    }
  }

  private onTrust(): void {
    for (const f of this.folders.values()) f.store.applySettings(readSettings(f.folder));
  }

  dispose(): void {
    this.disposables.dispose();
  }
}
