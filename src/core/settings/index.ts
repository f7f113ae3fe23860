/**
 * The settings of a run (SPEC §11 `--config`, §12 VS Code `spanproof.<key>`): the type, the
 * defaults, parsing with defaults merged, and the cross-key checks made before a run starts.
 */
export { DEFAULT_SETTINGS, type RunSettings, type ChunkerParams } from './types';
export { parseRunSettings, validateRunSettings, runSettingsJsonSchema, type SettingsSource } from './parse';
