/**
 * The results panel's host side (SPEC §12): one webview panel, strict CSP with a nonce, assets through
 * `asWebviewUri`, the typed protocol of src/shared/protocol.ts, a `ready` handshake (messages are held
 * until the webview says ready), and state restore after reload via `registerWebviewPanelSerializer`.
 */
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { existsSync, readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { readRun, listRuns, writeFileAtomic } from '../core/runs';
import { readBiasInputFromRun, runBiasStudy, type BiasStudy } from '../core/bias';
import { readAnswers } from '../core/judge';
import { decodeDocument } from '../core/corpus';
import { isWebviewToHost, type ErrorPayload, type GridRunResult, type HostToWebview, type LiveQuestionData, type ResultsTab, type WebviewToHost } from '../shared/protocol';
import type { Spanproof } from './spanproof';
import { hitAt } from './testing/outcome';

export class ResultsPanel implements vscode.WebviewPanelSerializer, vscode.Disposable {
  static readonly viewType = 'spanproof.results';
  private panel: vscode.WebviewPanel | undefined;
  private ready = false;
  private queue: HostToWebview[] = [];
  /** Subscriptions that live as long as the current panel. */
  private panelDisposables: vscode.Disposable[] = [];

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly sp: Spanproof,
  ) {}

  /** Reveal (or create) the one results panel; when `runDir` is given, show that run, and select `tab` if given. */
  async show(runDir?: string, tab?: ResultsTab): Promise<void> {
    if (!this.panel) {
      const panel = vscode.window.createWebviewPanel(ResultsPanel.viewType, 'Spanproof Results', vscode.ViewColumn.Beside, this.options());
      this.attach(panel);
    } else this.panel.reveal(this.panel.viewColumn, false);
    const dir = runDir ?? this.sp.primary()?.runs.runs.find((r) => r.status === 'succeeded')?.dir;
    if (dir) this.post({ type: 'notify', event: 'showRun', data: tab ? { runDir: dir, tab } : { runDir: dir } });
  }

  /** The last live one-question re-run the webview was sent and accepted (postMessage resolved true); for tests. */
  lastLiveDelivered: LiveQuestionData | null = null;
  private live: LiveQuestionData | null = null;

  /**
   * Results of a one-question run (not written to disk): the records go to the Question tab of the
   * panel (when it is open; "Show" opens it), and a notification summarises them.
   */
  showAdHoc(result: GridRunResult, questionId: string): void {
    const recs = result.records ?? [];
    const hits = recs.filter((r) => hitAt(r, result.results.k) === 1).length;
    const scored = recs.filter((r) => r.status === 'ok').length;
    const causes = new Map<string, number>();
    for (const r of recs) if (r.cause) causes.set(r.cause, (causes.get(r.cause) ?? 0) + 1);
    const c = [...causes].map(([k, v]) => `${k} ×${v}`).join(', ');
    this.live = { questionId, question: this.liveQuestion(questionId), records: recs, k: result.results.k };
    if (this.panel) this.post({ type: 'notify', event: 'liveQuestion', data: this.live });
    const live = this.live;
    void vscode.window
      .showInformationMessage(`Spanproof: live re-run of ${questionId} (not saved as a run) — hit@${live.k} in ${hits} of ${scored} configs${c ? `; misses: ${c}` : ''}.`, 'Show')
      .then((choice) => choice && this.showLive(live));
  }

  /** Reveal (or create) the panel and show a live re-run in its Question tab. */
  async showLive(live: LiveQuestionData | null = this.live): Promise<void> {
    if (!live) return;
    if (!this.panel) this.attach(vscode.window.createWebviewPanel(ResultsPanel.viewType, 'Spanproof Results', vscode.ViewColumn.Beside, this.options()));
    else this.panel.reveal(this.panel.viewColumn, false);
    this.post({ type: 'notify', event: 'liveQuestion', data: live });
  }

  /** The resolved question with its evidence text, as evidence.json holds it. */
  private liveQuestion(id: string): LiveQuestionData['question'] {
    const f = this.sp.primary();
    const q = f?.store.resolution?.questions.find((x) => x.id === id);
    if (!f || !q) return null;
    return { id: q.id, question: q.question, match: q.match, spans: q.spans.map((s) => ({ source: s.source, start: s.start, end: s.end, text: this.textOf(s.source)?.slice(s.start, s.end) ?? '' })) };
  }

  /** Current text of a workspace document (the open editor's, else decoded from disk); undefined when unreadable. */
  private textOf(source: string): string | undefined {
    const f = this.sp.primary();
    if (!f) return undefined;
    const open = f.store.openDocument(source);
    if (open) return open.getText();
    try {
      const d = decodeDocument(source, readFileSync(path.join(f.store.folder.uri.fsPath, ...source.split('/'))));
      return 'text' in d ? d.text : undefined;
    } catch {
      return undefined;
    }
  }

  notifyRunsChanged(): void {
    if (!this.panel) return;
    const f = this.sp.primary();
    this.post({ type: 'notify', event: 'runsChanged', data: f ? f.runs.runs : [] });
  }

  async deserializeWebviewPanel(panel: vscode.WebviewPanel, _state: unknown): Promise<void> {
    // The webview restores its own state (vscode.getState) and asks for the run it was showing.
    panel.webview.options = this.options();
    this.attach(panel);
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
    this.panelDisposables.push(
      panel.webview.onDidReceiveMessage((m: unknown) => void this.onMessage(m)),
      panel.onDidDispose(() => {
        this.panel = undefined;
        this.ready = false;
        for (const d of this.panelDisposables) d.dispose();
        this.panelDisposables = [];
      }),
      this.sp.runner.onProgress((p) => this.post({ type: 'notify', event: 'progress', data: { done: p.done, total: p.total, stage: p.stage } })),
      this.sp.runner.onDidFinish((f) => this.post({ type: 'notify', event: 'runFinished', data: { runDir: f.runDir, status: f.status as never } })),
      this.sp.runner.onCrash((message) => this.post({ type: 'notify', event: 'workerCrashed', data: { message } })),
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
    const msg = m as WebviewToHost;
    if (msg.type === 'ready') {
      this.ready = true;
      const q = this.queue;
      this.queue = [];
      for (const x of q) this.post(x);
      return;
    }
    if (msg.type === 'state') return;
    try {
      const result = await this.handle(msg);
      this.post({ type: 'response', seq: msg.seq, ok: true, result });
    } catch (e) {
      const err: ErrorPayload = { code: (e as { code?: string }).code ?? 'internal', message: e instanceof Error ? e.message : String(e) };
      this.post({ type: 'response', seq: msg.seq, ok: false, error: err });
    }
  }

  private async handle(msg: Extract<WebviewToHost, { type: 'request' }>): Promise<unknown> {
    const f = this.sp.primary();
    // The Answers tab's request (src/shared/answers.ts, merged into the panel's protocol).
    const extra = msg as unknown as { method: string; params: { runDir: string } };
    if (extra.method === 'loadAnswers') return readAnswers(extra.params.runDir);
    switch (msg.method) {
      case 'listRuns':
        return f ? listRuns(f.runs.runsRoot) : [];
      case 'loadRun':
        return readRun(msg.params.runDir);
      case 'readSpan': {
        if (!f) return null;
        const { source, start, end } = msg.params;
        const text = this.textOf(source);
        return text === undefined ? null : { text: text.slice(Math.max(0, start), Math.min(text.length, end)) };
      }
      case 'revealSpan':
        await this.sp.revealSpan(msg.params.source, msg.params.start, msg.params.end);
        return null;
      case 'runEvaluation':
        void vscode.commands.executeCommand(msg.params.questionIds?.length ? 'spanproof.runEvaluationForQuestion' : 'spanproof.runEvaluation', msg.params.questionIds?.[0]);
        return null;
      case 'cancelEvaluation':
        this.sp.runner.cancel();
        return null;
      case 'biasStudy': {
        // Same file as `spanproof bias`; computed once (≈ 0.5 s for 20 questions × 30 configs) and cached.
        const file = path.join(msg.params.runDir, 'bias.json');
        if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as BiasStudy;
        const study = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Spanproof: bias study' }, async () =>
          runBiasStudy(readBiasInputFromRun(msg.params.runDir)),
        );
        try {
          writeFileAtomic(file, `${JSON.stringify(study, null, 2)}\n`);
        } catch {
          // a read-only run folder: show it without caching
        }
        return study;
      }
      case 'exportReport':
        await vscode.commands.executeCommand('spanproof.exportReport', msg.params.runDir);
        return null;
    }
    return null;
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
