/**
 * An embedder served by an OpenAI-compatible endpoint: `POST {base}/embeddings`
 * `{model, input: string[], encoding_format: "float"}` → `{data: [{index, embedding: number[]}], usage?}`
 * (OpenAI, Azure OpenAI, Ollama, LM Studio, vLLM, TEI). It is a {@link TextEmbedder} like a local model,
 * so it plugs into the grid unchanged.
 *
 * Texts are de-duplicated, looked up in the disk cache (./cache), and only the missing ones are sent,
 * `batchSize` texts per request, requests in parallel up to the endpoint's concurrency limit; each
 * batch is cached as soon as it arrives. Blank texts are not sent: they get the all-zero row of the
 * TextEmbedder contract. A reply with the wrong count, a vector of another length, a non-finite number
 * or an all-zero vector for a non-blank text is an error naming the endpoint and the fix — never a
 * silent zero vector.
 */
import { createHash } from 'node:crypto';
import { SpanproofError } from '../../errors';
import type { EmbedProgress, TextEmbedder } from '../types';
import { EndpointCache, sha256Bytes } from './cache';
import type { ModelEndpoint } from './connection';
import { MalformedReply, requestWithRetries } from './request';

export interface EndpointEmbedderOptions {
  connection: ModelEndpoint;
  /** The model name the endpoint knows (`text-embedding-3-small`, `nomic-embed-text`, …). */
  model: string;
  /** Cache folder (the run's cache dir); the file is `<cacheDir>/endpoint-models/embeddings-<hash>.f32`. */
  cacheDir: string;
  /** Texts per request (default 32). */
  batchSize?: number;
  /**
   * Token count of a text for context costs. The endpoint's tokenizer is not known here, so the caller
   * supplies one (the grid passes its reference tokenizer).
   */
  countTokens: (text: string) => number;
  /** Cancels requests in flight and waits (SpanproofError('cancelled')). */
  signal?: AbortSignal;
  /**
   * Weights of the served model, when known (SPEC §9 compute cost); default 0 = not counted: the
   * endpoint does not say how large its model is.
   */
  parameters?: number;
}

/** Text sent once to learn the vector length when the cache does not know it yet. */
export const DIMENSION_PROBE = 'dimension probe';

/** `endpoint:<model>@<first 16 hex of SHA-256 of endpoint ‖ model>`: stable per endpoint and model. */
export function endpointModelId(endpoint: string, model: string): string {
  return `endpoint:${model}@${createHash('sha256').update(`${endpoint}\n${model}`).digest('hex').slice(0, 16)}`;
}

const ROUTE = 'POST /embeddings';

/**
 * Opens the endpoint embedder. Sends one request (the {@link DIMENSION_PROBE}) only when the cache
 * does not yet know the vector length; an identical later run sends none.
 * @throws SpanproofError('bad-input') for an empty model name; SpanproofError('model') when the probe fails.
 */
export async function loadEndpointEmbedder(o: EndpointEmbedderOptions): Promise<TextEmbedder> {
  if (!o.model.trim()) throw new SpanproofError('bad-input', 'endpoint embedder without a model name.', { field: '--embedders', fix: 'name the model the endpoint serves, e.g. --embedders endpoint:text-embedding-3-small.' });
  const cache = new EndpointCache(o.cacheDir, o.connection.endpoint, o.model, 'embeddings');
  const emb = new EndpointEmbedder(o, cache);
  if (cache.dim === null) await emb.embed([DIMENSION_PROBE]);
  return emb;
}

class EndpointEmbedder implements TextEmbedder {
  readonly id: string;
  readonly parameters: number;
  private readonly batchSize: number;

  constructor(private readonly o: EndpointEmbedderOptions, private readonly cache: EndpointCache) {
    this.id = endpointModelId(o.connection.endpoint, o.model);
    this.parameters = o.parameters ?? 0;
    this.batchSize = Math.max(1, Math.floor(o.batchSize ?? 32));
  }

