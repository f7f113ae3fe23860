/**
 * Extension-host side of answers and LLM judges (SPEC §12, §14): a command to store the API key in
 * SecretStorage, a command/step that runs the generation
 * stage on a run directory (never in an untrusted workspace, never without a configured endpoint), and
 * the `loadAnswers` handler for the Answers tab. I/O-bound, so it runs in the extension host, not the
 * grid worker; the key never goes to settings, logs or the run directory.
 */
import * as vscode from 'vscode';
import { runGenerationStage, type GenerationStageResult } from '../core/judge';
import { isSpanproofError } from '../core/errors';
import { readSettings } from './config';
import { endpointSetting, promptForApiKey, type EndpointAccess } from './endpoints';
import { redactUrl } from '../core/net';

/**
 * Command "Spanproof: Set Judge API Key…": stores (or, with an empty input, removes) the key for the
 * origin of `spanproof.judge.endpoint` — keys are tied to their endpoint (#16 item 2, ./endpoints).
 */
export async function setJudgeApiKey(access: EndpointAccess, folder: vscode.WorkspaceFolder | undefined): Promise<void> {
  await promptForApiKey(access, 'judge.endpoint', folder);
}

/** Stores `value` as the key of `endpoint`'s origin ('' removes it): what the command does with the typed value. */
export async function storeJudgeApiKey(access: EndpointAccess, endpoint: string, value: string): Promise<void> {
  await access.storeKey(endpoint, value);
}

/** True when `folder`'s judge settings are complete (endpoint, generator and judge model). */
export function judgeConfigured(folder: vscode.WorkspaceFolder | undefined): boolean {
  const j = readSettings(folder).judge;
  return Boolean(j.endpoint && j.generatorModel && j.judgeModel);
}

/**
 * Whether answers may be generated for `folder` now; when not, says why (non-modal, does not wait for
 * the user) and returns false: the workspace is untrusted (nothing is sent), or no endpoint/models are set.
 */
export function judgeReady(folder: vscode.WorkspaceFolder | undefined): boolean {
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showWarningMessage('Spanproof: answers need a trusted workspace (they call an LLM endpoint). Nothing was sent.');
    return false;
  }
  if (!judgeConfigured(folder)) {
    void vscode.window
      .showInformationMessage('Spanproof: no judge endpoint is configured — set spanproof.judge.endpoint, generatorModel and judgeModel (two different models) to generate and judge answers. Nothing was sent.', 'Open Settings')
      .then((pick) => pick && vscode.commands.executeCommand('workbench.action.openSettings', 'spanproof.judge'));
    return false;
  }
  return true;
}

/**
 * Generates and judges answers for `runDir` with the `spanproof.judge.*` settings of `folder`.
 * Returns null (and says why) when the workspace is untrusted or no endpoint/models are set; shows
 * bad-input errors (same model, refused key, unknown model) as messages; cancellable from the
 * notification (the answers finished so far are kept).
 */
export async function generateAnswers(access: EndpointAccess, runDir: string, folder: vscode.WorkspaceFolder | undefined, log?: vscode.LogOutputChannel): Promise<GenerationStageResult | null> {
  if (!folder || !judgeReady(folder)) return null;
  const j = readSettings(folder).judge;
  // The endpoint comes from the settings (never from the run's files), confirmed when the workspace set
  // it, with the key stored for its origin only (#16 items 1, 2).
  const auth = await access.authorize(endpointSetting('judge.endpoint', folder), 'the questions, retrieved passages and generated answers');
  if (!auth) {
    void vscode.window.showInformationMessage('Spanproof: answers not generated — the endpoint was not allowed. Nothing was sent.');
    return null;
  }
  const shown = redactUrl(auth.endpoint);
  log?.info(`answers for ${runDir}: sending questions, retrieved passages and answers to ${shown} (generator ${j.generatorModel}, judge ${j.judgeModel})${auth.apiKey ? ` with the key stored for ${auth.origin}` : ', no API key'}`);
  try {
    const r = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Spanproof: answers (${j.generatorModel}, judged by ${j.judgeModel}) at ${shown}`, cancellable: true }, (progress, token) => {
      const ac = new AbortController();
      token.onCancellationRequested(() => ac.abort());
      let last = 0;
      return runGenerationStage(runDir, {
        judge: { ...j, endpoint: auth.endpoint },
        apiKey: auth.apiKey,
        workspace: folder.uri.fsPath,
        signal: ac.signal,
        onProgress: (done, total) => {
          const pct = total ? (100 * done) / total : 0;
          progress.report({ increment: Math.max(0, pct - last), message: `${done}/${total} answers` });
          last = pct;
        },
      });
    });
    log?.info(`answers for ${runDir}: ${r.status}; ${r.ledger.requests} request(s), ${r.ledger.cachedResponses} cached, ${r.ledger.promptTokens}+${r.ledger.completionTokens} tokens`);
    if (r.summary.sameModel) void vscode.window.showWarningMessage('Spanproof: the same model generated and judged the answers (allowSameModel): judges favour their own output.');
    const n = r.records.length;
    void vscode.window
      .showInformationMessage(`Spanproof: ${r.status === 'cancelled' ? 'cancelled — kept ' : ''}${n} answer(s) generated and judged (${r.ledger.requests} request(s), ${r.ledger.cachedResponses} from the cache).`, 'Show Answers')
      .then((c) => c && vscode.commands.executeCommand('spanproof.showResults', runDir, 'answers')); // reuses the open panel, selects Answers
    return r;
  } catch (e) {
    const msg = isSpanproofError(e) ? e.message : String((e as Error)?.message ?? e);
    log?.error(`answers for ${runDir}: ${msg}`);
    void vscode.window.showErrorMessage(`Spanproof: answers failed — ${msg}`);
    return null;
  }
}
