/**
 * Import Dataset… and Export Report… — thin adapters over the core importers (SPEC §13) and report
 * writers (SPEC §10). When this build's core does not provide one, the command says so plainly.
 */
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { readRun } from '../core/runs';
import { renderReport, type ReportFormat } from '../core/report';
import type { Spanproof } from './spanproof';

export async function importDataset(_sp: Spanproof): Promise<void> {
  void vscode.window.showInformationMessage(
    'Spanproof: Import Dataset is not available in this build of the extension. Use the CLI: `npx spanproof import <weknora|pathway-cuad|ragas|chroma|squad> <path> --workspace <folder>`.',
  );
}

/** Export a run (default: the latest succeeded one) as Markdown, HTML or CSV to a file the user picks. */
export async function exportReport(sp: Spanproof, runDir?: string): Promise<string | undefined> {
  const f = sp.primary();
  const runs = f?.runs.runs ?? [];
  let dir = runDir;
  if (!dir) {
    const pick = await vscode.window.showQuickPick(
      runs.map((r) => ({ label: r.id, description: `${r.status}${r.top ? ` · top ${r.top}` : ''}`, dir: r.dir })),
      { title: 'Spanproof: Export Report — which run?' },
    );
    dir = pick?.dir;
  }
  if (!dir) {
    if (!runs.length) void vscode.window.showInformationMessage('Spanproof: there are no runs to export yet.');
    return undefined;
  }
  const fmt = await vscode.window.showQuickPick(
    [
      { label: 'HTML', description: 'self-contained report', format: 'html' as ReportFormat },
      { label: 'Markdown', format: 'md' as ReportFormat },
      { label: 'CSV', description: 'one row per config', format: 'csv' as ReportFormat },
    ],
    { title: 'Spanproof: Export Report — format' },
  );
  if (!fmt) return undefined;
  const data = readRun(dir);
  const target = await vscode.window.showSaveDialog({
    defaultUri: vscode.Uri.file(path.join(f?.store.folder.uri.fsPath ?? dir, `spanproof-${data.run.id}.${fmt.format}`)),
    filters: { [fmt.label]: [fmt.format] },
  });
  if (!target) return undefined;
  writeFileSync(target.fsPath, renderReport(data, fmt.format));
  const open = await vscode.window.showInformationMessage(`Spanproof: report written to ${target.fsPath}.`, 'Open');
  if (open) await vscode.commands.executeCommand('vscode.open', target);
  return target.fsPath;
}
