/**
 * Import Dataset… and Export Report… — thin adapters over the core importers (SPEC §13) and report
 * writers (SPEC §10), the same code as `spanproof import` / `spanproof report`.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { readRun } from '../../core/runs';
import { writeFileAtomic } from '../../core/files';
import { renderRunReport, type ReportFormat } from '../../core/report';
import { IMPORT_FORMATS, questionsAtRisk, runImport, writeImport, type ImportFormat } from '../../core/import';
import type { Spanproof } from '../spanproof';
import type { CommandTable } from './types';
import { makeDirs } from '../../core/files/dirs';

export const interopCommands = {
  importDataset: (sp) => () => importDataset(sp),
  exportReport: (sp) => (runDir) => exportReport(sp, typeof runDir === 'string' ? runDir : undefined),
} satisfies CommandTable;

/**
 * Import a dataset (SPEC §11 `import`) into the workspace folder through the core importers: pick the
 * format, the input (and for Pathway CUAD the contract texts), confirm with the conversion counts, write
 * (documents + ground truth; an existing ground-truth file is backed up by `writeImport`), reload.
 * Allowed in untrusted workspaces: it loads no model and calls no endpoint, it only writes files.
 */
export async function importDataset(sp: Spanproof): Promise<void> {
  const f = sp.primary();
  if (!f) {
    void vscode.window.showWarningMessage('Spanproof: open the folder to import into first.');
    return;
  }
  const fmt = await vscode.window.showQuickPick(
    IMPORT_FORMATS.map((id) => ({ label: id, description: IMPORT_HELP[id], id })),
    { title: 'Spanproof: Import Dataset — format' },
  );
  if (!fmt) return;
  const folderInput = fmt.id === 'weknora';
  const picked = await vscode.window.showOpenDialog({
    title: `Spanproof: ${fmt.id} input (${IMPORT_HELP[fmt.id]})`,
    canSelectFiles: !folderInput,
    canSelectFolders: folderInput,
    openLabel: 'Import',
  });
  if (!picked?.[0]) return;
  let documents: string | undefined;
  if (fmt.id === 'pathway-cuad') {
    const d = await vscode.window.showOpenDialog({ title: 'Spanproof: folder with the CUAD contract texts', canSelectFolders: true, canSelectFiles: false, openLabel: 'Use these documents' });
    if (!d?.[0]) return;
    documents = d[0].fsPath;
  }
  const workspace = f.store.folder.uri.fsPath;
  const result = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Spanproof: reading ${fmt.id} dataset…` }, () =>
    runImport(fmt.id, picked[0].fsPath, { workspace, documents }),
  );
  const r = result.report;
  if (r.converted === 0) {
    // writeImport refuses to replace a ground truth with nothing; say why here instead of asking first.
    const reasons = [...new Set(r.rejected.map((x) => x.reason))].slice(0, 3).join('; ');
    sp.output.info(`import ${fmt.id} ${picked[0].fsPath}: nothing converted: ${JSON.stringify(r)}`);
    void vscode.window.showErrorMessage(
      `Spanproof: nothing to import — 0 of ${r.rowsRead} rows converted (${reasons || 'no rows'}). Nothing was written. Is this a ${fmt.id} file?`,
    );
    return;
  }
  // #16 item 8: an import never replaces hand-written questions without the user saying so.
  const groundTruthFile = f.store.confinedFile(); // spanproof.groundTruthPath: the file the store reads (fresh-user item 10)
  const atRisk = questionsAtRisk(result, workspace, groundTruthFile);
  const summary = `Spanproof: ${r.rowsRead} rows read, ${r.converted} questions converted, ${r.rejected.length} rejected; ${result.documents.length} document(s).`;
  const ok = atRisk === 0
    ? await vscode.window.showWarningMessage(`${summary} Write them to ${workspace}?`, { modal: true }, 'Import')
    : await vscode.window.showWarningMessage(`${summary} The workspace already has a ground truth; ${atRisk} of its questions would be replaced.`, { modal: true, detail: 'Merge adds the imported questions by id (an id already there keeps your version and is listed). Replace swaps the file for the import; the current file is kept as a backup (groundtruth.json.bak, or .bak.N).' }, 'Merge', 'Replace');
  if (!ok) return;
  const out = await writeImport(result, workspace, { existing: ok === 'Merge' ? 'merge' : 'replace', groundTruthFile });
  if (out.merge?.conflicts.length) sp.output.info(`import ${fmt.id}: ${out.merge.conflicts.length} id(s) already in the ground truth with other content kept your version: ${out.merge.conflicts.join(', ')}`);
  sp.output.info(`import ${fmt.id} ${picked[0].fsPath}: ${JSON.stringify(r)}`);
  await f.store.load();
  const choice = await vscode.window.showInformationMessage(
    `Spanproof: imported ${r.converted} questions (${out.documentsWritten} documents written${out.backup ? `, previous ground truth backed up to ${out.backup}` : ''}${out.groundTruthUnchanged ? '; ground truth unchanged' : ''}${out.merge ? `; merged: ${out.merge.added.length} added, ${out.merge.conflicts.length} conflict(s) kept your version` : ''}). Conversion report: ${out.reportFile}.`,
    'Open Report',
  );
  if (choice) await vscode.window.showTextDocument(vscode.Uri.file(out.reportFile));
}

const IMPORT_HELP: Record<ImportFormat, string> = {
  weknora: 'folder with the WeKnora Parquet files',
  'pathway-cuad': 'CUAD labeled.tsv (+ a folder of contract texts)',
  ragas: 'RAGAS JSONL',
  chroma: 'Chroma questions_df.csv (corpora/ beside it)',
  squad: 'SQuAD 2.0 JSON',
};

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
  // Default under .spanproof/reports/: .spanproof is excluded from the corpus by default, so a Markdown
  // report saved there cannot match the include globs and change the next run's results.
  const root = f?.store.folder.uri.fsPath;
  const reportsDir = root ? path.join(root, '.spanproof', 'reports') : dir;
  try {
    makeDirs(reportsDir);
  } catch {
    /* the dialog still opens; the user picks another folder */
  }
  const target = await vscode.window.showSaveDialog({
    defaultUri: vscode.Uri.file(path.join(reportsDir, `spanproof-${data.run.id}.${fmt.format}`)),
    filters: { [fmt.label]: [fmt.format] },
  });
  if (!target) return undefined;
  writeFileAtomic(target.fsPath, renderRunReport(dir, fmt.format));
  void vscode.window.showInformationMessage(`Spanproof: report written to ${target.fsPath}.`, 'Open').then(async (open) => {
    if (!open) return;
    // HTML is a self-contained page: the browser renders it; Markdown and CSV open as text.
    if (fmt.format === 'html') await vscode.env.openExternal(target);
    else await vscode.window.showTextDocument(target);
  });
  return target.fsPath;
}
