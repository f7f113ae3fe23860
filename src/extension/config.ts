/**
 * The one typed place that reads `spanproof.*` settings. The keys are those of `RunSettings`
 * (src/core/settings); nested objects are contributed as dotted leaf settings
 * (`spanproof.weights.quality`), which VS Code returns merged when the parent key is read.
 */
import * as vscode from 'vscode';
import { DEFAULT_SETTINGS, type RunSettings } from '../core/settings';

export { INVALIDATES, invalidationOf, type Invalidation } from './invalidation';

const SECTION = 'spanproof';

function merge<T>(def: T, value: unknown): T {
  if (value === undefined || value === null) return def;
  if (typeof def === 'object' && def !== null && !Array.isArray(def) && typeof value === 'object' && !Array.isArray(value)) {
    const out: Record<string, unknown> = { ...(def as Record<string, unknown>) };
    for (const [k, v] of Object.entries(def as Record<string, unknown>)) out[k] = merge(v, (value as Record<string, unknown>)[k]);
    return out as T;
  }
  if (typeof value !== typeof def || Array.isArray(def) !== Array.isArray(value)) return def;
  return value as T;
}

/** The run settings for `folder` (workspace-folder scope), defaults filled in for anything unset or mistyped. */
export function readSettings(folder?: vscode.WorkspaceFolder): RunSettings {
  const cfg = vscode.workspace.getConfiguration(SECTION, folder?.uri);
  const out = {} as Record<string, unknown>;
  for (const key of Object.keys(DEFAULT_SETTINGS) as (keyof RunSettings)[]) {
    out[key] = merge(DEFAULT_SETTINGS[key], cfg.get(key));
  }
  const s = out as unknown as RunSettings;
  // Workspace Trust: model folders and endpoints are restricted settings; VS Code already ignores
  // workspace values of them when untrusted, this makes the rule explicit for user-level values too.
  if (!vscode.workspace.isTrusted) {
    s.embeddingModel = '';
    s.rerankerModel = '';
    s.judge = { ...s.judge, endpoint: '' };
  }
  return s;
}

/**
 * Every `spanproof.*` key as a typed path into RunSettings: top-level keys (`chunkers`, `judge`) and the
 * dotted leaves VS Code contributes (`judge.endpoint`, `chunkerParams.fixed.size`). Use these instead
 * of string literals so a renamed setting fails to compile.
 */
export type SettingKey = KeyPaths<RunSettings>;
type KeyPaths<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends readonly unknown[] ? `${P}${K}` : T[K] extends object ? `${P}${K}` | KeyPaths<T[K], `${P}${K}.`> : `${P}${K}`;
}[keyof T & string];
/** The value type at a key path (`SettingValue<'judge.endpoint'>` = string). */
export type SettingValue<K extends string, T = RunSettings> = K extends `${infer H}.${infer R}` ? (H extends keyof T ? SettingValue<R, T[H]> : never) : K extends keyof T ? T[K] : never;

/** `spanproof.<key>` as VS Code names it (for messages, `affectsConfiguration`, `workbench.action.openSettings`). */
export function settingId(key: SettingKey): string {
  return `${SECTION}.${key}`;
}

/** Write one setting (default: workspace scope; `undefined` removes the value). */
export async function updateSetting<K extends SettingKey>(key: K, value: SettingValue<K> | undefined, folder?: vscode.WorkspaceFolder, target = vscode.ConfigurationTarget.Workspace): Promise<void> {
  await vscode.workspace.getConfiguration(SECTION, folder?.uri).update(key, value, target);
}

/** The keys of RunSettings a configuration change touched (for `folder`, or any scope). */
export function changedKeys(e: vscode.ConfigurationChangeEvent, folder?: vscode.WorkspaceFolder): (keyof RunSettings)[] {
  return (Object.keys(DEFAULT_SETTINGS) as (keyof RunSettings)[]).filter((k) => e.affectsConfiguration(`${SECTION}.${k}`, folder?.uri));
}
