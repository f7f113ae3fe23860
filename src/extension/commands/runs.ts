/**
 * Run commands (SPEC §6, §12): Run Evaluation, Run Evaluation for This Question, Cancel Evaluation,
 * Show Results. The grid runs in the resident worker (`Runner`); a whole run is written and shown in
 * the results panel, a one-question run is shown live and not written.
 */
import * as vscode from 'vscode';
import type { FolderScope } from '../folder';
import type { Spanproof } from '../spanproof';
import type { QuestionNode } from '../tree';
import { offerAnswers } from './answers';
import type { CommandTable } from './types';

export const runCommands = {
  runEvaluation: (sp) => () => runEvaluation(sp),
  runEvaluationForQuestion: (sp) => (arg) => runQuestion(sp, arg),
  cancelEvaluation: (sp) => () => sp.runner.cancel(),
  showResults: (sp) => (runDir, tab) => sp.panel.show(typeof runDir === 'string' ? runDir : undefined, tab === 'answers' ? 'answers' : undefined),
} satisfies CommandTable;

/**
 * The checks every run starts with: a trusted workspace, a folder with questions, and the documents
 * saved (the worker reads the disk). Resolves with the folder to run, or undefined (already said why).
 */
export async function prepareRun(sp: Spanproof, f: FolderScope | undefined = sp.primary()): Promise<FolderScope | undefined> {
  if (!vscode.workspace.isTrusted) {
    void vscode.window
      .showWarningMessage('Spanproof: running an evaluation needs a trusted workspace. You can still edit ground truth and view results.', 'Manage Workspace Trust')
      .then((c) => c && vscode.commands.executeCommand('workbench.trust.manage'));
    return undefined;
  }
  if (!f) {
    void vscode.window.showWarningMessage('Spanproof: open a folder first.');
    return undefined;
  }
  if (!f.store.gt?.questions.length) {
    void vscode.window.showWarningMessage('Spanproof: there are no questions yet — select a passage and run "New Question from Selection".');
    return undefined;
  }
  const unsaved = vscode.workspace.textDocuments.filter((d) => d.isDirty && f.store.sourceOf(d.uri) !== undefined);
  if (unsaved.length) {
    const c = await vscode.window.showWarningMessage(
      `Spanproof evaluates the files on disk; ${unsaved.length} document(s) of this folder have unsaved changes.`,
      'Save All and Run',
      'Run Without Saving',
    );
    if (!c) return undefined;
    if (c === 'Save All and Run') for (const d of unsaved) await d.save();
  }
  return f;
}

async function runEvaluation(sp: Spanproof, questionIds?: string[]): Promise<void> {
  const f = await prepareRun(sp);
  if (!f) return;
  const result = await sp.runner.run(f.store, questionIds);
  if (result?.runDir) {
    f.runs.refresh();
    if (result.status === 'succeeded') sp.tests.publish(f, 'Spanproof: Run Evaluation');
    await sp.panel.show(result.runDir);
    if (result.status === 'succeeded') offerAnswers(f, result.runDir);
  } else if (result && questionIds) {
    sp.panel.showAdHoc(result, questionIds[0]);
  }
}

async function runQuestion(sp: Spanproof, arg?: unknown): Promise<void> {
  let id: string | undefined;
  if (typeof arg === 'string') id = arg;
  else if (arg && typeof arg === 'object' && 'kind' in arg) {
    const node = arg as QuestionNode;
    id = node.kind === 'question' ? node.id : node.kind === 'evidence' ? node.ref.questionId : undefined;
  }
  id ??= sp.editor.questionAtCursor();
  if (!id) {
    const f = sp.primary();
    const pick = await vscode.window.showQuickPick((f?.store.gt?.questions ?? []).map((q) => ({ label: q.question, description: q.id, id: q.id })), {
      title: 'Spanproof: Run Evaluation for Question',
    });
    id = pick?.id;
  }
  if (id) await runEvaluation(sp, [id]);
}
