/**
 * The results panel's request handlers: one typed handler per request of `WebviewMethods`
 * (src/shared/protocol.ts), dispatched by `dispatchWebviewRequest`. A request type carries its result
 * type, so a missing handler or a handler returning the wrong shape does not compile.
 */
import * as path from 'node:path';
import { existsSync } from 'node:fs';
import { MAX_DATA_FILE_BYTES, readRegularTextSync } from '../core/files/read';
import * as vscode from 'vscode';
import { readRun, listRuns, writeBiasStudy } from '../core/runs';
import { readBiasInputFromRun, runBiasStudy, type BiasStudy } from '../core/bias';
import { readAnswers } from '../core/judge';
import type { WebviewHandlers } from '../shared/protocol';
import { documentText, type PanelHost } from './panelHost';

/** The handler table of the panel, reading the workspace through `host`. */
export function panelHandlers(host: PanelHost): WebviewHandlers {
  return {
    listRuns: () => {
      const f = host.primary();
      return f ? listRuns(f.runs.runsRoot) : [];
    },
    loadRun: ({ runDir }) => readRun(runDir),
    loadAnswers: ({ runDir }) => readAnswers(runDir),
    readSpan: ({ source, start, end }) => {
      const text = documentText(host.primary(), source);
      return text === undefined ? null : { text: text.slice(Math.max(0, start), Math.min(text.length, end)) };
    },
    revealSpan: async ({ source, start, end }) => {
      await host.revealSpan(source, start, end);
      return null;
    },
    runEvaluation: ({ questionIds }) => {
      void vscode.commands.executeCommand(questionIds?.length ? 'spanproof.runEvaluationForQuestion' : 'spanproof.runEvaluation', questionIds?.[0]);
      return null;
    },
    cancelEvaluation: () => {
      host.runner.cancel();
      return null;
    },
    exportReport: async ({ runDir }) => {
      const file: unknown = await vscode.commands.executeCommand('spanproof.exportReport', runDir);
      return typeof file === 'string' ? { file } : null;
    },
    biasStudy: ({ runDir }) => biasStudy(runDir),
  };
}

/** `<runDir>/bias.json` (the file `spanproof bias` writes), computed on first request (≈ 0.5 s for 20 questions × 30 configs) and cached. */
async function biasStudy(runDir: string): Promise<BiasStudy> {
  const file = path.join(runDir, 'bias.json');
  if (existsSync(file)) return JSON.parse(readRegularTextSync(file, MAX_DATA_FILE_BYTES)) as BiasStudy;
  const study = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Spanproof: bias study' }, async () => runBiasStudy(readBiasInputFromRun(runDir)));
  try {
    writeBiasStudy(runDir, study, file);
  } catch {
    // a read-only run folder: show it without caching
  }
  return study;
}
