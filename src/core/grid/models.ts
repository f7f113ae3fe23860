/**
 * Stage "load models" — the ONE place the models of a run are loaded, for the grid run, the worker's
 * one-question re-run (through `runGrid` with the resident state) and `spanproof query`: the embedder
 * (`settings.embeddingModel`: a built-in name, a folder or `""` = the default built-in, resolved by the
 * embedder registry in src/core/models) and, when a config
 * reranks, the cross-encoder (`settings.rerankerModel`; `""` = the MaxSim baseline). Relative model
 * folders are resolved against the workspace (the corpus root), the same for every caller.
 *
 * A resident worker keeps the loaded models (one per folder and thread count) between requests; then
 * `release()` leaves them open. Otherwise `release()` disposes the sessions.
 */
import { isAbsolute, resolve } from 'node:path';
import { BASELINE_RERANKER_LABEL, createMaxSimReranker, describeEmbedder, embedderFromSetting, embedderName, loadCrossEncoderFromFolder, loadEmbedder, type PairScorer, type TextEmbedder } from '../models';
import type { RunFile } from '../runs/types';
import type { RunSettings } from '../settings';
import type { ResidentState } from './resident';

/** The loaded models of a run. */
export interface RunModels {
  /** null only when the caller said it needs none (`spanproof query` with bm25 and no semantic chunker). */
  embedder: TextEmbedder | null;
  /** null when no config reranks. */
  reranker: PairScorer | null;
  /** What run.json records as `models` (names, descriptions and ids of the loaded models). */
  describe(): NonNullable<RunFile['models']>;
  /** Disposes the sessions, unless they are kept by a resident state. Never throws. */
  release(): Promise<void>;
}

export interface LoadModelsInput {
  settings: Pick<RunSettings, 'embeddingModel' | 'rerankerModel' | 'threads'>;
  /** The corpus root, against which relative model folders are resolved. */
  workspace: string;
  needsEmbedder: boolean;
  needsReranker: boolean;
  /** Keep and reuse the models here (a resident worker). */
  resident?: ResidentState;
  /** Called with the ms each actual load took (a model found in `resident` is not timed). */
  onLoad?: (ms: number) => void;
}

/** A model folder setting as an absolute path (relative = under the workspace). */
export function modelFolder(workspace: string, folder: string): string {
  return isAbsolute(folder) ? folder : resolve(workspace, folder);
}

async function timed<T>(f: () => Promise<T>, onLoad?: (ms: number) => void): Promise<T> {
  const t = performance.now();
  try {
    return await f();
  } finally {
    onLoad?.(performance.now() - t);
  }
}

/**
 * Loads (or takes from `resident`) the models a run needs.
 * @throws SpanproofError('model') when a configured folder is not a usable model (the loaders' errors).
 */
export async function loadRunModels(input: LoadModelsInput): Promise<RunModels> {
  const { settings, resident, onLoad } = input;
  const threads = settings.threads;
  const spec = embedderFromSetting(settings.embeddingModel);
  let embedder: TextEmbedder | null = null;
  let reranker: PairScorer | null = null;
  const release = async () => {
    if (resident) return;
    await embedder?.dispose().catch(() => undefined);
    await reranker?.dispose().catch(() => undefined);
  };
  /** The model under `key` in the resident map, else loaded (timed) and kept there. */
  const keep = async <M>(map: Map<string, M> | undefined, key: string, load: () => Promise<M>): Promise<M> => {
    let m = map?.get(key);
    if (!m) {
      m = await timed(load, onLoad);
      map?.set(key, m);
    }
    return m;
  };
  try {
    if (input.needsEmbedder) {
      const key = spec.kind === 'folder' ? modelFolder(input.workspace, spec.path) : JSON.stringify(spec);
      embedder = await keep(resident?.embedders, `${key}|${threads}`, () => loadEmbedder(spec, { threads, baseDir: input.workspace }));
    }
    if (input.needsReranker) {
      const folder = settings.rerankerModel ? modelFolder(input.workspace, settings.rerankerModel) : '';
      reranker = await keep(resident?.rerankers, `${folder || '(baseline)'}|${threads}`, () => (folder ? loadCrossEncoderFromFolder(folder, { threads }) : createMaxSimReranker({ threads })));
    }
  } catch (e) {
    await release();
    throw e;
  }
  const describe = (): NonNullable<RunFile['models']> => ({
    embedders: embedder ? [{ name: embedderName(spec), description: describeEmbedder(spec), id: embedder.id }] : [],
    reranker: reranker ? (reranker.baseline ? `built-in MaxSim reranker: ${BASELINE_RERANKER_LABEL}` : `cross-encoder ${reranker.id}`) : null,
  });
  return { embedder, reranker, describe, release };
}
