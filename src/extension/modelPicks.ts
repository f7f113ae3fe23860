/**
 * The choices of "Select Embedding Model…" (SPEC §5.3, §12): built-in models, catalogue models
 * (downloaded, or offered for download with their size), an endpoint model, a model folder. Pure (no
 * vscode import: the command in ./commands/models.ts shows them), so it is unit-tested.
 */
import { BUILTIN_EMBEDDERS, DEFAULT_EMBEDDER, ENDPOINT_PREFIX } from '../core/models/embedderSpec';
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
 * The items for the current `embeddingModel` value `current`, catalogue states read from `store`.
 * Catalogue entries that cannot be pulled (pins missing) are listed as not available, never offered.
 */
export function embeddingModelPicks(current: string, store: string, catalogue: readonly CatalogueEntry[] = CATALOGUE): ModelPick[] {
  const cur = current.trim();
  const mark = (value: string, isDefault = false) => (value === cur || (isDefault && cur === '') ? 'current' : isDefault ? 'default' : undefined);
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
  out.push({ label: 'Endpoint model…', description: cur.startsWith(ENDPOINT_PREFIX) ? `current: ${cur}` : undefined, detail: 'a model at an OpenAI-compatible embeddings endpoint (spanproof.modelEndpoint.url); texts are sent there', action: { kind: 'endpoint' } });
  const isFolder = cur !== '' && !cur.startsWith(ENDPOINT_PREFIX) && !(cur in BUILTIN_EMBEDDERS) && !catalogue.some((c) => c.name === cur);
  out.push({ label: 'Model folder…', description: isFolder ? `current: ${cur}` : undefined, detail: 'a folder with model.onnx (or onnx/model.onnx) and tokenizer.json (or vocab.txt)', action: { kind: 'folder' } });
  return out;
}
