/**
 * The results panel's host side (SPEC §12): one webview panel, strict CSP with a nonce, assets through
 * `asWebviewUri`, the typed protocol of src/shared/protocol.ts, a `ready` handshake (messages are held
 * until the webview says ready), and state restore after reload via `registerWebviewPanelSerializer`.
 * Requests are answered from the typed handler table of panelHandlers.ts.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { dispatchWebviewRequest, isWebviewToHost, type GridRunResult, type HostToWebview, type LiveQuestionData, type ResultsTab, type RunStatus, type WebviewHandlers } from '../shared/protocol';
import { panelHandlers } from './panelHandlers';
import { liveQuestionData, type PanelHost } from './panelHost';
import { hitAt } from './testing/outcome';

const RUN_STATUSES: readonly RunStatus[] = ['pending', 'running', 'succeeded', 'failed', 'cancelled', 'interrupted'];
const asRunStatus = (s: string): RunStatus => (RUN_STATUSES as readonly string[]).includes(s) ? (s as RunStatus) : 'failed';

export class ResultsPanel implements vscode.WebviewPanelSerializer, vscode.Disposable {
  static readonly viewType = 'spanproof.results';
  private panel: vscode.WebviewPanel | undefined;
  private ready = false;
  private queue: HostToWebview[] = [];
  /** Subscriptions that live as long as the current panel. */
  private panelDisposables: vscode.Disposable[] = [];
  private readonly handlers: WebviewHandlers;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly host: PanelHost,
  ) {
    this.handlers = panelHandlers(host);
  }

  /** Reveal (or create) the one results panel; when `runDir` is given, show that run, and select `tab` if given. */
  async show(runDir?: string, tab?: ResultsTab): Promise<void> {
    this.reveal();
    const dir = runDir ?? this.host.primary()?.runs.runs.find((r) => r.status === 'succeeded')?.dir;
    if (dir) this.post({ type: 'notify', event: 'showRun', data: tab ? { runDir: dir, tab } : { runDir: dir } });
  }

  /** The last live one-question re-run the webview was sent and accepted (postMessage resolved true); for tests. */
  lastLiveDelivered: LiveQuestionData | null = null;
  private live: LiveQuestionData | null = null;

  /**
   * Results of a one-question run (not written to disk): the records go to the Question tab of the
   * panel (when it is open; "Show" opens it), and a notification summarises them (hit@k at the run's k).
   */
  showAdHoc(result: GridRunResult, questionId: string): void {
    const live = liveQuestionData(this.host.primary(), result, questionId);
    this.live = live;
    const hits = live.records.filter((r) => hitAt(r, live.k) === 1).length;
    const scored = live.records.filter((r) => r.status === 'ok').length;
    const causes = new Map<string, number>();
    for (const r of live.records) if (r.cause) causes.set(r.cause, (causes.get(r.cause) ?? 0) + 1);
    const c = [...causes].map(([k, v]) => `${k} ×${v}`).join(', ');
    if (this.panel) this.post({ type: 'notify', event: 'liveQuestion', data: live });
    void vscode.window
      .showInformationMessage(`Spanproof: live re-run of ${questionId} (not saved as a run) — hit@${live.k} in ${hits} of ${scored} configs${c ? `; misses: ${c}` : ''}.`, 'Show')
      .then((choice) => choice && this.showLive(live));
  }

  /** Reveal (or create) the panel and show a live re-run in its Question tab. */
  async showLive(live: LiveQuestionData | null = this.live): Promise<void> {
    if (!live) return;
    this.reveal();
    this.post({ type: 'notify', event: 'liveQuestion', data: live });
  }

  notifyRunsChanged(): void {
    if (!this.panel) return;
    this.post({ type: 'notify', event: 'runsChanged', data: this.host.primary()?.runs.runs ?? [] });
  }

  async deserializeWebviewPanel(panel: vscode.WebviewPanel, _state: unknown): Promise<void> {
    // The webview restores its own state (vscode.getState) and asks for the run it was showing.
    panel.webview.options = this.options();
    this.attach(panel);
  }

  /** Create the panel, or bring it to the front; an already visible panel keeps the focus where the user has it (e.g. a ranking row, when a run finishes). */
  private reveal(): void {
    if (!this.panel) this.attach(vscode.window.createWebviewPanel(ResultsPanel.viewType, 'Spanproof Results', vscode.ViewColumn.Beside, this.options()));
    else this.panel.reveal(this.panel.viewColumn, this.panel.visible);
  }

  private options(): vscode.WebviewPanelOptions & vscode.WebviewOptions {
    return {
      enableScripts: true,
      retainContextWhenHidden: false,
      localResourceRoots: [vscode.Uri.joinPath(this.context.extensionUri, 'dist'), vscode.Uri.joinPath(this.context.extensionUri, 'media')],
    };
  }

  private attach(panel: vscode.WebviewPanel): void {
    this.panel = panel;
    this.ready = false;
    this.queue = [];
    panel.iconPath = vscode.Uri.joinPath(this.context.extensionUri, 'media', 'spanproof.svg');
    panel.webview.html = this.html(panel.webview);
    const runner = this.host.runner;
    this.panelDisposables.push(
      panel.webview.onDidReceiveMessage((m: unknown) => void this.onMessage(m)),
      panel.onDidDispose(() => {
        this.panel = undefined;
        this.ready = false;
        for (const d of this.panelDisposables) d.dispose();
        this.panelDisposables = [];
      }),
      runner.onProgress((p) => this.post({ type: 'notify', event: 'progress', data: { done: p.done, total: p.total, stage: p.stage } })),
      runner.onDidFinish((f) => this.post({ type: 'notify', event: 'runFinished', data: { runDir: f.runDir, status: asRunStatus(f.status) } })),
      runner.onCrash((message) => this.post({ type: 'notify', event: 'workerCrashed', data: { message } })),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.post({ type: 'notify', event: 'trust', data: { trusted: true } })),
    );
    this.post({ type: 'notify', event: 'trust', data: { trusted: vscode.workspace.isTrusted } });
  }

  private post(m: HostToWebview): void {
    if (!this.panel) return;
    if (!this.ready) {
      this.queue.push(m);
      return;
    }
    void this.panel.webview.postMessage(m).then((ok) => {
      if (ok && m.type === 'notify' && m.event === 'liveQuestion') this.lastLiveDelivered = m.data;
    });
  }

  private async onMessage(m: unknown): Promise<void> {
    if (!isWebviewToHost(m)) return;
    if (m.type === 'ready') {
      this.ready = true;
      const q = this.queue;
      this.queue = [];
      for (const x of q) this.post(x);
      return;
    }
    this.post(await dispatchWebviewRequest(this.handlers, m));
  }

  private html(webview: vscode.Webview): string {
    const nonce = randomBytes(16).toString('base64');
    const script = webview.asWebviewUri(vscode.Uri.joinPath(this.context.extensionUri, 'dist', 'webview.js'));
    const style = webview.asWebviewUri(vscode.Uri.joinPath(this.context.extensionUri, 'media', 'results.css'));
    const csp = [
      "default-src 'none'",
      `script-src 'nonce-${nonce}'`,
      `style-src ${webview.cspSource}`,
      `img-src ${webview.cspSource} data:`,
      `font-src ${webview.cspSource}`,
    ].join('; ');
    return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${style}">
<title>Spanproof Results</title>
</head>
<body>
<div id="app" role="main" aria-busy="true"><p>Loading…</p></div>
<script nonce="${nonce}" src="${script}"></script>
</body>
</html>`;
  }

  dispose(): void {
    this.panel?.dispose();
    for (const d of this.panelDisposables) d.dispose();
  }
}
