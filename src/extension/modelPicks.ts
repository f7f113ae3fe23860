/**
 * The choices of "Select Embedding Model…" (SPEC §5.3, §12): built-in models, catalogue models
 * (downloaded, or offered for download with their size), an endpoint model, a model folder — and then
 * whether the chosen model replaces the grid's embedders or is added to them (the `embedders` axis,
 * compared paired per question), with the settings that result. Pure (no vscode import: the command in
 * ./commands/models.ts shows them and writes the settings), so it is unit-tested.
 */
import { isDeepStrictEqual } from 'node:util';
import { BUILTIN_EMBEDDERS, DEFAULT_EMBEDDER, ENDPOINT_PREFIX, embedderName, parseEmbedderSpec } from '../core/models/embedderSpec';
import type { RunSettings } from '../core/settings';
import { CATALOGUE, entryBytes, mb, missingPins, modelState, type CatalogueEntry } from '../core/models/catalogue';

/** What choosing an item does. */
export type ModelAction = { kind: 'set'; value: string } | { kind: 'pull'; name: string } | { kind: 'unavailable'; reason: string } | { kind: 'endpoint' } | { kind: 'folder' } | { kind: 'separator' };

export interface ModelPick {
  label: string;
  description?: string;
  detail?: string;
  action: ModelAction;
}

/**
 * The items for the grid's current embedders `current` (see {@link gridEmbedders}; a single
 * `embeddingModel` value is accepted too, '' = the default built-in), catalogue states read from
 * `store`. Each current model is marked `current` (`in the grid` when there are several). Catalogue
 * entries that cannot be pulled (pins missing) are listed as not available, never offered.
 */
export function embeddingModelPicks(current: string | readonly string[], store: string, catalogue: readonly CatalogueEntry[] = CATALOGUE): ModelPick[] {
  const curs = (typeof current === 'string' ? [current] : [...current]).map((c) => c.trim() || DEFAULT_EMBEDDER);
  const here = curs.length > 1 ? 'in the grid' : 'current';
  const mark = (value: string, isDefault = false) => (curs.includes(value) ? here : isDefault ? 'default' : undefined);
  const out: ModelPick[] = [{ label: 'Built-in', action: { kind: 'separator' } }];
  for (const [name, b] of Object.entries(BUILTIN_EMBEDDERS)) {
    out.push({ label: name, description: mark(name, name === DEFAULT_EMBEDDER), detail: b.description, action: { kind: 'set', value: name } });
  }
  out.push({ label: 'Catalogue (downloaded on request from the Hugging Face hub)', action: { kind: 'separator' } });
  for (const e of catalogue.filter((c) => c.kind === 'embedder')) {
    const st = modelState(e, store);
    const missing = missingPins(e);
    if (st.state === 'pulled' && st.current) out.push({ label: e.name, description: mark(e.name) ?? 'downloaded', detail: e.description, action: { kind: 'set', value: e.name } });
    else if (missing.length) out.push({ label: e.name, description: 'not available', detail: e.description, action: { kind: 'unavailable', reason: `${e.name} cannot be downloaded: its ${missing.join(', ')} could not be pinned (docs/models.md, "Model catalogue").` } });
    else out.push({ label: `$(cloud-download) ${e.name}`, description: `download ${mb(entryBytes(e))}${st.state === 'partial' ? ` (${mb(st.bytes)} already here)` : ''}`, detail: e.description, action: { kind: 'pull', name: e.name } });
  }
  out.push({ label: 'Other', action: { kind: 'separator' } });
  const endpoints = curs.filter((c) => c.startsWith(ENDPOINT_PREFIX));
  const folders = curs.filter((c) => !c.startsWith(ENDPOINT_PREFIX) && !(c in BUILTIN_EMBEDDERS) && !catalogue.some((e) => e.name === c));
  out.push({ label: 'Endpoint model…', description: endpoints.length ? `${here}: ${endpoints.join(', ')}` : undefined, detail: 'a model at an OpenAI-compatible embeddings endpoint (spanproof.modelEndpoint.url); texts are sent there', action: { kind: 'endpoint' } });
  out.push({ label: 'Model folder…', description: folders.length ? `${here}: ${folders.join(', ')}` : undefined, detail: 'a folder with model.onnx (or onnx/model.onnx) and tokenizer.json (or vocab.txt)', action: { kind: 'folder' } });
  return out;
}

/** The two embedder settings (SPEC §5.3): `embedders` when it lists any, else the one `embeddingModel`. */
export type EmbedderSettings = Pick<RunSettings, 'embedders' | 'embeddingModel'>;

