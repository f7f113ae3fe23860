/**
 * Stage "load models" — the ONE place the models of a run are loaded, for the grid run, the worker's
 * one-question re-run (through `runGrid` with the resident state) and `spanproof query`: the embedders
 * (`settings.embedders` when it lists any — several make the dense axis `dense:<name>` — else the one
 * `settings.embeddingModel`; each a built-in name, a catalogue name, `endpoint:<model>`, a folder, or
 * `""` = the default built-in, resolved by the embedder registry in src/core/models) and, when a config
 * reranks, the reranker (`settings.rerankerModel`: `""`/`baseline` = the MaxSim baseline, a catalogue
 * cross-encoder, `endpoint:<model>` or a folder). Relative model folders are resolved against the
 * workspace (the corpus root), the same for every caller.
 *
 * Endpoint models (SPEC §5.3) share the ONE {@link ModelEndpoint} of the run (`modelEndpoint.url`),
 * whose concurrency limit, retries and ledger cover them all; its API key comes in the caller's
 * `apiKey` (SPANPROOF_API_KEY / the VS Code key store), never from the settings. An endpoint model's
 * tokenizer is not known locally: its context tokens are counted with static-glove's tokenizer.
 *
 * A resident worker keeps the loaded local models (one per spec and thread count) between requests;
 * then `release()` leaves them open. Endpoint models are never resident (no session to keep, their
 * cache is on disk, their requests belong to this run's ledger): `release()` always disposes them.
 */
import { isAbsolute, resolve } from 'node:path';
import { SpanproofError } from '../errors';
import { modelEndpointFix } from '../models/endpoint/hint';
import {
  BASELINE_RERANKER_LABEL, ModelEndpoint, describeEmbedder, describeReranker, embedderName, loadEmbedder, loadReranker, runEmbedderSpecs,
  parseRerankerSpec, staticGloveDir, type EmbedderContext, type EmbedderSpec, type ModelLedgerFile, type PairScorer, type RerankerSpec, type TextEmbedder,
} from '../models';
import { resolvePulledModel } from '../models/catalogue/store';
import { openModelFolder } from '../models/folder';
import type { RunFile } from '../runs/types';
import type { RunSettings } from '../settings';
import type { ResidentState } from './resident';

/** The model settings a load reads. */
export type ModelSettings = Pick<RunSettings, 'embedders' | 'embeddingModel' | 'rerankerModel' | 'threads' | 'modelEndpoint'>;

/** One loaded embedder of the run and its name in config ids (`dense:<name>`). */
export interface RunEmbedder {
  name: string;
  spec: EmbedderSpec;
  model: TextEmbedder;
}

/** The loaded models of a run. */
export interface RunModels {
  /** The first listed embedder (semantic chunking, context tokens); null only when the caller said it needs none (`spanproof query` with bm25 and no semantic chunker). */
  embedder: TextEmbedder | null;
  /** Every embedder of the run in listed order (empty when none is needed). */
  embedders: RunEmbedder[];
  /** null when no config reranks. */
  reranker: PairScorer | null;
  /** The run's endpoint when a model is served by one (its ledger goes to models-ledger.json). */
  endpoint: ModelEndpoint | null;
  /** What run.json records as `models` (names, descriptions and ids of the loaded models). */
  describe(): NonNullable<RunFile['models']>;
  /** The endpoint's request ledger (models-ledger.json), or null when no endpoint model ran. */
  ledger(): ModelLedgerFile | null;
  /** Disposes the sessions, unless they are kept by a resident state. Never throws. */
  release(): Promise<void>;
}

export interface LoadModelsInput {
  settings: ModelSettings;
  /** The corpus root, against which relative model folders are resolved. */
  workspace: string;
  needsEmbedder: boolean;
  needsReranker: boolean;
  /** The run's cache folder: endpoint models cache their vectors and scores under it; required for them. */
  cacheDir?: string;
  /** The API key of `modelEndpoint.url` (in memory only). */
  apiKey?: string;
  /** Cancels endpoint requests in flight. */
  signal?: AbortSignal;
  /** Keep and reuse the models here (a resident worker). */
  resident?: ResidentState;
  /** Called with the ms each actual load took (a model found in `resident` is not timed). */
  onLoad?: (ms: number) => void;
  /** The store of pulled catalogue models (default modelStoreDir()). */
  modelStore?: string;
}

/** A model folder setting as an absolute path (relative = under the workspace). */
export function modelFolder(workspace: string, folder: string): string {
  return isAbsolute(folder) ? folder : resolve(workspace, folder);
}

/** Which models a caller needs: the embedder (dense retrieval, semantic chunking) and the reranker (a config reranks). */
export interface ModelNeeds {
  embedder: boolean;
  reranker: boolean;
}

/**
 * The models a grid run of `settings` loads, and so what it may send to an endpoint model: every
 * listed embedder, always — the first keys the chunk indexes and counts context tokens even in a
 * BM25-only grid, and an endpoint embedder sends its dimension probe when it is loaded (unless its
 * cache knows the vector length); the reranker only when a config reranks. The grid run, the CLI's
 * pre-check and VS Code's endpoint authorization all read this one rule.
 */
export function gridModelNeeds(settings: Pick<RunSettings, 'rerank'>): ModelNeeds {
  return { embedder: true, reranker: settings.rerank.includes(true) };
}

/**
 * The endpoint models the settings name among those `needs` asks for (`endpoint:<model>` as embedder
 * or reranker), e.g. `['embedder endpoint:text-embedding-3-small']`; empty when nothing is sent.
 * Checks before a run starts, so the CLI can fail before the worker does:
 * @throws SpanproofError('bad-input') when there are some and `modelEndpoint.url` is empty;
 *   ('not-found') naming `spanproof models pull` for a catalogue model that is not downloaded.
 */
