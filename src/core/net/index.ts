/**
 * The HTTP rules of every Spanproof network feature, in one place (#16 items 3, 5, 11). Use these,
 * never the global `fetch` or a bare `new OpenAI(...)`:
 *
 * - {@link createFetch}(policy) → a fetch with a deadline over the whole response (`timeoutMs`), a
 *   body cap (`maxResponseBytes`, default 1 MB), redirects only within the origin (or, for downloads,
 *   `redirects: 'strip-credentials'`), no credentials in URLs, User-Agent `spanproof/<version>`;
 *   `stream: true` for large downloads (cap and deadline enforced while the body is read).
 * - {@link openAIClient}({endpoint, apiKey, policy}) → an `openai` client using that fetch, SDK retries
 *   off, no platform headers, Azure endpoints handled, `user:pass@` sent as Basic auth.
 * - {@link HttpClient} → plain JSON GET/POST with the rules, retries (Retry-After honoured) and limits.
 * - {@link RequestLimiter} (concurrency + requests per minute), {@link sleep}, {@link cancelled}.
 * - {@link retryAfterMs}, {@link isRetryableStatus}, {@link backoffMs}, {@link nextRetry}: the retry rules.
 * - {@link redactUrl}, {@link redactText}, {@link originOf}: what may be written to ledgers, reports, errors.
 * - {@link NetError} (kind `deadline` | `too-large` | `redirect` | `bad-url` | `http` | `bad-json`),
 *   {@link findNetError} to find it inside the `openai` package's wrappers.
 */
export { createFetch, formatBytes, DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUT_MS, USER_AGENT, type NetPolicy } from './fetch';
export { openAIClient, type OpenAIClientOptions } from './openai';
export { HttpClient, netFailureAsInput, type HttpClientOptions, type JsonReply } from './json';
export { RequestLimiter, sleep, cancelled } from './limiter';
export { retryAfterMs, isRetryableStatus, backoffMs, nextRetry, type RetryPolicy } from './retry';
export { redactUrl, redactText, originOf } from './redact';
export { NetError, findNetError, type NetErrorKind } from './errors';
export { assertHttpUrl, isHttpUrl } from './url';
