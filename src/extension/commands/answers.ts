/**
 * Answers and LLM judges (SPEC §14): Set Judge API Key…, Generate and Judge Answers…, and the offer
 * after a finished run — opt-in, only with a configured endpoint in a trusted workspace.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { GenerationStageResult } from '../../core/judge';
import { generateAnswers, judgeConfigured, judgeReady, setJudgeApiKey } from '../answers';
import { readSettings } from '../config';
import { redactUrl } from '../../core/net';
import type { FolderScope } from '../folder';
import type { Spanproof } from '../spanproof';
import type { CommandTable } from './types';

export const answerCommands = {
  setJudgeApiKey: (sp) => () => setJudgeApiKey(sp.endpoints, sp.primary()?.folder),
  generateAnswers: (sp) => (runDir) => generateAnswersFor(sp, typeof runDir === 'string' ? runDir : undefined),
} satisfies CommandTable;

/** After a finished run, a non-blocking offer to generate answers — only when an endpoint is configured. */
export function offerAnswers(f: FolderScope, runDir: string): void {
  if (!vscode.workspace.isTrusted || !judgeConfigured(f.folder)) return;
  const j = readSettings(f.folder).judge;
  void vscode.window
    .showInformationMessage(`Spanproof: run finished. Generate answers with ${j.generatorModel} and judge them with ${j.judgeModel} at ${redactUrl(j.endpoint)}?`, 'Generate Answers')
    .then((c) => c && vscode.commands.executeCommand('spanproof.generateAnswers', runDir));
}

/**
 * "Generate and Judge Answers…": for `runDir`, else a succeeded run picked from the run history of the
 * primary folder. Refuses (with a message, nothing sent) in an untrusted workspace or without
 * endpoint/models. Resolves with the stage result, or null when refused, cancelled or failed.
 */
async function generateAnswersFor(sp: Spanproof, runDir?: string): Promise<GenerationStageResult | null> {
  const f = (runDir && [...sp.folders.values()].find((x) => path.resolve(runDir).startsWith(x.runs.runsRoot + path.sep))) || sp.primary();
  if (!f) {
    void vscode.window.showWarningMessage('Spanproof: open a folder first.');
    return null;
  }
  if (!judgeReady(f.folder)) return null;
  let dir = runDir;
  if (!dir) {
    f.runs.refresh();
    const runs = f.runs.runs.filter((r) => r.status === 'succeeded');
    if (!runs.length) {
      void vscode.window.showInformationMessage('Spanproof: there is no finished run yet — run an evaluation first.');
      return null;
    }
    const pick = await vscode.window.showQuickPick(
      runs.map((r) => ({ label: r.id, description: `${r.status}${r.top ? ` · top ${r.top}` : ''}`, detail: existsSync(path.join(r.dir, 'answers.jsonl')) ? 'has answers (cached replies are reused)' : undefined, dir: r.dir })),
      { title: 'Spanproof: Generate and Judge Answers — which run?' },
    );
    dir = pick?.dir;
    if (!dir) return null;
  }
  const r = await generateAnswers(sp.endpoints, dir, f.folder, sp.output);
  if (r) sp.panel.notifyRunsChanged();
  return r;
}
