/**
 * VS Code's view of the settings schema (./schema.ts): `contributes.configuration` and the settings
 * an untrusted workspace may not set (`capabilities.untrustedWorkspaces.restrictedConfigurations`).
 * package.json holds the output of {@link vscodeContributes} (written by `npm run gen:settings`,
 * checked by test/unit/core/settings/contributes.test.ts), so the manifest never drifts from the schema.
 *
 * Each value of the schema becomes one property `spanproof.<dotted path>`: the JSON Schema of its zod
 * type (zod's `toJSONSchema`, tidied for VS Code: integers as `minimum`, no ±2⁵³ bounds), its default,
 * its description and the VS Code keywords of its metadata. Sections follow SETTING_CATEGORIES; values
 * without an `order` take their place in the schema. Texts are `%config.…%` keys of package.nls.json.
 */
import { z } from 'zod';
import { RUN_SETTINGS_SCHEMA, SETTING_CATEGORIES, type SettingCategory } from './schema';
import { settingValues, type SettingValue } from './walk';

/** One VS Code configuration property (JSON Schema plus VS Code's keywords). */
export type ConfigurationProperty = Record<string, unknown>;

/** A section of `contributes.configuration`. */
export interface ConfigurationSection {
  id?: string;
  title: string;
  order?: number;
  properties: Record<string, ConfigurationProperty>;
}

/** What package.json must hold for the settings. */
export interface VscodeContributes {
  /** `contributes.configuration`: one section, or an array when the values use several categories. */
  configuration: ConfigurationSection | ConfigurationSection[];
  /** `capabilities.untrustedWorkspaces.restrictedConfigurations`. */
  restrictedConfigurations: string[];
  /** package.nls.json entries (`config.*` key → English text) for the `%key%` strings of `configuration`. */
  nls: Record<string, string>;
}

/** VS Code's prefix of every Spanproof setting. */
export const SETTINGS_SECTION = 'spanproof';

function tidy(schema: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...schema };
  delete out.$schema;
  if (out.type === 'integer' && typeof out.exclusiveMinimum === 'number') {
    out.minimum = out.exclusiveMinimum + 1;
    delete out.exclusiveMinimum;
  }
  if (out.maximum === Number.MAX_SAFE_INTEGER) delete out.maximum;
  if (out.minimum === Number.MIN_SAFE_INTEGER) delete out.minimum;
  if (out.items && typeof out.items === 'object') out.items = tidy(out.items as Record<string, unknown>);
  return out;
}

/**
 * The `package.nls.json` key of one text of the settings (`config.<path>.description`,
 * `config.<path>.enum.<value>`, `config.group.<category>`): the manifest holds `%key%`, the English
 * text is the schema's, and `npm run gen:settings` writes it into package.nls.json (translations go
 * in package.nls.<locale>.json under the same keys).
 */
export function settingNlsKey(path: string, field: 'description' | 'markdownDescription' | `enum.${string}`): string {
  return `config.${path}.${field}`;
}

/** The property of one value: type keywords from zod, then default, description and VS Code keywords (texts as `%nls%` keys, their English in `nls`). */
function property(v: SettingValue, order: number, nls: Record<string, string>): ConfigurationProperty {
  const { meta } = v;
  const text = (field: Parameters<typeof settingNlsKey>[1], english: string) => {
    const key = settingNlsKey(v.path, field);
    nls[key] = english;
    return `%${key}%`;
  };
  const { type: jsonType, ...constraints } = tidy(z.toJSONSchema(v.type, { io: 'input' }) as Record<string, unknown>);
  const p: ConfigurationProperty = { type: jsonType, default: v.default, description: text('description', meta.description), ...constraints };
  if (meta.markdownDescription) p.markdownDescription = text('markdownDescription', meta.markdownDescription);
  if (meta.enumDescriptions) {
    // An enum's descriptions go beside its `enum`: on the property, or on `items` for an array of enum values.
    const holder = (Array.isArray(p.enum) ? p : (p.items as Record<string, unknown> | undefined)) ?? p;
    const values = (holder.enum ?? []) as unknown[];
    if (values.length !== meta.enumDescriptions.length) throw new Error(`settings schema: ${v.path} has ${meta.enumDescriptions.length} enumDescriptions for ${values.length} values (src/core/settings/schema.ts).`);
    holder.enumDescriptions = meta.enumDescriptions.map((d, i) => text(`enum.${String(values[i])}`, d));
  }
  if (meta.scope) p.scope = meta.scope;
  p.order = meta.order ?? order;
  return { ...p, ...meta.jsonSchema };
}

/**
 * `contributes.configuration` and the restricted settings, derived from the schema, and `nls`: the
 * English of every `%key%` the configuration uses (package.nls.json's `config.*` keys).
 */
export function vscodeContributes(): VscodeContributes {
  const byCategory = new Map<SettingCategory, Record<string, ConfigurationProperty>>();
  const restricted: string[] = [];
  const nls: Record<string, string> = {};
  for (const v of settingValues()) {
    const key = `${SETTINGS_SECTION}.${v.path}`;
    const cat = v.meta.category ?? 'general';
    let props = byCategory.get(cat);
    if (!props) byCategory.set(cat, (props = {}));
    props[key] = property(v, Object.keys(props).length + 1, nls);
    if (v.meta.restricted) restricted.push(key);
  }
  const title = (id: SettingCategory) => {
    nls[`config.group.${id}`] = SETTING_CATEGORIES[id].title;
    return `%config.group.${id}%`;
  };
  const sections = [...byCategory].map(([id, properties]) => ({ id, title: title(id), order: SETTING_CATEGORIES[id].order, properties }));
  sections.sort((a, b) => a.order - b.order);
  const configuration = sections.length === 1 ? { title: sections[0].title, properties: sections[0].properties } : sections.map((s) => ({ id: `${SETTINGS_SECTION}.${s.id}`, title: s.title, order: s.order, properties: s.properties }));
  return { configuration, restrictedConfigurations: restricted, nls };
}

/**
 * JSON Schema (draft-07) of the `--config FILE` JSON, from the same schema (zod 4 `z.toJSONSchema`,
 * input side: every key optional, unknown keys refused). The spellings `parseRunSettings` accepts are
 * all listed: the `spanproof.`-prefixed keys copied from VS Code's settings.json, and the dotted leaf
 * keys (`"weights.quality"`). Cross-key checks (chunker sizes vs overlaps) stay in `validateRunSettings`.
 */
export function runSettingsJsonSchema(): Record<string, unknown> {
  const out = z.toJSONSchema(RUN_SETTINGS_SCHEMA, { target: 'draft-7', io: 'input' }) as { properties: Record<string, unknown> } & Record<string, unknown>;
  for (const v of settingValues()) {
    if (v.path.includes('.')) out.properties[v.path] = tidy(z.toJSONSchema(v.type, { target: 'draft-7', io: 'input' }) as Record<string, unknown>);
  }
  for (const [k, val] of Object.entries(out.properties)) out.properties[`${SETTINGS_SECTION}.${k}`] = val;
  return out;
}
