/**
 * One HTTP request to a model endpoint (embeddings or rerank) with the rules of SPEC §14: at most
 * `concurrency` requests in flight (RequestLimiter), every attempt counted in the ledger, retries of
 * 408/409/429/5xx, timeouts and connection errors waiting what the server asks (`retry-after-ms`,
 * `Retry-After` seconds or HTTP date) or else 500 ms · 2^attempt (capped at 20 s), a Retry-After above
 * `maxRetryAfterMs` failing at once. 401/403/404/other 4xx, an unreadable reply and an endpoint never
 * reached are final: they become a SpanproofError('model') naming the endpoint, the route and the fix.
 *
 * Kept in this one module so that it moves to the shared network rules (src/core/net) in one step.
 */
import { isOpenAIError } from '../../net/sdk';
import { SpanproofError } from '../../errors';
import type { Ledger } from '../../judge/ledger';
import { RequestLimiter, findNetError, retryAfterMs, sleep as realSleep } from '../../net';

/** Limits and retry policy of one endpoint (settings; see docs/models.md "Endpoint models"). */
export interface EndpointPolicy {
  /** Requests in flight at most (default 4). */
  concurrency: number;
  /** Per-request timeout, ms (default 60 000). */
  timeoutMs: number;
  /** Retries after the first attempt (default 3). */
  retries: number;
  /** Longest Retry-After honoured, ms (default 120 000). */
  maxRetryAfterMs: number;
  /** Waits before retries (tests pass a recorder). */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export const DEFAULT_POLICY: EndpointPolicy = { concurrency: 4, timeoutMs: 60000, retries: 3, maxRetryAfterMs: 120000, sleep: realSleep };

/** A reply that is not what the API shape promises (wrong count, missing field, non-finite number). */
export class MalformedReply extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MalformedReply';
  }
}

/** What a request needs besides its own body: where it goes and what it is counted under. */
export interface RequestContext {
  /** The endpoint as shown to the user (credentials removed). */
  endpoint: string;
  /** `POST {base}/embeddings` or `POST {base}/rerank`, for messages. */
  route: string;
  model: string;
  ledger: Ledger;
  limiter: RequestLimiter;
  policy: EndpointPolicy;
  /** The setting or flag to name in a configuration error (`--endpoint`). */
  field: string;
  /** Shared by every request of one endpoint: set once any request got an HTTP reply. */
  state: { reached: boolean };
  signal?: AbortSignal;
}

type Attempt<T> = (signal: AbortSignal | undefined) => Promise<{ value: T; promptTokens: number }>;

/** A failed attempt: retried when `retry`, else thrown as `error`. */
interface Failure {
  retry: boolean;
  /** A connection that failed before any HTTP reply (refused, DNS, TLS): with no reply ever, the endpoint cannot be reached. */
  connection?: boolean;
  waitMs: number | null;
  message: string;
  error?: SpanproofError;
}

const cancelledError = () => new SpanproofError('cancelled', 'cancelled while waiting for the model endpoint.');

function modelError(ctx: RequestContext, message: string, fix: string, cause?: unknown): SpanproofError {
  return new SpanproofError('model', `${ctx.route} at ${ctx.endpoint} (model "${ctx.model}"): ${message}`, { field: ctx.field, fix, cause });
}

