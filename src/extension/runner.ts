/**
 * Runs the grid in the worker (core GridClient → dist/worker.js, `worker_threads`) so the extension host never blocks:
 * a progress notification with Cancel, state events for the status bar (statusBar.ts), and crash reporting. One run at a time.
 * A worker crash ends that run with a message; the next run starts a fresh worker.
 */
import * as vscode from 'vscode';
import { GridClient } from '../worker/client';
import { describeProgress, describeStage, type GridRunResult, type ProgressMessage } from '../shared/protocol';
import { readSettings } from './config';
import type { GroundTruthStore } from './store';
import type { RunSettings } from '../core/settings';
import type { RunModelAccess } from './runAccess';

/** Authorizes the endpoint models of a run (./runAccess.ts over the extension's EndpointAccess). */
export type AuthorizeRunModels = (store: GroundTruthStore, settings: RunSettings) => Promise<RunModelAccess>;

/** How to run: which questions, which part of the grid, whether to write a run directory. */
export interface RunOptions {
  /** Only these questions (default: all). */
  questionIds?: string[];
  /** Narrow the grid (e.g. to the recommended config's chunker, retriever and reranker setting). */
  grid?: Pick<RunSettings, 'chunkers' | 'retrievers' | 'rerank'>;
  /** Write a run directory (default: only when every question and the whole grid run). */
  writeRun?: boolean;
  /** Notification title (default "Spanproof: evaluating"). */
  title?: string;
  /** Cancel from outside (the Test Explorer's stop button). */
  token?: vscode.CancellationToken;
}

/** What the runner is doing, for the status bar. `percent` 0–100; `stage` in words. */
export type RunnerState = { running: false } | { running: true; percent: number | null; stage: string; cancelling: boolean };

export class Runner implements vscode.Disposable {
  private readonly stateEmitter = new vscode.EventEmitter<RunnerState>();
  readonly onDidChangeState = this.stateEmitter.event;
  private stateNow: RunnerState = { running: false };
  private current: { cancel: () => void } | undefined;
  private readonly client: GridClient;
  private readonly finished = new vscode.EventEmitter<{ runDir: string | null; status: string }>();
  readonly onDidFinish = this.finished.event;
  private readonly progressEmitter = new vscode.EventEmitter<ProgressMessage>();
  readonly onProgress = this.progressEmitter.event;
  private readonly crashEmitter = new vscode.EventEmitter<string>();
  readonly onCrash = this.crashEmitter.event;
  /** Test hook: fault injection passed to the worker (set by integration tests). */
  faultInjection: { question: string; config: string } | undefined;

  constructor(
    _context: vscode.ExtensionContext,
    private readonly output: vscode.LogOutputChannel,
    _primary: () => unknown,
    /** Asked before every run (./runAccess.ts: a grid without endpoint models is never asked about); default: every run starts, with no key. */
    private readonly authorizeModels: AuthorizeRunModels = async () => ({ ok: true }),
  ) {
    this.client = new GridClient({ onLog: (level, message) => this.output[level === 'error' ? 'error' : level === 'warn' ? 'warn' : 'info'](message) });
    void vscode.commands.executeCommand('setContext', 'spanproof.running', false);
  }

  get state(): RunnerState {
    return this.stateNow;
  }

  private setState(s: RunnerState): void {
    this.stateNow = s;
    this.stateEmitter.fire(s);
  }

  get running(): boolean {
    return this.current !== undefined;
  }

  private idle(): void {
    this.setState({ running: false });
    void vscode.commands.executeCommand('setContext', 'spanproof.running', false);
  }

  cancel(): void {
    if (!this.current) {
      void vscode.window.showInformationMessage('Spanproof: no evaluation is running.');
      return;
    }
    this.current.cancel();
  }

