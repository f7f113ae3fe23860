/**
 * The grid's configurations (SPEC §6): chunker × retriever × reranker on/off, ids
 * `<chunker>/<retriever>/<rerank|none>`, in the order of the settings (chunkers, then retrievers,
 * then rerank values). With several embedders (`embedders` lists more than one, SPEC §5.3) each
 * dense and hybrid retriever is one retriever per embedder, `dense:<name>` / `hybrid:<name>`, in the
 * embedders' order; with one, ids stay `dense` / `hybrid`.
 */
import type { ChunkerId, RetrieverId } from '../types';
import type { RunSettings } from '../settings';
import { embedderName, runEmbedderSpecs } from '../models/embedderSpec';

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
  /** The retriever id in the config id: `bm25`, `dense`, `hybrid`, or `dense:<name>` / `hybrid:<name>` with several embedders. */
  retriever: string;
  /** The retriever's kind. */
  kind: RetrieverId;
  /** The name of the embedder a dense or hybrid retriever uses (also with one embedder); null for bm25. */
  embedder: string | null;
  external?: undefined;
}

/** The chunker column of an external retriever's config `external/<name>/none`. */
export const EXTERNAL_CHUNKER = 'external';
export type PlanChunker = ChunkerId | typeof EXTERNAL_CHUNKER;

/** The configs of the external retrievers of the settings, `external/<name>/none`, in settings order. */
export function planExternalConfigs(settings: Pick<RunSettings, 'externalRetrievers'>): ConfigPlan[] {
  return settings.externalRetrievers.map((r) => ({ id: configId(EXTERNAL_CHUNKER, r.name, false), chunker: EXTERNAL_CHUNKER, retriever: r.name, rerank: false, external: { name: r.name, kind: 'command' in r ? 'command' : 'url' } }));
}

/** `dense` or, naming its embedder in a several-embedder run, `dense:use-lite`; bm25 never names one. */
export function retrieverId(kind: RetrieverId, embedder?: string | null): string {
  return kind === 'bm25' || !embedder ? kind : `${kind}:${embedder}`;
}

/**
 * THE config id: `heading/bm25/none`, `fixed/hybrid/rerank`, `heading/dense:static-glove/none`
 * (`embedder` given only in several-embedder runs).
 */
export function configId(chunker: string, retriever: string, rerank: boolean, embedder?: string | null): string {
  const r = embedder && (retriever === 'dense' || retriever === 'hybrid') ? retrieverId(retriever, embedder) : retriever;
  return `${chunker}/${r}/${rerank ? 'rerank' : 'none'}`;
}

/** The embedder names of the run's settings, in listed order (see runEmbedderSpecs). */
export function embedderNames(settings: Pick<RunSettings, 'embedders' | 'embeddingModel'>): string[] {
  return runEmbedderSpecs(settings).map(embedderName);
}

/**
 * Every config of the grid, deduplicated, in settings order.
 * @throws SpanproofError('bad-input') for a bad `embedders` entry (runEmbedderSpecs).
 */
export function planConfigs(settings: Pick<RunSettings, 'chunkers' | 'retrievers' | 'rerank'> & Partial<Pick<RunSettings, 'embedders' | 'embeddingModel'>>): BuiltinConfigPlan[] {
  const names = embedderNames({ embedders: settings.embedders ?? [], embeddingModel: settings.embeddingModel ?? '' });
  const several = names.length > 1;
  const out: BuiltinConfigPlan[] = [];
  const seen = new Set<string>();
  for (const chunker of settings.chunkers) {
    for (const kind of settings.retrievers) {
      for (const embedder of kind === 'bm25' ? [null] : names) {
        const retriever = retrieverId(kind, several ? embedder : null);
        for (const rerank of settings.rerank) {
          const id = configId(chunker, retriever, rerank);
          if (seen.has(id)) continue;
          seen.add(id);
          out.push({ id, chunker, retriever, kind, embedder, rerank });
        }
      }
    }
  }
  return out;
}

/** The τ values of the hit@k sweep (SPEC §1, §7.4). */
export const TAU_SWEEP = [0.3, 0.5, 0.7, 0.9, 1.0] as const;
/** The cut-offs at which hit@k is reported besides the run's k (SPEC §7.1). */
export const HIT_KS = [1, 3, 5, 10] as const;
