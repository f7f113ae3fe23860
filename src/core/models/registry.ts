/**
 * The embedder registry (SPEC §5.3): loads the model of an {@link EmbedderSpec} (embedderSpec.ts
 * parses entries and names them). Built-ins load from `media/models/`, folders from the workspace,
 * catalogue models from the folder `spanproof models pull` made (all through the one folder loader),
 * endpoint models as {@link loadEndpointEmbedder} clients of the run's {@link ModelEndpoint}.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { SpanproofError } from '../errors';
import { modelEndpointFix } from './endpoint/hint';
import { resolvePulledModel } from './catalogue/store';
import { loadEmbedderFromFolder } from './embedder';
import { BUILTIN_EMBEDDERS, type BuiltinEmbedderName, type EmbedderSpec, embedderName } from './embedderSpec';
import type { ModelEndpoint } from './endpoint/connection';
import { loadEndpointEmbedder } from './endpoint/embedder';
import type { TextEmbedder } from './types';

/** What a loader gets besides the spec. */
export interface EmbedderContext {
  /** `intraOpNumThreads` of ONNX sessions. */
  threads: number;
  /** Folder relative paths resolve against (the workspace); default the process's cwd. */
  baseDir?: string;
  /** The model store of pulled catalogue models (default modelStoreDir()). */
  modelStore?: string;
  /** Endpoint models: the run's endpoint (required for them), its batch size, cache folder, reference tokenizer and cancel signal. */
  endpoint?: {
    connection: ModelEndpoint;
    cacheDir: string;
    /** Token count of a text for context costs (an endpoint model's tokenizer is not known here). */
    countTokens: (text: string) => number;
    batchSize?: number;
    signal?: AbortSignal;
  };
}

/** Absolute folder of a built-in model, for the dist/*.js bundles and tsx runs from src/ alike. */
export function builtinModelDir(name: BuiltinEmbedderName): string {
  const folder = BUILTIN_EMBEDDERS[name].folder;
  const candidates = [path.resolve(__dirname, '..', 'media', 'models', folder), path.resolve(__dirname, '..', '..', '..', 'media', 'models', folder)];
  return candidates.find((c) => existsSync(path.join(c, 'model.onnx'))) ?? candidates[0];
}

/**
 * Loads the embedder of `spec`. Throws SpanproofError('model'/'not-found') from the folder loader,
 * 'not-found' for a catalogue model not pulled (naming `spanproof models pull`), SpanproofError
 * ('bad-input') for an endpoint entry without `ctx.endpoint`, and the endpoint's 'model' errors.
 */
export async function loadEmbedder(spec: EmbedderSpec, ctx: EmbedderContext): Promise<TextEmbedder> {
  if (spec.kind === 'builtin') return loadEmbedderFromFolder(builtinModelDir(spec.name), { threads: ctx.threads });
  if (spec.kind === 'folder') return loadEmbedderFromFolder(path.resolve(ctx.baseDir ?? process.cwd(), spec.path), { threads: ctx.threads });
  if (spec.kind === 'catalogue') return loadEmbedderFromFolder(resolvePulledModel(spec.name, ctx.modelStore), { threads: ctx.threads });
  const ep = ctx.endpoint;
  if (!ep) throw new SpanproofError('bad-input', `the embedder ${embedderName(spec)} needs an endpoint, and none is set.`, { field: 'modelEndpoint.url', fix: modelEndpointFix('http://localhost:11434/v1 for Ollama') });
  return loadEndpointEmbedder({ connection: ep.connection, model: spec.model, cacheDir: ep.cacheDir, countTokens: ep.countTokens, batchSize: ep.batchSize, signal: ep.signal });
}
