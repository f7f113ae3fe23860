/**
 * VS Code wiring of ./endpointAccess (#16 item 2): SecretStorage, the user-level global state, modal
 * questions, and where an endpoint setting's value comes from (`inspect`). Every command that sends to
 * an endpoint calls, before its first request:
 *
 *   const auth = await sp.endpoints.authorize(endpointSetting('judge.endpoint', folder), 'questions, retrieved passages and answers');
 *   if (!auth) return; // declined, or no endpoint: nothing is sent
 *   … new ChatClient({ endpoint: auth.endpoint, apiKey: auth.apiKey })
 *
 * and stores keys with `sp.endpoints.storeKey(endpoint, key)` (see `promptForApiKey`).
 */
import * as vscode from 'vscode';
import { redactUrl } from '../core/net';
import { readSettings, settingId, type SettingKey } from './config';
import { EndpointAccess, endpointOrigin, type EndpointSetting } from './endpointAccess';

export { EndpointAccess, type EndpointSetting, type AuthorizedEndpoint } from './endpointAccess';

/** The extension's EndpointAccess over its SecretStorage and global state, asking with modal warnings. */
export function createEndpointAccess(context: vscode.ExtensionContext): EndpointAccess {
  return new EndpointAccess({
    secrets: context.secrets,
    state: context.globalState,
    ask: (message, detail, ...buttons) => vscode.window.showWarningMessage(message, { modal: true, detail }, ...buttons),
  });
}

/** The endpoint setting `key` (e.g. `judge.endpoint`) of `folder`: its effective value (empty when untrusted) and which scope set it. */
export function endpointSetting(key: SettingKey, folder: vscode.WorkspaceFolder): EndpointSetting {
  const i = vscode.workspace.getConfiguration('spanproof', folder.uri).inspect<string>(key);
  const scope = i?.workspaceFolderValue !== undefined ? 'folder' : i?.workspaceValue !== undefined ? 'workspace' : i?.globalValue !== undefined ? 'user' : 'default';
  let value: unknown = readSettings(folder);
  for (const part of key.split('.')) value = (value as Record<string, unknown> | undefined)?.[part];
  return { key, value: typeof value === 'string' ? value : '', scope, folder: folder.uri.toString() };
}

/**
 * Asks for the API key of the endpoint in setting `key` and stores it for that endpoint's origin
 * (an empty input removes it). Says so and stores nothing when no endpoint is set.
 */
export async function promptForApiKey(access: EndpointAccess, key: SettingKey, folder: vscode.WorkspaceFolder | undefined): Promise<void> {
  const s = folder ? endpointSetting(key, folder) : undefined;
  const origin = s ? endpointOrigin(s.value) : null;
  if (!s || !origin) {
    void vscode.window.showInformationMessage(`Spanproof: set ${settingId(key)} first — API keys are stored per endpoint (origin), so the key is tied to the endpoint it is for.`);
    return;
  }
  const value = await vscode.window.showInputBox({
    title: `Spanproof: API key for ${origin}`,
    prompt: `Stored in VS Code SecretStorage for ${origin} only (${settingId(key)} = ${redactUrl(s.value)}); never sent to another endpoint. Leave empty to remove it. Local servers (Ollama, LM Studio) need none.`,
    password: true,
    ignoreFocusOut: true,
  });
  if (value === undefined) return;
  await access.storeKey(s.value, value);
  void vscode.window.showInformationMessage(value ? `Spanproof: API key stored for ${origin}.` : `Spanproof: API key for ${origin} removed.`);
}
