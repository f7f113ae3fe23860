/**
 * The status bar item (issue 15 item 4, SPEC §12 Progress): while a run goes, its progress (click
 * cancels); otherwise the latest run's verdict of the active folder — the recommended config and the
 * evidence status (`provisional` / `decisive`, ranking.json format 2) — and a click opens the results.
 */
import * as vscode from 'vscode';
import type { FolderScope } from './folder';
import type { Runner, RunnerState } from './runner';

export class StatusBar implements vscode.Disposable {
  readonly item = vscode.window.createStatusBarItem('spanproof.status', vscode.StatusBarAlignment.Left, 10);
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly runner: Runner,
    private readonly primary: () => FolderScope | undefined,
  ) {
    this.item.name = 'Spanproof';
    this.subscriptions.push(runner.onDidChangeState(() => this.update()), vscode.window.onDidChangeActiveTextEditor(() => this.update()));
    this.update();
    this.item.show();
  }

  /** Redraw from the runner's state and the primary folder's latest run. */
  update(): void {
    const s: RunnerState = this.runner.state;
    const item = this.item;
    if (s.running) {
      item.text = s.cancelling ? '$(sync~spin) Spanproof: cancelling…' : s.percent === null ? '$(sync~spin) Spanproof: starting…' : `$(sync~spin) Spanproof ${s.percent}% · ${s.stage}`;
      item.tooltip = 'Spanproof evaluation running — click to cancel';
      item.command = 'spanproof.cancelEvaluation';
      item.accessibilityInformation = { label: s.percent === null ? 'Spanproof evaluation starting' : `Spanproof evaluation ${s.percent} percent, ${s.stage}` };
      return;
    }
    item.command = 'spanproof.showResults';
    const f = this.primary();
    const v = f?.runs.verdict;
    const latest = f?.runs.latest;
    if (!f || !latest || !v) {
      item.text = '$(beaker) Spanproof';
      item.tooltip = 'Spanproof: no finished run yet — click to show the results panel';
      item.accessibilityInformation = { label: 'Spanproof: no finished run yet' };
      return;
    }
    const config = v.recommended ?? v.top;
    const status = v.status ?? (v.recommended ? 'recommended' : 'rank 1');
    item.text = config ? `$(beaker) ${config} · ${status}` : '$(beaker) Spanproof: no config scored';
    const md = new vscode.MarkdownString(undefined, true);
    md.appendMarkdown(`**Spanproof** · latest run \`${latest.run.id}\` (${f.folder.name})\n\n`);
    if (config) md.appendMarkdown(`${v.recommended ? 'Recommended' : 'Rank 1 (no config recommended)'}: \`${config}\`${v.status ? ` — evidence **${v.status}**` : ''}\n\n`);
    if (v.summary) md.appendText(v.summary).appendMarkdown('\n\n');
    md.appendMarkdown('Click to show the results.');
    item.tooltip = md;
    item.accessibilityInformation = { label: `Spanproof verdict: ${config ?? 'none'}, ${status}` };
  }

  dispose(): void {
    for (const d of this.subscriptions) d.dispose();
    this.item.dispose();
  }
}
