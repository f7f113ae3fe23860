/**
 * The endpoint client (SPEC §14): any OpenAI-compatible chat-completions API through the `openai`
 * npm package, made by core/net `openAIClient` — so every request follows the shared network rules
 * (a deadline over the whole response, a 1 MB reply cap by default, no redirect to another origin,
 * no credentials in URLs, User-Agent `spanproof/<version>`); see core/net for the endpoints supported
 * (OpenAI, Ollama, LM Studio, vLLM, Azure OpenAI).
 *
 * The library's own retries are off so that every HTTP request is counted in the ledger: this wrapper
 * retries 408/409/429/5xx, missed deadlines and connection errors up to `retries` times by the
 * core/net retry rules (server's `retry-after-ms` / `Retry-After`, capped at `maxRetryAfterMs`, else
 * 500 ms · 2^attempt up to 20 s). 401/403/404, a refused redirect and a refused URL are fatal: the
 * client then refuses every later call without sending it, requests already in flight finish, and the
 * loop stops. A reply over the size cap fails that request (not retried: the same request would get
 * the same reply). Replies are cached on disk (./cache). The endpoint is named to the user and written
 * to the ledger with credentials redacted.
 */
import type { OpenAI } from 'openai';
import { isOpenAIError } from '../net/sdk';
import { SpanproofError } from '../errors';
import { RequestLimiter, cancelled, findNetError, isRetryableStatus, nextRetry, openAIClient, redactText, redactUrl, retryAfterMs, sleep } from '../net';
import { cacheKey, sha256, type CachedReply, type ReplyCache } from './cache';
import { Ledger } from './ledger';
import type { ChatMessage, PriceTable } from './types';

export { retryAfterMs };

export interface ChatClientOptions {
  /** Base URL of the OpenAI-compatible API (settings `judge.endpoint`). */
  endpoint: string;
  /** API key (SecretStorage in the extension, `SPANPROOF_API_KEY` in the CLI); never from settings files. Local servers need none. */
  apiKey?: string;
  /** Requests in flight at most (default 4). */
  concurrency?: number;
  /** Request starts per minute at most; 0 = unlimited. */
  requestsPerMinute?: number;
  /** Deadline per request over the whole response (headers and body), ms (default 60 000). */
  timeoutMs?: number;
  /** Largest reply body accepted, bytes (default 1 000 000); a larger reply fails that request. */
  maxResponseBytes?: number;
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
  /** Ask for a JSON object reply (`response_format: {type: "json_object"}`); dropped for a model whose endpoint rejects it (400). */
  responseFormat?: 'json_object';
}

export interface ChatReply extends CachedReply {
  cached: boolean;
}

/** Why a request produced no reply. `fatal` stops the whole loop (bad key, unknown model, refused redirect). */
export type RequestFailureKind = 'timeout' | 'http' | 'connection' | 'rate-limited' | 'fatal';

export class RequestFailure extends Error {
  /** What the user should do, when the failure is theirs to fix (shown as the `Fix:` of the error). */
  readonly fix?: string;
  constructor(readonly kind: RequestFailureKind, message: string, readonly status?: number, fix?: string) {
    super(message);
    if (fix) this.fix = fix;
    this.name = 'RequestFailure';
  }
}

/** A 200 reply with no `choices[0]` (not cached; retried like a server error). */
class EmptyReply extends Error {}

/** An OpenAI-compatible chat client with limits, retries, cache and ledger. */
export class ChatClient {
  /** The endpoint as configured (cache key); never shown — see {@link shown}. */
  readonly endpoint: string;
  /** The endpoint with credentials redacted: how messages and the ledger name it. */
  readonly shown: string;
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
  private readonly quirks = new Map<string, { maxCompletionTokens?: boolean; noTemperature?: boolean; noResponseFormat?: boolean }>();
  private readonly o: Required<Omit<ChatClientOptions, 'apiKey' | 'cache' | 'prices'>> & Pick<ChatClientOptions, 'cache'>;

