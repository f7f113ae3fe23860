/**
 * The settings of a run (SPEC §11 `--config`, §12 VS Code `spanproof.<key>`), all derived from ONE
 * zod schema (./schema.ts — add a setting there and nowhere else): the type and the defaults, strict
 * and lenient parsing, the cross-key checks made before a run, what a change invalidates, VS Code's
 * `contributes.configuration`, and the CLI flags' allowed values.
 */
export { CHUNKER_IDS, RETRIEVER_IDS, MAX_RETRIES, MAX_CONCURRENCY, MAX_DRAFT_COUNT, MAX_TIMEOUT_MS, INVALIDATIONS, SETTING_CATEGORIES, RUN_SETTINGS_SCHEMA, type Invalidation, type SettingCategory, type SettingMeta, type ValueMeta } from './schema';
export { DEFAULT_SETTINGS, type RunSettings, type ChunkerParams } from './types';
export { parseRunSettings, readSettingsFile, coerceRunSettings, withoutRestricted, validateRunSettings, settingsError, MAX_RESULT_LIST, type SettingsSource } from './parse';
export { expectedValueText, settingAt, settingKeysAt } from './describe';
export { INVALIDATES, invalidationOf } from './invalidation';
export { vscodeContributes, runSettingsJsonSchema, SETTINGS_SECTION, type VscodeContributes, type ConfigurationSection, type ConfigurationProperty } from './contributes';
export { settingValues, settingEntries, type SettingValue, type SettingEntry } from './walk';
export { MAX_NOTED_KEYS, ignoredSettingNote, workspaceSettingsNotes, readWorkspaceSettings, readConfigLayer, readSettingsLayers, mergeSettingsLayers, settingOrigins, WORKSPACE_SETTINGS_FILE, type SettingsLayer, type WorkspaceSettings, type SettingOrigin } from './layers';