  /**
   * Run the grid for `store`'s folder (`questionIds`: a one-question run, not written); resolves with
   * the result, or undefined when cancelled/failed (already reported).
   */
  async run(store: GroundTruthStore, questionIds?: string[], options: RunOptions = {}): Promise<GridRunResult | undefined> {
    if (this.current) {
      void vscode.window.showWarningMessage('Spanproof: an evaluation is already running — cancel it first.');
      return undefined;
    }
    const ids = questionIds ?? options.questionIds;
    const settings = { ...readSettings(store.folder), ...options.grid };
    // Endpoint models (SPEC §5.3): the endpoint is confirmed and its key found before anything starts;
    // declined → no run, nothing sent. The key goes to the worker in the request only (never to a file).
    const access = await this.authorizeModels(store, settings);
    if (!access.ok) {
      void vscode.window.showWarningMessage(access.message);
      return undefined;
    }
    if (this.current) {
      void vscode.window.showWarningMessage('Spanproof: an evaluation is already running — cancel it first.');
      return undefined;
    }
    const write = options.writeRun ?? (ids === undefined && options.grid === undefined);
    const oneQuestion = !write;
    const ac = new AbortController();
    const cancel = () => {
      const st = this.stateNow;
      this.setState({ running: true, percent: st.running ? st.percent : null, stage: 'cancelling', cancelling: true });
      ac.abort();
    };
    this.current = { cancel };
    void vscode.commands.executeCommand('setContext', 'spanproof.running', true);
    this.setState({ running: true, percent: null, stage: 'starting', cancelling: false });
    const started = Date.now();
    let runDir: string | null = null;
    let status = 'failed';
    try {
      const r = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: options.title ?? (oneQuestion ? 'Spanproof: evaluating question' : 'Spanproof: evaluating'), cancellable: true },
        (progress, token) => {
          token.onCancellationRequested(cancel);
          options.token?.onCancellationRequested(cancel);
          let last = 0;
          return this.client.run(
            {
              workspace: store.folder.uri.fsPath,
              groundTruthFile: store.confinedFile(),
              settings,
              // Chunks are kept so the panel can run the chunk-ID bias study (SPEC §7.5) on this run.
              keepChunks: write,
              returnRecords: !write,
              ...(ids ? { questionIds: ids } : {}),
              ...(write ? {} : { writeRun: false }),
              ...(this.faultInjection ? { faultInjection: this.faultInjection } : {}),
              ...(access.apiKey ? { apiKey: access.apiKey } : {}),
            },
            {
              signal: ac.signal,
              onProgress: (m) => {
                const pct = m.total > 0 ? (100 * m.done) / m.total : 0;
                progress.report({ increment: Math.max(0, pct - last), message: describeProgress(m) });
                last = pct;
                if (!ac.signal.aborted) this.setState({ running: true, percent: Math.floor(pct), stage: describeStage(m.stage).replace(/…$/, ''), cancelling: false });
                this.progressEmitter.fire(m);
              },
            },
          );
        },
      );
      for (const w of r.warnings ?? []) this.output.warn(w);
      this.output.info(`run ${r.runDir ?? '(not written)'}: ${r.status} in ${Date.now() - started} ms`);
      if (r.location && r.location.kind !== 'workspace') {
        void vscode.window.showInformationMessage(`Spanproof: the run was written to ${r.runDir} (${r.location.reason ?? r.location.kind}).`);
      }
      runDir = r.runDir;
      status = r.status;
      return r;
    } catch (e) {
      const err = e as { code?: string; message?: string; runDir?: string; stack?: string };
      if (err.code === 'cancelled') {
        status = 'cancelled';
        runDir = err.runDir ?? null;
        void vscode.window.showInformationMessage('Spanproof: evaluation cancelled; earlier runs are intact.');
      } else if (err.code === 'worker-crashed') {
        const msg = `${err.message} The extension keeps working; run again to retry.`;
        this.output.error(msg);
        this.crashEmitter.fire(msg);
        void vscode.window.showErrorMessage(`Spanproof: ${msg}`, 'Show Log').then((c) => c && this.output.show());
      } else {
        this.output.error(`${err.message}${err.stack ? `\n${err.stack}` : ''}`);
        void vscode.window.showErrorMessage(`Spanproof: evaluation failed — ${err.message}`);
      }
      return undefined;
    } finally {
      this.current = undefined;
      this.idle();
      this.finished.fire({ runDir, status });
    }
  }

  /** Test hook: terminate the worker abruptly (simulates a crash). */
  killWorkerForTest(): Promise<void> {
    return this.client.dispose();
  }

  dispose(): void {
    this.current?.cancel();
    void this.client.dispose();
    this.stateEmitter.dispose();
    this.finished.dispose();
    this.progressEmitter.dispose();
    this.crashEmitter.dispose();
  }
}