  constructor(opts: ChatClientOptions) {
    if (!opts.endpoint) throw new SpanproofError('bad-input', 'no endpoint configured.', { field: 'judge.endpoint', fix: 'pass --endpoint URL (in VS Code: the setting spanproof.judge.endpoint).' });
    this.endpoint = opts.endpoint;
    this.shown = redactUrl(opts.endpoint);
    const timeoutMs = opts.timeoutMs ?? 60000;
    this.o = {
      endpoint: opts.endpoint,
      concurrency: opts.concurrency ?? 4,
      requestsPerMinute: opts.requestsPerMinute ?? 0,
      timeoutMs,
      maxResponseBytes: opts.maxResponseBytes ?? 1_000_000,
      retries: Math.max(0, opts.retries ?? 3),
      maxRetryAfterMs: opts.maxRetryAfterMs ?? 120000,
      sleep: opts.sleep ?? sleep,
      cache: opts.cache,
    };
    this.api = openAIClient({ endpoint: opts.endpoint, apiKey: opts.apiKey, policy: { timeoutMs, maxResponseBytes: this.o.maxResponseBytes } });
    this.ledger = new Ledger(this.shown, opts.prices);
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
    const body = { messages: req.messages, temperature: req.temperature ?? 0, max_tokens: req.maxTokens, ...(req.responseFormat ? { response_format: req.responseFormat } : {}) };
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
        let failed: { failure: RequestFailure; wait: number | null };
        try {
          const reply = await this.once(req, body, signal);
          this.ledger.requestDone(req.model, performance.now() - t0, reply.promptTokens, reply.completionTokens);
          if (this.o.cache && !req.bypassCache) this.o.cache.put(key, reply);
          return reply;
        } catch (e) {
          this.ledger.requestFailed(req.model, performance.now() - t0);
          if (isOpenAIError(e, 'APIUserAbortError') || signal?.aborted) throw cancelled();
          const c = this.classify(e, req);
          if (c === 'adapted') {
            attempt--; // the rejected request is in the ledger; ask again adapted, not counted as a retry
            continue;
          }
          failed = c;
        }
        const { failure, wait } = failed;
        const next = nextRetry(attempt, wait, { retries: this.o.retries, maxRetryAfterMs: this.o.maxRetryAfterMs });
        if ('giveUp' in next) {
          // No request has ever reached the endpoint: it cannot be reached (closed port, DNS, TLS); stop like a 401/404.
          if (next.giveUp === 'retries' && failure.kind === 'connection' && !this.reached) {
            throw (this.halted ??= new RequestFailure('fatal', `cannot reach the endpoint ${this.shown} (${failure.message.replace(/^connection to \S+ failed: /, '')} after ${attempt + 1} attempt(s)).`, undefined, 'check that the server is running and that --endpoint (judge.endpoint) is its base URL, e.g. http://localhost:11434/v1 for Ollama.'));
          }
          if (next.giveUp === 'too-long') throw new RequestFailure(failure.kind, `${failure.message}; the server asked to wait ${Math.round(next.askedMs! / 1000)} s (more than ${this.o.maxRetryAfterMs / 1000} s)`, failure.status);
          throw failure;
        }
        this.ledger.waited(req.model, next.wait);
        await this.o.sleep(next.wait, signal);
      }
    } finally {
      release();
    }
  }

  /** One HTTP request; the reply, or the SDK's / core/net's error. */
  private async once(req: ChatRequest, body: { temperature: number }, signal?: AbortSignal): Promise<CachedReply> {
    const quirks = this.quirks.get(req.model) ?? {};
    const res = await this.api.chat.completions.create(
      {
        model: req.model,
        messages: req.messages,
        ...(quirks.noTemperature ? {} : { temperature: body.temperature }),
        ...(req.maxTokens ? (quirks.maxCompletionTokens ? { max_completion_tokens: req.maxTokens } : { max_tokens: req.maxTokens }) : {}),
        ...(req.responseFormat && !quirks.noResponseFormat ? { response_format: { type: req.responseFormat } } : {}),
      },
      { signal },
    );
    this.reached = true;
    const choice = res.choices?.[0];
    if (!choice) throw new EmptyReply();
    return {
      content: choice?.message?.content ?? '',
      finishReason: choice?.finish_reason ?? null,
      refusal: (choice?.message as { refusal?: string | null } | undefined)?.refusal ?? null,
      promptTokens: res.usage?.prompt_tokens ?? 0,
      completionTokens: res.usage?.completion_tokens ?? 0,
    };
  }

  /**
   * What a failed request means: a retryable failure with the server's requested wait, `adapted` (a
   * 400 taught a model quirk: ask again), or a thrown fatal / non-retryable RequestFailure.
   */
  private classify(e: unknown, req: ChatRequest): { failure: RequestFailure; wait: number | null } | 'adapted' {
    const model = req.model;
    const net = findNetError(e);
    if (net?.kind === 'deadline') return { failure: new RequestFailure('timeout', `no reply within ${this.o.timeoutMs} ms`), wait: null };
    if (net?.kind === 'too-large') {
      this.reached = true;
      throw new RequestFailure('http', net.message);
    }
    if (net) throw (this.halted ??= new RequestFailure('fatal', net.message, undefined, 'make --endpoint (judge.endpoint) the API\'s own base URL, e.g. the URL it redirects to if you trust that server.'));
    if (isOpenAIError(e, 'APIConnectionTimeoutError')) return { failure: new RequestFailure('timeout', `no reply within ${this.o.timeoutMs} ms`), wait: null };
    if (isOpenAIError(e, 'APIError') && e.status !== undefined) {
      this.reached = true;
      const s = e.status;
      if (s === 401 || s === 403) throw (this.halted ??= new RequestFailure('fatal', `the endpoint refused the request (HTTP ${s}): check the API key (SPANPROOF_API_KEY or the key stored in VS Code).`, s));
      if (s === 404) throw (this.halted ??= new RequestFailure('fatal', `the endpoint has no model "${model}" or no chat-completions route (HTTP 404): check the model name and that the base URL ends in /v1.`, s));
      // OpenAI reasoning models reject `max_tokens` (want `max_completion_tokens`) and a temperature
      // other than the default: adapt once per model and ask again.
      if (s === 400) {
        const q = this.quirks.get(model) ?? {};
        const msg = String(e.message);
        if (!q.maxCompletionTokens && /max_tokens/.test(msg) && /max_completion_tokens/.test(msg)) {
          this.quirks.set(model, { ...q, maxCompletionTokens: true });
          return 'adapted';
        }
        if (req.responseFormat && !q.noResponseFormat && /response_format|json_object|json mode/i.test(msg)) {
          this.quirks.set(model, { ...q, noResponseFormat: true });
          return 'adapted';
        }
        if (!q.noTemperature && /temperature/i.test(msg) && /(unsupported|not support|only the default)/i.test(msg)) {
          this.quirks.set(model, { ...q, noTemperature: true });
          return 'adapted';
        }
      }
      const failure = new RequestFailure(s === 429 ? 'rate-limited' : 'http', `HTTP ${s}: ${redactText(String(e.message).slice(0, 200))}`, s);
      if (!isRetryableStatus(s)) throw failure;
      return { failure, wait: retryAfterMs(e.headers as Headers | undefined) };
    }
    if (e instanceof EmptyReply) return { failure: new RequestFailure('http', 'the endpoint replied without a choice'), wait: null };
    if (e instanceof SyntaxError) return { failure: new RequestFailure('http', `the endpoint's reply is not valid JSON (${e.message})`), wait: null };
    type Cause = { code?: string; message?: string; cause?: Cause };
    const cause = (e as { cause?: Cause }).cause;
    const why = cause?.cause?.code ?? cause?.code ?? cause?.cause?.message ?? cause?.message ?? (e as Error).message;
    return { failure: new RequestFailure('connection', `connection to ${this.shown} failed: ${redactText(String(why))}`), wait: null };
  }
}
