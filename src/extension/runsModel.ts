/**
 * The runs of one workspace folder as the editor needs them: the list (panel history) and the latest
 * succeeded run's per-question records (hover, tree status icons, CodeLens, Test Explorer), read at
 * that run's own k. Reads through core `listRuns` / `readRun`; never throws into the UI (a damaged run
 * is reported once and skipped).
 */
import { accessSync, constants, existsSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { listRuns, readRun, resolveRunsRoot, type QuestionRecord, type RunSummary } from '../core/runs';
import type { RunData } from '../shared/protocol';
import { hitAt } from './testing/outcome';
import { runVerdict, type RunVerdict } from './runVerdict';

export interface ConfigStatus {
  config: string;
  hit: boolean;
  cause: string | null;
  failed: boolean;
}

export interface QuestionStatus {
  /** Configs with hit@k = 1 / scored configs, at the run's k. */
  hits: number;
  scored: number;
  /** Per config: hit or the miss cause (`failed` for a failed item). */
  perConfig: ConfigStatus[];
  /** The question in the run's recommended config; null when the run recommends none. */
  recommended: ConfigStatus | null;
}

export class RunsModel implements vscode.Disposable {
  runs: RunSummary[] = [];
  latest: RunData | null = null;
  /** The latest succeeded run's k (result-list size); the metric keys carry it (`hit@10`). */
  k = 5;
  /** The latest succeeded run's verdict (recommended config, evidence status). */
  verdict: RunVerdict = runVerdict(null);
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
    this.verdict = runVerdict(null);
    if (latest) {
      try {
        this.latest = readRun(latest.dir);
        this.k = this.latest.results?.k ?? this.latest.run.settings.k;
        this.verdict = runVerdict(this.latest.ranking, this.latest.verdict);
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
      if (!s) this.status.set(r.question, (s = { hits: 0, scored: 0, perConfig: [], recommended: null }));
      const failed = r.status === 'failed';
      const hit = hitAt(r, this.k) === 1;
      if (!failed) {
        s.scored++;
        if (hit) s.hits++;
      }
      const c = { config: r.config, hit, cause: r.cause, failed };
      s.perConfig.push(c);
      if (r.config === this.recommended) s.recommended = c;
    }
  }

  /** The latest succeeded run's recommended config id, or null. */
  get recommended(): string | null {
    return this.verdict.recommended;
  }

  statusOf(questionId: string): QuestionStatus | undefined {
    return this.status.get(questionId);
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
