/**
 * The settings of one run from its layers, lowest first (#16 item 19): the schema's defaults ← the
 * workspace's `.vscode/settings.json` (`spanproof.*` keys, JSONC as VS Code writes it) ← the
 * `--config` file ← command-line flags (applied by the CLI). So the editor and the CLI give the same
 * grid on one folder. Every layer is validated on its own with {@link parseRunSettings}, so a bad value
 * is reported with the file it is in; {@link settingOrigins} says where each value came from.
 *
 * Settings VS Code only honours in a trusted workspace (schema `restricted`: model folders, endpoints,
 * judge models) are NOT taken from `.vscode/settings.json` — a folder someone else wrote must not
 * choose which model is loaded or where the API key is sent; give them with `--config` or a flag.
 */
import { join } from 'node:path';
import { SpanproofError, isSpanproofError, type SpanproofProblem } from '../errors';
import { parseJsonText } from '../files/jsonText';
import { MAX_SETTINGS_FILE_BYTES, readRegularTextSync } from '../files/read';
import { deepMerge, getPath, normaliseKeys, parseRunSettings, readConfigText, settingsError } from './parse';
import { settingValues } from './walk';
import { settingKeysAt } from './describe';
import { closestName } from '../text/similar';
import { DEFAULT_SETTINGS, type RunSettings } from './types';

/** Where the workspace settings live, relative to the workspace folder. */
export const WORKSPACE_SETTINGS_FILE = join('.vscode', 'settings.json');

/** One file of settings: its keys normalised (no `spanproof.` prefix, nested). */
export interface SettingsLayer {
  kind: 'workspace' | 'config';
  file: string;
  values: Record<string, unknown>;
}

/** How many unknown `spanproof.*` keys of one settings.json are named; the rest are counted ({@link WorkspaceSettings}.unlisted). */
export const MAX_NOTED_KEYS = 20;

/** A `.vscode/settings.json` read for the CLI, and the keys it did not take from it. */
export interface WorkspaceSettings {
  layer: SettingsLayer | null;
  /** `spanproof.*` keys left out: restricted ones (need --config), every one, and the first {@link MAX_NOTED_KEYS} unknown ones. */
  ignored: Array<{ key: string; reason: string }>;
  /** Unknown `spanproof.*` keys left out beyond the first {@link MAX_NOTED_KEYS}: counted, not named (a file of 32,000 such keys printed 32,000 notes). */
  unlisted: number;
}

/**
 * Reads `<workspace>/.vscode/settings.json` when it exists: its `spanproof.*` keys (other extensions'
 * keys are ignored), minus the restricted ones (listed in `ignored`).
 * @throws SpanproofError('bad-input') for a syntax error (line/column) or a bad value (the key), naming the file.
 */
export function readWorkspaceSettings(workspace: string): WorkspaceSettings {
  return checkedWorkspaceLayer(readWorkspaceLayer(workspace));
}

/** `ws` once its values are valid: this layer alone is checked, naming its file and its keys as written there (`spanproof.k`). */
function checkedWorkspaceLayer(ws: WorkspaceSettings): WorkspaceSettings {
  if (ws.layer) parseRunSettings(ws.layer.values, ws.layer.file, 'spanproof.');
  return ws;
}

