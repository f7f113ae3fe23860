/**
 * Select Embedding Model…: the built-in static model or a model folder (trusted workspaces only: a
 * model folder is native code's input, SPEC §12 Workspace Trust).
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { readSettings, updateSetting } from '../config';
import type { Spanproof } from '../spanproof';
import type { CommandTable } from './types';

export const modelCommands = {
  selectEmbeddingModel: (sp) => () => selectEmbeddingModel(sp),
} satisfies CommandTable;

/** The files a model folder needs (SPEC §5: model.onnx or onnx/model.onnx; tokenizer.json or vocab.txt). */
export function modelFolderProblem(dir: string): string | undefined {
  const hasModel = existsSync(path.join(dir, 'model.onnx')) || existsSync(path.join(dir, 'onnx', 'model.onnx'));
  const hasTok = existsSync(path.join(dir, 'tokenizer.json')) || existsSync(path.join(dir, 'vocab.txt'));
  return hasModel && hasTok ? undefined : `${dir} needs model.onnx (or onnx/model.onnx) and tokenizer.json (or vocab.txt).`;
}

async function selectEmbeddingModel(sp: Spanproof): Promise<void> {
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showWarningMessage('Spanproof: loading a model folder needs a trusted workspace.');
    return;
  }
  const f = sp.primary();
  const current = readSettings(f?.folder).embeddingModel;
  const pick = await vscode.window.showQuickPick(
    [
      { label: 'Built-in static model', description: current === '' ? 'current' : '', value: '' },
      { label: 'Choose a model folder…', description: current ? `current: ${current}` : '', value: '?' },
    ],
    { title: 'Spanproof: Select Embedding Model' },
  );
  if (!pick) return;
  let value = pick.value;
  if (value === '?') {
    const uris = await vscode.window.showOpenDialog({ canSelectFolders: true, canSelectFiles: false, openLabel: 'Use this model folder', title: 'A folder with model.onnx (or onnx/model.onnx) and tokenizer.json (or vocab.txt)' });
    if (!uris?.[0]) return;
    const problem = modelFolderProblem(uris[0].fsPath);
    if (problem) {
      void vscode.window.showErrorMessage(`Spanproof: ${problem}`);
      return;
    }
    value = uris[0].fsPath;
  }
  await updateSetting('embeddingModel', value, f?.folder);
  void vscode.window.showInformationMessage(`Spanproof: embedding model set to ${value || 'the built-in static model'}; the next run re-embeds.`);
}
