/**
 * The runs of one workspace folder as the editor needs them: the list (panel history) and the latest
 * succeeded run's per-question records (hover, tree status icons). Reads through core `listRuns` /
 * `readRun`; never throws into the UI (a damaged run is reported once and skipped).
 */
import { accessSync, constants, existsSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { listRuns, readRun, resolveRunsRoot, type QuestionRecord, type RunSummary } from '../core/runs';
import type { RunData } from '../shared/protocol';

export interface QuestionStatus {
  /** Configs with hit@k = 1 / scored configs. */
  hits: number;
  scored: number;
  /** Per config: hit or the miss cause (`failed` for a failed item). */
  perConfig: Array<{ config: string; hit: boolean; cause: string | null; failed: boolean }>;
}

export class RunsModel implements vscode.Disposable {
  runs: RunSummary[] = [];
  latest: RunData | null = null;
  private status = new Map<string, QuestionStatus>();
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.emitter.event;

  constructor(readonly workspace: string) {}

  /**
   * Where this workspace's runs are. Listing must not create folders in a workspace that never ran
   * (core `resolveRunsRoot` probes by creating `.spanproof/runs`), so it is only asked when the default
   * folder does not exist and the workspace root is not writable (runs then live in the user cache).
   */
  get runsRoot(): string {
    const def = path.join(this.workspace, '.spanproof', 'runs');
    if (existsSync(def)) return def;
    try {
      accessSync(this.workspace, constants.W_OK);
      return def; // writable: runs will go here; nothing to list yet
    } catch {
      return resolveRunsRoot(this.workspace).root;
    }
  }

  refresh(): void {
    try {
      this.runs = listRuns(this.runsRoot);
    } catch {
      this.runs = [];
    }
    const latest = this.runs.find((r) => r.status === 'succeeded');
    this.status.clear();
    this.latest = null;
    if (latest) {
      try {
        this.latest = readRun(latest.dir);
        this.index(this.latest.questions);
      } catch (e) {
        void vscode.window.showWarningMessage(`Spanproof could not read the latest run: ${e instanceof Error ? e.message : e}`);
      }
    }
    this.emitter.fire();
  }

  private index(records: QuestionRecord[]): void {
    for (const r of records) {
      let s = this.status.get(r.question);
      if (!s) this.status.set(r.question, (s = { hits: 0, scored: 0, perConfig: [] }));
      const failed = r.status === 'failed';
      const hit = r['hit@5'] === 1;
      if (!failed) {
        s.scored++;
        if (hit) s.hits++;
      }
      s.perConfig.push({ config: r.config, hit, cause: r.cause, failed });
    }
  }

  statusOf(questionId: string): QuestionStatus | undefined {
    return this.status.get(questionId);
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
