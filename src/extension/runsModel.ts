/**
 * The runs of one workspace folder as the editor needs them: the list (panel history) and the latest
 * succeeded run's per-question records (hover, tree status icons). Reads through core `listRuns` /
 * `readRun`; never throws into the UI (a damaged run is reported once and skipped).
 */
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

  get runsRoot(): string {
    return resolveRunsRoot(this.workspace).root;
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
