/**
 * The HTTP rules every Spanproof network feature goes through (judges, endpoint embedders and
 * rerankers, model downloads, question drafting, safety judges, external retrievers, MLflow export).
 * {@link createFetch} returns a `fetch`-compatible function — pass it to the `openai` package
 * (`new OpenAI({ fetch })`, see ./openai) or call it directly — that enforces:
 *
 * - a **deadline over the whole response**: headers *and* body must arrive within `timeoutMs`
 *   (a body trickling one byte a second is cut at the deadline, not when it ends); optionally an
 *   **idle timeout** (`idleTimeoutMs`: no data for that long) for large downloads;
 * - a **size cap** on the body (`maxResponseBytes`, default 1 MB for API replies): a larger
 *   Content-Length fails before reading, an endless body is aborted once the cap is passed;
 * - **redirects**: followed only within the same origin (`redirects: 'same-origin'`, the default for
 *   API calls), so a key header (`Authorization`, Azure `api-key`) and the request body (prompts with
 *   document passages) never reach another origin; `'strip-credentials'` (downloads from a CDN)
 *   follows another origin with every credential header removed, never from https to http;
 *   `'none'` refuses every redirect;
 * - **no credentials in URLs** (`https://user:pass@host`): refused with the URL redacted, so the
 *   password never appears in an error, a ledger or a report;
 * - an explicit **User-Agent** `spanproof/<version>` (unless the caller sets one).
 *
 * Errors are {@link NetError}s (kind `deadline`, `too-large`, `redirect`, `bad-url`); the caller's own
 * abort signal rejects with its reason, untouched. Connection errors from the underlying fetch pass
 * through unchanged (callers classify them).
 */
import { VERSION } from '../version';
import { NetError } from './errors';
import { redactUrl } from './redact';

/** Default body cap of API replies, bytes (1 MB). */
export const DEFAULT_MAX_RESPONSE_BYTES = 1_000_000;
/** Default whole-response deadline, ms. */
export const DEFAULT_TIMEOUT_MS = 60_000;
/** The User-Agent every request carries unless the caller sets one. */
export const USER_AGENT = `spanproof/${VERSION}`;

/** Headers that carry credentials: removed before a request follows a redirect to another origin. */
const CREDENTIAL_HEADERS = ['authorization', 'proxy-authorization', 'api-key', 'x-api-key', 'cookie', 'ocp-apim-subscription-key', 'x-goog-api-key'];

export interface NetPolicy {
  /** Deadline for the whole response (headers and body), ms; default 60 000; 0 = none (then set `idleTimeoutMs`). */
  timeoutMs?: number;
  /** Longest wait for the next data (the headers, then each body chunk), ms; default none. For large downloads on slow lines. */
  idleTimeoutMs?: number;
  /** Largest body accepted, bytes; default 1 MB ({@link DEFAULT_MAX_RESPONSE_BYTES}). */
  maxResponseBytes?: number;
  /** Redirect rule (see the module comment); default `same-origin`. */
  redirects?: 'same-origin' | 'strip-credentials' | 'none';
  /** Redirects followed at most; default 5. */
  maxRedirects?: number;
  /** User-Agent when the request sets none; default `spanproof/<version>`. */
  userAgent?: string;
  /**
   * false (default): the body is read under the rules before the Response is returned (API replies).
   * true: the Response is returned at the headers and its body stream enforces the cap and the
   * deadline while it is read (large downloads; the deadline timer stops when the body ends).
   */
  stream?: boolean;
  /** The underlying fetch (default the global one). */
  fetch?: typeof fetch;
}

