/**
 * Embedder entries (SPEC §5.3): ONE place that turns an `embedders` entry (CLI `--embedders`,
 * setting `embedders`) into a spec and a name; registry.ts loads a spec. This module loads no model
 * code (no onnxruntime), so reports and the extension host can name embedders. Built-in names, model folders and endpoint models
 * all resolve here, so config ids, cache keys and reports agree on what an entry means.
 *
 * Entry forms:
 * - a built-in name: `use-lite`, `static-glove` (shipped in `media/models/`);
 * - `endpoint:<model>`: a model at an OpenAI-compatible embeddings endpoint (setting
 *   `modelEndpoint.url`, CLI `--endpoint`; ./endpoint);
 * - a catalogue embedder name (`bge-small-en-v1.5`; no path separator): the folder
 *   `spanproof models pull` made (./catalogue);
 * - anything else: a model folder path (`model.onnx` + `tokenizer.json`), relative to the workspace.
 */
import * as path from 'node:path';
import { SpanproofError } from '../errors';
import { CATALOGUE, findCatalogueEntry } from './catalogue/entries';

/** The built-in embedders: folder under `media/models/` and the one-line description reports show. */
export const BUILTIN_EMBEDDERS = {
  'use-lite': {
    folder: 'use-lite',
    description: 'Universal Sentence Encoder Lite (Google, 2018; 512-d, int8) — a small general sentence encoder, not a retrieval-trained model',
  },
  'static-glove': {
    folder: 'glove-6b-100d-50k-int8',
    description: 'static GloVe 6B 100-d word vectors, SIF-weighted mean — a small general baseline, not a retrieval-trained model',
  },
} as const;

export type BuiltinEmbedderName = keyof typeof BUILTIN_EMBEDDERS;

/** The embedder used when none is configured (decided by the rule in docs/models.md). */
export const DEFAULT_EMBEDDER: BuiltinEmbedderName = 'static-glove';

export const ENDPOINT_PREFIX = 'endpoint:';

/**
 * How the built-in MaxSim reranker is labelled wherever it is shown (CLI tables, reports, config
 * explanations, the results panel): it is a baseline, not a trained cross-encoder (SPEC §5.3).
 */
export const BASELINE_RERANKER_LABEL = 'baseline (not a trained cross-encoder)';

export type EmbedderSpec =
  | { kind: 'builtin'; name: BuiltinEmbedderName }
  | { kind: 'folder'; path: string }
  | { kind: 'endpoint'; model: string }
  | { kind: 'catalogue'; name: string };

function isBuiltin(name: string): name is BuiltinEmbedderName {
  return Object.prototype.hasOwnProperty.call(BUILTIN_EMBEDDERS, name);
}

/**
 * Parses one entry (surrounding whitespace ignored). Throws SpanproofError('bad-input') for an
 * empty entry or `endpoint:` without a model name.
 */
export function parseEmbedderSpec(entry: string): EmbedderSpec {
  const e = entry.trim();
  if (e === '') throw new SpanproofError('bad-input', 'An embedder entry is empty.', { field: 'embedders', fix: `Use ${Object.keys(BUILTIN_EMBEDDERS).join(', ')}, ${ENDPOINT_PREFIX}<model> or a model folder.` });
  if (isBuiltin(e)) return { kind: 'builtin', name: e };
  if (e.startsWith(ENDPOINT_PREFIX)) {
    const model = e.slice(ENDPOINT_PREFIX.length).trim();
    if (!model) throw new SpanproofError('bad-input', `"${e}" names no model.`, { field: 'embedders', fix: `Write ${ENDPOINT_PREFIX}<model name at the endpoint>, e.g. ${ENDPOINT_PREFIX}text-embedding-3-small.` });
    return { kind: 'endpoint', model };
  }
  const listed = !/[\\/]/.test(e) ? findCatalogueEntry(e, CATALOGUE) : undefined;
  if (listed) {
    if (listed.kind !== 'embedder') throw new SpanproofError('bad-input', `"${e}" is a cross-encoder, not an embedder.`, { field: 'embedders', fix: `put it in rerankerModel (--reranker ${listed.name}); catalogue embedders: ${CATALOGUE.filter((c) => c.kind === 'embedder').map((c) => c.name).join(', ')}.` });
    return { kind: 'catalogue', name: listed.name };
  }
  return { kind: 'folder', path: e };
}

