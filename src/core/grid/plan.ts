/**
 * The grid's configurations (SPEC §6): chunker × retriever × reranker on/off, ids
 * `<chunker>/<retriever>/<rerank|none>`, in the order of the settings (chunkers, then retrievers,
 * then rerank values).
 */
import type { ChunkerId, RetrieverId } from '../types';
import type { RunSettings } from '../settings';

export interface ConfigPlan {
  id: string;
  /** A built-in chunker, or {@link EXTERNAL_CHUNKER} for an external retriever (whose passages are its own). */
  chunker: PlanChunker;
  /** A built-in retriever, or the external retriever's name. */
  retriever: RetrieverId | string;
  rerank: boolean;
  /** External retrievers only (issue #18): how the passages are obtained. */
  external?: { name: string; kind: 'command' | 'url' };
}

/** A config of the built-in grid (what {@link planConfigs} returns). */
export interface BuiltinConfigPlan extends ConfigPlan {
  chunker: ChunkerId;
  retriever: RetrieverId;
  external?: undefined;
}

/** The chunker column of an external retriever's config `external/<name>/none`. */
export const EXTERNAL_CHUNKER = 'external';
export type PlanChunker = ChunkerId | typeof EXTERNAL_CHUNKER;

/** The configs of the external retrievers of the settings, `external/<name>/none`, in settings order. */
export function planExternalConfigs(settings: Pick<RunSettings, 'externalRetrievers'>): ConfigPlan[] {
  return settings.externalRetrievers.map((r) => ({ id: configId(EXTERNAL_CHUNKER, r.name, false), chunker: EXTERNAL_CHUNKER, retriever: r.name, rerank: false, external: { name: r.name, kind: 'command' in r ? 'command' : 'url' } }));
}

/** `heading/bm25/none`, `fixed/hybrid/rerank`. */
export function configId(chunker: string, retriever: string, rerank: boolean): string {
  return `${chunker}/${retriever}/${rerank ? 'rerank' : 'none'}`;
}

/** Every config of the grid, deduplicated, in settings order. */
export function planConfigs(settings: Pick<RunSettings, 'chunkers' | 'retrievers' | 'rerank'>): BuiltinConfigPlan[] {
  const out: BuiltinConfigPlan[] = [];
  const seen = new Set<string>();
  for (const chunker of settings.chunkers) {
    for (const retriever of settings.retrievers) {
      for (const rerank of settings.rerank) {
        const id = configId(chunker, retriever, rerank);
        if (seen.has(id)) continue;
        seen.add(id);
        out.push({ id, chunker, retriever, rerank });
      }
    }
  }
  return out;
}

/** The τ values of the hit@k sweep (SPEC §1, §7.4). */
export const TAU_SWEEP = [0.3, 0.5, 0.7, 0.9, 1.0] as const;
/** The cut-offs at which hit@k is reported besides the run's k (SPEC §7.1). */
export const HIT_KS = [1, 3, 5, 10] as const;