/** `n` bytes for messages: `999 B`, `2 kB`, `1 MB`, `1.5 GB` (SI units). */
export function formatBytes(n: number): string {
  if (n < 1000) return `${n} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let v = n;
  let u = -1;
  while (v >= 1000 && u < units.length - 1) {
    v /= 1000;
    u++;
  }
  return `${Number(v.toFixed(1))} ${units[u]}`;
}

const REDIRECT = new Set([301, 302, 303, 307, 308]);
const NULL_BODY = new Set([101, 204, 205, 304]);

function inputUrl(input: string | URL | Request): string {
  return typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
}

/** The next request after a redirect reply, or a NetError when the rules refuse it. */
function followRedirect(from: URL, location: string, req: { method: string; body: RequestInit['body']; headers: Headers }, p: NetPolicy): URL {
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    throw new NetError('redirect', `${from.origin} redirected to an invalid location; not followed.`);
  }
  const shown = redactUrl(next.origin);
  if (p.redirects === 'none') throw new NetError('redirect', `${from.origin} answered with a redirect to ${shown}; redirects are not followed for this request.`);
  if (next.origin !== from.origin) {
    if (p.redirects !== 'strip-credentials') {
      throw new NetError('redirect', `${from.origin} redirected to another origin (${shown}); not followed, so neither the key nor the request body left ${from.origin}.`);
    }
    if (from.protocol === 'https:' && next.protocol !== 'https:') throw new NetError('redirect', `${from.origin} redirected from https to http (${shown}); not followed.`);
    for (const h of CREDENTIAL_HEADERS) req.headers.delete(h);
  }
  if (next.username || next.password) throw new NetError('redirect', `${from.origin} redirected to a URL with credentials (${redactUrl(next.href)}); not followed.`);
  return next;
}

/** Reads `res`'s body whole under the cap; returns a new Response holding it. */
async function bufferBody(res: Response, cap: number, origin: string, onData: () => void): Promise<Response> {
  const headers = new Headers(res.headers);
  headers.delete('content-encoding'); // the body below is already decoded
  headers.delete('content-length');
  if (NULL_BODY.has(res.status) || !res.body) return new Response(null, { status: res.status, statusText: res.statusText, headers });
  const reader = res.body.getReader();
  const parts: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    onData();
    total += value.byteLength;
    if (total > cap) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(origin, cap);
    }
    parts.push(value);
  }
  const body = new Uint8Array(total);
  let at = 0;
  for (const b of parts) {
    body.set(b, at);
    at += b.byteLength;
  }
  return new Response(body, { status: res.status, statusText: res.statusText, headers });
}

/** `res` with a body stream that errors past the cap; `done` runs when the body ends or fails. */
function limitStream(res: Response, cap: number, origin: string, onData: () => void, done: () => void): Response {
  if (!res.body || NULL_BODY.has(res.status)) {
    done();
    return res;
  }
  const reader = res.body.getReader();
  let total = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(ctrl) {
      try {
        const { done: end, value } = await reader.read();
        if (end) {
          done();
          ctrl.close();
          return;
        }
        onData();
        total += value.byteLength;
        if (total > cap) {
          await reader.cancel().catch(() => undefined);
          throw tooLarge(origin, cap);
        }
        ctrl.enqueue(value);
      } catch (e) {
        done();
        ctrl.error(e);
      }
    },
    cancel(reason) {
      done();
      return reader.cancel(reason);
    },
  });
  const headers = new Headers(res.headers);
  headers.delete('content-encoding');
  return new Response(body, { status: res.status, statusText: res.statusText, headers });
}

function tooLarge(origin: string, cap: number): NetError {
  return new NetError('too-large', `the reply from ${origin} is larger than ${formatBytes(cap)}; not read further.`);
}

/**
 * A fetch that applies the network rules of `p` to every request (see the module comment). The
 * returned function has the global fetch's signature. Throws NetError for a missed deadline, a body
 * over the cap, a refused redirect or a URL with credentials; the caller's abort rejects with its reason.
 */
export function createFetch(p: NetPolicy = {}): typeof fetch {
  const base = p.fetch ?? globalThis.fetch;
  const timeoutMs = p.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const cap = p.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const maxRedirects = p.maxRedirects ?? 5;
  const policyFetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    let url: URL;
    try {
      url = new URL(inputUrl(input));
    } catch {
      throw new NetError('bad-url', `"${redactUrl(inputUrl(input))}" is not a URL.`);
    }
    if (!/^https?:$/.test(url.protocol)) throw new NetError('bad-url', `${url.protocol} URLs are not supported (${redactUrl(url.href)}): use an http or https URL`);
    if (url.username || url.password) throw new NetError('bad-url', `the URL ${redactUrl(url.href)} carries a user name or password; credentials are not sent in URLs.`);
    const origin = url.origin;
    const deadline = new AbortController();
    const timer = timeoutMs > 0 ? setTimeout(() => deadline.abort(new NetError('deadline', `no complete reply from ${origin} within ${timeoutMs} ms.`)), timeoutMs) : undefined;
    let idleTimer: ReturnType<typeof setTimeout> | undefined;
    const onData = (): void => {
      if (!p.idleTimeoutMs) return;
      clearTimeout(idleTimer);
      idleTimer = setTimeout(() => deadline.abort(new NetError('deadline', `no data from ${origin} for ${p.idleTimeoutMs} ms.`)), p.idleTimeoutMs);
    };
    const stopTimers = (): void => {
      clearTimeout(timer);
      clearTimeout(idleTimer);
    };
    onData();
    const signal = init.signal ? AbortSignal.any([init.signal, deadline.signal]) : deadline.signal;
    const headers = new Headers(init.headers ?? (input instanceof Request ? input.headers : undefined));
    if (!headers.has('user-agent')) headers.set('user-agent', p.userAgent ?? USER_AGENT);
    const req = { method: (init.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase(), body: init.body, headers };
    let streaming = false;
    try {
      for (let hop = 0; ; hop++) {
        const res = await base(url, { ...init, method: req.method, body: req.body, headers: req.headers, signal, redirect: 'manual' });
        onData(); // the headers arrived
        const location = res.headers.get('location');
        if (REDIRECT.has(res.status) && location !== null) {
          await res.body?.cancel().catch(() => undefined);
          if (hop >= maxRedirects) throw new NetError('redirect', `${origin} redirected more than ${maxRedirects} times; not followed.`);
          url = followRedirect(url, location, req, p);
          if (res.status === 303 || ((res.status === 301 || res.status === 302) && req.method === 'POST')) {
            req.method = 'GET';
            req.body = undefined;
            req.headers.delete('content-type');
          } else if (req.body instanceof ReadableStream) {
            throw new NetError('redirect', `${origin} redirected a streamed request body; not followed.`);
          }
          continue;
        }
        const declared = Number(res.headers.get('content-length'));
        if (Number.isFinite(declared) && declared > cap) {
          await res.body?.cancel().catch(() => undefined);
          throw tooLarge(origin, cap);
        }
        if (p.stream) {
          streaming = true;
          return limitStream(res, cap, origin, onData, stopTimers);
        }
        return await bufferBody(res, cap, origin, onData);
      }
    } catch (e) {
      streaming = false;
      if (init.signal?.aborted) throw init.signal.reason ?? e;
      if (deadline.signal.aborted) throw deadline.signal.reason;
      throw e;
    } finally {
      if (!streaming) stopTimers();
    }
  };
  return policyFetch as typeof fetch;
}
