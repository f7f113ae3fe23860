/**
 * The embedder registry (SPEC §5.3): loads the model of an {@link EmbedderSpec} (embedderSpec.ts
 * parses entries and names them). Built-ins load from `media/models/`, folders from the workspace,
 * endpoint models through the loader the endpoint module registers.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { SpanproofError } from '../errors';
import { loadEmbedderFromFolder } from './embedder';
import { BUILTIN_EMBEDDERS, type BuiltinEmbedderName, type EmbedderSpec, embedderName } from './embedderSpec';
import type { TextEmbedder } from './types';

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

/** Absolute folder of a built-in model, for the dist/*.js bundles and tsx runs from src/ alike. */
export function builtinModelDir(name: BuiltinEmbedderName): string {
  const folder = BUILTIN_EMBEDDERS[name].folder;
  const candidates = [path.resolve(__dirname, '..', 'media', 'models', folder), path.resolve(__dirname, '..', '..', '..', 'media', 'models', folder)];
  return candidates.find((c) => existsSync(path.join(c, 'model.onnx'))) ?? candidates[0];
}

/**
 * Loads the embedder of `spec`. Throws SpanproofError('model'/'not-found') from the folder loader,
 * or SpanproofError('bad-input') for an endpoint entry when no endpoint loader is registered.
 */
export async function loadEmbedder(spec: EmbedderSpec, ctx: EmbedderContext): Promise<TextEmbedder> {
  if (spec.kind === 'builtin') return loadEmbedderFromFolder(builtinModelDir(spec.name), { threads: ctx.threads });
  if (spec.kind === 'folder') return loadEmbedderFromFolder(path.resolve(ctx.baseDir ?? process.cwd(), spec.path), { threads: ctx.threads });
  const loader = loaders.get('endpoint');
  if (!loader) throw new SpanproofError('bad-input', `Endpoint embedders are not available in this build (${embedderName(spec)}).`, { field: 'embedders', fix: 'Use a built-in embedder or a model folder.' });
  return loader(spec, ctx);
}