/** The grid's embedders as the settings say: the `embedders` entries, else `[embeddingModel]` ('' = {@link DEFAULT_EMBEDDER}). */
export function gridEmbedders(s: EmbedderSettings): string[] {
  return s.embedders.length > 0 ? s.embedders.map((e) => e.trim()) : [s.embeddingModel.trim() || DEFAULT_EMBEDDER];
}

/** What to do with a picked model: use it alone, or add it to the grid's embedders. */
export type EmbedderChange = 'replace' | 'add';

export interface EmbedderChangeChoice {
  change: EmbedderChange;
  label: string;
  detail: string;
}

/** An entry's name in config ids (`dense:<name>`), or the trimmed entry when it does not parse. */
function nameOf(entry: string): string {
  try {
    return embedderName(parseEmbedderSpec(entry));
  } catch {
    return entry.trim();
  }
}

/**
 * The choices after `value` was picked, for the current settings `s`: "Use only" (unless it already is
 * the one embedder) and "Add to the grid" (unless a model of that name is in it). With one embedder
 * today "Use only" comes first (what "Select" means); with several — the user is comparing — "Add"
 * does. Empty: nothing to change.
 */
export function embedderChangeChoices(s: EmbedderSettings, value: string): EmbedderChangeChoice[] {
  const grid = gridEmbedders(s);
  const entry = value.trim() || DEFAULT_EMBEDDER;
  const listed = grid.some((e) => nameOf(e) === nameOf(entry));
  const replace: EmbedderChangeChoice[] = grid.length === 1 && grid[0] === entry ? [] : [{ change: 'replace', label: `Use only ${entry}`, detail: `replaces ${grid.join(', ')}: one embedder, retrievers dense and hybrid` }];
  const add: EmbedderChangeChoice[] = listed ? [] : [{
    change: 'add', label: `Add ${entry} to the grid`,
    detail: `compares ${[...grid, entry].join(', ')} side by side, paired per question (dense:<name>, hybrid:<name>); each embeds the corpus`,
  }];
  return grid.length > 1 ? [...add, ...replace] : [...replace, ...add];
}

/**
 * The embedder settings after `change` with `value` (the schema's rule: `embedders` empty ⇒
 * `embeddingModel` is the single embedder; with several, `embeddingModel` is ignored, so it is
 * cleared rather than left to warn on every run). `replace` → `{ embedders: [], embeddingModel: value }`;
 * `add` → the grid's embedders plus `value`, `embeddingModel` ''.
 * @returns `{ problem }` when `value` cannot be added: already in the grid, or another entry would get
 *   the same name in config ids (two folders with one base name).
 */
export function embeddersAfterPick(s: EmbedderSettings, value: string, change: EmbedderChange): EmbedderSettings | { problem: string } {
  const entry = value.trim();
  if (change === 'replace') return { embedders: [], embeddingModel: entry };
  const grid = gridEmbedders(s);
  const added = entry || DEFAULT_EMBEDDER;
  const clash = grid.find((e) => nameOf(e) === nameOf(added));
  if (clash === added) return { problem: `${added} is already in the grid.` };
  if (clash !== undefined) return { problem: `"${added}" and "${clash}" would both be named ${nameOf(added)} in config ids: give the model folders distinct names.` };
  return { embedders: [...grid, added], embeddingModel: '' };
}

/** Configuration scopes of one setting, innermost last (VS Code `inspect`, leaf values). */
export interface ScopedValues<T> {
  defaultValue?: T;
  globalValue?: T;
  workspaceValue?: T;
  workspaceFolderValue?: T;
}

/** Where Select Embedding Model… writes: the innermost scope that sets either embedder setting, else the workspace (user settings when no folder is open). */
export function embedderTarget(scopes: ReadonlyArray<ScopedValues<unknown>>, hasWorkspace: boolean): 'folder' | 'workspace' | 'user' {
  if (scopes.some((i) => i.workspaceFolderValue !== undefined)) return 'folder';
  return hasWorkspace ? 'workspace' : 'user';
}

/**
 * The value to write at `target` so the effective value becomes `next`: undefined (remove it there)
 * when the scopes outside `target` already give `next`, so no default is copied into settings.json.
 */
export function valueToWrite<T>(next: T, i: ScopedValues<T>, target: 'folder' | 'workspace' | 'user'): T | undefined {
  const outside = target === 'folder' ? i.workspaceValue ?? i.globalValue ?? i.defaultValue : target === 'workspace' ? i.globalValue ?? i.defaultValue : i.defaultValue;
  return isDeepStrictEqual(outside, next) ? undefined : next;
}