/**
 * The name in config ids (`dense:<name>`): the built-in name; a folder's base name; for an endpoint
 * `endpoint:<model>` with `/` replaced by `_` (config ids use `/` as separator).
 */
export function embedderName(spec: EmbedderSpec): string {
  if (spec.kind === 'builtin' || spec.kind === 'catalogue') return spec.name;
  if (spec.kind === 'endpoint') return `${ENDPOINT_PREFIX}${spec.model.replaceAll('/', '_')}`;
  return path.basename(path.resolve(spec.path)).replaceAll('/', '_');
}

/**
 * Parses a list of entries and checks their names are distinct. Throws SpanproofError('bad-input')
 * for an empty list or two entries with the same name (naming both).
 */
export function parseEmbedderList(entries: readonly string[]): EmbedderSpec[] {
  if (entries.length === 0) throw new SpanproofError('bad-input', 'No embedder given.', { field: 'embedders', fix: `List at least one, e.g. ${DEFAULT_EMBEDDER}.` });
  const specs = entries.map(parseEmbedderSpec);
  const seen = new Map<string, string>();
  specs.forEach((s, i) => {
    const n = embedderName(s);
    const prev = seen.get(n);
    if (prev !== undefined) {
      throw new SpanproofError('bad-input', `Embedders "${prev}" and "${entries[i].trim()}" would both be named ${n} in config ids.`, { field: 'embedders', fix: 'Give model folders distinct folder names, and list each model once.' });
    }
    seen.set(n, entries[i].trim());
  });
  return specs;
}

/** One line for reports: what the embedder is (built-ins say they are small general models). */
export function describeEmbedder(spec: EmbedderSpec): string {
  if (spec.kind === 'builtin') return `${spec.name}: ${BUILTIN_EMBEDDERS[spec.name].description}`;
  if (spec.kind === 'endpoint') return `${embedderName(spec)}: model "${spec.model}" at the configured embeddings endpoint`;
  if (spec.kind === 'catalogue') {
    const e = findCatalogueEntry(spec.name);
    return `${spec.name}: catalogue model ${e?.repo ?? spec.name} — ${e?.description ?? 'downloaded with spanproof models pull'}`;
  }
  return `${embedderName(spec)}: ONNX model folder ${spec.path}`;
}

/**
 * The embedder named by the single-model setting `embeddingModel`: '' = {@link DEFAULT_EMBEDDER};
 * otherwise parsed as an `embedders` entry (a built-in name wins over a folder of the same name —
 * write `./use-lite` for such a folder).
 */
export function embedderFromSetting(value: string): EmbedderSpec {
  return value.trim() === '' ? { kind: 'builtin', name: DEFAULT_EMBEDDER } : parseEmbedderSpec(value);
}

/**
 * The embedders of a run, in listed order: the `embedders` list when it is not empty (a grid axis:
 * with more than one, retrievers become `dense:<name>` / `hybrid:<name>`), else the one
 * `embeddingModel` ('' = {@link DEFAULT_EMBEDDER}). The first is the one semantic chunking uses and
 * whose tokenizer counts context tokens.
 * @throws SpanproofError('bad-input') for a bad entry or two entries with the same name (field `embedders`).
 */
export function runEmbedderSpecs(s: { embedders: readonly string[]; embeddingModel: string }): EmbedderSpec[] {
  return s.embedders.length > 0 ? parseEmbedderList(s.embedders) : [embedderFromSetting(s.embeddingModel)];
}
