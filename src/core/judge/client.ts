/**
 * The endpoint client (SPEC §14): any OpenAI-compatible chat-completions API through the `openai`
 * npm package with a base URL — OpenAI (`https://api.openai.com/v1`), Ollama
 * (`http://localhost:11434/v1`), LM Studio (`http://localhost:1234/v1`), vLLM (`http://host:8000/v1`),
 * Azure OpenAI (`https://<resource>.openai.azure.com/openai/v1` with the `api-key` header, or the
 * resource root `https://<resource>.openai.azure.com` through `AzureOpenAI`, deployment = model name,
 * API version from `SPANPROOF_AZURE_API_VERSION`, default 2024-10-21).
 *
 * The library's own retries are off (maxRetries 0) so that every HTTP request is counted in the
 * ledger: this wrapper retries 408/409/429/5xx, timeouts and connection errors up to `retries` times,
 * waiting what the server asks (`retry-after-ms`, then `Retry-After` seconds or HTTP date, capped at
 * `maxRetryAfterMs`) or else an exponential backoff 500 ms · 2^attempt (capped at 20 s). 401/403/404
 * are fatal (bad key, no such model): the client then refuses every later call without sending it,
 * requests already in flight finish, and the loop stops. Replies are cached on disk (./cache).
 */
import { OpenAI, AzureOpenAI, APIError, APIConnectionTimeoutError, APIUserAbortError } from 'openai';
import { SpanproofError } from '../errors';
import { VERSION } from '../version';
import { cacheKey, sha256, type CachedReply, type ReplyCache } from './cache';
import { Ledger } from './ledger';
import { RequestLimiter, cancelled, sleep } from './limiter';
import type { ChatMessage, PriceTable } from './types';

export interface ChatClientOptions {
  /** Base URL of the OpenAI-compatible API (settings `judge.endpoint`). */
  endpoint: string;
  /** API key (SecretStorage in the extension, `SPANPROOF_API_KEY` in the CLI); never from settings files. Local servers need none. */
  apiKey?: string;
  /** Requests in flight at most (default 4). */
  concurrency?: number;
  /** Request starts per minute at most; 0 = unlimited. */
  requestsPerMinute?: number;
  /** Per-request timeout, ms (default 60 000). */
  timeoutMs?: number;
  /** Retries after the first attempt (default 3). */
  retries?: number;
  /** Longest Retry-After honoured, ms (default 120 000); a longer one fails the request. */
  maxRetryAfterMs?: number;
  /** Disk cache; none = every call is a request. */
  cache?: ReplyCache;
  prices?: PriceTable;
  /** Waits before retries (default: a real, cancellable timer). Tests pass a recorder. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  /** `<prompt id>@<version>#<hash>` of the prompt that built the messages (part of the cache key). */
  promptVersion: string;
  temperature?: number;
  maxTokens?: number;
  /** Skip the cache read and write (judge repeats). */
  bypassCache?: boolean;
}

export interface ChatReply extends CachedReply {
  cached: boolean;
}

/** Why a request produced no reply. `fatal` stops the whole loop (bad key, unknown model). */
export type RequestFailureKind = 'timeout' | 'http' | 'connection' | 'rate-limited' | 'fatal';

export class RequestFailure extends Error {
  constructor(readonly kind: RequestFailureKind, message: string, readonly status?: number) {
    super(message);
    this.name = 'RequestFailure';
  }
}

/** A 200 reply with no `choices[0]` (not cached; retried like a server error). */
class EmptyReply extends Error {}

/** Delay a response asks for: `retry-after-ms`, else `Retry-After` (seconds or HTTP date); null when absent. */
export function retryAfterMs(headers: Headers | undefined, now = Date.now()): number | null {
  const ms = headers?.get('retry-after-ms');
  if (ms && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const ra = headers?.get('retry-after');
  if (!ra) return null;
  if (/^\s*\d+(\.\d+)?\s*$/.test(ra)) return Math.max(0, Number(ra) * 1000);
  const t = Date.parse(ra);
  return Number.isFinite(t) ? Math.max(0, t - now) : null;
}

/**
 * The `openai` client for `endpoint` (library retries off, SDK platform headers not sent, explicit
 * User-Agent; Azure hosts get the `api-key` header or `AzureOpenAI`). Also used by the model endpoints
 * (src/core/models/endpoint). Throws SpanproofError('bad-input') naming `field` when `endpoint` is not a URL.
 */
export function makeOpenAI(endpoint: string, apiKey: string | undefined, timeoutMs: number, field = 'judge.endpoint'): OpenAI {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new SpanproofError('bad-input', `endpoint "${endpoint}" is not a URL.`, { field, fix: 'use a base URL such as http://localhost:11434/v1 (Ollama) or https://api.openai.com/v1.' });
  }
  const key = apiKey || 'no-key';
  // The SDK's platform headers (OS, CPU architecture, Node version) are not needed by any endpoint: not sent.
  const quiet: Record<string, null> = Object.fromEntries(['x-stainless-os', 'x-stainless-arch', 'x-stainless-runtime', 'x-stainless-runtime-version', 'x-stainless-lang', 'x-stainless-package-version', 'x-stainless-retry-count'].map((h) => [h, null]));
  // An explicit User-Agent: the SDK's default names its (minified, renamed) class and version.
  const headers = { ...quiet, 'User-Agent': `spanproof/${VERSION}` };
  const azure = /\.(openai\.azure\.com|cognitiveservices\.azure\.com|services\.ai\.azure\.com)$/i.test(url.hostname);
  if (azure && !/\/openai\/v1\/?$/.test(url.pathname)) {
    return new AzureOpenAI({ endpoint: url.origin, apiKey: key, apiVersion: process.env.SPANPROOF_AZURE_API_VERSION || '2024-10-21', maxRetries: 0, timeout: timeoutMs, defaultHeaders: headers });
  }
  return new OpenAI({ baseURL: endpoint, apiKey: key, maxRetries: 0, timeout: timeoutMs, defaultHeaders: { ...headers, ...(azure ? { 'api-key': key } : {}) } });
}

