/**
 * The grid's configurations (SPEC §6): chunker × retriever × reranker on/off, ids
 * `<chunker>/<retriever>/<rerank|none>`, in the order of the settings (chunkers, then retrievers,
 * then rerank values).
 */
import type { ChunkerId, RetrieverId } from '../types';
import type { RunSettings } from '../settings';

export interface ConfigPlan {
  id: string;
  chunker: ChunkerId;
  retriever: RetrieverId;
  rerank: boolean;
}

/** `heading/bm25/none`, `fixed/hybrid/rerank`. */
export function configId(chunker: string, retriever: string, rerank: boolean): string {
  return `${chunker}/${retriever}/${rerank ? 'rerank' : 'none'}`;
}

/** Every config of the grid, deduplicated, in settings order. */
export function planConfigs(settings: Pick<RunSettings, 'chunkers' | 'retrievers' | 'rerank'>): ConfigPlan[] {
  const out: ConfigPlan[] = [];
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
