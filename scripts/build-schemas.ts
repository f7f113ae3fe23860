/**
 * Generates the JSON Schemas the extension contributes (`contributes.jsonValidation`) from the zod
 * schemas the parsers use, so editors check the files exactly as Spanproof reads them:
 * - media/schemas/groundtruth.schema.json — `.spanproof/groundtruth.json` (core groundtruth schema);
 * - media/schemas/config.schema.json — the `--config FILE` run settings, conventionally
 *   `.spanproof/config.json` (core settings schema), with each key's description and default taken
 *   from the VS Code setting of the same name in package.json, so hovers read like the Settings UI.
 * Run by scripts/build.mjs (`npm run build`); `buildSchemas()` is what the unit test checks.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { groundTruthJsonSchema } from '../src/core/groundtruth';
import { DEFAULT_SETTINGS, runSettingsJsonSchema } from '../src/core/settings';

type Json = Record<string, unknown>;
interface Contributed {
  description?: string;
  markdownDescription?: string;
  enumDescriptions?: string[];
}

const ROOT = path.resolve(__dirname, '..');
export const SCHEMA_DIR = path.join(ROOT, 'media', 'schemas');

/**
 * The VS Code settings of package.json (`spanproof.<key>` → its contribution), from every configuration
 * block, with `%key%` strings resolved through package.nls.json and setting links (`#spanproof.k#`)
 * turned back into plain names.
 */
function contributedSettings(pkg: Json, nls: Record<string, string>): Map<string, Contributed> {
  const text = (s: string | undefined) => s?.replace(/^%(.+)%$/, (m, k: string) => nls[k] ?? m).replace(/#(spanproof\.[\w.]+)#/g, '$1');
  const conf = (pkg.contributes as Json).configuration as Json | Json[];
  const blocks = Array.isArray(conf) ? conf : [conf];
  const out = new Map<string, Contributed>();
  for (const b of blocks) {
    for (const [k, v] of Object.entries((b.properties ?? {}) as Record<string, Contributed & { items?: Contributed }>)) {
      const enumDescriptions = v.enumDescriptions ?? v.items?.enumDescriptions;
      out.set(k.replace(/^spanproof\./, ''), { description: text(v.description), markdownDescription: text(v.markdownDescription), enumDescriptions: enumDescriptions?.map((e) => text(e) ?? e) });
    }
  }
  return out;
}

/** The JSON Schema node of dotted key `a.b.c` under `root` (following `properties`), or undefined. */
function nodeAt(root: Json, key: string): Json | undefined {
  let node: Json | undefined = root;
  for (const part of key.split('.')) node = ((node?.properties ?? {}) as Record<string, Json>)[part];
  return node;
}

function valueAt(obj: unknown, key: string): unknown {
  return key.split('.').reduce<unknown>((o, p) => (o && typeof o === 'object' ? (o as Json)[p] : undefined), obj);
}

/** Both schemas, as written to media/schemas. */
export function buildSchemas(
  pkg: Json = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')),
  nls: Record<string, string> = JSON.parse(readFileSync(path.join(ROOT, 'package.nls.json'), 'utf8')),
): { groundtruth: Json; config: Json } {
  const groundtruth = groundTruthJsonSchema();
  const config: Json & { properties: Record<string, Json> } = { title: 'Spanproof run settings (--config FILE)', description: 'The same keys as the VS Code settings spanproof.* (SPEC §11). Conventionally .spanproof/config.json.', ...(runSettingsJsonSchema() as { properties: Record<string, Json> }) };
  for (const [key, c] of contributedSettings(pkg, nls)) {
    const node = nodeAt(config, key);
    if (!node) continue;
    const plain = c.description ?? c.markdownDescription;
    if (plain && !node.description) node.description = plain;
    if (c.markdownDescription) node.markdownDescription = c.markdownDescription;
    // Beside the enum they describe: the value's, or its items' for an array of enum values (chunkers).
    const withEnum = Array.isArray(node.enum) ? node : Array.isArray((node.items as Json | undefined)?.enum) ? (node.items as Json) : undefined;
    if (c.enumDescriptions && withEnum) withEnum.enumDescriptions = c.enumDescriptions;
    const def = valueAt(DEFAULT_SETTINGS, key);
    if (def !== undefined && node.default === undefined) node.default = def;
  }
  // The prefixed aliases share the nodes just annotated.
  const props = config.properties;
  for (const k of Object.keys(props)) if (k.startsWith('spanproof.')) props[k] = props[k.slice('spanproof.'.length)];
  return { groundtruth, config };
}

/** Write both schemas (stable, two-space JSON) into media/schemas/. */
export function writeSchemas(dir = SCHEMA_DIR): string[] {
  const s = buildSchemas();
  mkdirSync(dir, { recursive: true });
  const files = [path.join(dir, 'groundtruth.schema.json'), path.join(dir, 'config.schema.json')];
  writeFileSync(files[0], `${JSON.stringify(s.groundtruth, null, 2)}\n`);
  writeFileSync(files[1], `${JSON.stringify(s.config, null, 2)}\n`);
  return files;
}

if (require.main === module) writeSchemas();