/** An OpenAI-compatible chat client with limits, retries, cache and ledger. */
export class ChatClient {
  readonly endpoint: string;
  readonly ledger: Ledger;
  readonly limiter: RequestLimiter;
  private readonly api: OpenAI;
  /** Set by the first fatal reply (401/403/404): later calls fail at once without a request. */
  private halted: RequestFailure | null = null;
  /** True once any request got an HTTP reply: until then a connection failure means the endpoint cannot be reached (fatal). */
  private reached = false;
  /** Single flight: requests in flight by cache key, so identical concurrent requests share one HTTP call. */
  private readonly pending = new Map<string, Promise<CachedReply>>();
  /** Per-model request adaptations learnt from 400 replies (see chat). */
  private readonly quirks = new Map<string, { maxCompletionTokens?: boolean; noTemperature?: boolean }>();
  private readonly o: Required<Omit<ChatClientOptions, 'apiKey' | 'cache' | 'prices'>> & Pick<ChatClientOptions, 'cache'>;

  constructor(opts: ChatClientOptions) {
    if (!opts.endpoint) throw new SpanproofError('bad-input', 'no endpoint configured.', { field: 'judge.endpoint', fix: 'set --endpoint URL (or spanproof.judge.endpoint).' });
    this.endpoint = opts.endpoint;
    const timeoutMs = opts.timeoutMs ?? 60000;
    this.o = {
      endpoint: opts.endpoint,
      concurrency: opts.concurrency ?? 4,
      requestsPerMinute: opts.requestsPerMinute ?? 0,
      timeoutMs,
      retries: Math.max(0, opts.retries ?? 3),
      maxRetryAfterMs: opts.maxRetryAfterMs ?? 120000,
      sleep: opts.sleep ?? sleep,
      cache: opts.cache,
    };
    this.api = makeOpenAI(opts.endpoint, opts.apiKey, timeoutMs);
    this.ledger = new Ledger(opts.endpoint, opts.prices);
    this.limiter = new RequestLimiter(this.o.concurrency, this.o.requestsPerMinute);
  }

  /**
   * One chat completion: from the cache when present (no request), else through the limiter with
   * retries. Throws RequestFailure when no reply came after the retries, SpanproofError('cancelled')
   * when `signal` aborted, RequestFailure('fatal') on 401/403/404 and when connection attempts fail
   * before any request has ever reached the endpoint. Identical requests in flight at once (same cache
   * key, cache not bypassed) share one HTTP call; the sharers count as cached responses in the ledger.
   */
  async chat(req: ChatRequest, signal?: AbortSignal): Promise<ChatReply> {
    if (signal?.aborted) throw cancelled();
    if (this.halted) throw this.halted;
    const body = { messages: req.messages, temperature: req.temperature ?? 0, max_tokens: req.maxTokens };
    const key = cacheKey(this.endpoint, req.model, sha256(req.promptVersion), sha256(JSON.stringify(body)));
    if (this.o.cache && !req.bypassCache) {
      const hit = this.o.cache.get(key);
      if (hit) {
        this.ledger.cached(req.model);
        return { ...hit, cached: true };
      }
    }
    if (!req.bypassCache) {
      const shared = this.pending.get(key);
      if (shared) {
        const reply = await shared;
        this.ledger.cached(req.model); // no request of its own: counted like a cache hit
        return { ...reply, cached: true };
      }
      const p = this.send(req, key, body, signal);
      this.pending.set(key, p);
      try {
        return { ...(await p), cached: false };
      } finally {
        this.pending.delete(key);
      }
    }
    return { ...(await this.send(req, key, body, signal)), cached: false };
  }