/** {@link readWorkspaceSettings} without checking the values (so the keys it left out can be said even when a value is wrong). @throws for a file that cannot be read or parsed. */
function readWorkspaceLayer(workspace: string): WorkspaceSettings {
  const file = join(workspace, WORKSPACE_SETTINGS_FILE);
  const fix = 'fix .vscode/settings.json (VS Code shows the problem too), or pass --config to override the key.';
  let text: string;
  try {
    text = readRegularTextSync(file, MAX_SETTINGS_FILE_BYTES, { what: 'the workspace settings file', tooLargeFix: 'remove what is not settings from .vscode/settings.json, or pass --config with the settings you need.' });
  } catch (e) {
    if (isSpanproofError(e)) throw e; // a FIFO, a device, too large: said by the reader
    const code = (e as NodeJS.ErrnoException).code;
    // a missing file (or a link to nothing) is no settings; a link loop (ELOOP) is a mistake to say, not to ignore
    if (code === 'ENOENT' || code === 'ENOTDIR') return { layer: null, ignored: [], unlisted: 0 }; // ENOTDIR: .vscode is a file
    const why = code === 'EISDIR' ? ': it is a folder' : code === 'ELOOP' ? ': it is a symbolic link that leads back to itself (a link loop, ELOOP)' : code ? ` (${code})` : '';
    throw new SpanproofError('bad-input', `cannot read the workspace settings file${why}.`, { file, fix: 'make .vscode/settings.json a readable JSON file (or remove it: the CLI then uses the defaults, --config and flags).', cause: e });
  }
  if (!text.replace(/^\uFEFF/, '').trim()) return { layer: null, ignored: [], unlisted: 0 }; // VS Code accepts an empty settings.json
  const raw = parseJsonText(text, file, 'fix the JSON at that line and column (VS Code shows the problem too); the CLI reads no setting from the file until it parses.', { jsonc: true });
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new SpanproofError('bad-input', 'a settings.json holds one JSON object.', { file, fix });
  const known = new Map(settingValues().map((v) => [v.path, v]));
  const schema: SchemaPaths = { leaves: new Set(known.keys()), groups: new Set([...known.keys()].flatMap((p) => p.split('.').slice(0, -1).map((_, i, segs) => segs.slice(0, i + 1).join('.')))) };
  const out: WorkspaceSettings = { layer: null, ignored: [], unlisted: 0 };
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (!key.startsWith('spanproof.')) continue;
    const path = key.slice('spanproof.'.length);
    if (schema.leaves.has(path) || schema.groups.has(path)) kept[path] = value;
    else noteUnknown(out, path);
  }
  const values = normaliseKeys(kept) as Record<string, unknown>;
  // Unknown keys inside an object (`"spanproof.weights": {"qualty": 1}`) are left out with the same note
  // as their dotted form (`"spanproof.weights.qualty"`): the editor ignores both (coerceRunSettings).
  dropUnknownNested(values, '', schema, out);
  for (const v of known.values()) {
    if (!v.meta.restricted || getPath(values, v.path) === undefined) continue;
    deletePath(values, v.path); // also when written as an object ("spanproof.judge": {"endpoint": …})
    out.ignored.push({ key: `spanproof.${v.path}`, reason: 'model folders, endpoints and judge models are taken only from --config or flags, never from a workspace file' });
  }
  return { ...out, layer: { kind: 'workspace', file, values } };
}

/** The dotted paths of the schema's values (`weights.quality`) and of the groups holding them (`weights`, `chunkerParams.fixed`). */
interface SchemaPaths {
  leaves: ReadonlySet<string>;
  groups: ReadonlySet<string>;
}

/** Notes the unknown key `spanproof.<path>` in `ws`: named with its reason while fewer than {@link MAX_NOTED_KEYS} are, counted after. */
function noteUnknown(ws: WorkspaceSettings, path: string): void {
  if (ws.ignored.length < MAX_NOTED_KEYS) ws.ignored.push({ key: `spanproof.${path}`, reason: notASetting(path) });
  else ws.unlisted++;
}

/**
 * The lines the CLI prints on stderr for the keys of a settings.json it does not use: one
 * `note: spanproof.chunkr in .vscode/settings.json is not used: …; did you mean spanproof.chunkers?`
 * per named key, then `note: and N more …` for the unlisted ones. Empty when every key is used.
 */
export function workspaceSettingsNotes(ws: WorkspaceSettings): string {
  const lines = ws.ignored.map(ignoredSettingNote);
  if (ws.unlisted) lines.push(`note: and ${ws.unlisted} more spanproof.* keys in ${WORKSPACE_SETTINGS_FILE} are not used: not run settings of this version.\n`);
  return lines.join('');
}

/** The line the CLI prints for one workspace key it does not use: `note: spanproof.chunkr in .vscode/settings.json is not used: …; did you mean spanproof.chunkers?` */
export function ignoredSettingNote(i: WorkspaceSettings['ignored'][number]): string {
  return `note: ${i.key} in ${WORKSPACE_SETTINGS_FILE} is not used: ${i.reason}${/[.?!]$/.test(i.reason) ? '' : '.'}\n`;
}

/**
 * Why an unknown dotted key (`chunkr`, `weights.qualty`, `bm25.kl`) is not used, with "did you mean"
 * when the first unknown segment is near a key valid at that place (`spanproof.chunkers`).
 */