  takeCacheNotice(): string | null {
    return this.cache.takeNotice();
  }

  get dim(): number {
    const d = this.cache.dim;
    if (d === null) throw new SpanproofError('invariant', `endpoint embedder ${this.id}: vector length read before the first reply.`);
    return d;
  }

  countTokens(text: string): number {
    return this.o.countTokens(text);
  }

  async dispose(): Promise<void> {}

  async embed(texts: readonly string[], onProgress?: EmbedProgress): Promise<Float32Array> {
    const { batches, keys } = this.cache.missing(texts, sha256Bytes, this.batchSize, () => this.o.connection.ledger.cached(this.o.model), true);
    let fetched = 0;
    const total = batches.reduce((n, b) => n + b.length, 0);
    await Promise.all(batches.map(async (b) => {
      await this.fetchBatch(b, keys);
      fetched += b.length;
      await onProgress?.(fetched, total);
    }));
    if (texts.length === 0) return new Float32Array(0);
    const dim = this.dim;
    const out = new Float32Array(texts.length * dim);
    texts.forEach((t, i) => {
      if (t.trim() === '') return; // blank: the all-zero row of the contract
      const v = this.cache.get(sha256Bytes(t));
      if (!v) throw new SpanproofError('invariant', `endpoint embedder ${this.id}: no vector for text ${i} after its batch.`);
      out.set(v, i * dim);
    });
    return out;
  }

  private async fetchBatch(batch: string[], keys: Map<string, Buffer>): Promise<void> {
    const { connection, model, signal } = this.o;
    const vectors = await requestWithRetries(connection.context(ROUTE, model, signal), async (sig) => {
      const res = await connection.api.embeddings.create({ model, input: batch, encoding_format: 'float' }, { signal: sig });
      return { value: this.check(res as unknown, batch.length), promptTokens: (res as { usage?: { prompt_tokens?: number } }).usage?.prompt_tokens ?? 0 };
    });
    this.cache.append(batch.map((t, i) => [keys.get(t)!, vectors[i]] as const));
  }

  /** The reply's vectors in input order, L2-normalised; MalformedReply when the shape is wrong. */
  private check(res: unknown, n: number): Float32Array[] {
    const data = (res as { data?: unknown } | null)?.data;
    if (!Array.isArray(data)) throw new MalformedReply('no "data" array in the reply.');
    if (data.length !== n) throw new MalformedReply(`${data.length} embeddings for ${n} input texts.`);
    const out: Array<Float32Array | undefined> = new Array(n);
    const want = this.cache.dim;
    data.forEach((d: { index?: unknown; embedding?: unknown }, j) => {
      const i = d?.index === undefined ? j : d.index;
      if (typeof i !== 'number' || !Number.isInteger(i) || i < 0 || i >= n || out[i]) throw new MalformedReply(`data[${j}].index is ${JSON.stringify(d?.index)} (expected each of 0…${n - 1} once).`);
      const e = d?.embedding;
      if (!Array.isArray(e) || e.length === 0) throw new MalformedReply(`data[${j}].embedding is not an array of numbers${typeof e === 'string' ? ' (base64? the request asks for encoding_format "float")' : ''}.`);
      const len = want ?? out.find(Boolean)?.length ?? e.length;
      if (e.length !== len) throw new MalformedReply(`data[${j}].embedding has ${e.length} numbers, expected ${len}.`);
      let norm = 0;
      for (const x of e) {
        if (typeof x !== 'number' || !Number.isFinite(x)) throw new MalformedReply(`data[${j}].embedding holds ${JSON.stringify(x)}, not a finite number.`);
        norm += x * x;
      }
      if (norm === 0) throw new MalformedReply(`data[${j}].embedding is all zeros for a non-empty text.`);
      const s = 1 / Math.sqrt(norm);
      out[i] = Float32Array.from(e as number[], (x) => x * s);
    });
    return out as Float32Array[];
  }
}
