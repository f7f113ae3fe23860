/**
 * Select Embedding Model…: a built-in model, a catalogue model (downloaded now, with its size asked
 * first, progress and cancel), an endpoint model, or a model folder; then "Use only <model>" or "Add
 * <model> to the grid" (the `embedders` axis, SPEC §5.3), written to the scope that sets the embedders
 * (folder, else workspace). Trusted workspaces only: a model folder is native code's input and an
 * endpoint receives the corpus's text (SPEC §12 Workspace Trust). Set Model Endpoint API Key… stores
 * the key of `modelEndpoint.url`'s origin.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { findCatalogueEntry, entryBytes, hubUrl, mb, modelStoreDir, pullModel, redactUrl } from '../../core/models/catalogue';
import { ENDPOINT_PREFIX } from '../../core/models/embedderSpec';
import { readSettings, updateSetting } from '../config';
import { promptForApiKey } from '../endpoints';
import { embedderChangeChoices, embedderTarget, embeddersAfterPick, embeddingModelPicks, gridEmbedders, valueToWrite, type EmbedderSettings, type ModelAction } from '../modelPicks';
import type { Spanproof } from '../spanproof';
import type { CommandTable } from './types';

export const modelCommands = {
  selectEmbeddingModel: (sp) => () => selectEmbeddingModel(sp),
  /** The key of `modelEndpoint.url`'s origin, for endpoint embedders and rerankers (SecretStorage). */
  setModelEndpointApiKey: (sp) => () => promptForApiKey(sp.endpoints, 'modelEndpoint.url', sp.primary()?.folder),
} satisfies CommandTable;

/** The files a model folder needs (SPEC §5: model.onnx or onnx/model.onnx; tokenizer.json or vocab.txt). */
export function modelFolderProblem(dir: string): string | undefined {
  const hasModel = existsSync(path.join(dir, 'model.onnx')) || existsSync(path.join(dir, 'onnx', 'model.onnx'));
  const hasTok = existsSync(path.join(dir, 'tokenizer.json')) || existsSync(path.join(dir, 'vocab.txt'));
  return hasModel && hasTok ? undefined : `${dir} needs model.onnx (or onnx/model.onnx) and tokenizer.json (or vocab.txt).`;
}

async function selectEmbeddingModel(sp: Spanproof): Promise<void> {
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showWarningMessage('Spanproof: choosing an embedding model needs a trusted workspace (a model folder is loaded as native code input; an endpoint receives your documents).');
    return;
  }
  const f = sp.primary();
  const current = readSettings(f?.folder);
  const store = modelStoreDir();
  const items = embeddingModelPicks(gridEmbedders(current), store).map((p) => ({ ...p, kind: p.action.kind === 'separator' ? vscode.QuickPickItemKind.Separator : vscode.QuickPickItemKind.Default }));
  const pick = await vscode.window.showQuickPick(items, { title: 'Spanproof: Select Embedding Model', matchOnDetail: true });
  if (!pick) return;
  const value = await valueFor(pick.action, store, f?.folder);
  if (value === undefined) return;
  const choices = embedderChangeChoices(current, value);
  if (!choices.length) {
    void vscode.window.showInformationMessage(`Spanproof: ${value || 'the default built-in model'} is already the embedding model.`);
    return;
  }
  const choice = await vscode.window.showQuickPick(choices, { title: `Spanproof: use ${value} alone, or compare it in the grid?` });
  if (!choice) return;
  const next = embeddersAfterPick(current, value, choice.change);
  if ('problem' in next) {
    void vscode.window.showWarningMessage(`Spanproof: ${next.problem}`);
    return;
  }
  await writeEmbedderSettings(next, f?.folder);
  void vscode.window.showInformationMessage(next.embedders.length
    ? `Spanproof: the grid now compares ${next.embedders.length} embedders (${next.embedders.join(', ')}) as dense:<name> / hybrid:<name>; the next run embeds with each.`
    : `Spanproof: embedding model set to ${value || 'the default built-in model'}; the next run re-embeds.`);
}

/** Writes `embedders` and `embeddingModel` at one scope (./modelPicks `embedderTarget`), removing a value there when the outer scopes already give it. */
async function writeEmbedderSettings(next: EmbedderSettings, folder: vscode.WorkspaceFolder | undefined): Promise<void> {
  const cfg = vscode.workspace.getConfiguration('spanproof', folder?.uri);
  const scopes = { embedders: cfg.inspect<string[]>('embedders') ?? {}, embeddingModel: cfg.inspect<string>('embeddingModel') ?? {} };
  const target = embedderTarget([scopes.embedders, scopes.embeddingModel], (vscode.workspace.workspaceFolders?.length ?? 0) > 0);
  const vsTarget = { folder: vscode.ConfigurationTarget.WorkspaceFolder, workspace: vscode.ConfigurationTarget.Workspace, user: vscode.ConfigurationTarget.Global }[target];
  await updateSetting('embedders', valueToWrite(next.embedders, scopes.embedders, target), folder, vsTarget);
  await updateSetting('embeddingModel', valueToWrite(next.embeddingModel, scopes.embeddingModel, target), folder, vsTarget);
}

