/**
 * Import Dataset… and Export Report… — thin adapters over the core importers (SPEC §13) and report
 * writers (SPEC §10). When this build's core does not provide one, the command says so plainly.
 */
import * as vscode from 'vscode';
import type { Spanproof } from './spanproof';

export async function importDataset(_sp: Spanproof): Promise<void> {
  void vscode.window.showInformationMessage(
    'Spanproof: Import Dataset is not available in this build of the extension. Use the CLI: `npx spanproof import <weknora|pathway-cuad|ragas|chroma|squad> <path> --workspace <folder>`.',
  );
}

export async function exportReport(_sp: Spanproof, _runDir?: string): Promise<void> {
  void vscode.window.showInformationMessage(
    'Spanproof: Export Report is not available in this build of the extension. Use the CLI: `npx spanproof report <run dir> --format md|html|csv`.',
  );
}
