/**
 * One workspace folder's lifetime (see lifetime.ts): its ground-truth store, its runs model, the file
 * watchers that feed them and the debounce timers of live re-resolution. Everything here is released by
 * `dispose()` when the folder leaves the workspace — watchers first, so no event reaches a disposed store.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { readSettings } from './config';
import { Debounced, DisposableStore } from './lifetime';
import { GroundTruthStore } from './store';
import { RunsModel } from './runsModel';

export interface FolderEvents {
  /** The ground truth or its resolution changed. */
  onGroundTruth(): void;
  /** The runs of the folder changed (a run finished, a run directory appeared). */
  onRuns(): void;
  log: vscode.LogOutputChannel;
}

export class FolderScope implements vscode.Disposable {
  readonly store: GroundTruthStore;
  readonly runs: RunsModel;
  private readonly scope = new DisposableStore();
  /** Re-anchor spans against live text at most every 100 ms while typing. */
  readonly resolveSoon: Debounced;
  /** Re-read the runs list once the watcher events of a run settle. */
  readonly refreshRunsSoon: Debounced;

  constructor(
    readonly folder: vscode.WorkspaceFolder,
    private readonly events: FolderEvents,
  ) {
    const s = this.scope;
    this.store = new GroundTruthStore(folder, readSettings(folder));
    this.runs = new RunsModel(folder.uri.fsPath);
    // Added first, disposed last: the emitters outlive their listeners and watchers.
    s.add(this.store);
    s.add(this.runs);
    this.resolveSoon = s.add(new Debounced(() => this.store.resolve(), 100));
    this.refreshRunsSoon = s.add(
      new Debounced(() => {
        this.runs.refresh();
        events.onRuns();
      }, 200),
    );
    s.add(this.store.onDidChange(() => events.onGroundTruth()));
    s.add(this.runs.onDidChange(() => events.onGroundTruth()));
    this.watch(this.relative(this.store.file), () => void this.store.onDiskChange());
    this.watch('.spanproof/runs/*/run.json', () => this.refreshRunsSoon.schedule());
  }

  get key(): string {
    return this.folder.uri.toString();
  }

  get disposed(): boolean {
    return this.scope.disposed;
  }

  /** First load: the ground truth (errors reported to the log, not thrown) and the runs list. */
  async load(): Promise<void> {
    try {
      await this.store.load();
    } catch (e) {
      this.events.log.error(`loading ${this.store.file}: ${e instanceof Error ? e.message : e}`);
    }
    if (!this.disposed) this.runs.refresh();
  }

  private relative(file: string): string {
    return path.relative(this.folder.uri.fsPath, file).split(path.sep).join('/');
  }

  private watch(pattern: string, fn: () => void): void {
    const w = this.scope.add(vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(this.folder, pattern)));
    const guarded = () => {
      if (!this.disposed) fn();
    };
    this.scope.add(w.onDidChange(guarded));
    this.scope.add(w.onDidCreate(guarded));
    this.scope.add(w.onDidDelete(guarded));
  }

  dispose(): void {
    this.scope.dispose();
  }
}
