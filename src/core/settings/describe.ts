/**
 * Settings described in words for error messages, from the one schema (./schema.ts): what a value must
 * be (`a whole number ≥ 1`, `a list of values from "bm25", "dense", "hybrid"`) and which keys an object
 * of the schema has. So a wrong value's fix names the expected type and values, and an unknown key
 * the keys valid at its place (`chunkerParams.heading` → `maxSize`) — both read from the schema, never
 * written by hand.
 */
import { z } from 'zod';
import { settingValues, type SettingValue } from './walk';

type JsonSchema = Record<string, unknown> & { type?: string; enum?: unknown[]; anyOf?: JsonSchema[]; items?: JsonSchema; properties?: Record<string, JsonSchema> };

const SAFE = Number.MAX_SAFE_INTEGER;

/** ` ≥ 1`, ` from 0 to 100`, ` > 0 and ≤ 1`: the bounds of a number schema (±2⁵³ bounds are no bounds). */
function bounds(s: JsonSchema, integer: boolean): string {
  let lo: string | null = null;
  let hi: string | null = null;
  const min = s.minimum as number | undefined;
  const xmin = s.exclusiveMinimum as number | undefined;
  const max = s.maximum as number | undefined;
  const xmax = s.exclusiveMaximum as number | undefined;
  if (xmin !== undefined) lo = integer ? `≥ ${xmin + 1}` : `> ${xmin}`;
  else if (min !== undefined && min > -SAFE) lo = `≥ ${min}`;
  if (xmax !== undefined) hi = integer ? `≤ ${xmax - 1}` : `< ${xmax}`;
  else if (max !== undefined && max < SAFE) hi = `≤ ${max}`;
  if (lo?.startsWith('≥') && hi?.startsWith('≤')) return ` from ${lo.slice(2)} to ${hi.slice(2)}`;
  return [lo, hi].filter(Boolean).map((b) => ` ${b}`).join(' and');
}

/** A JSON Schema (zod's `toJSONSchema` of a setting) in words. */
function describeSchema(s: JsonSchema): string {
  if (s.enum) return `one of ${s.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  if (s.anyOf) return s.anyOf.map(describeSchema).join(' or ');
  switch (s.type) {
    case 'integer':
      return `a whole number${bounds(s, true)}`;
    case 'number':
      return `a number${bounds(s, false)}`;
    case 'boolean':
      return 'true or false';
    case 'string':
      if (s.format === 'uri') return 'a URL';
      if (s.pattern) return `a string matching /${String(s.pattern)}/`;
      return s.minLength ? 'a non-empty string' : 'a string';
    case 'array': {
      const items = s.items ?? {};
      const what = items.enum ? `values from ${items.enum.map((v) => JSON.stringify(v)).join(', ')}` : items.type === 'string' ? 'strings' : items.type === 'boolean' ? 'true/false values' : `items, each ${describeSchema(items)}`;
      return `a list${s.minItems ? ` (at least ${String(s.minItems)})` : ''} of ${what}`;
    }
    case 'object':
      return `an object {${Object.keys(s.properties ?? {}).map((k) => JSON.stringify(k)).join(', ')}}`;
    default:
      return 'a valid value';
  }
}

/**
 * What the value of one setting must be, in words, e.g. `a whole number ≥ 1` (k), `a number > 0 and
 * ≤ 1` (tau), `a list of at least 1 of values from "bm25", "dense", "hybrid"` (retrievers). A pattern
 * with a `patternErrorMessage` in the schema's metadata is described by that message.
 */
export function expectedValueText(v: SettingValue): string {
  const pattern = v.meta.jsonSchema?.patternErrorMessage;
  if (typeof pattern === 'string') return `one of ${pattern}`;
  return describeSchema(z.toJSONSchema(v.type, { io: 'input' }) as JsonSchema);
}

/** What one item of a list setting must be (`one of "bm25", "dense", "hybrid"`); {@link expectedValueText} for a setting that is not a list. */
export function expectedItemText(v: SettingValue): string {
  const s = z.toJSONSchema(v.type, { io: 'input' }) as JsonSchema;
  return s.type === 'array' && s.items ? describeSchema(s.items) : expectedValueText(v);
}

/**
 * The setting whose value holds the dotted `path` (`retrievers` for `retrievers.0`, `k` for `k`), or
 * null when `path` is not inside a value (a group such as `chunkerParams.heading`, or an unknown key).
 */
export function settingAt(path: readonly (string | number)[]): SettingValue | null {
  const segs = path.map(String);
  return settingValues().find((v) => {
    const p = v.path.split('.');
    return p.length <= segs.length && p.every((s, i) => s === segs[i]);
  }) ?? null;
}

/**
 * The keys valid in the object at the dotted `path` of the schema: the top-level settings for `[]`,
 * `maxSize` for `['chunkerParams', 'heading']`; empty when `path` is not an object of the schema.
 */
export function settingKeysAt(path: readonly (string | number)[]): string[] {
  const segs = path.map(String);
  const keys = new Set<string>();
  for (const v of settingValues()) {
    const p = v.path.split('.');
    if (p.length > segs.length && segs.every((s, i) => s === p[i])) keys.add(p[segs.length]);
  }
  return [...keys];
}
