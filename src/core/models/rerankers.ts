/**
 * Loads the reranker of a {@link RerankerSpec} (rerankerSpec.ts parses the setting): the MaxSim
 * baseline, a cross-encoder folder, a pulled catalogue cross-encoder (through the same folder loader),
 * or an endpoint reranker (`POST {base}/rerank`) on the run's {@link ModelEndpoint}.
 */
import * as path from 'node:path';
import { SpanproofError } from '../errors';
import { modelEndpointFix } from './endpoint/hint';
import { resolvePulledModel } from './catalogue/store';
import { loadCrossEncoderFromFolder } from './crossEncoder';
import { loadEndpointReranker } from './endpoint/reranker';
import type { ModelEndpoint } from './endpoint/connection';
import { createMaxSimReranker } from './maxSim';
import { rerankerName, type RerankerSpec } from './rerankerSpec';
import type { PairScorer, TextEmbedder } from './types';
import { OnnxEmbedder } from './embedder';
import { staticGloveDir } from './defaultModel';

/** What loading a reranker needs besides its spec. */
export interface RerankerContext {
  threads: number;
  /** Folder relative paths resolve against (the workspace); default the process's cwd. */
  baseDir?: string;
  /** The run's cache folder (endpoint scores are cached under it); required by an endpoint spec. */
  cacheDir?: string;
  /** The run's model endpoint; required by an endpoint spec. */
  endpoint?: ModelEndpoint;
  /** The model store of pulled catalogue models (default modelStoreDir()). */
  modelStore?: string;
  signal?: AbortSignal;
  /**
   * The run's embedders: the MaxSim baseline reads the static-glove one's session and tokenizer when
   * it is open at `threads` (see {@link createMaxSimReranker}) instead of opening the same model again.
   */
  embedders?: readonly TextEmbedder[];
}

/**
 * Loads `spec`. Throws SpanproofError('bad-input') for an endpoint spec without an endpoint (naming the
 * setting), 'not-found' for a catalogue model not pulled (naming the pull command), and the folder
 * loader's 'model'/'not-found' errors.
 */
export async function loadReranker(spec: RerankerSpec, ctx: RerankerContext): Promise<PairScorer> {
  if (spec.kind === 'baseline') {
    const dir = path.resolve(staticGloveDir());
    const shared = ctx.embedders?.find((e): e is OnnxEmbedder => e instanceof OnnxEmbedder && e.dir === dir && e.threads === ctx.threads);
    return createMaxSimReranker({ threads: ctx.threads }, dir, 'zipf', shared);
  }
  if (spec.kind === 'folder') return loadCrossEncoderFromFolder(path.resolve(ctx.baseDir ?? process.cwd(), spec.path), { threads: ctx.threads });
  if (spec.kind === 'catalogue') return loadCrossEncoderFromFolder(resolvePulledModel(spec.name, ctx.modelStore), { threads: ctx.threads });
  if (!ctx.endpoint || !ctx.cacheDir) {
    throw new SpanproofError('bad-input', `the reranker ${rerankerName(spec)} needs an endpoint, and none is set.`, { field: 'modelEndpoint.url', fix: modelEndpointFix('https://api.cohere.com/v2') });
  }
  return loadEndpointReranker({ connection: ctx.endpoint, model: spec.model, cacheDir: ctx.cacheDir, signal: ctx.signal });
}
