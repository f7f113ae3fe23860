/**
 * A reranker served by an endpoint in the common rerank shape (Cohere, Jina, vLLM, Infinity, OpenVINO
 * Model Server): `POST {base}/rerank` `{model, query, documents: string[], top_n}` →
 * `{results: [{index, relevance_score}]}`. Hugging Face TEI's own shape (`{query, texts}` →
 * `[{index, score}]`) is used instead once the server rejects `documents` by asking for `texts`.
 * It is a {@link PairScorer} like a local cross-encoder, so it plugs into the grid unchanged.
 *
 * Pair scores are cached on disk by (endpoint, model, SHA-256 of query, SHA-256 of passage); only the
 * passages missing from the cache are sent, `batchSize` per request (`top_n` = the batch size, so
 * every passage gets a score). A reply that misses a passage, repeats one or holds a non-finite score
 * is an error naming the endpoint and the fix.
 */
import { isOpenAIError } from '../../net/sdk';
import { SpanproofError, isSpanproofError } from '../../errors';
import type { PairScorer } from '../types';
import { EndpointCache, sha256Bytes } from './cache';
import type { ModelEndpoint } from './connection';
import { endpointModelId } from './embedder';
import { MalformedReply, requestWithRetries } from './request';

export interface EndpointRerankerOptions {
  connection: ModelEndpoint;
  /** The model name the endpoint knows (`rerank-v3.5`, `jina-reranker-v2-base-multilingual`, `BAAI/bge-reranker-base`, …). */
  model: string;
  /** Cache folder; the file is `<cacheDir>/endpoint-models/rerank-<hash>.f32`. */
  cacheDir: string;
  /** Passages per request (default 64). */
  batchSize?: number;
  signal?: AbortSignal;
  /**
   * Weights of the served model, when known (SPEC §9 compute cost); default 0 = not counted: the
   * endpoint does not say how large its model is.
   */
  parameters?: number;
}

const ROUTE = 'POST /rerank';

/** Opens the endpoint reranker (sends nothing). Throws SpanproofError('bad-input') for an empty model name. */
export function loadEndpointReranker(o: EndpointRerankerOptions): PairScorer {
  if (!o.model.trim()) throw new SpanproofError('bad-input', 'endpoint reranker without a model name.', { field: '--reranker', fix: 'name the model the endpoint serves, e.g. --reranker endpoint:rerank-v3.5.' });
  return new EndpointReranker(o, new EndpointCache(o.cacheDir, o.connection.endpoint, o.model, 'rerank'));
}

/** True when a 400/422 reply asks for TEI's `texts` field. */
function wantsTexts(e: unknown): boolean {
  const cause = isSpanproofError(e) ? (e as { cause?: unknown }).cause : undefined;
  return isOpenAIError(cause, 'APIError') && (cause.status === 400 || cause.status === 422) && /\btexts\b/.test(String(cause.message));
}

class EndpointReranker implements PairScorer {
  readonly id: string;
  readonly parameters: number;
  readonly baseline = false;
  private readonly batchSize: number;
  private shape: 'documents' | 'texts' = 'documents';

  constructor(private readonly o: EndpointRerankerOptions, private readonly cache: EndpointCache) {
    this.id = endpointModelId(o.connection.endpoint, o.model);
    this.parameters = o.parameters ?? 0;
    this.batchSize = Math.max(1, Math.floor(o.batchSize ?? 64));
  }

  takeCacheNotice(): string | null {
    return this.cache.takeNotice();
  }

  async dispose(): Promise<void> {}

  async score(query: string, passages: readonly string[]): Promise<Float32Array> {
    const q = sha256Bytes(query);
    const keyOf = (p: string) => sha256Bytes(Buffer.concat([q, sha256Bytes(p)]));
    const { batches, keys } = this.cache.missing(passages, keyOf, this.batchSize, () => this.o.connection.ledger.cached(this.o.model));
    await Promise.all(batches.map((b) => this.fetchBatch(query, b, keys)));
    return Float32Array.from(passages, (p) => this.cache.get(keyOf(p))![0]);
  }

  private async fetchBatch(query: string, batch: string[], keys: Map<string, Buffer>): Promise<void> {
    const used = this.shape;
    let scores: number[];
    try {
      scores = await this.request(query, batch, used);
    } catch (e) {
      if (used !== 'documents' || !wantsTexts(e)) throw e;
      this.shape = 'texts';
      scores = await this.request(query, batch, 'texts');
    }
    this.cache.append(batch.map((p, i) => [keys.get(p)!, Float32Array.of(scores[i])] as const));
  }

  private request(query: string, batch: string[], shape: 'documents' | 'texts'): Promise<number[]> {
    const { connection, model, signal } = this.o;
    const body = shape === 'documents' ? { model, query, documents: batch, top_n: batch.length } : { query, texts: batch, raw_scores: false };
    return requestWithRetries(connection.context(ROUTE, model, signal), async (sig) => {
      const res = await connection.api.post<unknown>('/rerank', { body, signal: sig });
      return { value: checkRerank(res, batch.length), promptTokens: usageTokens(res) };
    });
  }
}

function usageTokens(res: unknown): number {
  const r = res as { usage?: { prompt_tokens?: unknown; total_tokens?: unknown } } | null;
  const t = r?.usage?.prompt_tokens ?? r?.usage?.total_tokens;
  return typeof t === 'number' && Number.isFinite(t) ? t : 0;
}

/**
 * One score per passage in input order from `{results: [{index, relevance_score}]}` (or TEI's
 * `[{index, score}]`). Throws MalformedReply when an index is missing, repeated or out of range, or a
 * score is not a finite number.
 */
export function checkRerank(res: unknown, n: number): number[] {
  const list = Array.isArray(res) ? res : (res as { results?: unknown } | null)?.results;
  if (!Array.isArray(list)) throw new MalformedReply('no "results" array in the reply.');
  const out: Array<number | undefined> = new Array(n);
  list.forEach((r: { index?: unknown; relevance_score?: unknown; score?: unknown }, j) => {
    const i = r?.index;
    if (typeof i !== 'number' || !Number.isInteger(i) || i < 0 || i >= n || out[i] !== undefined) throw new MalformedReply(`results[${j}].index is ${JSON.stringify(i)} (expected each of 0…${n - 1} once).`);
    const s = r.relevance_score ?? r.score;
    if (typeof s !== 'number' || !Number.isFinite(s)) throw new MalformedReply(`results[${j}].relevance_score is ${JSON.stringify(s)}, not a finite number.`);
    out[i] = s;
  });
  const lost = out.findIndex((s) => s === undefined);
  if (lost >= 0 || list.length !== n) throw new MalformedReply(`${list.length} results for ${n} documents (document ${lost} has no score; the request asks for top_n = ${n}).`);
  return out as number[];
}