function classify(e: unknown, ctx: RequestContext): Failure {
  // core/net: the deadline covers the whole response; a too-large reply or a refused redirect is final.
  const net = findNetError(e);
  if (isOpenAIError(e, 'APIConnectionTimeoutError') || net?.kind === 'deadline') return { retry: true, waitMs: null, message: `no reply within ${ctx.policy.timeoutMs} ms` };
  if (net) return { retry: false, waitMs: null, message: '', error: modelError(ctx, net.message, 'check that --endpoint is the API\'s own base URL.', e) };
  if (isOpenAIError(e, 'APIError') && e.status !== undefined) {
    ctx.state.reached = true;
    const s = e.status;
    const text = String(e.message).slice(0, 300);
    if (s === 401 || s === 403) return { retry: false, waitMs: null, message: '', error: modelError(ctx, `the endpoint refused the request (HTTP ${s}).`, 'check the API key: SPANPROOF_API_KEY for the CLI, or the key stored for this endpoint in VS Code.', e) };
    if (s === 404) return { retry: false, waitMs: null, message: '', error: modelError(ctx, `HTTP 404 — no such route or model (${text}).`, `check the model name and the base URL: the endpoint must answer ${ctx.route.replace(/^POST /, 'POST ')} (for OpenAI-compatible servers the base URL usually ends in /v1).`, e) };
    if (s === 408 || s === 409 || s === 429 || s >= 500) return { retry: true, waitMs: retryAfterMs(e.headers as Headers | undefined), message: `HTTP ${s}: ${text}` };
    return { retry: false, waitMs: null, message: '', error: modelError(ctx, `HTTP ${s}: ${text}`, 'the server rejected the request as sent; check the model name and that the endpoint speaks this API shape (docs/models.md, "Endpoint models").', e) };
  }
  if (e instanceof MalformedReply || e instanceof SyntaxError) {
    ctx.state.reached = true;
    return { retry: false, waitMs: null, message: '', error: modelError(ctx, `the reply is not understood: ${e.message}`, `check that the endpoint speaks the API shape of ${ctx.route} (docs/models.md, "Endpoint models") and that --endpoint is its base URL.`, e) };
  }
  type Cause = { code?: string; message?: string; cause?: Cause };
  const cause = (e as { cause?: Cause }).cause;
  const why = cause?.cause?.code ?? cause?.code ?? cause?.cause?.message ?? cause?.message ?? (e as Error).message;
  return { retry: true, connection: true, waitMs: null, message: `connection failed: ${why}` };
}

/**
 * Runs `attempt` under the limiter with the retry policy; returns its value. The ledger counts every
 * attempt (`requests`, `retries`, `failures`, latency ms, prompt tokens, waited ms) under `ctx.model`.
 * @throws SpanproofError('cancelled') when `ctx.signal` aborts; SpanproofError('model') naming the
 *   endpoint, the route and the fix on a final failure (see the module comment).
 */
export async function requestWithRetries<T>(ctx: RequestContext, attempt: Attempt<T>): Promise<T> {
  const { policy, ledger, model, signal } = ctx;
  const release = await ctx.limiter.acquire(signal).catch(() => {
    throw cancelledError();
  });
  try {
    for (let n = 0; ; n++) {
      if (signal?.aborted) throw cancelledError();
      ledger.requestSent(model, n > 0);
      const t0 = performance.now();
      let f: Failure;
      try {
        const r = await attempt(signal);
        ctx.state.reached = true;
        ledger.requestDone(model, performance.now() - t0, r.promptTokens, 0);
        return r.value;
      } catch (e) {
        ledger.requestFailed(model, performance.now() - t0);
        if (isOpenAIError(e, 'APIUserAbortError') || signal?.aborted) throw cancelledError();
        f = classify(e, ctx);
      }
      if (f.error) throw f.error;
      if (n >= policy.retries) {
        if (f.connection && !ctx.state.reached) throw modelError(ctx, `cannot reach the endpoint (${f.message} after ${n + 1} attempt(s)).`, 'check that the server is running and that --endpoint is its base URL, e.g. http://localhost:11434/v1 for Ollama.');
        throw modelError(ctx, `no reply after ${n + 1} attempt(s) (${f.message}).`, 'try again later; for a slow or busy server lower the endpoint concurrency or raise its timeout (docs/models.md, "Endpoint models").');
      }
      if (f.waitMs !== null && f.waitMs > policy.maxRetryAfterMs) {
        throw modelError(ctx, `${f.message}; the server asked to wait ${Math.round(f.waitMs / 1000)} s (more than ${policy.maxRetryAfterMs / 1000} s).`, 'try again later.');
      }
      const delay = f.waitMs ?? Math.min(20000, 500 * 2 ** n);
      ledger.waited(model, delay);
      await policy.sleep(delay, signal).catch(() => {
        throw cancelledError();
      });
    }
  } finally {
    release();
  }
}
