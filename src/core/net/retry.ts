/**
 * The retry rules shared by every network feature: which failures are retried (HTTP 408, 409, 429,
 * 5xx, a missed deadline, a too-large reply, a connection error), how long to wait (what the server
 * asks — `retry-after-ms`, then `Retry-After` in seconds or as an HTTP date — else an exponential
 * backoff 500 ms · 2^attempt capped at 20 s), and when to give up (retries spent, or the server asks
 * for more than `maxRetryAfterMs`).
 */

/** Delay a response asks for: `retry-after-ms`, else `Retry-After` (seconds or HTTP date), ms; null when absent. */
export function retryAfterMs(headers: Headers | undefined | null, now = Date.now()): number | null {
  const ms = headers?.get('retry-after-ms');
  if (ms && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const ra = headers?.get('retry-after');
  if (!ra) return null;
  if (/^\s*\d+(\.\d+)?\s*$/.test(ra)) return Math.max(0, Number(ra) * 1000);
  const t = Date.parse(ra);
  return Number.isFinite(t) ? Math.max(0, t - now) : null;
}

/** True for the HTTP statuses worth asking again: 408, 409, 429 and 5xx. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** Exponential backoff before retry number `attempt + 1`: 500 ms · 2^attempt, capped at 20 000 ms. */
export function backoffMs(attempt: number): number {
  return Math.min(20000, 500 * 2 ** attempt);
}

export interface RetryPolicy {
  /** Retries after the first attempt. */
  retries: number;
  /** Longest server-requested wait honoured, ms; a longer one gives up. */
  maxRetryAfterMs: number;
}

/**
 * What to do after failed attempt number `attempt` (0-based): `{ wait }` ms before the next one, or
 * `{ giveUp }` with the reason (`retries` when spent, `too-long` when the server asks for more than
 * the policy allows). `serverWaitMs` is the reply's Retry-After (null when none).
 */
export function nextRetry(attempt: number, serverWaitMs: number | null, p: RetryPolicy): { wait: number } | { giveUp: 'retries' | 'too-long'; askedMs?: number } {
  if (attempt >= p.retries) return { giveUp: 'retries' };
  if (serverWaitMs !== null && serverWaitMs > p.maxRetryAfterMs) return { giveUp: 'too-long', askedMs: serverWaitMs };
  return { wait: serverWaitMs ?? backoffMs(attempt) };
}
