/**
 * The one typed place that reads `spanproof.*` settings. The keys, types and defaults are those of the
 * settings schema (src/core/settings/schema.ts); nested objects are contributed as dotted leaf settings
 * (`spanproof.weights.quality`), which VS Code returns merged when the parent key is read.
 */
import * as vscode from 'vscode';
import { DEFAULT_SETTINGS, SETTINGS_SECTION, coerceRunSettings, withoutRestricted, type RunSettings } from '../core/settings';

export { INVALIDATES, invalidationOf, type Invalidation } from '../core/settings';

const SECTION = SETTINGS_SECTION;

/**
 * The run settings for `folder` (workspace-folder scope): each value as src/core/settings reads it
 * leniently (`coerceRunSettings`: unset values and values of the wrong type take their defaults).
 */
export function readSettings(folder?: vscode.WorkspaceFolder): RunSettings {
  const cfg = vscode.workspace.getConfiguration(SECTION, folder?.uri);
  const { settings } = coerceRunSettings(Object.fromEntries(Object.keys(DEFAULT_SETTINGS).map((key) => [key, cfg.get(key)])));
  // Workspace Trust: model folders and endpoints are restricted settings (schema `restricted`); VS Code
  // already ignores workspace values of them when untrusted, this makes the rule explicit for user-level values too.
  return vscode.workspace.isTrusted ? settings : withoutRestricted(settings);
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