function notASetting(path: string): string {
  const segs = path.split('.');
  let known = 0; // how many leading segments name a group of the schema
  while (known < segs.length - 1 && settingKeysAt(segs.slice(0, known + 1)).length) known++;
  const near = closestName(segs[known], settingKeysAt(segs.slice(0, known)));
  return `not a run setting of this version${near ? `; did you mean spanproof.${[...segs.slice(0, known), near, ...segs.slice(known + 1)].join('.')}?` : ''}`;
}

/**
 * Deletes from `o` (a group at `prefix`) every own key that is neither a setting nor a group of
 * settings (a `__proto__` key included: the JSONC value has it as an own key), noting each in `ws`.
 */
function dropUnknownNested(o: Record<string, unknown>, prefix: string, schema: SchemaPaths, ws: WorkspaceSettings): void {
  for (const [key, value] of Object.entries(o)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (schema.leaves.has(path)) continue;
    if (!schema.groups.has(path)) {
      delete o[key];
      noteUnknown(ws, path);
    } else if (value !== null && typeof value === 'object' && !Array.isArray(value)) dropUnknownNested(value as Record<string, unknown>, path, schema, ws);
  }
}

function deletePath(o: Record<string, unknown>, path: string): void {
  const segs = path.split('.');
  const parent = getPath(o, segs.slice(0, -1).join('.') || '') as Record<string, unknown> | undefined;
  const holder = segs.length === 1 ? o : parent;
  if (holder && typeof holder === 'object') delete holder[segs[segs.length - 1]];
}

/** Reads a `--config` file (strict JSON) as a layer. @throws like readSettingsFile. */
export function readConfigLayer(file: string): SettingsLayer {
  const raw = parseJsonText(readConfigText(file), file, 'fix the JSON syntax at that line and column.');
  parseRunSettings(raw, file);
  return { kind: 'config', file, values: normaliseKeys(raw) as Record<string, unknown> };
}

/**
 * The settings files of one command, lowest first: `<workspace>/.vscode/settings.json` (when it
 * exists) and the `--config` file (when given). Every bad key of both files is reported at once.
 * `onWorkspace` gets the workspace file's keys left out as soon as it is read — before a bad value
 * throws, so the CLI's "did you mean" notes are printed beside the error.
 * @throws SpanproofError('bad-input') listing every bad key with its file; a syntax error or a missing
 *   `--config` file as readWorkspaceSettings / readConfigLayer do.
 */
export function readSettingsLayers(workspace: string, config?: string, onWorkspace?: (ws: WorkspaceSettings) => void): { workspace: WorkspaceSettings; layers: SettingsLayer[] } {
  const problems: SpanproofProblem[] = [];
  const attempt = <T>(read: () => T): T | null => {
    try {
      return read();
    } catch (e) {
      if (!isSpanproofError(e) || !e.problems) throw e;
      problems.push(...e.problems.map((p) => ({ ...p, file: p.file ?? e.file })));
      return null;
    }
  };
  const read = readWorkspaceLayer(workspace);
  onWorkspace?.(read);
  const ws = attempt(() => checkedWorkspaceLayer(read));
  const cfg = config === undefined ? null : attempt(() => readConfigLayer(config));
  if (problems.length || !ws) throw settingsError(problems);
  return { workspace: ws, layers: [ws.layer, cfg].filter((l): l is SettingsLayer => l !== null) };
}

/** The layers merged over the defaults (later layers win, key by key). */
export function mergeSettingsLayers(layers: readonly SettingsLayer[]): RunSettings {
  if (layers.length === 0) return DEFAULT_SETTINGS;
  const merged = layers.reduce<unknown>((acc, l) => deepMerge(acc, l.values), {});
  return parseRunSettings(merged, layers[layers.length - 1].file);
}

/** Where one value of the run settings came from. */
export interface SettingOrigin {
  key: string;
  value: unknown;
  /** A file path, a flag (`--k`) or `default`. */
  from: string;
}

/**
 * For every value of the schema (dotted path): its value in `settings` and where it came from —
 * the flag when `flags` names its top-level key, else the last layer that sets it, else `default`.
 */
export function settingOrigins(settings: RunSettings, layers: readonly SettingsLayer[], flags: Partial<Record<keyof RunSettings, string>> = {}): SettingOrigin[] {
  return settingValues().map((v) => {
    const flag = flags[v.top as keyof RunSettings];
    const layer = [...layers].reverse().find((l) => getPath(l.values, v.path) !== undefined);
    return { key: v.path, value: getPath(settings, v.path), from: flag ?? layer?.file ?? 'default' };
  });
}
