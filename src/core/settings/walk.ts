/**
 * Walking the settings schema (./schema.ts): its values (leaves) with their dotted path, zod type,
 * default and metadata, and its top-level entries. The derivations (contributes, invalidation,
 * lenient parsing, dotted keys) read the schema through these two functions only.
 */
import type { z } from 'zod';
import { RUN_SETTINGS_SCHEMA, settingMeta, type GroupMeta, type Invalidation, type SettingMeta } from './schema';

/** One value of the schema. */
export interface SettingValue {
  /** Dotted path, e.g. `k`, `chunkerParams.fixed.size` (the VS Code key without `spanproof.`). */
  path: string;
  /** Its top-level key, e.g. `chunkerParams`. */
  top: string;
  /** The zod type of the value (without its default). */
  type: z.ZodType;
  default: unknown;
  meta: SettingMeta;
}

/** One top-level entry (a value or a group) and what changing it invalidates. */
export interface SettingEntry {
  key: string;
  /** null: nothing a run caches depends on the key (e.g. drafting settings). */
  invalidates: Invalidation | null;
  /** True for a nested object of values. */
  group: boolean;
}

interface Def { type: string; innerType?: z.ZodType; shape?: Record<string, z.ZodType> }
const defOf = (t: z.ZodType): Def => (t as unknown as { _zod: { def: Def } })._zod.def;

/** The inner type of a `setting(...)` (ZodDefault) or the object of a `group(...)` (ZodPrefault). */
function unwrap(node: z.ZodType): { inner: z.ZodType; shape: Record<string, z.ZodType> | null } {
  const d = defOf(node);
  const inner = (d.type === 'default' || d.type === 'prefault') && d.innerType ? d.innerType : node;
  const id = defOf(inner);
  return { inner, shape: id.type === 'object' ? (inner as unknown as { shape: Record<string, z.ZodType> }).shape : null };
}

let values: SettingValue[] | null = null;
let entries: SettingEntry[] | null = null;

/** Every value of the schema, depth first in schema order. */
export function settingValues(): readonly SettingValue[] {
  if (values) return values;
  const defaults = RUN_SETTINGS_SCHEMA.parse({}) as Record<string, unknown>;
  const out: SettingValue[] = [];
  // A group's category and scope are its values' unless a value says otherwise.
  const visit = (shape: Record<string, z.ZodType>, prefix: string[], defs: Record<string, unknown>, inherited: Pick<SettingMeta, 'category' | 'scope'>) => {
    for (const [key, node] of Object.entries(shape)) {
      const { inner, shape: sub } = unwrap(node);
      const path = [...prefix, key];
      if (sub) {
        const g = (settingMeta.get(node) ?? {}) as GroupMeta;
        visit(sub, path, defs[key] as Record<string, unknown>, { category: g.category ?? inherited.category, scope: g.scope ?? inherited.scope });
      } else {
        const own = settingMeta.get(node) as SettingMeta | undefined;
        if (!own?.description) throw new Error(`settings schema: ${path.join('.')} has no description (src/core/settings/schema.ts).`);
        const meta: SettingMeta = { ...own, category: own.category ?? inherited.category, scope: own.scope ?? inherited.scope };
        if (!meta.category) delete meta.category;
        if (!meta.scope) delete meta.scope;
        out.push({ path: path.join('.'), top: path[0], type: inner, default: defs[key], meta });
      }
    }
  };
  visit(RUN_SETTINGS_SCHEMA.shape, [], defaults, {});
  return (values = out);
}

/** Every top-level entry of the schema, in schema order. */
export function settingEntries(): readonly SettingEntry[] {
  if (entries) return entries;
  return (entries = Object.entries(RUN_SETTINGS_SCHEMA.shape as Record<string, z.ZodType>).map(([key, node]) => {
    const meta = settingMeta.get(node) as (SettingMeta | GroupMeta) | undefined;
    if (meta?.invalidates === undefined) throw new Error(`settings schema: ${key} does not say what it invalidates (src/core/settings/schema.ts).`);
    return { key, invalidates: meta.invalidates, group: unwrap(node).shape !== null };
  }));
}
