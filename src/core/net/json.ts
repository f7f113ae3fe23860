/**
 * Plain JSON requests under the network rules (endpoint rerankers, external retrievers, MLflow, any
 * API that is not OpenAI-shaped): {@link HttpClient} sends each request through {@link createFetch}
 * (deadline over the whole response, size cap, same-origin redirects, User-Agent), at most
 * `concurrency` in flight and `requestsPerMinute` starts ({@link RequestLimiter}), retried on 408, 409,
 * 429, 5xx, a missed deadline or a too-large reply as ./retry says (Retry-After honoured).
 */
import { SpanproofError } from '../errors';
import { NetError, findNetError } from './errors';
import { createFetch, type NetPolicy } from './fetch';
import { RequestLimiter, cancelled, sleep as realSleep } from './limiter';
import { redactText, redactUrl } from './redact';
import { isRetryableStatus, nextRetry, retryAfterMs } from './retry';

export interface HttpClientOptions extends NetPolicy {
  /** Headers sent with every request (e.g. `Authorization`). Their values are redacted from errors. */
  headers?: Record<string, string>;
  /** Requests in flight at most (default 4). */
  concurrency?: number;
  /** Request starts per minute at most; 0 = unlimited (default). */
  requestsPerMinute?: number;
  /** Retries after the first attempt (default 3). */
  retries?: number;
  /** Longest Retry-After honoured, ms (default 120 000). */
  maxRetryAfterMs?: number;
  /** Waits before retries (tests pass a recorder). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Called after each attempt (ledgers): `retry` is true for attempts after the first. */
  onAttempt?: (info: { url: string; status: number | null; ms: number; retry: boolean; error?: string }) => void;
}

export interface JsonReply<T> {
  status: number;
  headers: Headers;
  json: T;
}

/** A JSON HTTP client with the shared network rules, retries and limits. */
export class HttpClient {
  readonly limiter: RequestLimiter;
  private readonly fetch: typeof fetch;
  private readonly secrets: string[];

  constructor(private readonly o: HttpClientOptions = {}) {
    this.fetch = createFetch({ ...o, stream: false });
    this.limiter = new RequestLimiter(o.concurrency ?? 4, o.requestsPerMinute ?? 0);
    this.secrets = Object.values(o.headers ?? {}).flatMap((v) => [v, v.replace(/^(Bearer|Basic)\s+/i, '')]);
  }

  /** POSTs `body` as JSON to `url` and parses the JSON reply. Errors as {@link request}. */
  postJson<T>(url: string, body: unknown, opts: { signal?: AbortSignal; headers?: Record<string, string> } = {}): Promise<JsonReply<T>> {
    return this.request<T>(url, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...opts.headers }, signal: opts.signal });
  }

  /** GETs `url` and parses the JSON reply. Errors as {@link request}. */
  getJson<T>(url: string, opts: { signal?: AbortSignal; headers?: Record<string, string> } = {}): Promise<JsonReply<T>> {
    return this.request<T>(url, { method: 'GET', headers: opts.headers, signal: opts.signal });
  }

  /**
   * One JSON exchange with retries. Throws NetError (`http` with the status for a non-2xx reply after
   * the retries — its message carries the first 200 characters of the reply body, secrets redacted;
   * `deadline`, `too-large`, `redirect`, `bad-url`, `bad-json`), SpanproofError('cancelled') when
   * `signal` aborted, or the underlying connection error after the retries.
   */
  async request<T>(url: string, init: { method: string; body?: string; headers?: Record<string, string>; signal?: AbortSignal }): Promise<JsonReply<T>> {
    const release = await this.limiter.acquire(init.signal);
    try {
      for (let attempt = 0; ; attempt++) {
        if (init.signal?.aborted) throw cancelled();
        const t0 = performance.now();
        let failure: unknown;
        let serverWait: number | null = null;
        try {
          const res = await this.fetch(url, { method: init.method, body: init.body, headers: { accept: 'application/json', ...this.o.headers, ...init.headers }, signal: init.signal });
          const text = await res.text();
          this.o.onAttempt?.({ url: redactUrl(url), status: res.status, ms: performance.now() - t0, retry: attempt > 0 });
          if (res.ok) return { status: res.status, headers: res.headers, json: parseJson<T>(text, url) };
          serverWait = retryAfterMs(res.headers);
          failure = new NetError('http', `HTTP ${res.status} from ${redactUrl(new URL(url).origin)}: ${redactText(text.slice(0, 200), this.secrets)}`, res.status, serverWait);
          if (!isRetryableStatus(res.status)) throw failure;
        } catch (e) {
          if (init.signal?.aborted) throw cancelled();
          if (e === failure) throw e;
          const ne = findNetError(e);
          if (ne && (ne.kind === 'redirect' || ne.kind === 'bad-url' || ne.kind === 'bad-json')) throw ne;
          this.o.onAttempt?.({ url: redactUrl(url), status: null, ms: performance.now() - t0, retry: attempt > 0, error: (e as Error).message });
          failure = e;
        }
        const next = nextRetry(attempt, serverWait, { retries: this.o.retries ?? 3, maxRetryAfterMs: this.o.maxRetryAfterMs ?? 120000 });
        if ('giveUp' in next) {
          if (next.giveUp === 'too-long' && failure instanceof NetError) throw new NetError(failure.kind, `${failure.message} (the server asked to wait ${Math.round(next.askedMs! / 1000)} s, more than allowed)`, failure.status, serverWait);
          throw failure;
        }
        await (this.o.sleep ?? realSleep)(next.wait, init.signal);
      }
    } finally {
      release();
    }
  }
}

function parseJson<T>(text: string, url: string): T {
  try {
    return JSON.parse(text) as T;
  } catch (e) {
    throw new NetError('bad-json', `the reply from ${redactUrl(new URL(url).origin)} is not valid JSON (${(e as Error).message}).`);
  }
}

/** A NetError or connection failure as a SpanproofError('bad-input') naming `field` (CLI exit 2). */
export function netFailureAsInput(e: unknown, field: string, fix: string): SpanproofError {
  const msg = e instanceof Error ? e.message : String(e);
  return new SpanproofError('bad-input', redactText(msg), { field, fix, cause: e });
}