/** The setting value an action leads to, or undefined when the user stopped or it failed (already said). */
async function valueFor(a: ModelAction, store: string, folder: vscode.WorkspaceFolder | undefined): Promise<string | undefined> {
  if (a.kind === 'set') return a.value;
  if (a.kind === 'unavailable') {
    void vscode.window.showWarningMessage(`Spanproof: ${a.reason}`);
    return undefined;
  }
  if (a.kind === 'pull') return (await pullWithProgress(a.name, store)) ? a.name : undefined;
  if (a.kind === 'endpoint') return endpointModel(folder);
  if (a.kind === 'folder') {
    const uris = await vscode.window.showOpenDialog({ canSelectFolders: true, canSelectFiles: false, openLabel: 'Use this model folder', title: 'A folder with model.onnx (or onnx/model.onnx) and tokenizer.json (or vocab.txt)' });
    if (!uris?.[0]) return undefined;
    const problem = modelFolderProblem(uris[0].fsPath);
    if (problem) {
      void vscode.window.showErrorMessage(`Spanproof: ${problem}`);
      return undefined;
    }
    return uris[0].fsPath;
  }
  return undefined;
}

/** Asks (modal, with the size and where it goes), then downloads with a cancellable progress notification. True when the model is ready. */
async function pullWithProgress(name: string, store: string): Promise<boolean> {
  const e = findCatalogueEntry(name);
  if (!e) return false;
  const ok = await vscode.window.showInformationMessage(`Download ${e.name} (${mb(entryBytes(e))})?`, { modal: true, detail: `${e.repo} at ${e.revision?.slice(0, 12)} from ${redactUrl(hubUrl())}, verified by SHA-256, into ${store}. Licence: ${e.licence}.` }, 'Download');
  if (ok !== 'Download') return false;
  // VS Code's http.proxy setting wins over the environment's proxy variables.
  const proxy = vscode.workspace.getConfiguration('http').get<string>('proxy') || undefined;
  const proxyEnv = { ...process.env, ...(proxy ? { HTTPS_PROXY: proxy, HTTP_PROXY: proxy } : {}) };
  try {
    await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Spanproof: downloading ${e.name}`, cancellable: true }, async (progress, token) => {
      const ac = new AbortController();
      token.onCancellationRequested(() => ac.abort());
      let last = 0;
      await pullModel(e, {
        store,
        proxyEnv,
        signal: ac.signal,
        onProgress: (p) => {
          const pct = p.totalBytes > 0 ? (100 * p.doneBytes) / p.totalBytes : 100;
          if (pct - last < 1 && p.doneBytes < p.totalBytes) return;
          progress.report({ increment: pct - last, message: `${mb(p.doneBytes)} / ${mb(p.totalBytes)} (${p.file})` });
          last = pct;
        },
      });
    });
    return true;
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    if ((err as { code?: string }).code === 'cancelled') void vscode.window.showInformationMessage(`Spanproof: ${msg}`);
    else void vscode.window.showErrorMessage(`Spanproof: ${msg}`);
    return false;
  }
}

/** Asks for the model name (and the endpoint when none is set); returns `endpoint:<model>`. */
async function endpointModel(folder: vscode.WorkspaceFolder | undefined): Promise<string | undefined> {
  const model = await vscode.window.showInputBox({ title: 'Spanproof: endpoint embedding model', prompt: 'The model name the endpoint serves, e.g. text-embedding-3-small or nomic-embed-text', validateInput: (v) => (v.trim() ? undefined : 'a model name') });
  if (!model) return undefined;
  if (!readSettings(folder).modelEndpoint.url) {
    const url = await vscode.window.showInputBox({
      title: 'Spanproof: model endpoint',
      prompt: 'Base URL of the OpenAI-compatible API (POST {url}/embeddings), e.g. http://localhost:11434/v1. Chunk and question texts are sent there when you run; a key goes in with Spanproof: Set Model Endpoint API Key….',
      validateInput: (v) => (/^https?:\/\/[^\s/@]+(\/\S*)?$/.test(v.trim()) ? undefined : 'an http:// or https:// URL without user:password@'),
    });
    if (!url) return undefined;
    await updateSetting('modelEndpoint.url', url.trim(), folder);
  }
  return `${ENDPOINT_PREFIX}${model.trim()}`;
}