export function endpointModels(s: Pick<RunSettings, 'embedders' | 'embeddingModel' | 'rerankerModel' | 'modelEndpoint'>, needs: ModelNeeds, modelStore?: string): string[] {
  const embSpecs = needs.embedder ? runEmbedderSpecs(s) : [];
  const rrSpec = needs.reranker ? parseRerankerSpec(s.rerankerModel) : null;
  for (const spec of [...embSpecs, rrSpec]) if (spec?.kind === 'catalogue') resolvePulledModel(spec.name, modelStore);
  const out = [...embSpecs.flatMap((e) => (e.kind === 'endpoint' ? [`embedder endpoint:${e.model}`] : [])), ...(rrSpec?.kind === 'endpoint' ? [`reranker endpoint:${rrSpec.model}`] : [])];
  if (out.length > 0 && !s.modelEndpoint.url) {
    throw new SpanproofError('bad-input', `the ${out.join(' and the ')} ${out.length > 1 ? 'are' : 'is'} served by an endpoint, and no endpoint is set.`, {
      field: 'modelEndpoint.url', fix: modelEndpointFix('http://localhost:11434/v1 for Ollama or https://api.openai.com/v1'),
    });
  }
  return out;
}

async function timed<T>(f: () => Promise<T>, onLoad?: (ms: number) => void): Promise<T> {
  const t = performance.now();
  try {
    return await f();
  } finally {
    onLoad?.(performance.now() - t);
  }
}

/** The resident-map key of a spec (folders by absolute path) at a thread count. */
function residentKey(workspace: string, spec: EmbedderSpec | RerankerSpec, threads: number): string {
  return `${spec.kind === 'folder' ? modelFolder(workspace, spec.path) : JSON.stringify(spec)}|${threads}`;
}

/** What loading one embedder of `input` needs besides the spec (the endpoint part only for endpoint specs). */
function embedderContext(input: LoadModelsInput, endpoint: ModelEndpoint | null): EmbedderContext {
  const ctx: EmbedderContext = { threads: input.settings.threads, baseDir: input.workspace, modelStore: input.modelStore };
  if (endpoint) {
    let reference: { countTokens(t: string): number } | null = null;
    const countTokens = (t: string) => (reference ??= openModelFolder(staticGloveDir()).tokenizer).countTokens(t);
    ctx.endpoint = { connection: endpoint, cacheDir: input.cacheDir!, countTokens, batchSize: input.settings.modelEndpoint.batchSize, signal: input.signal };
  }
  return ctx;
}

/**
 * Loads (or takes from `resident`) the models a run needs.
 * @throws SpanproofError('bad-input') for a bad model entry or an endpoint model without an endpoint;
 *   ('not-found') for a catalogue model not pulled; ('model') when a configured folder is not a usable
 *   model (the loaders' errors). Whatever was loaded before the error is released.
 */
export async function loadRunModels(input: LoadModelsInput): Promise<RunModels> {
  const { settings, resident, onLoad } = input;
  const threads = settings.threads;
  const specs = input.needsEmbedder ? runEmbedderSpecs(settings) : [];
  const rrSpec = input.needsReranker ? parseRerankerSpec(settings.rerankerModel) : null;
  const sends = endpointModels(settings, { embedder: input.needsEmbedder, reranker: input.needsReranker }, input.modelStore);
  if (sends.length && !input.cacheDir) throw new SpanproofError('internal', 'endpoint models need the run\'s cache folder.');
  const endpoint = sends.length ? new ModelEndpoint({ endpoint: settings.modelEndpoint.url, apiKey: input.apiKey, field: 'modelEndpoint.url', policy: { concurrency: settings.modelEndpoint.concurrency, timeoutMs: settings.modelEndpoint.timeoutMs, retries: settings.modelEndpoint.retries } }) : null;
  const embedders: RunEmbedder[] = [];
  let reranker: PairScorer | null = null;
  const keptBy = (kind: string) => (kind === 'endpoint' ? undefined : resident);
  const release = async () => {
    for (const e of embedders) if (!keptBy(e.spec.kind)) await e.model.dispose().catch(() => undefined);
    if (!keptBy(rrSpec?.kind ?? '')) await reranker?.dispose().catch(() => undefined);
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
    for (const spec of specs) {
      const model = await keep(keptBy(spec.kind)?.embedders, residentKey(input.workspace, spec, threads), () => loadEmbedder(spec, embedderContext(input, endpoint)));
      embedders.push({ name: embedderName(spec), spec, model });
    }
    if (rrSpec) {
      const ctx = { threads, baseDir: input.workspace, cacheDir: input.cacheDir, endpoint: endpoint ?? undefined, modelStore: input.modelStore, signal: input.signal, embedders: embedders.map((e) => e.model) };
      reranker = await keep(keptBy(rrSpec.kind)?.rerankers, residentKey(input.workspace, rrSpec, threads), () => loadReranker(rrSpec, ctx));
    }
  } catch (e) {
    await release();
    throw e;
  }
  const describe = (): NonNullable<RunFile['models']> => ({
    embedders: embedders.map((e) => ({ name: e.name, description: describeEmbedder(e.spec), id: e.model.id })),
    reranker: reranker && rrSpec ? (reranker.baseline ? `built-in MaxSim reranker: ${BASELINE_RERANKER_LABEL}` : `${describeReranker(rrSpec)} (${reranker.id})`) : null,
  });
  return { embedder: embedders[0]?.model ?? null, embedders, reranker, endpoint, describe, ledger: () => endpoint?.ledgerFile() ?? null, release };
}
