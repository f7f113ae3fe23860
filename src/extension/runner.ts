/**
 * Runs the grid in the worker (dist/worker.js, `worker_threads`) so the extension host never blocks:
 * a progress notification with Cancel, a status-bar item, and crash reporting. One run at a time.
 * A worker crash ends that run with a message; the next run starts a fresh worker.
 */
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import * as vscode from 'vscode';
import {
  isProgressMessage,
  isResponseMessage,
  isLogMessage,
  type GridRunResult,
  type HostToWorker,
  type ProgressMessage,
} from '../shared/protocol';
import { readSettings } from './config';
import type { GroundTruthStore } from './store';

export interface RunEvents {
  progress: ProgressMessage;
}

export class Runner implements vscode.Disposable {
  private readonly status = vscode.window.createStatusBarItem('spanproof.status', vscode.StatusBarAlignment.Left, 10);
  private current: { worker: Worker; id: number; cancel: () => void } | undefined;
  private nextId = 1;
  private readonly finished = new vscode.EventEmitter<{ runDir: string | null; status: string }>();
  readonly onDidFinish = this.finished.event;
  private readonly progressEmitter = new vscode.EventEmitter<ProgressMessage>();
  readonly onProgress = this.progressEmitter.event;
  private readonly crashEmitter = new vscode.EventEmitter<string>();
  readonly onCrash = this.crashEmitter.event;
  /** Test hook: fault injection passed to the worker (set by integration tests). */
  faultInjection: { question: string; config: string } | undefined;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly output: vscode.LogOutputChannel,
    _primary: () => unknown,
  ) {
    this.status.name = 'Spanproof';
    this.idle();
  }

  get running(): boolean {
    return this.current !== undefined;
  }

  private idle(): void {
    this.status.text = '$(beaker) Spanproof';
    this.status.tooltip = 'Spanproof: show results';
    this.status.command = 'spanproof.showResults';
    this.status.show();
    void vscode.commands.executeCommand('setContext', 'spanproof.running', false);
  }

  cancel(): void {
    if (!this.current) {
      void vscode.window.showInformationMessage('Spanproof: no evaluation is running.');
      return;
    }
    this.current.cancel();
  }

  /** Run the grid for `store`'s folder; resolves with the result, or undefined when cancelled/failed (already reported). */
  async run(store: GroundTruthStore, questionIds?: string[]): Promise<GridRunResult | undefined> {
    if (this.current) {
      void vscode.window.showWarningMessage('Spanproof: an evaluation is already running — cancel it first.');
      return undefined;
    }
    const workerFile = path.join(this.context.extensionPath, 'dist', 'worker.js');
    const worker = new Worker(workerFile, { env: process.env as Record<string, string>, stdout: false, stderr: false });
    const id = this.nextId++;
    const settings = readSettings(store.folder);
    const oneQuestion = questionIds !== undefined;
    const send = (m: HostToWorker) => worker.postMessage(m);
    void vscode.commands.executeCommand('setContext', 'spanproof.running', true);
    this.status.text = '$(sync~spin) Spanproof: starting…';
    this.status.tooltip = 'Spanproof evaluation running — click to cancel';
    this.status.command = 'spanproof.cancelEvaluation';
    const started = Date.now();
    try {
      return await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: oneQuestion ? 'Spanproof: evaluating question' : 'Spanproof: evaluating', cancellable: true },
        (progress, token) =>
          new Promise<GridRunResult | undefined>((resolve) => {
            let last = 0;
            let settled = false;
            const done = (r: GridRunResult | undefined, status: string, runDir: string | null) => {
              if (settled) return;
              settled = true;
              this.current = undefined;
              send({ kind: 'shutdown' });
              setTimeout(() => void worker.terminate(), 2000).unref?.();
              this.finished.fire({ runDir, status });
              resolve(r);
            };
            const cancel = () => {
              this.status.text = '$(sync~spin) Spanproof: cancelling…';
              send({ kind: 'cancel', id });
            };
            this.current = { worker, id, cancel };
            token.onCancellationRequested(cancel);
            worker.on('message', (m: unknown) => {
              if (isProgressMessage(m) && m.id === id) {
                const pct = m.total > 0 ? (100 * m.done) / m.total : 0;
                progress.report({ increment: pct - last, message: `${m.stage} ${m.done}/${m.total}` });
                last = pct;
                this.status.text = `$(sync~spin) Spanproof ${Math.round(pct)}% · ${m.stage}`;
                this.progressEmitter.fire(m);
              } else if (isLogMessage(m)) {
                this.output[m.level](m.message);
              } else if (isResponseMessage(m) && m.id === id) {
                if (m.ok) {
                  const r = m.result as GridRunResult;
                  for (const w of r.warnings ?? []) this.output.warn(w);
                  this.output.info(`run ${r.runDir ?? '(not written)'}: ${r.status} in ${Date.now() - started} ms`);
                  if (r.location && r.location.kind !== 'workspace') {
                    void vscode.window.showInformationMessage(`Spanproof: the run was written to ${r.runDir} (${r.location.reason ?? r.location.kind}).`);
                  }
                  done(r, r.status, r.runDir);
                } else if (m.error.code === 'cancelled') {
                  void vscode.window.showInformationMessage('Spanproof: evaluation cancelled; earlier runs are intact.');
                  done(undefined, 'cancelled', null);
                } else {
                  this.output.error(`${m.error.message}${m.error.stack ? `\n${m.error.stack}` : ''}`);
                  void vscode.window.showErrorMessage(`Spanproof: evaluation failed — ${m.error.message}`);
                  done(undefined, 'failed', null);
                }
              }
            });
            const crashed = (why: string) => {
              if (settled) return;
              const msg = `the evaluation worker stopped unexpectedly (${why}). The extension keeps working; run again to retry.`;
              this.output.error(msg);
              this.crashEmitter.fire(msg);
              void vscode.window.showErrorMessage(`Spanproof: ${msg}`, 'Show Log').then((c) => c && this.output.show());
              done(undefined, 'failed', null);
            };
            worker.on('error', (e) => crashed(e instanceof Error ? e.message : String(e)));
            worker.on('exit', (code) => crashed(`exit code ${code}`));
            send({
              kind: 'request',
              id,
              method: 'grid.run',
              params: {
                workspace: store.folder.uri.fsPath,
                groundTruthFile: store.file,
                settings,
                ...(oneQuestion ? { questionIds, writeRun: false, returnRecords: true } : {}),
                ...(this.faultInjection ? { faultInjection: this.faultInjection } : {}),
              },
            });
          }),
      );
    } finally {
      this.current = undefined;
      this.idle();
    }
  }

  /** Test hook: terminate the worker abruptly (simulates a crash). */
  killWorkerForTest(): void {
    void this.current?.worker.terminate();
  }

  dispose(): void {
    this.current?.cancel();
    void this.current?.worker.terminate();
    this.status.dispose();
    this.finished.dispose();
    this.progressEmitter.dispose();
    this.crashEmitter.dispose();
  }
}