  private async send(req: ChatRequest, key: string, body: { temperature: number }, signal?: AbortSignal): Promise<CachedReply> {
    const release = await this.limiter.acquire(signal);
    try {
      for (let attempt = 0; ; attempt++) {
        if (signal?.aborted) throw cancelled();
        if (this.halted) throw this.halted;
        this.ledger.requestSent(req.model, attempt > 0);
        const t0 = performance.now();
        let failure: RequestFailure;
        let wait: number | null = null;
        try {
          const quirks = this.quirks.get(req.model) ?? {};
          const res = await this.api.chat.completions.create(
            {
              model: req.model,
              messages: req.messages,
              ...(quirks.noTemperature ? {} : { temperature: body.temperature }),
              ...(req.maxTokens ? (quirks.maxCompletionTokens ? { max_completion_tokens: req.maxTokens } : { max_tokens: req.maxTokens }) : {}),
            },
            { signal },
          );
          this.reached = true;
          const choice = res.choices?.[0];
          if (!choice) throw new EmptyReply();
          const reply: CachedReply = {
            content: choice?.message?.content ?? '',
            finishReason: choice?.finish_reason ?? null,
            refusal: (choice?.message as { refusal?: string | null } | undefined)?.refusal ?? null,
            promptTokens: res.usage?.prompt_tokens ?? 0,
            completionTokens: res.usage?.completion_tokens ?? 0,
          };
          this.ledger.requestDone(req.model, performance.now() - t0, reply.promptTokens, reply.completionTokens);
          if (this.o.cache && !req.bypassCache) this.o.cache.put(key, reply);
          return reply;
        } catch (e) {
          this.ledger.requestFailed(req.model, performance.now() - t0);
          if (e instanceof APIUserAbortError || signal?.aborted) throw cancelled();
          if (e instanceof APIConnectionTimeoutError) failure = new RequestFailure('timeout', `no reply within ${this.o.timeoutMs} ms`);
          else if (e instanceof APIError && e.status !== undefined) {
            this.reached = true;
            const s = e.status;
            if (s === 401 || s === 403) throw (this.halted ??= new RequestFailure('fatal', `the endpoint refused the request (HTTP ${s}): check the API key (SPANPROOF_API_KEY or the key stored in VS Code).`, s));
            if (s === 404) throw (this.halted ??= new RequestFailure('fatal', `the endpoint has no model "${req.model}" or no chat-completions route (HTTP 404): check the model name and that the base URL ends in /v1.`, s));
            // OpenAI reasoning models reject `max_tokens` (want `max_completion_tokens`) and a temperature
            // other than the default: adapt once per model and ask again (the rejected request is in the ledger).
            if (s === 400) {
              const q = this.quirks.get(req.model) ?? {};
              const msg = String(e.message);
              if (!q.maxCompletionTokens && /max_tokens/.test(msg) && /max_completion_tokens/.test(msg)) {
                this.quirks.set(req.model, { ...q, maxCompletionTokens: true });
                attempt--;
                continue;
              }
              if (!q.noTemperature && /temperature/i.test(msg) && /(unsupported|not support|only the default)/i.test(msg)) {
                this.quirks.set(req.model, { ...q, noTemperature: true });
                attempt--;
                continue;
              }
            }
            failure = new RequestFailure(s === 429 ? 'rate-limited' : 'http', `HTTP ${s}: ${String(e.message).slice(0, 200)}`, s);
            if (!(s === 408 || s === 409 || s === 429 || s >= 500)) throw failure;
            wait = retryAfterMs(e.headers as Headers | undefined);
          } else if (e instanceof EmptyReply) failure = new RequestFailure('http', 'the endpoint replied without a choice');
          else if (e instanceof SyntaxError) failure = new RequestFailure('http', `the endpoint's reply is not valid JSON (${e.message})`);
          else {
            type Cause = { code?: string; message?: string; cause?: Cause };
            const cause = (e as { cause?: Cause }).cause;
            const why = cause?.cause?.code ?? cause?.code ?? cause?.cause?.message ?? cause?.message ?? (e as Error).message;
            failure = new RequestFailure('connection', `connection to ${this.endpoint} failed: ${why}`);
          }
        }
        if (attempt >= this.o.retries) {
          // No request has ever reached the endpoint: it cannot be reached (closed port, DNS, TLS); stop like a 401/404.
          if (failure.kind === 'connection' && !this.reached) {
            throw (this.halted ??= new RequestFailure('fatal', `cannot reach the endpoint ${this.endpoint} (${failure.message.replace(/^connection to \S+ failed: /, '')} after ${attempt + 1} attempt(s)): check that the server is running and that --endpoint (judge.endpoint) is its base URL, e.g. http://localhost:11434/v1 for Ollama.`));
          }
          throw failure;
        }
        if (wait !== null && wait > this.o.maxRetryAfterMs) {
          throw new RequestFailure(failure.kind, `${failure.message}; the server asked to wait ${Math.round(wait / 1000)} s (more than ${this.o.maxRetryAfterMs / 1000} s)`, failure.status);
        }
        const delay = wait ?? Math.min(20000, 500 * 2 ** attempt);
        this.ledger.waited(req.model, delay);
        await this.o.sleep(delay, signal);
      }
    } finally {
      release();
    }
  }
}
