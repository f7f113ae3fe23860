/**
 * The embedder registry (SPEC §5.3): ONE place that turns an `embedders` entry (CLI `--embedders`,
 * setting `embedders`) into a model and a name. Built-in names, model folders and endpoint models
 * all resolve here, so config ids, cache keys and reports agree on what an entry means.
 *
 * Entry forms:
 * - a built-in name: `use-lite`, `static-glove` (shipped in `media/models/`);
 * - `endpoint:<model>`: a model at an OpenAI-compatible embeddings endpoint (the loader is
 *   registered by the endpoint module with {@link registerEmbedderLoader});
 * - anything else: a model folder path (`model.onnx` + `tokenizer.json`), relative to the workspace.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { SpanproofError } from '../errors';
import { loadEmbedderFromFolder } from './embedder';
import type { TextEmbedder } from './types';

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

export type EmbedderSpec = { kind: 'builtin'; name: BuiltinEmbedderName } | { kind: 'folder'; path: string } | { kind: 'endpoint'; model: string };

/** What a loader gets besides the spec. */
export interface EmbedderContext {
  /** `intraOpNumThreads` of ONNX sessions. */
  threads: number;
  /** Folder relative paths resolve against (the workspace); default the process's cwd. */
  baseDir?: string;
}

type Loader = (spec: EmbedderSpec, ctx: EmbedderContext) => Promise<TextEmbedder>;
const loaders = new Map<EmbedderSpec['kind'], Loader>();

/** Registers the loader of a kind (the endpoint module registers `endpoint`). A second call replaces the first. */
export function registerEmbedderLoader(kind: 'endpoint', loader: Loader): void {
  loaders.set(kind, loader);
}

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
  return { kind: 'folder', path: e };
}

/**
 * The name in config ids (`dense:<name>`): the built-in name; a folder's base name; for an endpoint
 * `endpoint:<model>` with `/` replaced by `_` (config ids use `/` as separator).
 */
export function embedderName(spec: EmbedderSpec): string {
  if (spec.kind === 'builtin') return spec.name;
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

/** Absolute folder of a built-in model, for the dist/*.js bundles and tsx runs from src/ alike. */
export function builtinModelDir(name: BuiltinEmbedderName): string {
  const folder = BUILTIN_EMBEDDERS[name].folder;
  const candidates = [path.resolve(__dirname, '..', 'media', 'models', folder), path.resolve(__dirname, '..', '..', '..', 'media', 'models', folder)];
  return candidates.find((c) => existsSync(path.join(c, 'model.onnx'))) ?? candidates[0];
}

/** One line for reports: what the embedder is (built-ins say they are small general models). */
export function describeEmbedder(spec: EmbedderSpec): string {
  if (spec.kind === 'builtin') return `${spec.name}: ${BUILTIN_EMBEDDERS[spec.name].description}`;
  if (spec.kind === 'endpoint') return `${embedderName(spec)}: model "${spec.model}" at the configured embeddings endpoint`;
  return `${embedderName(spec)}: ONNX model folder ${spec.path}`;
}

/**
 * Loads the embedder of `spec`. Throws SpanproofError('model'/'not-found') from the folder loader,
 * or SpanproofError('bad-input') for an endpoint entry when no endpoint loader is registered.
 */
export function loadEmbedder(spec: EmbedderSpec, ctx: EmbedderContext): Promise<TextEmbedder> {
  if (spec.kind === 'builtin') return loadEmbedderFromFolder(builtinModelDir(spec.name), { threads: ctx.threads });
  if (spec.kind === 'folder') return loadEmbedderFromFolder(path.resolve(ctx.baseDir ?? process.cwd(), spec.path), { threads: ctx.threads });
  const loader = loaders.get('endpoint');
  if (!loader) throw new SpanproofError('bad-input', `Endpoint embedders are not available in this build (${embedderName(spec)}).`, { field: 'embedders', fix: 'Use a built-in embedder or a model folder.' });
  return loader(spec, ctx);
}

/**
 * The embedder named by the single-model setting `embeddingModel`: '' = {@link DEFAULT_EMBEDDER};
 * otherwise parsed as an `embedders` entry (a built-in name wins over a folder of the same name —
 * write `./use-lite` for such a folder).
 */
export function embedderFromSetting(value: string): EmbedderSpec {
  return value.trim() === '' ? { kind: 'builtin', name: DEFAULT_EMBEDDER } : parseEmbedderSpec(value);
}
